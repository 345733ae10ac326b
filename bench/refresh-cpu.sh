#!/bin/sh
# refresh-cpu.sh: CPU time of reading + metrics per refresh, measured
# (bench/httop-refresh-cpu: the msr engine replays a tape of its own reads
# from the simulator, so the timed loop makes no system call; thread CPU
# time; best of passes until 0.5 s is timed).
#
#   bench/refresh-cpu.sh BUILD MACHINE
#
# Last line (the program's): cpus=N refreshes=R passes=P reads_per_refresh=N us_per_refresh=X
#   us_per_cpu_best=X us_per_cpu_median=X us_per_cpu_cold=X (caches flushed before each
#   refresh)
set -u
BUILD=$(cd "$1" && pwd) NAME=$2
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d) || exit 1
. "$here/lib.sh"
trap 'rm -rf "$work"' EXIT
trap 'exit 1' INT TERM HUP

x=$(machine_xml "$NAME") || exit 1
case $NAME in knl272) id=- ;; *) id=$SKX_CPUID ;; esac
case $NAME in syn1024) r=100 ;; syn2) r=1000 ;; *) r=200 ;; esac
"$BUILD/bench/httop-refresh-cpu" "$x" "$id" "$r"
