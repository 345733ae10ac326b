#!/bin/sh
# test_tui_nodes_quiet.sh: the live view over nodes that went quiet (each
# gave one interval, then every retry fails: tests/nodes/fake-node.py
# once) sleeps until its next frame or retry: it runs, and wants a CPU,
# a small part of the time (it used to poll without waiting once the
# next job interval was past every node's last).
. "$HTTOP_SRCDIR/tests/lib.sh"
. "$HTTOP_SRCDIR/tests/tui/tuilib.sh"
need python3 python3
plan 3
tmp=$(mktemp -d) || exit 1
trap 'tui_kill; rm -rf "$tui_dir" "$tmp"' EXIT
data=$HTTOP_SRCDIR/data
"$HTTOP" --sim demo --topology "$data/demo-skx.xml" --cpuid "$data/demo-skx.cpuid" \
    -b --format json -n 2 >"$tmp/line.jsonl" 2>/dev/null
via="env FAKE_RUN=$tmp python3 $HTTOP_SRCDIR/tests/nodes/fake-node.py once %h"
tui_start 120 30 HTTOP_HOSTLIST=builtin "FAKE_LINE=$tmp/line.jsonl" "FAKE_DIR=$tmp" -- \
    --nodes 'once[1-2]' --via "$via" -d 0.5
expect "both nodes gave a line, then were lost" '2 nodes: .*2 lost' 15
# Over 3 s, the time it ran and the time it ran or waited to run
# (/proc/PID/schedstat). A wait that does not wait runs a whole CPU on an
# idle machine, and on a loaded one runs its share and waits for most of
# the rest (it wanted a CPU 73% of the time at 10 runnable processes on
# 2 CPUs, running 21%). Drawing two rows
# every 0.5 s and a retry now and then run well under 1%, and want a CPU
# a few % at most on a loaded run queue: under 10% and 35% tells them
# apart at any load (test_nodes_hostile.sh measured both).
a=$(cat "/proc/$tui_pid/schedstat") w0=$(date +%s.%N)
sleep 3
b=$(cat "/proc/$tui_pid/schedstat") w1=$(date +%s.%N)
busy=$(echo "$a $b $w0 $w1" | awk '{ w = ($8 - $7) * 1e7
	printf "%.1f %.1f", ($4 - $1) / w, ($4 - $1 + $5 - $2) / w }')
check "the live view over two quiet nodes: ran under 10%, wanted a CPU under 35% of the time ($busy %)" \
    sh -c "echo '$busy' | awk '{ exit !(\$1 < 10 && \$2 < 35) }'"
keys q
tui_wait_exit 10
check "q: status 0 ($tui_status)" [ "$tui_status" = 0 ]
tui_stop
exit 0
