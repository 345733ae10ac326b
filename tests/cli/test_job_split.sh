#!/bin/sh
# test_job_split.sh: the watched job's own figures from the scheduler's
# record (issue 33), on the real kernel, CPUs 0 and 1 declared siblings,
# loads pinned with taskset (tests/schedlib.sh):
#  1. the job busy on CPU 0, a stranger busy 10 ms of every 20 on CPU 1:
#     job_alone and job_shared about 0.5 each, job_both and job_none
#     about 0; job_util about 1 on CPU 0 and 0 on CPU 1;
#  2. the job's two children busy, one on each CPU: job_both about 1;
#  3. the job forks a child onto CPU 1 once httop runs: the child counts
#     (job_util of CPU 1 about 1);
#  4. `httop -- COMMAND` beside a busy stranger on each CPU: the run's
#     cpu_s within 10% of the command's own CPU time (its getrusage), plus
#     at most the time a hypervisor stole from the CPUs meanwhile (the
#     record sees a task on its CPU; the kernel's CPU time leaves steal
#     out: on this VM, steal is often 10-20%).
#  5. a job by cgroup (--cgroup, a v1 cpuset made for the test, or v2
#     where cpuset is there, as tests/cli/test_bpf.sh case 6): a busy loop
#     on CPU 1 moved into it once httop wrote its first interval, out 2 s later
#     (as Slurm and systemd place tasks: fork, then move) counts while it
#     is in (a task's cgroup is read again in each interval): CPU 1's
#     job_util about 0 in the first and last intervals (of 1 s), > 0.3 in
#     the third. Skipped where no such cgroup can be made.
# "About": within 0.2, the CPUs being shared with whatever else runs.
. "$HTTOP_SRCDIR/tests/lib.sh"
. "$HTTOP_SRCDIR/tests/schedlib.sh"
need python3 python3
dir=$(mktemp -d) || exit 1
trap 'stop_loads; rm -rf "$dir"' EXIT
trap 'exit 1' INT TERM HUP
sched_setup "$dir" "CPU-wide perf events (or perf_event_paranoid <= 0)"
plan 13

# mean FILE: the mean over FILE's intervals but the first of the core 0's
# job figures, CPUs 0 and 1's job_util and CPU 1's util (every task's),
# "both alone shared none u0 u1 b1".
mean() {
	python3 - "$1" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
lines = [l for l in lines if "window" not in l][1:]
acc = {k: 0.0 for k in ("job_both", "job_alone", "job_shared", "job_none", "u0", "u1", "b1")}
n = 0
for l in lines:
    c = next(c for c in l["cores"] if 0 in c["cpus"])
    t = {x["cpu"]: x for x in l["threads"]}
    got = [c[k] for k in ("job_both", "job_alone", "job_shared", "job_none")] + \
        [t[0]["job_util"], t[1]["job_util"], t[1]["util"]]
    # an interval without figures (records lost on a busy machine) is
    # left out of the mean, not counted as nothing
    if any(v is None for v in got):
        continue
    for k, v in zip(("job_both", "job_alone", "job_shared", "job_none", "u0", "u1", "b1"), got):
        acc[k] += v
    n += 1
n = max(n, 1)
print(" ".join("%.3f" % (acc[k] / n) for k in
               ("job_both", "job_alone", "job_shared", "job_none", "u0", "u1", "b1")))
PY
}
# near VALUE WANT: |VALUE - WANT| <= 0.2
near() { python3 -c 'import sys; sys.exit(abs(float(sys.argv[1]) - float(sys.argv[2])) > 0.2)' "$1" "$2"; }
# steal: the CPUs' steal ticks (/proc/stat), summed, in seconds (USER_HZ 100)
steal() { awk '/^cpu /{printf "%.2f\n", $9 / 100}' /proc/stat; }
watch() {
	"$HTTOP" --source sched --topology "$sib" -b --format json -d 0.5 -n 5 "$@" \
	    >"$dir/out.json" 2>"$dir/err" || sed 's/^/# httop: /' "$dir/err"
}

