#!/bin/sh
# test_tui_nodes_quiet.sh: the live view over nodes that went quiet (each
# gave one interval, then every retry fails: tests/nodes/fake-node.py
# once) sleeps until its next frame or retry: its CPU stays far under a
# whole CPU (it used to poll without waiting once the next job interval
# was past every node's last).
. "$HTTOP_SRCDIR/tests/lib.sh"
. "$HTTOP_SRCDIR/tests/tui/tuilib.sh"
need python3 python3
plan 3
tmp=$(mktemp -d) || exit 1
trap 'tmux -L "$tui_sock" kill-server >/dev/null 2>&1; rm -rf "$tui_dir" "$tmp"' EXIT
data=$HTTOP_SRCDIR/data
"$HTTOP" --sim demo --topology "$data/demo-skx.xml" --cpuid "$data/demo-skx.cpuid" \
    -b --format json -n 2 >"$tmp/line.jsonl" 2>/dev/null
via="env FAKE_RUN=$tmp python3 $HTTOP_SRCDIR/tests/nodes/fake-node.py once %h"
tui_start 120 30 HTTOP_HOSTLIST=builtin "FAKE_LINE=$tmp/line.jsonl" "FAKE_DIR=$tmp" -- \
    --nodes 'once[1-2]' --via "$via" -d 0.5
expect "both nodes gave a line, then were lost" '2 nodes: .*2 lost' 15
# Its own CPU time (user + system, not its children's) over 3 s. A wait
# that does not wait takes a whole CPU, or on a loaded 2-CPU machine its
# share (25% at 8 runnable processes); drawing two rows every 0.5 s and a
# retry now and then take well under 1%: 10% tells them apart on either.
hz=$(getconf CLK_TCK)
a=$(awk '{ print $14 + $15 }' "/proc/$tui_pid/stat") w0=$(date +%s.%N)
sleep 3
b=$(awk '{ print $14 + $15 }' "/proc/$tui_pid/stat") w1=$(date +%s.%N)
cpu=$(echo "$a $b $w0 $w1 $hz" | awk '{ printf "%.1f", ($2 - $1) / $5 / ($4 - $3) * 100 }')
check "the live view over two quiet nodes: CPU under 10% of one CPU ($cpu %)" \
    awk -v c="$cpu" 'BEGIN { exit !(c < 10) }'
keys q
tui_wait_exit 10
check "q: status 0 ($tui_status)" [ "$tui_status" = 0 ]
tui_stop
exit 0
