#!/bin/sh
# test_nodes_count.sh: with -n N in batch mode many nodes end after N
# intervals of each, even when a node's httop goes on (one that ignores
# -n: an older or a hostile one) or gives its N and then neither ends nor
# sends: httop ends such a node itself, as on a signal, writes exactly N
# of its intervals (N job lines with --format summary) and ends with
# status 0. Nodes are tests/nodes/as-host.sh running noend.sh, an httop
# with its -n taken away; srun is tests/nodes/fake-srun.py.
. "$HTTOP_SRCDIR/tests/lib.sh"
need python3 python3
need timeout timeout
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
plan 12

export NODES_RUN=$tmp
export HTTOP_HOSTLIST=builtin
export HTTOP_SRUN=$HTTOP_SRCDIR/tests/nodes/fake-srun.py
left() { procs_tagged "NODES_RUN=$tmp"; }
# the remote httop, without its -n: it goes on until it is ended
cat >noend.sh <<EOF
#!/bin/sh
skip=0
for a do
	shift
	[ \$skip -eq 1 ] && { skip=0; continue; }
	[ "\$a" = -n ] && { skip=1; continue; }
	set -- "\$@" "\$a"
done
exec "$HTTOP" "\$@"
EOF
chmod +x noend.sh
to=${NODES_COUNT_TIMEOUT:-60}
via="$HTTOP_SRCDIR/tests/nodes/as-host.sh %h"
# count FILE: "HOST:LINES ..." of a merged JSON stream
count() {
	python3 -c '
import collections, json, sys
c = collections.Counter(json.loads(l)["host"] for l in open(sys.argv[1]))
print(" ".join("%s:%d" % kv for kv in sorted(c.items())))' "$1"
}

# 1-4: two nodes that go on after -n 2, merged JSON
t0=$(date +%s)
timeout "$to" "$HTTOP" --nodes 'h1,h2' --via "$via" --remote-httop "$tmp/noend.sh" -b -d 0.3 -n 2 \
    >merged.jsonl 2>err.txt
st=$? took=$(($(date +%s) - t0))
check "two nodes that ignore -n 2: httop ends them, status 0 (got $st after $took s: $(tail -1 err.txt))" \
    [ "$st" -eq 0 ]
# (Not a timing, make check asserts no wall time: nodes that never end
# would run until timeout's $to s guard, status 124.)
check "... ended by httop, not by the ${to} s guard (status $st, not 124)" [ "$st" -ne 124 ]
check "... exactly 2 lines of each ($(count merged.jsonl))" [ "$(count merged.jsonl)" = "h1:2 h2:2" ]
check "... nothing left running, nothing said ($(left); $(cat err.txt))" \
    sh -c '[ "$1" -eq 0 ] && [ ! -s err.txt ]' sh "$(left)"

# 5-7: the same with --format summary: 2 lines per node, 2 job lines
timeout "$to" "$HTTOP" --nodes 'h1,h2' --via "$via" --remote-httop "$tmp/noend.sh" -b -d 0.3 -n 2 \
    --format summary >sum.txt 2>sum.err
st=$?
check "summary, nodes that ignore -n 2: status 0 (got $st: $(tail -1 sum.err))" [ "$st" -eq 0 ]
check "... 2 lines per node, 2 job lines ($(awk '{ print $1 }' sum.txt | sort | uniq -c | tr -s ' \n' ' '))" \
    sh -c '[ "$(grep -c "^h1 " sum.txt)" -eq 2 ] && [ "$(grep -c "^h2 " sum.txt)" -eq 2 ] &&
    [ "$(grep -c "^job " sum.txt)" -eq 2 ]'
check "... nothing left running" [ "$(left)" -eq 0 ]

# 8-10: one srun step whose tasks ignore -n 2: the step is ended
timeout "$to" "$HTTOP" --job 42 --nodes 'h1,h2' --via srun --remote-httop "$tmp/noend.sh" -b -d 0.3 \
    -n 2 >srun.jsonl 2>srun.err
st=$?
check "one srun step, its tasks ignore -n 2: status 0 (got $st: $(tail -1 srun.err))" [ "$st" -eq 0 ]
check "... exactly 2 lines of each ($(count srun.jsonl))" [ "$(count srun.jsonl)" = "h1:2 h2:2" ]
check "... nothing left running" [ "$(left)" -eq 0 ]

# 11-12: a node that gives its interval (-n 1), then half a line and
# silence, without ending: ended an interval and 2 s later (not lost after
# three intervals and 5 s), status 0
"$HTTOP" --sim demo --topology "$HTTOP_SRCDIR/data/demo-skx.xml" \
    --cpuid "$HTTOP_SRCDIR/data/demo-skx.cpuid" -b --format json -n 2 >line.jsonl 2>/dev/null
t0=$(date +%s)
FAKE_LINE=$tmp/line.jsonl FAKE_DIR=$tmp timeout "$to" "$HTTOP" --nodes 's1' \
    --via "env NODES_RUN=$tmp python3 $HTTOP_SRCDIR/tests/nodes/fake-node.py stall %h" \
    -b -d 0.3 -n 1 >stall.jsonl 2>stall.err
st=$? took=$(($(date +%s) - t0))
check "a node silent after its -n 1 interval, not ending: ended, not lost, status 0 after $took s (got $st: $(tail -1 stall.err))" \
    sh -c '[ "$1" -eq 0 ] && [ "$(wc -l <stall.jsonl)" -eq 1 ] && [ ! -s stall.err ]' sh "$st"
check "... nothing left running" [ "$(left)" -eq 0 ]
exit 0
