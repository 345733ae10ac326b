#!/bin/sh
# test_many_nodes.sh: a job over many nodes, on the loopback. pdsh's exec
# module (-R exec: no ssh) runs httop once per pseudo-node n1, n2, n3 with
# --host %h, as pdsh -w node[01-16] would over ssh; the summary gives one
# line per node, the JSON lines merge by their "host" member (httop.1, MANY
# NODES).
. "$HTTOP_SRCDIR/tests/lib.sh"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
plan 11

if ! command -v pdsh >/dev/null 2>&1 || ! pdsh -L 2>/dev/null | grep -q 'rcmd/exec'; then
	for i in $(seq 10); do skip "pdsh with its exec module is not installed"; done
	exit 0
fi

# 1-4: the summary, one line per node, sorted by pdsh's "host: " prefix.
pdsh -R exec -w n1,n2,n3 "$HTTOP" --demo --host %h -b --format summary -n 1 \
    >sum.raw 2>sum.err; st=$?
sort sum.raw >sum.txt
check "pdsh -R exec runs httop on three pseudo-nodes (exit $st)" [ "$st" -eq 0 ]
check "three lines, one per node" [ "$(wc -l <sum.txt)" -eq 3 ]
check "the hosts are n1, n2, n3, each once" \
    [ "$(awk '{ print $2 }' sum.txt | tr '\n' ' ')" = "n1 n2 n3 " ]
# Every line: "nK: nK TIME UNIX_TIME VALID UTIL BOTH THREADS GHZ CPI node"; the
# figures are numbers in their ranges (the demo's splits are exact: no
# lo-hi); the test clock starts the simulated nodes at 1704067200 (httop(1),
# ENVIRONMENT), so the Unix time is that plus the time, on every node.
if awk '
	function num(x) { return x ~ /^[0-9]+(\.[0-9]+)?$/ }
	{
		bad = NF != 11 || $1 != $2 ":" || !num($3) || !num($4) || ($5 != "0" && $5 != "1") ||
		    $11 != "node"
		for (i = 6; i <= 10; i++) if (!num($i)) bad = 1
		if (!bad && ($4 - $3 - 1704067200 > 0.0015 || $4 - $3 - 1704067200 < -0.0015)) bad = 1
		if (!bad && ($6 > 100 || $7 > 100 || $8 < 1 || $8 > 2 || $9 <= 0 || $10 <= 0)) bad = 1
		if (bad) { print "bad line: " $0; exit 1 }
	}' sum.txt >awk.out; then ok "each line parses: time, Unix time, valid, util, both/busy, threads, GHz, CPI"
else not_ok "$(cat awk.out)"; fi

# 5: the same machine and seed give the same figures on every node, and
# the same as httop run here directly (no header: stdout is a file).
"$HTTOP" --demo --host n1 -b --format summary -n 1 >local.txt 2>/dev/null
check "n1's line equals a local run's" [ "$(grep '^n1: ' sum.txt | cut -d' ' -f2-)" = "$(cat local.txt)" ]

# 6-10: JSON lines, merged by host. With -N pdsh adds no prefix; without it
# the prefix is stripped with sed, as httop.1 shows.
pdsh -N -R exec -w 'n[1-3]' "$HTTOP" --demo --host %h -b --format json -n 2 \
    >job.jsonl 2>job.err; st=$?
check "pdsh -N: six JSON lines (exit $st)" [ "$st" -eq 0 -a "$(wc -l <job.jsonl)" -eq 6 ]
pdsh -R exec -w 'n[1-3]' "$HTTOP" --demo --host %h -b --format json -n 2 >pre.raw 2>/dev/null
sed -n 's/^\([^:]*\): .*"host":"\([^"]*\)".*/\1 \2/p' pre.raw >pairs.txt
check "pdsh's prefix names the same host as the line's host member" \
    [ "$(wc -l <pairs.txt)" -eq 6 -a "$(awk '$1 != $2' pairs.txt | wc -l)" -eq 0 ]
sed 's/^[^ ]*: //' pre.raw | sort >pre.jsonl
sort job.jsonl >job.sorted
check "stripping the prefix gives the -N output" cmp -s pre.jsonl job.sorted
check_schema job.jsonl
if command -v python3 >/dev/null 2>&1; then
	# group by host: every host has both intervals, in time order
	if python3 - job.jsonl >merge.out 2>&1 <<'EOF'
import json, sys
by = {}
for line in open(sys.argv[1]):
    r = json.loads(line)
    by.setdefault(r["host"], []).append(r)
assert sorted(by) == ["n1", "n2", "n3"], sorted(by)
for h, rs in by.items():
    ts = sorted(r["time"] for r in rs)
    assert len(ts) == 2 and ts[0] < ts[1], (h, ts)
    assert all(0 <= r["node"]["both"] <= 1 for r in rs)
print("ok")
EOF
	then ok "merged by host: n1, n2, n3 with two intervals each"
	else not_ok "merge: $(cat merge.out)"; fi
else
	skip "python3 is not installed"
fi
if command -v jq >/dev/null 2>&1; then
	# The manual's jq example: mean both-of-busy share per host.
	jq -s -r 'group_by(.host)[] | [.[0].host, length,
	  ([.[].node.both_of_busy | numbers] | add / length)] | @tsv' job.jsonl >jq.out 2>&1
	check "jq groups by host: three groups of two" \
	    [ "$(awk '$2 == 2 && $3 > 0 && $3 < 1 { n++ } END { print n }' jq.out)" = 3 ]
else
	skip "jq is not installed"
fi
exit 0