# 1. the job alone on CPU 0 beside a stranger on CPU 1 half the time
load_busy 0 10; job=$load
load_half 10
sleep 0.3
watch --pid "$job"
stop_loads
set -- $(mean "$dir/out.json")
echo "# 1: both $1 alone $2 shared $3 none $4 job_util cpu0 $5 cpu1 $6; CPU 1 busy $7"
# Always: the split and the threads' job time agree (the same records):
# 2 both + alone + shared = job_util 0 + job_util 1; the job never on
# CPU 1. The shares of the known schedule are judged when the machine
# let it run so (the job on CPU 0 90% or more, CPU 1 busy 35-65%).
check "2 job_both + job_alone + job_shared = job_util of CPU 0 + CPU 1 ($1 $2 $3 / $5 $6)" \
    python3 -c 'import sys; a = [float(x) for x in sys.argv[1:]]; sys.exit(abs(2 * a[0] + a[1] + a[2] - a[3] - a[4]) > 0.01)' \
    "$1" "$2" "$3" "$5" "$6"
check "the job never on CPU 1 (job_util $6), never on both threads (job_both $1)" \
    python3 -c 'import sys; sys.exit(float(sys.argv[1]) > 0.05 or float(sys.argv[2]) > 0.05)' "$6" "$1"
if python3 -c 'import sys; sys.exit(not (float(sys.argv[1]) >= 0.9 and 0.35 <= float(sys.argv[2]) <= 0.65))' "$5" "$7"; then
	check "job beside a stranger half the time: job_alone $2 and job_shared $3 about 0.5, job_none $4 about 0" \
	    sh -c 'near() { python3 -c "import sys; sys.exit(abs(float(sys.argv[1]) - float(sys.argv[2])) > 0.2)" "$1" "$2"; }
		near "$1" 0.5 && near "$2" 0.5 && near "$3" 0' sh "$2" "$3" "$4"
else
	ok "# SKIP the machine is busy: the job ran $5 of CPU 0, CPU 1 was busy $7 (the schedule wants 1 and 0.5)"
fi

# 2. two children of the job, one on each CPU
timeout 10 sh -c 'taskset -c 0 sh -c "while :; do :; done" & taskset -c 1 sh -c "while :; do :; done" & wait' &
job=$!; load_add "$job"
sleep 0.3
watch --pid "$job"
stop_loads
set -- $(mean "$dir/out.json")
echo "# 2: both $1 alone $2 shared $3 none $4 job_util cpu0 $5 cpu1 $6"
check "2 job_both + job_alone + job_shared = job_util of CPU 0 + CPU 1 ($1 $2 $3 / $5 $6)" \
    python3 -c 'import sys; a = [float(x) for x in sys.argv[1:]]; sys.exit(abs(2 * a[0] + a[1] + a[2] - a[3] - a[4]) > 0.01)' \
    "$1" "$2" "$3" "$5" "$6"
if python3 -c 'import sys; sys.exit(not (float(sys.argv[1]) >= 0.9 and float(sys.argv[2]) >= 0.9))' "$5" "$6"; then
	check "the job on both threads: job_both $1 about 1" near "$1" 1
else
	ok "# SKIP the machine is busy: the job ran $5 of CPU 0 and $6 of CPU 1 (the schedule wants 1 each)"
fi

