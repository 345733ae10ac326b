#!/bin/sh
# test_prometheus.sh: a real Prometheus (Debian's) scraping httop's
# textfile through the real node exporter answers the PromQL of httop(1)
# (issue 28). httop watches a process of this test (--pid: the job) on the
# simulator every 0.5 s with --textfile (level thread); a second httop
# reads /proc/stat (--source procstat: no counters, no exact split) at
# level core; an exporter serves each file on 127.0.0.1, and Prometheus,
# started on 127.0.0.1 with a temporary configuration and storage, scrapes
# them every second (tests/cli/promlib.sh). After 12 scrapes: the CPI over
# the last minute per thread, node and job, from the raw counts, lies
# within the per-interval CPI gauges of the same window (a mean of them,
# weighed by instructions); the job's four shares are each in [0, 1] and
# sum to 1; its frequency lies within the gauges'. The Grafana dashboard's
# node row (contrib/grafana), its variables set as Grafana would, answers
# numbers for both nodes, or says why not (no counters under procstat):
# never NaN (tests/cli/dash_check.py). Its job row, from a real Slurm
# job, is tested by test_slurm.sh.
. "$HTTOP_SRCDIR/tests/lib.sh"
. "$HTTOP_SRCDIR/tests/cli/promlib.sh"
prom_need
tmp=$(mktemp -d) || exit 1
pids=
cleanup() {
	for p in $pids; do kill "$p" 2>/dev/null; done
	for p in $pids; do wait "$p" 2>/dev/null; done
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
cd "$tmp" || exit 1
plan 10

mkdir tf tfp
sleep 120 &
job=$!
pids="$job"
"$HTTOP" --demo --seed 5 --host demonode -b -d 0.5 --pid "$job" --format summary --textfile "$PWD/tf" \
    --textfile-level thread \
    >httop.out 2>httop.err &
pids="$pids $!"
# A node without counters: /proc/stat (any user), its own host label.
"$HTTOP" --source procstat --host procnode -b -d 0.5 --format summary --textfile "$PWD/tfp" \
    --textfile-level core >procstat.out 2>procstat.err &
pids="$pids $!"
prom_start "$PWD/tf" "$PWD/tfp"
# query EXPR: the JSON answer of an instant query.
query() { curl -sf --get "$API/query" --data-urlencode "query=$1"; }
# Up and with 12 scrapes of httop's series (allow 60 s).
prom_wait 'httop_node_cycles_total' 12
n=$(prom_scrapes 'httop_node_cycles_total')
check "Prometheus scraped httop's series 12 times through the exporter (${n:-0})" \
    [ "${n:-0}" -ge 12 ]

# value EXPR: the values of the answer, one per line, "labels value".
value() {
	query "$1" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["status"] == "success", d
for r in d["data"]["result"]:
    m = r["metric"]
    print(",".join("%s=%s" % kv for kv in sorted(m.items())), r["value"][1])
'
}
# within EXPR LO HI: every value of EXPR in [LO, HI] (expressions too).
within() {
	v=$(value "$1" | awk '{ print $NF }')
	lo=$(value "$2" | awk '{ print $NF }')
	hi=$(value "$3" | awk '{ print $NF }')
	[ -n "$v" ] && [ -n "$lo" ] && [ -n "$hi" ] &&
	    python3 -c 'import sys; v, lo, hi = map(float, sys.argv[1:]); assert lo * 0.999 <= v <= hi * 1.001, (lo, v, hi)' \
	    "$v" "$lo" "$hi"
}
# CPI from the raw counts is the threads' (cycles per instruction summed
# over the threads, as perf stat counts it). Each thread's over the
# minute is a mean of its interval CPIs (httop_thread_cpi, the textfile at
# level thread), weighed by instructions: within their range; no thread
# is outside it (the query's answer is empty). The node's and the job's
# are means of the threads': within the threads' range.
tcpi='rate(httop_thread_cycles_total[1m]) / rate(httop_thread_instructions_total[1m])'
value "$tcpi" >tcpi.txt
outside=$(value "($tcpi) < on(host,cpu) (0.999 * min_over_time(httop_thread_cpi[1m])) or ($tcpi) > on(host,cpu) (1.001 * max_over_time(httop_thread_cpi[1m]))" 2>&1)
check "every thread's CPI over the minute lies within its interval CPIs ($(wc -l <tcpi.txt) threads)" \
    sh -c '[ "$(wc -l <tcpi.txt)" -ge 4 ] && [ -z "$1" ]' sh "$outside"
cpi_node='rate(httop_node_cycles_total[1m]) / rate(httop_node_instructions_total[1m])'
check "node CPI over the last minute ($(value "$cpi_node" | awk '{ print $NF }')) within its threads'" \
    within "$cpi_node" "min($tcpi)" "max($tcpi)"
cpi_job="rate(httop_job_cycles_total{jobid=\"$job\"}[1m]) / rate(httop_job_instructions_total{jobid=\"$job\"}[1m])"
check "job CPI over the last minute ($(value "$cpi_job" | awk '{ print $NF }')) within its threads'" \
    within "$cpi_job" "min($tcpi)" "max($tcpi)"
shares="rate(httop_job_state_seconds_total{jobid=\"$job\"}[1m]) / ignoring(state) group_left sum without (state) (rate(httop_job_state_seconds_total{jobid=\"$job\"}[1m]))"
value "$shares" >shares.txt
check "the job's four shares: each in [0, 1], their sum 1 ($(tr '\n' ' ' <shares.txt))" python3 -c '
import sys
v = {}
for l in open(sys.argv[1]):
    labels, x = l.split()
    v[dict(kv.split("=", 1) for kv in labels.split(","))["state"]] = float(x)
assert set(v) == {"neither", "t0_only", "t1_only", "both"}, v
assert all(0 <= x <= 1 for x in v.values()) and abs(sum(v.values()) - 1) < 1e-9, v
' shares.txt
ghz="rate(httop_job_cycles_total{jobid=\"$job\"}[1m]) / rate(httop_job_thread_busy_seconds_total{jobid=\"$job\"}[1m])"
check "the job's frequency ($(value "$ghz" | awk '{ print $NF }') Hz) within its gauges" \
    within "$ghz" "min_over_time(httop_job_frequency_hertz{jobid=\"$job\"}[1m])" \
    "max_over_time(httop_job_frequency_hertz{jobid=\"$job\"}[1m])"
info=$(value httop_job_info)
check "httop_job_info names the job (jobid, kind pid) beside Prometheus's job label: $info" \
    sh -c '[ "$(printf "%s\n" "$1" | grep -c "job=node,jobid=$2,kind=pid,")" = 1 ]' sh "$info" "$job"
# The dashboard's node row, as Grafana asks it: on the demo node every
# panel answers numbers; on the procstat node too, but for CPI and
# frequency, which it has no counters for (the panels say so).
prom_wait 'httop_node_utilization_ratio{host="procnode"}' 12
for h in demonode procnode; do
	case $h in demonode) want=Node:numbers ;; *) want=Node:numbers-or-why:4,5 ;; esac
	dash_check --var host="$h" "$want" >"dash.$h" 2>&1; st=$?
	sed 's/^/# /' "dash.$h"
	check "dashboard, node $h: every panel answers numbers, or says why not ($want)" [ "$st" -eq 0 ]
done
check "... procstat's shares fall back to its utilisation, labelled 'busy (no split)'" \
	grep -q '^ok SMT shares (node) (panel 2): 1 series' dash.procnode
