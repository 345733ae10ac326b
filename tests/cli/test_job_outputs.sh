#!/bin/sh
# test_job_outputs.sh: the watched job in every output (issue 28). With
# --pid (a sleep of this test's, on the simulator), each format names the
# job: openmetrics httop_job_info{jobid,kind,pid} and the job's own
# aggregate families httop_job_X{host,jobid}, equal to the node's (the
# node's figures are the job's cores' in a job's view); json "job"; csv's
# job column on every row; summary "job PID" at the end of each line; the
# node exporter's textfile the same families as openmetrics. When the job
# ends, the whole job: a summary in text, one more record (window "run")
# in the other formats (openmetrics: one more exposition of the stream),
# which promtool still loads.
. "$HTTOP_SRCDIR/tests/lib.sh"
need python3 python3
need jq jq
CHECK="$HTTOP_SRCDIR/tests/cli/om_check.py"
tmp=$(mktemp -d) || exit 1
sleep 60 &
spid=$!
trap 'kill $spid 2>/dev/null; wait $spid 2>/dev/null; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
cd "$tmp" || exit 1
export HTTOP_CLOCK=virtual
plan 15

run() { "$HTTOP" --demo --seed 3 -b -n 2 --pid "$spid" "$@" 2>>err; }
run --format openmetrics --level node >j.om
check "om_check accepts the stream with the job's families" python3 "$CHECK" openmetrics j.om
check "httop_job_info names the job, its kind and PID" sh -c \
    '[ "$(grep -c "^httop_job_info{host=\"[^\"]*\",jobid=\"$1\",kind=\"pid\",pid=\"$1\"} 1 " j.om)" = 2 ]' \
    sh "$spid"
# The job's aggregate is the node's under the job's label: every
# httop_node_X sample has its httop_job_X twin with the same value, and
# every httop_node_X family its httop_job_X, but for the job's own
# figures, whose "job_" the job's family does not double
# (httop_node_job_both_ratio: httop_job_both_ratio, not
# httop_job_job_both_ratio; the gauge of cpu_s httop_job_interval_cpu_seconds,
# apart from the counter httop_job_cpu_seconds_total).
check "every node series and family has a job twin, none named httop_job_job_" python3 -c '
import re, sys
pid = sys.argv[2]
own = {"job_cpu_seconds": "interval_cpu_seconds"}
def twin(n):
    return own.get(n, n[4:] if n.startswith("job_") else n)
node, job, fam = {}, {}, {"node": set(), "job": set()}
for l in open(sys.argv[1]):
    assert not l.startswith(("httop_job_job_", "# TYPE httop_job_job_")), l
    m = re.match(r"^# TYPE httop_(node|job)_(\w+) ", l)
    if m:
        fam[m.group(1)].add(twin(m.group(2)) if m.group(1) == "node" else m.group(2))
    m = re.match(r"^httop_(node|job)_(\w+)\{host=\"[^\"]*\"(,jobid=\"([^\"]*)\")?(.*)\} (\S+) ", l)
    if not m or m.group(2) == "info":
        continue
    if m.group(1) == "job":
        assert m.group(4) == pid, l
    name = twin(m.group(2)) if m.group(1) == "node" else m.group(2)
    (node if m.group(1) == "node" else job).setdefault((name, m.group(5)), []).append(m.group(6))
assert node and node == job, (len(node), len(job))
assert "both_ratio" in fam["job"] and "interval_cpu_seconds" in fam["job"], fam["job"]
assert fam["node"] <= fam["job"], fam["node"] - fam["job"]
print(len(node), len(fam["job"]))
' j.om "$spid"
run --format json >j.json
check_schema j.json
check "json: job {kind pid, id and pid the PID} on each line" sh -c \
    '[ "$(jq -c "[.job.kind, .job.id, .job.pid, .job.user]" j.json | sort -u)" = "[\"pid\",\"$1\",\"$1\",null]" ]' \
    sh "$spid"
run --format csv >j.csv
check "csv: the job column holds the PID on every row" python3 -c '
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert rows and all(r["job"] == sys.argv[2] for r in rows), set(r["job"] for r in rows)
' j.csv "$spid"
run --format summary >j.sum
check "summary: each line ends with job PID" sh -c \
    '[ "$(grep -c " job $1\$" j.sum)" = 2 ] && [ "$(wc -l <j.sum)" = 2 ]' sh "$spid"
