#!/bin/sh
# test_nodes_compact.sh: compact lines (--compact; httop(1), OUTPUT
# FORMATS, compact json): what one httop writes (JSON, the machine's
# "core_list" only in the first line, at least 5 times shorter than the
# full line on the demo machine); the same runs written full and compact
# read back into the same intervals (tests/unit/test_nodeiv with
# NODEIV_PAIRS: the demo, a burst load, a Zen node's bounds, a real
# replay); a viewer asks its nodes for compact lines in the summary and
# passes full ones on with -b --format json; its summary is byte for byte
# the one it writes from full lines; every node is asked for --align; a
# node whose older httop does not know --compact and --align is started
# again without each in turn (ssh-like and srun), one that knows
# --compact but not --align without --align only, still compact; the
# options --compact does not go with.
. "$HTTOP_SRCDIR/tests/lib.sh"
need python3
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
plan 24

data=$HTTOP_SRCDIR/data
demo="--topology $data/demo-skx.xml --cpuid $data/demo-skx.cpuid"

# 1-4: one httop's compact lines
# shellcheck disable=SC2086
HTTOP_CLOCK=virtual "$HTTOP" --sim demo $demo -b --format json -n 3 >demo-full.jsonl
# shellcheck disable=SC2086
HTTOP_CLOCK=virtual "$HTTOP" --sim demo $demo -b --format json --compact -n 3 \
    >demo-compact.jsonl
st=$?
check "--compact: exit 0 ($st), three lines" [ "$st" -eq 0 -a "$(wc -l <demo-compact.jsonl)" -eq 3 ]
out=$(python3 - demo-compact.jsonl <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
print(["core_list" in l for l in lines], len(lines[0]["core_list"]),
      {len(l["core_figs"]) for l in lines}, {len(l["thread_figs"]) for l in lines},
      "cores" in lines[0], "threads" in lines[0])
PY
)
check "JSON; core_list in the first line only, 36 cores, 72 threads ($out)" \
    [ "$out" = "[True, False, False] 36 {36} {72} False False" ]
full=$(sed -n 2p demo-full.jsonl | wc -c)
compact=$(sed -n 2p demo-compact.jsonl | wc -c)
check_schema demo-compact.jsonl demo-full.jsonl
check "a line of the demo machine 5 times shorter or more ($full / $compact bytes)" \
    [ "$full" -ge $((5 * compact)) ]

# 5: the same runs, full and compact, read into the same intervals
pair() {   # pair NAME ARGS...: NAME-full.jsonl and NAME-compact.jsonl
	name=$1
	shift
	HTTOP_CLOCK=virtual "$HTTOP" "$@" -b --format json -n 4 >"$name-full.jsonl" &&
	    HTTOP_CLOCK=virtual "$HTTOP" "$@" -b --format json --compact -n 4 >"$name-compact.jsonl"
	pairs="$pairs $tmp/$name-full.jsonl $tmp/$name-compact.jsonl"
}
pairs=
# shellcheck disable=SC2086
pair bursts --sim bursts --seed 1 $demo
# shellcheck disable=SC2086
pair cpus --sim alternate $demo --cpus 0-5,40-41
pair stampede --replay "$data/traces/stampede2-c591-803.trace.gz"
zen=$HTTOP_FIXTURES/hwloc/zen2-epyc7742-2s-64c-smt.xml
if [ -f "$zen" ]; then
	pair zen --sim demo --topology "$zen" \
	    --cpuid "$HTTOP_FIXTURES/cpuid/zen2-epyc7742-2s-64c-smt.cpuid.txt"
fi
NODEIV_PAIRS=$pairs "$HTTOP_BUILDDIR/tests/unit/test_nodeiv" >pairs.out 2>&1
st=$?
check "full and compact lines give the same intervals ($(echo $pairs | wc -w) files; $(grep -m1 -i 'fail\|error' pairs.out))" \
    [ "$st" -eq 0 ]

# 6-9: a viewer of many nodes
export NODES_RUN=$tmp
export HTTOP_HOSTLIST=builtin
export NODES_LOADS="h1=busy h2=one-per-core h3=idle h4=demo old=old oldal=old-align o1=old-align o2=old-align o3=old-align"
cat >via.sh <<EOF
#!/bin/sh
# the remote command's words, then the stand-in node
echo "\$*" >>$tmp/words
exec $HTTOP_SRCDIR/tests/nodes/as-host.sh "\$@"
EOF
chmod +x via.sh
left() { procs_tagged "NODES_RUN=$tmp"; }
"$HTTOP" --nodes 'h[1-4]' --via "$tmp/via.sh %h" --remote-httop "$HTTOP" --format summary \
    -n 3 >sum-compact.txt 2>err.txt
st=$?
check "summary from compact lines: exit 0 ($st: $(tail -1 err.txt))" [ "$st" -eq 0 ]
check "the nodes were asked for --compact" [ "$(grep -c -- '--compact' words)" -eq 4 ]
check "... and for --align, after -d ($(head -n 1 words))" \
    [ "$(grep -c -- ' -d 1 --align ' words)" -eq 4 ]
NODES_FULL=1 "$HTTOP" --nodes 'h[1-4]' --via "$tmp/via.sh %h" --remote-httop "$HTTOP" \
    --format summary -n 3 >sum-full.txt 2>err.txt