# 3. the job forks a child onto CPU 1 after httop started
timeout 10 taskset -c 0 sh -c 'sleep 1.3; taskset -c 1 sh -c "while :; do :; done" & while :; do :; done' &
job=$!; load_add "$job"
sleep 0.1
watch --pid "$job"
stop_loads
python3 - "$dir/out.json" >"$dir/late" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
lines = [l for l in lines if "window" not in l]
u1 = [next(t for t in l["threads"] if t["cpu"] == 1)["job_util"] for l in lines]
# an interval without the figure (records lost on a busy machine): "-"
print(" ".join("-" if u is None else "%.3f" % u for u in u1))
PY
echo "# 3: job_util of CPU 1 per interval: $(cat "$dir/late")"
# The fork comes 1.3 s after the job started, httop 0.1 s after it with
# 0.5 s intervals: the first interval is before the fork (even with a
# slow start, as under the sanitizers), the third and later after it. An interval without the figure (an unrecorded switch,
# lost records) is judged by none of the two parts.
set -- $(cat "$dir/late")
before=${1:--}
if [ $# -ge 2 ]; then shift 2; else set --; fi
after=-
for u in "$@"; do [ "$u" = - ] || after=$u; done
if [ "$after" = - ]; then
	ok "# SKIP the machine is busy: no interval after the fork has CPU 1's job_util ($(cat "$dir/late"))"
elif [ "$before" = - ]; then
	check "a child forked onto CPU 1 counts as the job's: job_util $after after the fork (the interval before it has no figure: $(cat "$dir/late"))" \
	    python3 -c 'import sys; sys.exit(float(sys.argv[1]) < 0.1)' "$after"
else
	check "a child forked onto CPU 1 counts as the job's: job_util $before before the fork, $after after ($(cat "$dir/late"))" \
	    python3 -c 'import sys; sys.exit(float(sys.argv[1]) > 0.05 or float(sys.argv[2]) < 0.1)' "$before" "$after"
fi

# 4. httop -- COMMAND beside a busy stranger on each CPU: the command
# reports its own CPU time (user + system, getrusage) when it ends.
load_busy 0 10
load_busy 1 10
st0=$(steal)
"$HTTOP" --source sched -b --format json -d 0.5 -o "$dir/cmd.json" --record "$dir/cmd.trace" -- python3 -c '
import resource, sys, time
t = time.process_time()
while time.process_time() - t < 1.5:
    pass
r = resource.getrusage(resource.RUSAGE_SELF)
open(sys.argv[1], "w").write("%.6f\n" % (r.ru_utime + r.ru_stime))' "$dir/own" \
    2>"$dir/cmd.err"
st=$?
st1=$(steal)
stop_loads
check "httop -- COMMAND exits 0 (got $st)" [ "$st" -eq 0 ]
# The record counts the time a task is on a CPU, time a hypervisor stole
# from that virtual CPU included; the kernel's CPU time leaves steal out.
# So: within 10% of the command's own time, plus at most the CPUs' steal
# over the run.
r=$(python3 - "$dir/cmd.json" "$dir/own" "$st0" "$st1" <<'PY'
import json, sys
run = [json.loads(l) for l in open(sys.argv[1]) if '"window":"run"' in l][-1]
own = float(open(sys.argv[2]).read())
steal = float(sys.argv[4]) - float(sys.argv[3])
node = run["node"]
cpu, lo, hi = node["cpu_s"], node["cpu_s_lo"], node["cpu_s_hi"]
if cpu is None and lo is None:
    # records lost on a CPU of the command's all run long: no sum, and the reason
    print("the run's cpu_s absent (%s), the command's own %.3f s" %
          (node["absent"].get("cpu_s"), own))
    sys.exit(2 if node["absent"].get("cpu_s") == "lost" else 1)
# Records lost in part of the run: a bound, judged as some value in it.
if cpu is None:
    print("cpu_s a bound %.3f-%.3f (records lost), the command's own %.3f s, the CPUs' steal "
          "%.2f s" % (lo, hi, own, steal))
    sys.exit(not (lo <= hi and 0.9 * own <= hi and lo <= 1.1 * own + steal))
print("cpu_s %s, the command's own %.3f s, the CPUs' steal %.2f s" % (cpu, own, steal))
sys.exit(not (0.9 * own <= cpu <= 1.1 * own + steal))
PY
)
case $? in
0) ok "the run's cpu_s within 10% of the command's own CPU time (plus steal): $r" ;;
2) skip "the machine is busy: the scheduler's records were lost: $r" ;;
*) not_ok "the run's cpu_s within 10% of the command's own CPU time (plus steal): $r" ;;
esac
# The recording replays the job's figures: each interval's cpu_s again,
# and the whole run's last (a job's recording replays as the job, with its
# whole run: trace 1.6).
"$HTTOP" --replay "$dir/cmd.trace" -b --format json -o "$dir/rep.json" 2>"$dir/rep.err"
r=$(python3 - "$dir/cmd.json" "$dir/rep.json" <<'PY'
import json, sys
live = [json.loads(l) for l in open(sys.argv[1])]
rep = [json.loads(l) for l in open(sys.argv[2])]
# cpu_s, or its bound where the interval lost records on a core
def cpu(n):
    return n["cpu_s"] if n["cpu_s"] is not None else (n["cpu_s_lo"], n["cpu_s_hi"])
def same(x, y):
    if x == (None, None) or y == (None, None):
        return x == y    # absent (records lost all interval long) in both
    if isinstance(x, tuple) and isinstance(y, tuple):
        return all(same(p, q) for p, q in zip(x, y))
    return x is not None and y is not None and not isinstance(x, tuple) and \
        not isinstance(y, tuple) and abs(x - y) <= 1e-5 * max(x, 1)
a = [cpu(l["node"]) for l in live]
b = [cpu(l["node"]) for l in rep]
print("live %s, replayed %s" % (a, b))
sys.exit(len(a) != len(b) or not all(same(x, y) for x, y in zip(a, b)))
PY
) && ok "--record/--replay: the job's cpu_s of each interval and of the whole run again: $r" ||
    not_ok "--record/--replay: the job's cpu_s of each interval and of the whole run again: $r"
