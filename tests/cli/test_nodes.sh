#!/bin/sh
# test_nodes.sh: httop --nodes in batch mode through a stand-in transport
# (tests/nodes/as-host.sh, which runs httop here as each host with its own
# simulated load): the merged JSON stream against each host's own output,
# the summary's node and job lines (the job's figures worked out by hand),
# nodes that fail (the reason, the exit status, the back-off schedule),
# lines that are not JSON, the options many nodes cannot go with; nothing
# left running afterwards.
. "$HTTOP_SRCDIR/tests/lib.sh"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
plan 33

# NODES_RUN tags this test's nodes (concurrent tests run as-host.sh too)
via="env NODES_RUN=$tmp $HTTOP_SRCDIR/tests/nodes/as-host.sh %h"
export NODES_LOADS="h1=busy h2=one-per-core h3=idle down=down garbage=garbage crash=crash skew=skew short=short"
export HTTOP_HOSTLIST=builtin
data=$HTTOP_SRCDIR/data
own() {   # own HOST LOAD ARGS: the host's own output, run on it directly
	h=$1 l=$2
	shift 2
	"$HTTOP" --host "$h" --sim "$l" --topology "$data/demo-skx.xml" \
	    --cpuid "$data/demo-skx.cpuid" "$@"
}
left() {  # the stand-in's processes, and the httops they ran, still running
	procs_tagged "NODES_RUN=$tmp"
}

# 1-5: the merged JSON stream (the test clock: every node's intervals are
# exact, and the same as the host's own).
"$HTTOP" --nodes 'h[1-3]' --via "$via" --remote-httop "$HTTOP" -b -n 3 >merged.jsonl 2>err.txt
st=$?
check "three nodes, -n 3: exit 0 ($st)" [ "$st" -eq 0 ]
check "nine lines, three of each host" \
    [ "$(wc -l <merged.jsonl)" -eq 9 -a "$(grep -c '"host":"h2"' merged.jsonl)" -eq 3 ]
check_schema merged.jsonl
for h in h1:busy h2:one-per-core h3:idle; do
	own "${h%%:*}" "${h#*:}" -b --format json -n 3 >"own-${h%%:*}.jsonl"
done
if python3 - merged.jsonl own-h1.jsonl own-h2.jsonl own-h3.jsonl >cmp.out 2>&1 <<'PY'
import json, sys
drop = ("unix_time", "iso_time")     # wall-clock members differ by run
def norm(r):
    return {k: v for k, v in r.items() if k not in drop}
merged = [json.loads(l) for l in open(sys.argv[1])]
for f in sys.argv[2:]:
    own = [norm(json.loads(l)) for l in open(f)]
    host = own[0]["host"]
    mine = [norm(r) for r in merged if r["host"] == host]
    assert mine == own, (host, len(mine), len(own))
print("ok")
PY
then ok "each host's lines in the merged stream are its own output, in order"
else not_ok "merged against own: $(tail -3 cmp.out)"; fi
check "nothing left running" [ "$(left)" -eq 0 ]

# 6-13: --format summary: a line per node and one per job interval.
before=$(date +%s)
"$HTTOP" --nodes 'h[1-3]' --via "$via" --remote-httop "$HTTOP" --format summary -n 2 \
    >sum.txt 2>err.txt
st=$?
after=$(date +%s)
check "summary: exit 0 ($st)" [ "$st" -eq 0 ]
# The nodes run on the test clock (stamps of 2024): each is placed by
# when its lines come, so a node started late under load (seen: 0.7 s,
# as test_nodes_ssh's) has its intervals in the next job interval. Judged:
# each node's two lines, a job line with all three, and the others saying
# which are missing (never a silent partial job).
check "each node's two lines; a job line with all three, any other saying which are missing ($(awk '{ printf "%s ", $1 }' sum.txt))" \
    sh -c '[ "$(grep -c "^h1 " sum.txt)" -eq 2 ] && [ "$(grep -c "^h2 " sum.txt)" -eq 2 ] &&
	[ "$(grep -c "^h3 " sum.txt)" -eq 2 ] &&
	[ "$(grep "^job " sum.txt | grep -vc "nodes\? missing")" -ge 1 ] &&
	[ -z "$(grep "^job " sum.txt | awk "\$4 == 0" | grep -v "nodes\? missing")" ]'
