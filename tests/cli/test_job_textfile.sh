#!/bin/sh
# test_job_textfile.sh: a per-job httop (--pid here; --job and --cgroup the
# same) beside the node's own httop, both with --textfile in one node
# exporter directory. The job's httop writes httop-job-ID.prom, not
# httop.prom (before, it replaced the node's file), labels every series
# jobid="ID" (before, its httop_node_* were the node daemon's series under
# the same host), writes no httop_core_slurm_job_info (the node's to say),
# and removes its file when it ends. Debian's real node exporter serves
# both files with node_textfile_scrape_error 0 and no series twice.
. "$HTTOP_SRCDIR/tests/lib.sh"
EXPORTER=${NODE_EXPORTER:-/usr/bin/prometheus-node-exporter}
need python3 python3
need curl curl
[ -x "$EXPORTER" ] || skip_all "prometheus-node-exporter is not installed (Debian: prometheus-node-exporter)"
tmp=$(mktemp -d) || exit 1
sleep 120 &
spid=$!
pids=
cleanup() {
	for p in $pids $spid; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
cd "$tmp" || exit 1
plan 10

mkdir tf
# The node's httop (one interval is enough: its file stays).
HTTOP_CLOCK=virtual "$HTTOP" --demo --seed 7 -b -n 1 --format summary --textfile "$tmp/tf" \
    --textfile-level core >node.out 2>node.err
cp tf/httop.prom node.prom
# The job's httop, running while the exporter is scraped.
"$HTTOP" --demo --seed 7 -b -d 0.3 --pid "$spid" --format summary --textfile "$tmp/tf" \
    --textfile-level core >job.out 2>job.err &
jpid=$!
pids="$jpid"
i=0
while [ $i -lt 100 ] && [ ! -f "tf/httop-job-$spid.prom" ]; do sleep 0.1; i=$((i + 1)); done
check "the job's httop writes httop-job-$spid.prom beside httop.prom ($(ls tf | tr '\n' ' '))" \
    [ -f "tf/httop-job-$spid.prom" ] && [ -f tf/httop.prom ]
check "the node's httop.prom is the node's, untouched" cmp -s tf/httop.prom node.prom
check "every series of the job's file is labelled jobid=\"$spid\"" sh -c \
    '[ "$(grep -v "^#" "$1" | grep -vc "[{,]jobid=\"$2\"[,}]")" = 0 ] && grep -q "^httop_node_cores{" "$1"' \
    sh "tf/httop-job-$spid.prom" "$spid"
check "no httop_core_slurm_job_info in the job's file" sh -c \
    '! grep -q "^httop_core_slurm_job_info" "$1"' sh "tf/httop-job-$spid.prom"

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$EXPORTER" --web.listen-address="127.0.0.1:$port" --collector.disable-defaults \
    --collector.textfile --collector.textfile.directory="$tmp/tf" >exporter.log 2>&1 &
pids="$pids $!"
i=0
while [ $i -lt 200 ] && ! curl -sf "http://127.0.0.1:$port/metrics" >metrics.txt 2>/dev/null; do
	sleep 0.1
	i=$((i + 1))
done
check "the exporter reads both files, node_textfile_scrape_error 0" sh -c \
    'grep -q "^node_textfile_scrape_error 0$" metrics.txt &&
     grep -q "^node_textfile_mtime_seconds{file=\"[^\"]*/httop.prom\"}" metrics.txt &&
     grep -q "^node_textfile_mtime_seconds{file=\"[^\"]*/httop-job-$1.prom\"}" metrics.txt' sh "$spid"
check "the node's and the job's series apart: httop_node_cores without and with jobid" python3 -c '
import re, sys
seen, node, job = set(), 0, 0
for line in open(sys.argv[1]):
    m = re.match(r"^(httop_\w+)(\{.*\})? (\S+)$", line)
    if not m:
        continue
    key = (m.group(1), m.group(2))
    assert key not in seen, key
    seen.add(key)
    if m.group(1) == "httop_node_cores":
        if "jobid=\"%s\"" % sys.argv[2] in m.group(2):
            job += 1
        else:
            node += 1
assert node == 1 and job == 1, (node, job)
' metrics.txt "$spid"
# The same in OpenMetrics: every sample of a watched job's exposition.
HTTOP_CLOCK=virtual "$HTTOP" --demo --seed 7 -b -n 2 --pid "$spid" --format openmetrics >job.om 2>>job.err
check "openmetrics with --pid: every sample labelled jobid=\"$spid\"" sh -c \
    '[ "$(grep -v "^#" "$1" | grep -vc "[{,]jobid=\"$2\"[,}]")" = 0 ] && [ "$(grep -vc "^#" "$1")" -gt 100 ]' \
    sh job.om "$spid"
HTTOP_CLOCK=virtual "$HTTOP" --demo --seed 7 -b -n 2 --format openmetrics >node.om 2>>job.err
check "openmetrics of the node: no jobid label" sh -c '! grep -q "jobid=" "$1"' sh node.om

# When the job's httop ends its file goes (its figures would stay for ever).
kill -TERM "$jpid"
wait "$jpid"
st=$?
check "the job's httop ends on SIGTERM ($st) and removes its file" sh -c \
    '[ ! -e "tf/httop-job-$1.prom" ]' sh "$spid"
check "the node's httop.prom stays" cmp -s tf/httop.prom node.prom
exit 0
