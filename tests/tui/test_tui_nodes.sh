#!/bin/sh
# test_tui_nodes.sh: the live view over many nodes (httop --nodes) in a
# real terminal: the Nodes view's rows against each host's own figures
# (steady simulated loads through the stand-in transport
# tests/nodes/as-host.sh), the job's figures in the header, a node that is
# down shown lost with ssh's words, Enter opening a node's views (and in
# them saying where it works) and Esc going back, sorting, and quitting with every node's process ended.
. "$HTTOP_SRCDIR/tests/lib.sh"
. "$HTTOP_SRCDIR/tests/tui/tuilib.sh"
plan 15
cap_has() { cap | grep -Fq -- "$1"; }
cap_re() { cap | grep -Eq -- "$1"; }
# the data rows, node names in order
rows() { cap | grep -E '^(h[1-3]|down) ' | awk '{ print $1 }' | tr '\n' ' '; }

# NODES_RUN tags this test's nodes (concurrent tests run as-host.sh too)
via="env NODES_RUN=tui-nodes-$$ $HTTOP_SRCDIR/tests/nodes/as-host.sh %h"
tui_start 160 40 HTTOP_CLOCK= HTTOP_HOSTLIST=builtin \
    "NODES_LOADS=h1=busy h2=one-per-core h3=idle down=down" -- \
    --nodes 'h[1-3],down' --via "$via" --remote-httop "$HTTOP" -d 0.5
wait_for '3 up, 1 lost' 15
check "the header counts the nodes: 3 up, 1 lost" cap_has '4 nodes: 3 up, 1 lost'
# Each row as the host's own summary gives it: util, thr, GHz, CPI, both/busy.
wait_for '^h3 ' 10
check "h1 (busy): 100.0 2.00 3.00 0.50 100.0" \
    cap_re '^h1 +up .* 100\.0 +2\.00 +3\.00 +0\.50 +100\.0'
check "h2 (one thread a core): 100.0 1.00 3.00 1.00 0.0" \
    cap_re '^h2 +up .* 100\.0 +1\.00 +3\.00 +1\.00 +0\.0'
check "h3 (idle): 0.0 and dashes" \
    cap_re '^h3 +up .* 0\.0 +- +- +- +-'
# The job's figures once an interval of all three has closed (the first
# rows may come before it). The nodes run in real time here, so their
# intervals differ in length by a few ms and the job weighs each by its
# time: within 0.2 of 66.7% and 50.0%.
job_ok() {
	cap | grep '^job ' | sed -n 's/.*util \([0-9.]*\)%.*both threads \([0-9.]*\)% of busy core time.*/\1 \2/p' |
	    awk '{ exit !($1 > 66.3 && $1 < 67.1 && $2 > 49.5 && $2 < 50.5) }'
}
# (Each node reads on the wall clock's grid, --align: its first interval
# is half an interval to one and a half long, so the first job interval
# weighs the nodes unequally, both/busy 50.5% once: the steady ones do
# not. Waited for, up to 10 s.)
i=0
while ! job_ok && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
check "the job in the header: util 66.7%, both threads 50.0% of busy time ($(cap | grep '^job '))" \
    job_ok
check "down is lost with ssh's words and its next try" \
    cap_re '^down +lost +ssh: connect to host down port 22: Connection refused \(exit status 255\); next try in [0-9]+ s'
# Enter on h2 (the cursor starts on h1): its own views.
keys Down Enter
wait_for 'node h2 +\(2 of 4\)' 5
check "Enter opens h2's Cores view" cap_has 'package 0, 18 cores'
check "its header is h2's own, its CPU named as the node's JSON gives it" \
    cap_re '^httop +h2 +Intel\(R\) Xeon\(R\) Gold 6154 CPU @ 3\.00GHz '
keys 2
wait_for 'cpu' 5
check "2: h2's Threads view" cap_re 'node h2 '
# 3: its Topology view says what the JSON does not carry, not guesses
keys 3
wait_for 'Facts in use' 5
topo_ok() {
	cap_has 'L3 not known' && cap_has 'not known here' &&
	    cap_has '120 TSC ticks per count, as the node gave it'
}
check "3: h2's Topology view: L3 and the CPU not known, the node's scale 120" topo_ok
# Enter in a node's views says where it opens a node (it said "unknown key
# Ctrl-M", issue 35).
keys Enter
wait_for 'Enter opens' 5
check "Enter in a node's view: opens the node under the cursor in the Nodes view" \
    cap_has 'Enter opens the node under the cursor in the Nodes view (key 5)'
keys Escape
wait_for '^node +state' 5
check "Esc: back to the Nodes view" cap_has 'split (both|t0|t1)'
# s three times: sorted by util, highest first: h3 (0%) and down last.
keys s s s
sleep 0.3
check "sorted by util: h3 after h1 and h2" \
    sh -c "echo '$(rows)' | grep -Eq '^h[12] h[12] h3 down '"
keys q
tui_wait_exit 10
check "q: status 0 ($tui_status)" [ "$tui_status" = 0 ]
sleep 0.3
check "no node's process is left" [ "$(procs_tagged "NODES_RUN=tui-nodes-$$")" -eq 0 ]
tui_stop
exit 0