# OpenMetrics of a watched command: the job's counters, the CPU seconds
# the sum of the intervals' (the first and the last, partial, included)
# and within 10% of the command's own CPU time when every interval was
# valid, the seconds of the intervals without them in the uncovered
# counter, the three states there.
st0=$(steal)
"$HTTOP" --source sched --topology "$sib" -b --format openmetrics -d 0.5 \
    -o "$dir/cmd.om" -- python3 -c '
import resource, sys, time
t = time.process_time()
while time.process_time() - t < 0.8:
    pass
r = resource.getrusage(resource.RUSAGE_SELF)
open(sys.argv[1], "w").write("%.6f\n" % (r.ru_utime + r.ru_stime))' "$dir/own2" 2>>"$dir/cmd.err"
st1=$(steal)
r=$(python3 - "$dir/cmd.om" "$dir/own2" "$st0" "$st1" <<'PY'
import re, sys
om = open(sys.argv[1]).read()
own = float(open(sys.argv[2]).read())
st = re.findall(r'^httop_job_core_state_seconds_total\{[^}]*state="(\w+)"\} (\S+)', om, re.M)
last = {k: float(v) for k, v in st}
steal = float(sys.argv[4]) - float(sys.argv[3])
# Each interval: valid or not, and the job's CPU seconds of the interval
# (the gauge; none in an interval that is not valid). The counter is
# their running sum, the first interval and the last, partial one
# included: the run's record (window="run") ends with their sum, and its
# gauge of the whole run (httop_job_interval_cpu_seconds, not a doubled
# httop_job_job_) says the same. The seconds of the intervals without it
# are the uncovered counter's. A command's run is one exposition (each
# series' samples in time order, each with its interval's timestamp):
# the intervals are told apart by their timestamps.
per, run_gauge = {}, None
for m in re.finditer(r"^(httop_job_interval_cpu_seconds|httop_interval_valid|httop_interval_seconds)"
                     r"\{([^}]*)\} (\S+) (\S+)$", om, re.M):
    name, labels, val, ts = m.groups()
    # a bound (a core's records lost): an interval's is not counted, its
    # seconds uncovered; the run's is not the counter's sum
    if 'window="run"' in labels:
        if name == "httop_job_interval_cpu_seconds":
            run_gauge = "bound" if 'bound="' in labels else float(val)
        continue
    if 'bound="' in labels:
        per.setdefault(float(ts), {})["bound"] = True
        continue
    per.setdefault(float(ts), {})[name] = float(val)
ivs, dts = [], []
for ts in sorted(per):
    x = per[ts]
    if "httop_interval_valid" in x and "httop_interval_seconds" in x:
        g = None if x.get("bound") else x.get("httop_job_interval_cpu_seconds")
        ivs.append((x["httop_interval_valid"] == 1, g))
        dts.append(x["httop_interval_seconds"])
cpu = [float(m.group(2)) for m in re.finditer(
    r"^httop_job_cpu_seconds_total\{([^}]*)\} (\S+)", om, re.M) if 'window="run"' not in m.group(1)]
summed = sum(c for _, c in ivs if c is not None)
unc = [float(m.group(2)) for m in re.finditer(r"^httop_job_cpu_uncovered_seconds_total\{([^}]*)\} (\S+)",
                                              om, re.M) if 'window="run"' not in m.group(1)]
unc_want = sum(dt for (_, c), dt in zip(ivs, dts) if c is None)
shown = " ".join("%.3f" % c if c is not None else ("-" if ok else "invalid") for ok, c in ivs)
# an interval the record could not follow (records lost on a busy
# machine) adds nothing to the counters: then only their shape is judged
whole = all(ok for ok, _ in ivs)
print("cpu_seconds_total %s, the command's own %.3f s, steal %.2f s; states %s; intervals %s; "
      "uncovered %s s%s" % (cpu[-1:] or None, own, steal, last, shown, unc[-1:] or None,
                            "" if whole else " (an interval not valid: shape only)"))
if (not cpu or not ivs or cpu[-1] > 1.1 * own + steal or sorted(last) != ["alone", "both", "shared"]
        or sum(last.values()) > cpu[-1] + 1e-6 or abs(cpu[-1] - summed) > 1e-5 * len(ivs)
        or run_gauge is None or (run_gauge != "bound" and abs(run_gauge - cpu[-1]) > 1e-5 * len(ivs))
        or not unc or abs(unc[-1] - unc_want) > 1e-5 * len(ivs)
        or "httop_job_job_" in om):
    sys.exit(1)
# exit 2: the shape right, the CPU seconds short of the command's own
sys.exit(2 if whole and cpu[-1] < 0.9 * own else 0)
PY
); rc=$?
if [ "$rc" = 0 ]; then
	ok "openmetrics: the job's counters: $r"