for h in h1:busy h2:one-per-core h3:idle; do
	own "${h%%:*}" "${h#*:}" --format summary -n 2 | cut -c18- >"own-${h%%:*}.txt"
	grep "^${h%%:*} " sum.txt | cut -c18- >"got-${h%%:*}.txt"
done
cmp -s own-h1.txt got-h1.txt && cmp -s own-h2.txt got-h2.txt && cmp -s own-h3.txt got-h3.txt
check "each node's lines are the host's own summary (h3 idle: dashes)" [ $? -eq 0 ]
check "h1's lines are there" [ -s got-h1.txt ]
# The job: h1 busy (util 1, both 1, 2 threads per busy core), h2 one thread
# per core (util 1, both 0, 1 thread), h3 idle (util 0), equal time each:
# util (1 + 1 + 0) / 3 = 66.7%; both (1 + 0 + 0) / 3 and neither 1/3, so
# both of busy (1/3) / (1 - 1/3) = 50.0%; threads per busy core
# (2 x 1 + 1 x 1) / (1 + 1) = 1.50; GHz 3.00 on every busy thread.
job=$(grep '^job ' sum.txt | grep -v 'nodes\? missing' | tail -1)
check "the job's line: valid, util 66.7, both/busy 50.0, threads 1.50, GHz 3.00 ($job)" \
    [ "$(echo "$job" | awk '{ print $4, $5, $6, $7, $8 }')" = "1 66.7 50.0 1.50 3.00" ]
# CPI, weighed by instructions: h1's cores at CPI 0.5 retire two threads'
# worth (IPC 1 at 3 GHz each: 6 G instructions per core-second), h2's at
# CPI 1.0 one thread's (3 G): (0.5 x 6 + 1.0 x 3) / 9 = 0.67.
cpi=$(echo "$job" | awk '{ print $9 }')
check "the job's CPI is 0.67 ($cpi)" [ "$cpi" = "0.67" ]
# The job's wall-clock time is this machine's clock: the first job
# interval's middle is when the first line came, in the run (the nodes'
# test clock is years away: they are placed by when they came, then by
# their own, virtual, time).
jt=$(grep '^job ' sum.txt | head -1 | awk '{ print $3 }')
check "the job's unix_time is in the run ($before <= $jt <= $after)" \
    awk -v j="$jt" -v a="$before" -v b="$after" 'BEGIN { exit !(j >= a && j <= b + 1) }'
check "nothing left running" [ "$(left)" -eq 0 ]

# 14-18: a node that is down, one that crashes: the reason as ssh and the
# node said it, the exit status; the others go on.
"$HTTOP" --nodes 'h1,down,crash' --via "$via" --remote-httop "$HTTOP" --format summary -n 3 \
    >fail.txt 2>fail.err
st=$?
check "a node gave no interval: exit 1 ($st)" [ "$st" -eq 1 ]
check "the down node's reason is ssh's line and its status" \
    grep -q 'node down: ssh: connect to host down port 22: Connection refused (exit status 255)' fail.err
check "the crashed node is lost with its last words" \
    grep -q 'node crash lost: crash: the node went away (exit status 3)' fail.err
check "h1 gave its three intervals" [ "$(grep -c '^h1 ' fail.txt)" -eq 3 ]
check "job lines say which node is missing" grep -q '^job .*nodes missing: down' fail.txt

# 19: output that is not httop's JSON
"$HTTOP" --nodes 'garbage' --via "$via" --remote-httop "$HTTOP" -b -n 1 >g.txt 2>g.err
check "a node whose output is not JSON is lost, said why" \
    grep -q "node garbage: its output is not httop's JSON (byte 1: not a JSON value)" g.err

# 20-21: the back-off: a node that stays down is tried again after 1, 2
# and 4 s (starts at 0, 1, 3 and 7 s).
NODES_LOG=$tmp/starts "$HTTOP" --nodes down --via "$via" --remote-httop "$HTTOP" -b \
    >/dev/null 2>backoff.err &
