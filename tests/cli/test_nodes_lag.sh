#!/bin/sh
# test_nodes_lag.sh: a node whose clock is 2 s behind the viewer's (a VM
# without NTP), beside two whose clocks agree: less than the threshold of
# an unsynchronised clock (an interval and 2 s), more than its lines'
# delay. Its intervals were placed by its stamps in job intervals that had
# already closed, so every job interval said "1 of 3 nodes missing: lag1"
# for as long as it ran (what made 512 replayed nodes, whose recorded
# stamps were 1 to 3 s old, "never whole" in a slow sanitizer build).
# After 3 such lines it is placed by when its lines come: every later job
# interval has the three nodes.
. "$HTTOP_SRCDIR/tests/lib.sh"
need python3 python3
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
plan 3
HTTOP_CLOCK=virtual "$HTTOP" --demo -b --format json -n 2 >line.jsonl 2>/dev/null
export FAKE_LINE=$tmp/line.jsonl FAKE_DIR=$tmp HTTOP_HOSTLIST=builtin
cat >via.sh <<EOF2
#!/bin/sh
case \$1 in lag*) m=lag ;; *) m=steady ;; esac
exec env FAKE_RUN=$tmp python3 $HTTOP_SRCDIR/tests/nodes/fake-node.py \$m "\$@"
EOF2
chmod +x via.sh
"$HTTOP" --nodes 'steady1,steady2,lag1' --via "$tmp/via.sh %h" -b -d 1 -n 9 --format summary \
    >lag.txt 2>lag.err
st=$?
grep '^job' lag.txt | sed 's/^/# /'
jobs=$(grep -c '^job ' lag.txt)
check "status 0, 8 or more job intervals ($st, $jobs)" [ "$st" -eq 0 -a "$jobs" -ge 8 ]
# (a node's own line is written with the job interval it is in)
check "lag1's own lines beside the job's, from its 4th on ($(grep -c '^lag1 ' lag.txt) lines)" \
    [ "$(grep -c '^lag1 ' lag.txt)" -ge 4 ]
# 3 late lines, then placed by when they come: from the 5th job interval
# on (the first may miss a node that is starting), none misses lag1.
check "from the 5th job interval on, none misses a node ($(grep '^job ' lag.txt | tail -n +5 | grep -c missing) do)" \
    sh -c '[ "$(grep "^job " "$1" | tail -n +5 | grep -c "missing")" -eq 0 ] &&
	[ "$(grep "^job " "$1" | tail -n +5 | wc -l)" -ge 4 ]' sh lag.txt
