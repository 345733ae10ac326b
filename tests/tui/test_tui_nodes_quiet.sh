#!/bin/sh
# test_tui_nodes_quiet.sh: the live view over nodes that went quiet (each
# gave one interval, then every retry fails: tests/nodes/fake-node.py
# once) sleeps until its next frame or retry: it runs, and wants a CPU,
# a small part of the time (it used to poll without waiting once the
# next job interval was past every node's last).
# 4-5: beside a node that never gives a line (one whose httop has not
# started, or hangs: fake-node.py mute), the screen is drawn every -d,
# not every 0.1 s as while nodes come up: the view woke 10 times a second
# for as long as the node was missing (at 4,096 nodes in one srun stream,
# 4.6 % of a CPU where 2.9 % with every node up; BENCHMARKS.md). Counted
# as the waits (poll) of the viewer over 4 s, which a loaded machine can
# only make fewer.
. "$HTTOP_SRCDIR/tests/lib.sh"
. "$HTTOP_SRCDIR/tests/tui/tuilib.sh"
need python3 python3
plan 5
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
if ! command -v strace >/dev/null 2>&1; then
	skip "strace is not installed: the waits beside a node that never gives a line"
	skip "strace is not installed"
	exit 0
fi
via="python3 $HTTOP_SRCDIR/tests/nodes/fake-node.py byhost %h"
tui_start 120 30 HTTOP_HOSTLIST=builtin "FAKE_LINE=$tmp/line.jsonl" "FAKE_DIR=$tmp" -- \
    --nodes 'steady1,mute1' --via "$via" -d 1
expect "one node up, one that never gives a line" '2 nodes: 1 up' 15
# -d 1 and one node's line a second: a draw and a line a second, a wait
# each (8 in 4 s here); following at 0.1 s, 40 and more. The waits are
# the polls of several descriptors (curses' own look at the terminal
# while it draws is a poll of one, at once).
timeout 4 strace -qq -e trace=poll -o "$tmp/polls" -p "$tui_pid" >/dev/null 2>&1
polls=$(grep -c '^poll(\[{fd=[0-9]*, events=[A-Z]*}, {fd=' "$tmp/polls" 2>/dev/null)
check "beside a node that never gives a line, the view waits at most 20 times in 4 s: ${polls:-none}" \
    [ "${polls:-999}" -le 20 ]
tui_stop
exit 0
