#!/bin/sh
# test_tui_nodes_job.sh: the Nodes view of a watched job's own figures
# (issue 33): where the nodes' lines carry them (a job watched with
# --source sched on each node), each node's row has the job's CPU seconds
# and its shared share (a thread of the job's beside a sibling running
# another task) under heads that say they are the job's; a node whose
# line has none shows dashes; in 80 columns the row still fits (CPI, GHz,
# thr go first, as needed); s sorts by them; lines without them show no such columns.
# The nodes are stand-ins (tests/nodes/fake-node.py) sending one line
# each, a demo line with the job's figures written in.
. "$HTTOP_SRCDIR/tests/lib.sh"
need python3 python3
. "$HTTOP_SRCDIR/tests/tui/tuilib.sh"
plan 8
tmp=$tui_dir
data=$HTTOP_SRCDIR/data
"$HTTOP" --sim demo --topology "$data/demo-skx.xml" --cpuid "$data/demo-skx.cpuid" \
    -b --format json -n 1 --pid $$ >"$tmp/line.jsonl" 2>/dev/null
# job_line HOST FIGS: HOST.jsonl, the line with the job's figures FIGS
# ("both alone shared none cpu_s"), or as it is ("-")
job_line() {
	python3 -c '
import json, sys
r = json.loads(open(sys.argv[1]).readlines()[-1])
if sys.argv[3] != "-":
    n = r["node"]
    for k, x in zip(("job_both", "job_alone", "job_shared", "job_none", "cpu_s"),
                    sys.argv[3].split()):
        n[k] = float(x)
        n.get("absent", {}).pop(k, None)
open(sys.argv[2], "w").write(json.dumps(r, separators=(",", ":")) + "\n")
' "$tmp/line.jsonl" "$tmp/$1.jsonl" "$2"
}
job_line h1 "0.1 0.2 0.3 0.4 0.45"
job_line h2 "0 0.5 0.05 0.45 1.25"
job_line h3 -
printf '#!/bin/sh\nexec env FAKE_RUN=%s FAKE_LINE=%s/"$1".jsonl python3 %s steady "$@"\n' \
    "$tmp" "$tmp" "$HTTOP_SRCDIR/tests/nodes/fake-node.py" >"$tmp/via.sh"
chmod +x "$tmp/via.sh"
export HTTOP_HOSTLIST=builtin XDG_CONFIG_HOME=$tmp/config
tui_start 160 30 HTTOP_CLOCK= -- --nodes 'h[1-3]' --via "$tmp/via.sh %h" -d 0.5
wait_for '^h3 +up ' 15
expect "the heads say the columns are the job's" 'both/busy% +job CPU s +job shared%$'
check "h1: the job's 0.45 CPU s, shared 30.0%" wait_for '^h1 +up .* 0\.45 +30\.0$' 5
check "h2: the job's 1.25 CPU s, shared 5.0%" wait_for '^h2 +up .* 1\.25 +5\.0$' 5
check "h3 (no job's figures in its line): dashes" wait_for '^h3 +up .* - +-$' 5
# s: list order -> node -> state -> util% -> both/busy% -> thr -> GHz ->
# CPI -> job CPU s: h2 (1.25) first, h1, h3 (none) last
keys s s s s s s s s
if wait_for 'job CPU s[▼v]' 5 &&
    [ "$(cap | grep -E '^h[1-3] ' | awk '{print $1}' | tr '\n' ' ')" = "h2 h1 h3 " ]; then
	ok "s sorts by the job's CPU seconds: h2 h1 h3"
else
	not_ok "s sorts by the job's CPU seconds: h2 h1 h3"; show_screen
fi
tm resize-window -t t -x 80 -y 30
if wait_for '^h1 +up .* 0\.45 +30\.0$' 5 && [ "$(cap | awk 'length > 80' | wc -l)" = 0 ] &&
    cap | grep -Eq 'both/busy% +job CPU s.* +job shared%$' && ! cap | grep -E '^node +state' | grep -q CPI; then
	ok "80 columns: the job's columns stay, CPI goes"
else
	not_ok "80 columns: the job's columns stay, CPI goes"; show_screen
fi
keys q
tui_wait_exit 10
# No node's line has the job's figures: no job columns.
tui_start 160 30 HTTOP_CLOCK= -- --nodes 'h3' --via "$tmp/via.sh %h" -d 0.5
wait_for '^h3 +up ' 15
if wait_for 'both/busy%$' 5 && ! cap | grep -q 'job shared%'; then
	ok "lines without the job's figures: no job columns"
else
	not_ok "lines without the job's figures: no job columns"; show_screen
fi
keys q
tui_wait_exit 10
none_left() { [ "$(procs_tagged "FAKE_RUN=$tmp")" = 0 ]; }
check "no stand-in node left" none_left
