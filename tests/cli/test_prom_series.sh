#!/bin/sh
# test_prom_series.sh: the number of series --textfile-level and --level
# give, on a fixture of the size httop(1) speaks of: the 2-socket Sapphire
# Rapids (2 x 40 cores, 160 threads), every thread busy so that every
# figure is there, the split exact (OTA). Worked from the families of
# src/out/openmetrics.c, per level (each has the ones above it too):
#   node     1 info + 2 interval + 12 gauges (cores, valid_cores, exact,
#            4 shares, utilization, both_of_busy, active_threads,
#            frequency, cpi) + 7 counters (4 states, uncovered,
#            thread_busy, thread_uncovered) + 5 raw counts
#            (instructions, cycles, reference_cycles, tsc_cycles,
#            one_thread_active_cycles)                             = 27
#   package  the node's 24 per package                             + 24 P
#   core     12 gauges (valid, exact, 4 shares, utilization,
#            active_threads, issue_utilization, cpi, frequency,
#            inconsistency) + 5 counters (4 states, uncovered)
#            + 5 raw counts                                        + 22 C
#   thread   G gauges (valid, and one per figure of the table a busy
#            thread has: utilization, cpi, nominal_cpi, frequency,
#            net_frequency, ipc, ... : G = 7 when this was written)
#            + 2 counters + 5 raw counts (OTA counts on each thread)
#                                                                  + (G + 7) T
# P = 2, C = 80, T = 160: 27, 75, 1835, 1835 + (G + 7) T (4075 with G 7).
# G is read from the same run's JSON (a thread's figures with a value:
# each an exact gauge), so that a figure added to the table changes no
# number here. For httop(1)'s 2 x 56-core node (C = 112, T = 224): 27, 75,
# 2539, 2539 + 224 (G + 7) (5675), as the manual says. The textfile's
# default level is package (no series per core).
. "$HTTOP_SRCDIR/tests/lib.sh"
command -v python3 >/dev/null 2>&1 || { echo "1..0 # SKIP python3 is not installed"; exit 77; }
CHECK="$HTTOP_SRCDIR/tests/cli/om_check.py"
F=$HTTOP_FIXTURES
xml=$F/hwloc/spr-max9460-2s-40c-ht.x86.xml
cpuid=$F/cpuid/spr-w9-3475x-1s-36c-ht.cpuid.txt
[ -r "$xml" ] && [ -r "$cpuid" ] || { echo "1..0 # SKIP no SPR fixture in $F"; exit 77; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
export HTTOP_CLOCK=virtual
plan 12

printf 'httop-scenario 1\ndefault busy\n' >busy.scn
run() {
	"$HTTOP" --sim busy.scn --topology "$xml" --cpuid "$cpuid" -b -n 2 "$@" 2>>err
}
series() { python3 "$CHECK" "$@" | awk '/^exposition/ { n = $5 } END { print n }'; }

# G: valid and the figures thread 0 has a value for in the last interval.
G=$(run --format json | tail -n 1 | python3 -c '
import json, sys
t = json.loads(sys.stdin.read())["threads"][0]
print(1 + sum(1 for k, v in t.items() if k + "_lo" in t and v is not None))')
case $G in ''|*[!0-9]*) G=0 ;; esac
thread=$((1835 + (G + 7) * 160))
diag "thread gauges G = $G: $thread series at level thread"
for lv in node:27 package:75 core:1835 thread:$thread; do
	l=${lv%%:*} want=${lv#*:}
	mkdir "tf.$l"
	run --format summary --textfile "$PWD/tf.$l" --textfile-level "$l" >/dev/null
	n=$(series prometheus "tf.$l/httop.prom")
	check "--textfile-level $l: $want series ($n)" [ "$n" = "$want" ]
	run --format openmetrics --level "$l" >"om.$l"
	n=$(series openmetrics "om.$l")
	check "--level $l: the same $want in OpenMetrics ($n)" [ "$n" = "$want" ]
done
mkdir tf.def
run --format summary --textfile "$PWD/tf.def" >/dev/null
n=$(series prometheus tf.def/httop.prom)
check "without --textfile-level: package, no series per core ($n)" [ "$n" = 75 ]
check "the split is exact here (no bound series to count)" sh -c '! grep -q bound= "$1"' sh om.thread
check "without --level: thread in OpenMetrics, every series" [ \
    "$(run --format openmetrics | python3 "$CHECK" openmetrics /dev/stdin | awk '/^exposition/ { n = $5 } END { print n }')" = "$thread" ]
# httop(1) gives the formula's numbers for 2 x 56 cores.
sed -n '/^\.SS The number of series/,/^\.S[SH] [^T]/p' "$HTTOP_SRCDIR/man/httop.1" >man.txt
big=$((2539 + (G + 7) * 224))
check "httop(1) gives 27, 75, 2539 and $big series for 2 x 56 cores" sh -c \
    'for n in 27 75 2539 "$2"; do grep -qw "$n" "$1" || exit 1; done' sh man.txt "$big"
exit 0
