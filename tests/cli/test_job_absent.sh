#!/bin/sh
# test_job_absent.sh: where the scheduler's record is not open (here
# --source procstat, which cannot tell tasks apart), a watched job's own
# figures are absent with the reason "no-job", never the CPUs' figures
# under the job's name (issue 33); without a job, the same. The simulator
# too: its CPUs run no task of this machine, so no record is opened beside
# it (the counters' own case, the record beside: test_job_counters.sh).
. "$HTTOP_SRCDIR/tests/lib.sh"
need python3 python3
[ -r /proc/stat ] || skip_all "no /proc/stat"
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
plan 3
for what in job none sim; do
	src=procstat
	case $what in
	job) set -- --pid $$ ;;
	sim) set -- --pid $$; src=sim ;;
	*) set -- ;;
	esac
	"$HTTOP" --source $src -b --format json -n 2 -d 0.1 "$@" >"$dir/$what.json" 2>"$dir/err"
	r=$(python3 - "$dir/$what.json" <<'PY'
import json, sys
bad = []
for l in map(json.loads, open(sys.argv[1])):
    for name, obj in [("node", l["node"])] + [("core", c) for c in l["cores"]] + \
            [("thread", t) for t in l["threads"] if t.get("valid")]:
        keys = ["job_util"] if name == "thread" else ["job_both", "job_alone", "job_shared", "job_none"]
        if name == "node":
            keys.append("cpu_s")
        for k in keys:
            if obj.get(k) is not None or obj.get("absent", {}).get(k) != "no-job":
                bad.append("%s %s=%r (%r)" % (name, k, obj.get(k), obj.get("absent", {}).get(k)))
print("; ".join(bad[:4]) or "all absent, no-job")
sys.exit(1 if bad else 0)
PY
)
	check "$src, $what watched: the job's figures absent with no-job: $r" [ $? -eq 0 ]
done