elif [ "$rc" = 2 ]; then
	# Issue 33: in CI (CI4, before the intervals' validity was looked
	# at) the counter held 0.38-0.46 of the command's 0.84-0.86 s. The
	# counter is the sum of the intervals' cpu_s (checked above, the first
	# and the last, partial, included) and an interval that is not valid
	# adds nothing (httop_job_cpu_uncovered_seconds_total has its
	# seconds); every short run seen since had one. A run short with
	# every interval valid has not been seen: should it come, it is said,
	# not hidden (TAP's TODO, XFAIL), with the intervals' figures.
	echo "not ok $((tap_n + 1)) - openmetrics: the job's counters: $r # TODO the CPU seconds counter short of the command's own under load (issue 33)"
	tap_n=$((tap_n + 1))
else
	not_ok "openmetrics: the job's counters: $r"
fi
# The summary format: the job's own CPU seconds and shared share after
# its id.
"$HTTOP" --source sched --topology "$sib" -b --format summary -d 0.3 -o "$dir/cmd.sum" \
    -- sh -c 'i=0; while [ $i -lt 200000 ]; do i=$((i + 1)); done' 2>>"$dir/cmd.err"
sum=$(tail -n 1 "$dir/cmd.sum")
# (a bound where records were lost under load: "0.285-0.544 s (a bound)")
if grep -Eq ' job [0-9]+  its own cpu [0-9]+\.[0-9]{3}(-[0-9]+\.[0-9]{3})? s( \(a bound\))?, shared [0-9]+\.[0-9]%  whole run$' "$dir/cmd.sum"; then
	ok "summary: the job's own cpu and shared after its id: $sum"
elif printf '%s\n' "$sum" | grep -Eq ' job [0-9]+  (its own cpu [^,]*, shared -  )?whole run  .*: (records lost|.*not known)'; then
	# the record could not follow every switch (another program's flood
	# of switches on this VM): the figures are absent and the line says why
	ok "# SKIP summary: the run's record was not whole, the line says why: $sum"
else
	not_ok "summary: the job's own cpu and shared after its id: $sum"
