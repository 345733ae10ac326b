#!/bin/sh
# test_prometheus.sh: a real Prometheus (Debian's) scraping httop's
# textfile through the real node exporter answers the PromQL of httop(1)
# (issue 28). httop watches a process of this test (--pid: the job) on the
# simulator every 0.5 s with --textfile (level thread); the exporter
# serves the file on 127.0.0.1, and Prometheus, started on 127.0.0.1 with
# a temporary configuration and storage, scrapes it every second. After
# 12 scrapes: the CPI over the last minute per thread, node and job, from
# the raw counts, lies within the per-interval CPI gauges of the same
# window (a mean of them, weighed by instructions); the job's four shares are
# each in [0, 1] and sum to 1; its frequency lies within the gauges'. Every
# query of the Grafana dashboard (contrib/grafana) returns data, its
# variables set as Grafana would ($host, $job: .*, $__rate_interval: 1m).
. "$HTTOP_SRCDIR/tests/lib.sh"
need prometheus prometheus
need curl curl
need python3 python3
EXPORTER=${NODE_EXPORTER:-/usr/bin/prometheus-node-exporter}
[ -x "$EXPORTER" ] || skip_all "prometheus-node-exporter is not installed (Debian: prometheus-node-exporter)"
DASH="$HTTOP_SRCDIR/contrib/grafana/httop-dashboard.json"
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
plan 8

free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
eport=$(free_port)
pport=$(free_port)
mkdir tf data
sleep 120 &
job=$!
pids="$job"
"$HTTOP" --demo --seed 5 -b -d 0.5 --pid "$job" --format summary --textfile "$PWD/tf" \
    --textfile-level thread \
    >httop.out 2>httop.err &
pids="$pids $!"
"$EXPORTER" --web.listen-address="127.0.0.1:$eport" --collector.disable-defaults \
    --collector.textfile --collector.textfile.directory="$PWD/tf" >exporter.log 2>&1 &
pids="$pids $!"
cat >prometheus.yml <<EOF2
global:
  scrape_interval: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: node
    static_configs:
      - targets: ['127.0.0.1:$eport']
EOF2
prometheus --config.file="$PWD/prometheus.yml" --storage.tsdb.path="$PWD/data" \
    --web.listen-address="127.0.0.1:$pport" >prometheus.log 2>&1 &
ppid_=$!
pids="$pids $ppid_"

API="http://127.0.0.1:$pport/api/v1"
# query EXPR: the JSON answer of an instant query.
query() { curl -sf --get "$API/query" --data-urlencode "query=$1"; }
# Up and with 12 scrapes of httop's series (allow 60 s).
i=0
while [ $i -lt 600 ]; do
	n=$(query 'count_over_time(httop_node_cycles_total[1m])' 2>/dev/null |
	    python3 -c 'import json, sys; r = json.load(sys.stdin)["data"]["result"]; print(r[0]["value"][1] if r else 0)' 2>/dev/null)
	[ "${n:-0}" -ge 12 ] 2>/dev/null && break
	kill -0 "$ppid_" 2>/dev/null || break
	sleep 0.1
	i=$((i + 1))
done
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
# The dashboard's queries, each with data.
python3 - "$DASH" "$API" "$job" >dash.out 2>&1 <<'EOF2'
import json, sys, urllib.parse, urllib.request
dash, api, job = sys.argv[1:]
d = json.load(open(dash))
exprs = [(p["title"], t["expr"]) for p in d["panels"] for t in p.get("targets", [])]
exprs += [(v["name"], v["definition"]) for v in d["templating"]["list"] if "definition" in v]
bad = []
for title, e in exprs:
    q = e.replace("$__rate_interval", "1m").replace("$host", ".*").replace("$job", ".*")
    if q.startswith("label_values("):
        inner, label = q[len("label_values("):-1].rsplit(",", 1)
        url = api + "/series?" + urllib.parse.urlencode({"match[]": inner.strip()})
        r = json.load(urllib.request.urlopen(url))
        n = len({s.get(label.strip()) for s in r["data"]} - {None})
    else:
        url = api + "/query?" + urllib.parse.urlencode({"query": q})
        r = json.load(urllib.request.urlopen(url))
        n = len(r["data"]["result"])
    print("%-40s %d" % (title, n))
    if n == 0:
        bad.append(title)
assert len(exprs) >= 10 and not bad, bad
EOF2
check "every query of the Grafana dashboard returns data ($(grep -c . dash.out) queries)" \
    sh -c "! grep -q Error dash.out && ! grep -q ' 0\$' dash.out && [ \$(grep -c . dash.out) -ge 10 ]"
exit 0