# the job lines' wall time is the viewer's clock: the rest is the same
wall='s/^(job +[0-9.]+ +)[0-9]+\.[0-9]+/\1WALL/'
sed -E "$wall" sum-compact.txt >a.txt
sed -E "$wall" sum-full.txt >b.txt
check "the summary is byte for byte the one from full lines ($(wc -l <a.txt) lines)" \
    cmp -s a.txt b.txt
rm -f words
"$HTTOP" --nodes 'h[1-2]' --via "$tmp/via.sh %h" --remote-httop "$HTTOP" -b -n 2 \
    >merged.jsonl 2>err.txt
check "-b --format json: full lines asked for and passed on" \
    [ "$(grep -c -- '--compact' words)" -eq 0 -a "$(grep -c '"cores":\[' merged.jsonl)" -eq 4 ]

# 11-20: an older httop on a node (it does not know --align, then
# --compact): started again at once without each, said once each; the
# run goes on whole.
rm -f words
"$HTTOP" --nodes 'h1,old' --via "$tmp/via.sh %h" --remote-httop "$HTTOP" --format summary \
    -n 2 >old.txt 2>old.err
st=$?
check "an older node: exit 0 ($st: $(tail -1 old.err))" [ "$st" -eq 0 ]
check "... it gave its two intervals, the job two valid lines" \
    [ "$(grep -c '^old ' old.txt)" -eq 2 -a "$(grep '^job ' old.txt | awk '$4 == 1' | wc -l)" -eq 2 ]
check "... said why, each word once: $(tr '\n' ' ' <old.err)" sh -c '
	[ "$(grep -c "old: its httop does not know --align (an older httop): started again without it" old.err)" -eq 1 ] &&
	[ "$(grep -c "old: its httop does not know --compact (an older httop): started again without it" old.err)" -eq 1 ]'
check "... its last start had neither word, h1's both ($(grep '^old ' words | tail -n 1 | cut -c1-80))" \
    sh -c 'grep "^old " words | tail -n 1 | grep -qv -- "--align\|--compact" &&
	grep "^h1 " words | head -n 1 | grep -q -- "--align.*--compact"'
# srun: the task ends, the node is started in a step without each word
HTTOP_SRUN=$HTTOP_SRCDIR/tests/nodes/fake-srun.py SRUN_LOG=$tmp/steps \
    "$HTTOP" --job 42 --nodes 'h1,old' --via srun --remote-httop "$HTTOP" --format summary \
    -n 2 >srun.txt 2>srun.err
st=$?
check "srun, an older node: exit 0 ($st), its intervals, three steps ($(tr '\n' ' ' <steps))" \
    [ "$st" -eq 0 -a "$(grep -c '^old ' srun.txt)" -ge 1 -a "$(cat steps)" = "h1,old
old
old" ]
# the release before --align: started again without it, its lines still
# compact (its words keep --compact)
rm -f words
"$HTTOP" --nodes 'h1,oldal' --via "$tmp/via.sh %h" --remote-httop "$HTTOP" --format summary \
    -n 2 >oa.txt 2>oa.err
st=$?
check "a node without --align: exit 0 ($st), its two intervals, the job two valid lines" \
    [ "$st" -eq 0 -a "$(grep -c '^oldal ' oa.txt)" -eq 2 -a "$(grep '^job ' oa.txt | awk '$4 == 1' | wc -l)" -eq 2 ]
check "... said once, started again with --compact, without --align: $(tr '\n' ' ' <oa.err)" sh -c '
	[ "$(grep -c "oldal: its httop does not know --align" oa.err)" -eq 1 ] &&
	! grep -q "does not know --compact" oa.err &&
	grep "^oldal " words | tail -n 1 | grep -- "--compact" | grep -qv -- "--align"'
# a whole cluster of the release before --align (an upgrade): every node
# started again without it at once, with -n (the trial's: only the first
# was; the others were lost, every job line invalid), said once
"$HTTOP" --nodes 'o[1-3]' --via "$tmp/via.sh %h" --remote-httop "$HTTOP" --format summary \
    -n 2 >o3.txt 2>o3.err
st=$?
check "three older nodes: exit 0 ($st), each its two intervals, two valid job lines with all three" \
    sh -c '[ "$1" -eq 0 ] && for h in o1 o2 o3; do [ "$(grep -c "^$h " o3.txt)" -eq 2 ] || exit 1; done &&
	[ "$(grep "^job " o3.txt | awk "\$4 == 1" | grep -vc "missing")" -eq 2 ]' sh "$st"
check "... said once: $(tr '\n' ' ' <o3.err)" \
    [ "$(grep -c "its httop does not know --align" o3.err)" -eq 1 ]
check "nothing left running" [ "$(left)" -eq 0 ]

# 21-24: what --compact does not go with
"$HTTOP" --demo -b --format summary --compact -n 1 >/dev/null 2>err.txt
st=$?
check "--compact without --format json: status 2 ($st)" [ "$st" -eq 2 ]
check "... says to add --format json: $(cat err.txt)" grep -q "add --format json" err.txt
"$HTTOP" --nodes h1 --compact --format summary -n 1 >/dev/null 2>err.txt
st=$?
check "--compact with --nodes: status 2 ($st: $(cat err.txt))" [ "$st" -eq 2 ]
"$HTTOP" --check --demo --format json --compact >/dev/null 2>err.txt
st=$?
check "--compact with --check (and --format json): status 2, names --check, not 'add --format json' ($st: $(cat err.txt))" \
    sh -c '[ "$1" -eq 2 ] && grep -q -- "--check" err.txt && ! grep -q "add --format json" err.txt' sh "$st"