fi
sed 's/^/# httop: /' "$dir/cmd.err"
# Cores of one thread (no --topology here): no split, so the shared share
# is absent, a dash as every absent figure is ("shared -%" it said).
"$HTTOP" --source sched -b --format summary -d 0.3 -o "$dir/one.sum" \
    -- sh -c 'i=0; while [ $i -lt 100000 ]; do i=$((i + 1)); done' 2>>"$dir/one.err"
sum=$(tail -n 1 "$dir/one.sum")
# (after "whole run" the run's reason where a core of it was not whole:
# the job's own figures are there all the same)
if grep -Eq ' job [0-9]+  its own cpu [0-9]+\.[0-9]{3} s, shared -  whole run($|  .+: .+)' "$dir/one.sum"; then
	ok "summary, one thread a core: the shared share a dash: $sum"
elif printf '%s\n' "$sum" | grep -Eq ' job [0-9]+  whole run  .*: (records lost|.*not known)'; then
	ok "# SKIP summary, one thread a core: the run's record was not whole, the line says why: $sum"
else
	not_ok "summary, one thread a core: the shared share a dash: $sum"
fi

# 5. a process moved into the job's cgroup, then out
cg=
for root in /sys/fs/cgroup/cpuset /sys/fs/cgroup; do
	[ -f "$root/cpuset.cpus.effective" ] || [ -f "$root/cpuset.effective_cpus" ] ||
	    [ -f "$root/cpuset.cpus" ] || continue
	mkdir "$root/httop-test-jobsplit.$$" 2>/dev/null || continue
	cg=$root/httop-test-jobsplit.$$
	for f in cpus mems; do
		[ -f "$cg/cpuset.$f" ] && cat "$root/cpuset.$f" >"$cg/cpuset.$f" 2>/dev/null
	done
	cgroot=$root
	break
done
if [ -z "$cg" ]; then
	skip "5 cgroup: no cpuset cgroup could be made here"
else
	trap 'stop_loads; [ -n "$cg" ] && rmdir "$cg" 2>/dev/null; rm -rf "$dir"' EXIT
	# (not under timeout: its child would be the loop; stop_loads ends it)
	load_busy 1; mv=$load
	# the job's cpuset needs a task at the start: a sleeper, on CPU 0
	taskset -c 0 sh -c 'echo $$ >"$1/cgroup.procs" && exec sleep 12' - "$cg" & load_add $!
	sleep 0.2
	# moved in once httop wrote its first interval (its start is slow on
	# a busy machine: the intervals, not the clock, place the move), out
	# 2 s later: the first interval without it, the last (the fifth)
	# without it again
	(i=0
	while [ ! -s "$dir/cg.json" ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i + 1)); done
	echo "$mv" >"$cg/cgroup.procs"; sleep 2; echo "$mv" >"$cgroot/cgroup.procs") &
	mover=$!
	"$HTTOP" --source sched --topology "$sib" -b --format json -d 1 -n 5 \
	    --cgroup "$cg" >"$dir/cg.json" 2>"$dir/cg.err" || sed 's/^/# httop: /' "$dir/cg.err"
	wait "$mover"
	stop_loads
	J=$(python3 - "$dir/cg.json" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
rows = [r for r in rows if "window" not in r]
print(" ".join(str(next(t for t in r["threads"] if t["cpu"] == 1).get("job_util")) for r in rows))
PY
)
	echo "# 5: cgroup $cg: CPU 1's job_util per interval: $J"
	set -- $J
	case " $1 ${5:-} " in
	*" None "*)
		# an interval without the figure (records lost on a busy
		# machine) cannot be judged
		ok "# SKIP the machine is busy: an interval judged has no job_util ($J)" ;;
	*)
		# the move counts from the refresh after it at the latest: one
		# of the intervals 2 to 4 holds it
		check "5 cgroup: moved in then out: CPU 1's job_util about 0 before ($1), > 0.3 while in (${2:-} ${3:-} ${4:-}), about 0 after (${5:-})" \
		    python3 -c 'import sys
v = sys.argv[1:]
sys.exit(len(v) != 5 or float(v[0]) > 0.05 or float(v[4]) > 0.05 or
         max(float(x) for x in v[1:4] if x != "None") <= 0.3)' "$@" ;;
	esac
	rmdir "$cg" 2>/dev/null && cg=
fi