mkdir tf
# A watched job's textfile is httop-job-ID.prom, there while httop runs
# (test_job_textfile.sh).
env -u HTTOP_CLOCK "$HTTOP" --demo --seed 3 -b -d 0.3 --pid "$spid" --format summary \
    --textfile "$PWD/tf" >/dev/null 2>>err &
tfpid=$!
i=0
while [ $i -lt 100 ] && [ ! -f "tf/httop-job-$spid.prom" ]; do sleep 0.1; i=$((i + 1)); done
cp "tf/httop-job-$spid.prom" tf.prom 2>/dev/null
kill "$tfpid" 2>/dev/null
wait "$tfpid" 2>/dev/null
check "textfile: httop_job_info and the job's families" sh -c \
    'grep -q "^httop_job_info{.*jobid=\"$1\"" tf.prom &&
     grep -q "^httop_job_state_seconds_total{host=\"[^\"]*\",jobid=\"$1\",state=\"both\"}" tf.prom &&
     python3 "$2" prometheus tf.prom >/dev/null' sh "$spid" "$CHECK"
# Without a job: none of it.
"$HTTOP" --demo --seed 3 -b -n 1 --format openmetrics >n.om 2>/dev/null
check "without a watched job: no job series, no job key" sh -c \
    '! grep -q "^httop_job" n.om && [ "$("$1" --demo -b -n 1 --format json 2>/dev/null | jq -c .job)" = null ]' \
    sh "$HTTOP"

# The job's end: after its last interval, the whole job. A job of 1.2 s
# watched every 0.3 s (the real clock: the job ends by itself).
unset HTTOP_CLOCK
whole() {
	sleep 1.2 &
	wpid=$!
	"$HTTOP" --demo --seed 3 -b -d 0.3 --pid "$wpid" "$@" 2>>err
	wait "$wpid"
}
whole --format text >w.txt
check "text: the whole job's summary when it ends" sh -c \
    'grep -q "^ httop: job pid [0-9]*: ended; watched for " w.txt &&
     grep -q "^ host .*; the job.s CPUs .*; figures over " w.txt && grep -q "^  node  " w.txt'
whole --format json >w.json
check "json: the last line is the whole job (window run, its length the intervals' sum)" \
    python3 -c '
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
last, ivs = lines[-1], lines[:-1]
assert last.get("window") == "run" and all("window" not in l for l in ivs), last.get("window")
assert len(ivs) >= 3, len(ivs)
assert abs(last["interval"] - sum(l["interval"] for l in ivs)) < 1e-3, last["interval"]
assert last["job"]["kind"] == "pid"
' w.json
check_schema w.json
whole --format openmetrics >w.om
check "openmetrics: the whole job last, window=run, then its # EOF" sh -c \
    'python3 "$1" openmetrics w.om >/dev/null &&
     tail -n 2 w.om | head -n 1 | grep -q "window=\"run\"" && [ "$(tail -n 1 w.om)" = "# EOF" ]' \
    sh "$CHECK"
if command -v promtool >/dev/null 2>&1; then
	# A stream is a sequence of expositions, each ending "# EOF":
	# promtool's backfill takes one at a time.
	check "promtool loads each exposition of the stream, the whole job's record too" sh -c '
	    awk "{ print > (\"part.\" n) } /^# EOF\$/ { n++ }" w.om &&
	    [ "$(ls part.* | wc -l)" -ge 4 ] &&
	    for p in part.*; do promtool tsdb create-blocks-from openmetrics "$p" blocks >/dev/null || exit 1; done' 
else
	skip "promtool is not installed (Debian: prometheus)"
fi

# An MPI job's ranks as --pid (pgrep -d,): 40 PIDs, a list of 200 and more
# characters, named whole (the trial of session 32: past 127 characters
# the job had no id and no pid in every output).
pids=
for i in $(seq 1 40); do sleep 60 & pids="$pids${pids:+,}$!"; done
"$HTTOP" --demo -b -n 1 -d 0.1 --pid "$pids" --format json >many.json 2>many.err
kill $(echo "$pids" | tr , ' ') 2>/dev/null
wait 2>/dev/null
check "40 PIDs (${#pids} characters): the job's id and pid are the whole list" \
    python3 -c 'import json, sys
d = json.loads(open("many.json").readline())["job"]
sys.exit(not (d["pid"] == sys.argv[1] and d["id"] == sys.argv[1]))' "$pids"
exit 0