pid=$!
sleep 7.6
kill -TERM $pid
wait $pid
st=$?
check "stopped by SIGTERM: exit 0 ($st)" [ "$st" -eq 0 ]
gaps=$(awk 'NR > 1 { printf "%.0f ", $2 - prev } { prev = $2 }' starts)
check "started four times, 1, 2 and 4 s apart ($gaps)" [ "$gaps" = "1 2 4 " ]

# 22-23: a node whose clock is an hour ahead (no NTP), in real time: it
# is placed by when its lines come, so the job intervals have both nodes
# (all three when the two start within a quarter interval of each other;
# on a loaded machine one may start later, and then the first and last
# job intervals have one node each and say which is missing); its lines
# keep its own time.
HTTOP_CLOCK= "$HTTOP" --nodes 'h1,skew' --via "$via" --remote-httop "$HTTOP" --format summary \
    -n 3 -d 0.5 >skew.txt 2>skew.err
check "an hour's skew: valid job intervals of both nodes, 2 or 3, the others at the edges saying which node is missing ($(grep '^job' skew.txt | tr -s ' ' | tr '\n' '|'))" \
    awk '$1 == "job" && $4 == 1 { v++; if (bad) mid = 1 } $1 == "job" && $4 != 1 {
            if (!/nodes missing: (h1|skew)/) odd = 1; if (v) bad = 1 }
        END { exit !(v >= 2 && v <= 3 && !odd && !mid) }' skew.txt
check "the skewed node's lines keep its clock (an hour ahead), a valid job interval's is h1's" \
    awk '$1 == "skew" { s = $3 } $1 == "h1" { h = $3 } $1 == "job" && $4 == 1 { j = $3; d = s - j; e = j - h }
        END { exit !(d > 3598 && d < 3602 && e > -0.5 && e < 0.5) }' \
    skew.txt

# 24-29: what many nodes cannot go with, and bad lists (a bad value:
# status 2)
"$HTTOP" --all-nodes -b >/dev/null 2>e1.txt
check "--all-nodes without --job ID: status 2" [ $? -eq 2 ]
"$HTTOP" --nodes 'h[1-' -b --via "$via" >/dev/null 2>e2.txt
st=$?
check "a bad list says what is wrong: $(cat e2.txt)" grep -q "not a node list" e2.txt
check "... status 2 ($st)" [ "$st" -eq 2 ]
"$HTTOP" --nodes h1 --format csv >/dev/null 2>e3.txt
check "--format csv with --nodes: status 2" [ $? -eq 2 ]
"$HTTOP" --nodes h1 --via 'ssh-like' -b >/dev/null 2>e4.txt
st=$?
check "--via CMD without %h: says so" grep -q "no %h" e4.txt
check "... status 2 ($st)" [ "$st" -eq 2 ]

# 30-32: -o FILE takes the merged stream and the summary; standard output
# stays empty.
"$HTTOP" --nodes 'h[1-2]' --via "$via" --remote-httop "$HTTOP" -n 2 -o o.jsonl >o.out 2>o.err
st=$?
check "-o FILE with --nodes: exit 0 ($st), nothing on standard output" sh -c '[ "$1" -eq 0 ] && [ ! -s o.out ]' sh "$st"
check "... four JSON lines in the file, two of each host" \
    [ "$(grep -c '"host":"h1"' o.jsonl)" -eq 2 -a "$(grep -c '"host":"h2"' o.jsonl)" -eq 2 ]
"$HTTOP" --nodes 'h[1-2]' --via "$via" --remote-httop "$HTTOP" --format summary -n 2 \
    -o o.sum >o.out 2>o.err
check "--format summary -o FILE: h1 h2 job twice in the file" \
    [ "$(awk '{ printf "%s ", $1 }' o.sum)" = "h1 h2 job h1 h2 job " ] && [ ! -s o.out ]

# 33: a node that ends before the intervals asked for is said so.
"$HTTOP" --nodes 'h1,short' --via "$via" --remote-httop "$HTTOP" --format summary -n 3 \
    >short.txt 2>short.err
check "a node that ends early: 'node short ended after 1 interval' ($(cat short.err))" \
    grep -q "node short ended after 1 interval\$" short.err
exit 0
