#!/bin/sh
# test_nodes_srun.sh: --via srun starts ONE job step for all the nodes
# (srun --label, one task per node) and reads the tasks' lines apart by
# their labels; a task that fails is lost and started again in a second
# step, the others going on in the first. srun is tests/nodes/fake-srun.py
# (HTTOP_SRUN): it writes its tasks' lines as srun --label does, cut into
# pieces of 1024 bytes; the real Slurm is in test_slurm.sh.
. "$HTTOP_SRCDIR/tests/lib.sh"
need python3
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
plan 13

export NODES_RUN=$tmp
export NODES_LOADS="h1=busy h2=one-per-core h3=idle crash=crash pad=pad"
export HTTOP_HOSTLIST=builtin
export HTTOP_SRUN=$HTTOP_SRCDIR/tests/nodes/fake-srun.py
export SRUN_LOG=$tmp/steps
data=$HTTOP_SRCDIR/data
left() { procs_tagged "NODES_RUN=$tmp"; }

# 1-4: three nodes, one step; each node's lines (about 50 KB, 49 pieces)
# put together whole: the merged stream holds each host's own output.
"$HTTOP" --job 42 --nodes 'h[1-3]' --via srun --remote-httop "$HTTOP" -b -n 3 \
    >merged.jsonl 2>err.txt
st=$?
check "three nodes, -n 3: exit 0 ($st: $(tail -1 err.txt))" [ "$st" -eq 0 ]
check "one step for the three: $(tr '\n' ' ' <steps)" [ "$(cat steps)" = "h1,h2,h3" ]
for h in h1:busy h2:one-per-core h3:idle; do
	"$HTTOP" --host "${h%%:*}" --sim "${h#*:}" --topology "$data/demo-skx.xml" \
	    --cpuid "$data/demo-skx.cpuid" -b --format json -n 3 >"own-${h%%:*}.jsonl"
done
if python3 - merged.jsonl own-h1.jsonl own-h2.jsonl own-h3.jsonl >cmp.out 2>&1 <<'PY'
import json, sys
drop = ("unix_time", "iso_time")
def norm(r):
    return {k: v for k, v in r.items() if k not in drop}
merged = [json.loads(l) for l in open(sys.argv[1])]
assert len(merged) == 9, len(merged)
for f in sys.argv[2:]:
    own = [norm(json.loads(l)) for l in open(f)]
    mine = [norm(r) for r in merged if r["host"] == own[0]["host"]]
    assert mine == own, (own[0]["host"], len(mine), len(own))
print("ok")
PY
then ok "each host's lines in the merged stream are its own output, whole"
else not_ok "merged against own: $(tail -3 cmp.out)"; fi
check "nothing left running" [ "$(left)" -eq 0 ]

# 5-6: lines of exactly 1024 k bytes (srun follows them with an empty
# piece): every interval read, none glued to the next.
rm -f steps
"$HTTOP" --job 42 --nodes 'pad,h1' --via srun --remote-httop "$HTTOP" --format summary -n 3 \
    >pad.txt 2>pad.err
st=$?
check "padded lines: exit 0 ($st: $(tail -1 pad.err))" [ "$st" -eq 0 ]
check "the padded node gave its three intervals" [ "$(grep -c '^pad ' pad.txt)" -eq 3 ]

# 7-10: a task that fails: lost with its own words and srun's, started
# again in a step of its own; h1 goes on in the first step.
# (the real clock: job intervals as they come)
rm -f steps
HTTOP_CLOCK= "$HTTOP" --job 42 --nodes 'h1,crash' --via srun --remote-httop "$HTTOP" --format summary \
    -d 0.5 >crash.txt 2>crash.err &
pid=$!
sleep 6
kill -TERM $pid
wait $pid
st=$?
check "stopped by SIGTERM: exit 0 ($st)" [ "$st" -eq 0 ]
check "the failed task's node is lost, said why" \
    grep -q 'node crash lost: crash: the node went away (task 1: Exited with exit code 3)' crash.err
check "it was started again alone, h1 only in the first step: $(tr '\n' ' ' <steps)" \
    sh -c '[ "$(head -1 steps)" = h1,crash ] && [ "$(sed 1d steps | sort -u)" = crash ]'
# (the whole job's line at the end, "whole run", is not an interval)
counts=$(awk '!/whole run/ { n[$1]++ } END { printf "h1 %d, job %d, crash %d", n["h1"], n["job"], n["crash"] }' crash.txt)
# A job interval without h1's line (late on a busy machine: when the
# interval closes is a matter of time) names it missing; it is never lost.
late=$(awk '/whole run/ { next } $1 == "h1" { in_iv = 1 }
	$1 == "job" { if (!in_iv && $0 ~ /missing: .*h1/) n++; in_iv = 0 } END { print n + 0 }' crash.txt)
check "h1 went on: a line of it in every job interval, or the interval names it missing ($counts; $late said late)" \
    awk '/whole run/ { next } $1 == "h1" { h++; in_iv = 1 }
	$1 == "job" { if (!in_iv && $0 !~ /missing: .*h1/) miss++; in_iv = 0 }
	END { exit !(h >= 8 && miss == 0) }' crash.txt
check "... and h1 never lost" sh -c '! grep -q "node h1 lost" crash.err' 

# 11-12: one step holds two pipes whatever the number of nodes: 300 nodes
# under a limit of 64 open files start (here an srun that fails at once),
# where a pipe pair a node would need 616.
(ulimit -n 64; HTTOP_SRUN=/bin/false exec "$HTTOP" --job 42 --nodes 'x[1-300]' --via srun \
    --remote-httop "$HTTOP" -b -n 1) >/dev/null 2>lim.err
st=$?
check "300 nodes, 64 open files: started, every node lost (exit $st)" \
    grep -q '300 of 300 nodes gave no interval' lim.err
check "... no word of open files" sh -c '! grep -q "open files" lim.err'
