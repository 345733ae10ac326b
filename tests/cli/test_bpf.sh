#!/bin/sh
# test_bpf.sh: the bpf source (--source bpf, issue 37) on the real kernel,
# as root, CPUs 0 and 1 declared siblings (tests/schedlib.sh sched_setup):
# in each case httop --source bpf and --source sched run side by side over
# the same intervals (-d 1 -n 4, started together: their cuts are not the
# same instants, so the means of intervals 2-4 agree within 0.05):
#  1. a busy loop on CPU 0 and a load busy 10 ms of every 20 on CPU 1
#     (sched_load.py): every figure against sched's and CPU 1 about half
#     busy as its schedule, where sched shows CPU 1 free of other work
#     (the other developers' loads share these CPUs), else skipped; CPU 0
#     always busy: no neither, no t1 only, both = CPU 1's util;
#  2. the busy loop watched as the job (--pid): the job's figures against
#     sched's, and job_util 0 on CPU 1, job_both 0, and job_shared +
#     job_alone = CPU 0's job_util, whatever else runs;
#  3. a job that forks a busy child onto CPU 1 once httop runs: the
#     kernel program follows the fork (httop finds the job's processes;
#     CPU 1's job_util in the last interval > 0.1, and as sched's within
#     0.01 over the same window: tests/cli/bpf_window reads both at one
#     cut, as test_bpf_window.sh; two httops' intervals are not the same
#     instants, and other work on CPU 1 moves the child's share by more
#     than 0.1 from one second to the next);
#  4. a run recorded (--record) and replayed: the same figures;
#  5. the job's map made small (HTTOP_TEST_BPF_JOB_MAX=3, a test hook a
#     set-ID or file-capability httop never reads) and a job that forks 6
#     short children at once 2.5 s in: the kernel program cannot add 4 of
#     them; that interval's job figures are absent, reason job-untracked,
#     said once on stderr; the first and last intervals' are there; the
#     same job with the map's full size has every interval's; the small
#     map's run recorded and replayed has the same intervals absent;
#  6. a job by cgroup (a v1 cpuset made for the test, or v2 where cpuset
#     is there): a busy loop on CPU 1 moved into it 1.5 s after httop
#     starts and out 2 s later counts exactly while it is in (the program
#     asks the task's cgroup at each switch): CPU 1's job_util 0 in the
#     first and last intervals, and in one of the three between at least
#     half the loop's own share of CPU 1 while it was in (its run time,
#     /proc/PID/schedstat, over its stay: other work on CPU 1 takes the
#     rest; the move counts from the next refresh at the latest, so the
#     third interval is the job's throughout) and more than 0.05.
# Skipped (exit 77, the reason) where the program cannot load: no root, a
# kernel without BTF, or a build without the bpf source (configure), or
# the sched source cannot open. The set-up and the loads are
# tests/schedlib.sh's.
. "$HTTOP_SRCDIR/tests/lib.sh"
. "$HTTOP_SRCDIR/tests/schedlib.sh"
need python3 python3
dir=$(mktemp -d) || exit 1
trap 'stop_loads; rm -rf "$dir"' EXIT
trap 'exit 1' INT TERM HUP
sched_setup "$dir" "CAP_BPF and CAP_PERFMON for the bpf source"
if ! "$HTTOP" --source bpf --topology "$dir/sib.xml" -b -n 1 -d 0.1 >/dev/null 2>"$dir/probe"; then
	# the source's own refusal (its messages start "bpf:") is a reason to
	# skip; anything else is a bug
	grep -q 'bpf: ' "$dir/probe" && skip_all "the bpf source does not open here: $(cat "$dir/probe")"
	echo "1..1"
	echo "not ok 1 - the bpf source: $(cat "$dir/probe")"
	exit 1
fi
plan 19

# figs FILE: the means over FILE's intervals but the first:
# "u0 u1 neither t0_only t1_only both ju0 ju1 job_alone job_shared job_both"
# (job figures 0 where no job is watched: absent no-job); an interval
# whose figures are absent (null: its reason in "absent") is left out of
# the mean, not counted as nothing; "none" when no interval had figures.
figs() {
	python3 - "$1" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
rows = [r for r in rows if "window" not in r][1:]
keys = ("u0", "u1", "neither", "t0_only", "t1_only", "both", "ju0", "ju1", "job_alone",
        "job_shared", "job_both")
acc = dict.fromkeys(keys, 0.0)
n = 0
def jv(x, k):
    # no job watched (no-job): 0; another reason: absent (None)
    v = x.get(k)
    return 0.0 if v is None and x.get("absent", {}).get(k) == "no-job" else v
for r in rows:
    c = next(c for c in r["cores"] if 0 in c["cpus"])
    t = {x["cpu"]: x for x in r["threads"]}
    got = [t[0]["util"], t[1]["util"]] + [c[k] for k in ("neither", "t0_only", "t1_only", "both")] + \
        [jv(t[0], "job_util"), jv(t[1], "job_util")] + \
        [jv(c, k) for k in ("job_alone", "job_shared", "job_both")]
    if any(v is None for v in got):
        continue
    for k, v in zip(keys, got):
        acc[k] += v
    n += 1
print(" ".join("%.4f" % (acc[k] / n) for k in keys) if n else "none")
PY
}
# per FILE: each interval's CPU 0 job_util, or its absent reason
per() {
	python3 - "$1" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
out = []
for r in rows:
    if "window" in r:
        continue
    t = next(x for x in r["threads"] if x["cpu"] == 0)
    v = t.get("job_util")
    why = t.get("absent", {}).get("job_util") or t.get("reason") or "?"
    out.append("%.3f" % v if v is not None else "-(%s)" % why)
print(" ".join(out))
PY
}
# within TOL A1 B1 A2 B2 ...: every |Ai - Bi| <= TOL
within() {
	python3 -c 'import sys
t = float(sys.argv[1]); v = [float(x) for x in sys.argv[2:]]
sys.exit(not v or any(abs(a - b) > t for a, b in zip(v[0::2], v[1::2])))' "$@"
}
# agree TOL BPF SCHED: every figure of the two figs lines within TOL
agree() {
	[ "$2" != none ] && [ "$3" != none ] || return 1
	python3 -c 'import sys
t = float(sys.argv[1]); a = sys.argv[2].split(); b = sys.argv[3].split()
sys.exit(len(a) != len(b) or any(abs(float(x) - float(y)) > t for x, y in zip(a, b)))' "$@"
}
run() {
	src=$1 out=$2
	shift 2
	HTTOP_PHASE_TIMES=1 "$HTTOP" --source "$src" --topology "$dir/sib.xml" -b --format json \
	    -d 1 -n 4 "$@" >"$dir/$out.json" 2>"$dir/$out.err" || sed 's/^/# httop: /' "$dir/$out.err"
}
# both NAME ARGS...: bpf (NAME.bpf) and sched (NAME.sched) side by side
both() {
	name=$1
	shift
	run bpf "$name.bpf" "$@" & bp=$!
	run sched "$name.sched" "$@"
	wait "$bp"
}

# 1. both sources over one schedule
load_busy 0 60
busy=$load
load_half 60
sleep 0.3
both one
B=$(figs "$dir/one.bpf.json")
S=$(figs "$dir/one.sched.json")
diag "u0 u1 neither t0_only t1_only both ju0 ju1 job_alone job_shared job_both"
diag "bpf:   $B"
diag "sched: $S"
check "1 bpf: JSON says source bpf, basis scheduler, every interval valid" \
    python3 -c 'import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
sys.exit(not rows or any(r["source"] != "bpf" or r.get("basis") != "scheduler" or
                         not r["valid"] for r in rows))' "$dir/one.bpf.json"
su1=$(echo "$S" | cut -d' ' -f2)
# The two runs' intervals are not the same windows: where other work ran
# on CPU 1 beside the half load (sched's util of it not about 0.5: seen in
# a CI run, bpf 0.856 and sched 0.798 over the same four seconds) their
# means differ by more than the share it took in one window and not the
# other. One cut of both (test_bpf_window) is judged there.
if within 0.2 "$su1" 0.5; then
	check "1 bpf against sched: every figure within 0.05" agree 0.05 "$B" "$S"
else
	skip "1 bpf against sched: other work ran on CPU 1 beside the load (sched says util $su1): two runs' windows differ"
fi
set -- $B
check "1 bpf: CPU 0 always busy (util $1), neither $3 and t1 only $5 about 0, both $6 = CPU 1's util $2" \
    within 0.01 "$1" 1 "$3" 0 "$5" 0 "$6" "$2"
if within 0.2 "$su1" 0.5; then
	check "1 bpf: CPU 1 about half busy as its schedule ($2)" within 0.2 "$2" 0.5
else
	skip "1 bpf: CPU 1 against its schedule: other work ran there (sched says util $su1)"
fi
check "1 bpf: nothing lost (its stats: $(grep -o 'switches=[0-9]* lost=[0-9]*' "$dir/one.bpf.err"))" \
    grep -q 'switches=[1-9][0-9]* lost=0' "$dir/one.bpf.err"

# 2. the busy loop watched as the job
both job --pid "$busy"
B=$(figs "$dir/job.bpf.json")
S=$(figs "$dir/job.sched.json")
diag "bpf:   $B"
diag "sched: $S"
diag "CPU 0's job_util per interval: bpf $(per "$dir/job.bpf.json"); sched $(per "$dir/job.sched.json")"
# (Issue 37: bpf once counted 13-16% of CPU 0 as not the job's where sched
# counted 0.5%: the kernel runs no program at a switch out of the VM's
# agent's threads, and the program kept the agent on CPU 0 while the job's
# loop ran; bpf_core.h's unseen switches.)
# A source with no interval to compare (each absent, with its reason:
# seen once in CI's sanitizer pass, bpf's CPU 0 lost in all 4 intervals,
# the hypervisor taking a third of CPU 0) says why and is not judged; an
# absent interval without a reason fails.
PB=$(per "$dir/job.bpf.json") PS=$(per "$dir/job.sched.json")
if { [ "$B" = none ] || [ "$S" = none ]; } &&
    ! printf '%s %s\n' "$PB" "$PS" | grep -q -- '-(?)' && [ -n "$PB" ] && [ -n "$PS" ]; then
	why=$(cat "$dir/job.bpf.err" "$dir/job.sched.err" | grep -v '^httop: source stats\|phase' | head -n 2 | tr '\n' ' ')
	skip "2 job: bpf against sched: no interval of one source to compare (bpf $PB; sched $PS): $why"
	skip "2 job: the job's figures: no interval of one source to compare (bpf $PB; sched $PS)"
elif python3 -c 'import sys
v = [float(x) for x in sys.argv[1:] if x.replace(".", "", 1).isdigit()]
sys.exit(not (len(v) > 1 and max(v) - min(v) > 0.1))' $PS; then
	# The two runs' intervals are not the same windows: where other work
	# took a varying share of CPU 0 (sched's job_util per interval apart
	# by more than 0.1: seen in a CI run beside other builds) their means
	# differ by that much. One cut of both (test_bpf_window) is judged
	# there.
	skip "2 job: bpf against sched: other work took a varying share of CPU 0 (sched's job_util per interval: $PS)"
	skip "2 job: the job's figures: other work took a varying share of CPU 0"
else
check "2 job: bpf against sched: every figure within 0.05" agree 0.05 "$B" "$S"
set -- $B
# job_ok JU0 JU1 ALONE SHARED BOTH
job_ok() {
	python3 -c 'import sys
ju0, ju1, alone, shared, both = map(float, sys.argv[1:])
sys.exit(not (ju0 > 0.05 and abs(ju1) <= 0.01 and abs(both) <= 0.01 and
              abs(alone + shared - ju0) <= 0.01))' "$@"
}
check "2 job: job_util $7 > 0 on CPU 0, 0 on CPU 1 ($8), job_both 0 (${11}), alone $9 + shared ${10} = CPU 0's job_util" \
    job_ok "$7" "$8" "$9" "${10}" "${11}"
fi
stop_loads

# 3. a job that forks a busy child onto CPU 1 after httop started
fork_job() {
	sh -c 'sleep 1.2; exec timeout 6 taskset -c 1 sh -c "while :; do :; done"' & job=$!
	load_add "$job"
}
fork_job
run bpf fork.bpf --pid "$job"
stop_loads
# the same job again, both sources read at one cut (bpf_window: "# SRC
# 4: u0 u1 neither t0 t1 both ju0 ju1 ...", "-" for a figure absent)
fork_job
"$HTTOP_BUILDDIR/tests/cli/bpf_window" "$dir/sib.xml" 4 1 "$job" >"$dir/fork.w" 2>&1
stop_loads
grep '^# ' "$dir/fork.w" | grep -v '^# figures'
jb=$(awk '$2 == "bpf" && $3 == "4:" { print $11 }' "$dir/fork.w")
js=$(awk '$2 == "sched" && $3 == "4:" { print $11 }' "$dir/fork.w")
# fork_ok BPF SCHED: BPF > 0.1 and within 0.01 of SCHED (one window);
# SCHED "-" (its interval without the figure, the record unsure of it):
# BPF alone is judged
fork_ok() { python3 -c 'import sys
a, b = sys.argv[1:]
sys.exit(a in ("-", "") or not (float(a) > 0.1 and (b == "-" or abs(float(a) - float(b)) <= 0.01)))' "$@"; }
check "3 fork: the child counts: CPU 1's job_util in the last interval ${jb:-?} > 0.1, as sched's ${js:-?} in the same window within 0.01" \
    fork_ok "${jb:-}" "${js:--}"
check "3 fork: the job's processes found ($(grep -o 'job_added=[0-9]*' "$dir/fork.bpf.err"))" \
    grep -q 'job_added=[1-9]' "$dir/fork.bpf.err"

# 4. recorded and replayed
"$HTTOP" --source bpf --topology "$dir/sib.xml" -b -d 0.3 -n 3 --format json \
    --record "$dir/r.trace" >"$dir/live.json" 2>"$dir/live.err" &&
    "$HTTOP" --replay "$dir/r.trace" -b --format json >"$dir/rep.json" 2>"$dir/rep.err"
check "4 recorded and replayed: every interval's utilisations and split the same" \
    python3 -c 'import json, sys
a = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
b = [json.loads(l) for l in open(sys.argv[2]) if l.strip()]
def figs(r):
    c = r["cores"][0]
    return [t["util"] for t in r["threads"]] + [c[k] for k in ("neither", "t0_only", "t1_only", "both")]
sys.exit(len(a) != 3 or len(b) != 3 or any(abs(x - y) > 1e-9 for p, q in zip(a, b)
                                            for x, y in zip(figs(p), figs(q))))' \
    "$dir/live.json" "$dir/rep.json"

# 5. more processes than the job's map holds
sh -c 'sleep 2.5; for i in 1 2 3 4 5 6; do sleep 0.05 & done; wait; sleep 5' & job=$!
load_add "$job"
sleep 0.1
runu() {
	n=$1
	shift
	HTTOP_PHASE_TIMES=1 "$HTTOP" --source bpf --topology "$dir/sib.xml" -b --format json \
	    -d 1 -n 5 --pid "$job" "$@" >"$dir/$n.json" 2>"$dir/$n.err" || sed 's/^/# httop: /' "$dir/$n.err"
}
HTTOP_TEST_BPF_JOB_MAX=3 runu small --record "$dir/small.trace" & sp=$!
runu full
wait "$sp"
stop_loads
# untracked FILE: per interval, CPU 0's job_util or its absent reason
untracked() {
	python3 - "$1" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
out = []
for r in rows:
    t = next(x for x in r["threads"] if x["cpu"] == 0)
    c = next(c for c in r["cores"] if 0 in c["cpus"])
    v = t.get("job_util")
    why = t.get("absent", {}).get("job_util")
    cw = c.get("absent", {}).get("job_alone")
    out.append("%.3f" % v if v is not None else "%s/%s" % (why, cw))
print(" ".join(out))
PY
}
U=$(untracked "$dir/small.json")
F=$(untracked "$dir/full.json")
diag "small map: $U"
diag "full map:  $F"
diag "$(grep -o 'job_added=[0-9]* job_untracked=[0-9]*' "$dir/small.err")"
check "5 small map: an interval's job figures absent, job-untracked (thread and core): $U" \
    sh -c 'echo "$1" | grep -q "job-untracked/job-untracked"' - "$U"
set -- $U
check "5 small map: the first interval's and the last's job_util there ($1, $5)" \
    sh -c 'case "$1$2" in *job-untracked*|*None*) exit 1 ;; esac; [ $# = 2 ]' - "$1" "$5"
check "5 small map: the kernel program counted what it could not add ($(grep -o 'job_untracked=[0-9]*' "$dir/small.err"))" \
    grep -q 'job_untracked=[1-9]' "$dir/small.err"
check "5 small map: said once on stderr" \
    [ "$(grep -c 'the job has more processes than the bpf source tracks (3)' "$dir/small.err")" = 1 ]
"$HTTOP" --replay "$dir/small.trace" -b --format json >"$dir/rep5.json" 2>"$dir/rep5.err"
R=$(untracked "$dir/rep5.json")
check "5 small map recorded and replayed: the same intervals absent ($R)" [ "$R" = "$U" ]
check "5 full map: every interval's job figures there ($F), nothing untracked" \
    sh -c 'case "$1" in *job-untracked*|*None*) exit 1 ;; esac
        [ $(echo "$1" | wc -w) = 5 ] && grep -q "job_untracked=0" "$2"' - "$F" "$dir/full.err"

# 6. a process moved into the job's cgroup, then out
cg=
for root in /sys/fs/cgroup/cpuset /sys/fs/cgroup; do
	[ -f "$root/cpuset.cpus.effective" ] || [ -f "$root/cpuset.effective_cpus" ] ||
	    [ -f "$root/cpuset.cpus" ] || continue
	mkdir "$root/httop-test-bpf.$$" 2>/dev/null || continue
	cg=$root/httop-test-bpf.$$
	for f in cpus mems; do
		[ -f "$cg/cpuset.$f" ] && cat "$root/cpuset.$f" >"$cg/cpuset.$f" 2>/dev/null
	done
	cgroot=$root
	break
done
if [ -z "$cg" ]; then
	skip "6 cgroup: no cpuset cgroup could be made here"
	skip "6 cgroup: no cpuset cgroup could be made here"
else
	trap 'stop_loads; [ -n "$cg" ] && rmdir "$cg" 2>/dev/null; rm -rf "$dir"' EXIT
	# (not under timeout: its child would be the loop; stop_loads ends it)
	load_busy 1
	mv=$load
	# the job's cpuset needs a task at the start: a sleeper, on CPU 0
	sh -c 'echo $$ >"$1/cgroup.procs" && exec sleep 12' - "$cg" & load_add $!
	sleep 0.2
	# stamp: the loop's run time (ns) and the clock (s), as it moves
	stamp() { echo "$(cut -d' ' -f1 "/proc/$mv/schedstat") $(cut -d' ' -f1 /proc/uptime)"; }
	# moved in once httop wrote its first interval (its start is slow on
	# a busy machine: the intervals, not the clock, place the move), out
	# 2 s later: the first interval without it, the last (the fifth)
	# without it again
	(i=0
	while [ ! -s "$dir/cg.json" ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i + 1)); done
	echo "$mv" >"$cg/cgroup.procs"; stamp >"$dir/in"
	sleep 2
	echo "$mv" >"$cgroot/cgroup.procs"; stamp >"$dir/out") &
	mover=$!
	HTTOP_PHASE_TIMES=1 "$HTTOP" --source bpf --topology "$dir/sib.xml" -b --format json \
	    -d 1 -n 5 --cgroup "$cg" >"$dir/cg.json" 2>"$dir/cg.err" || sed 's/^/# httop: /' "$dir/cg.err"
	wait "$mover"
	stop_loads
	J=$(python3 - "$dir/cg.json" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
print(" ".join(str(next(t for t in r["threads"] if t["cpu"] == 1).get("job_util")) for r in rows))
PY
)
	# the loop's share of CPU 1 over its stay in the job's cgroup
	share=$(cat "$dir/in" "$dir/out" 2>/dev/null | awk 'NR == 1 { r = $1; t = $2 }
	    NR == 2 && $2 > t { printf "%.3f", ($1 - r) / 1e9 / ($2 - t) }')
	diag "cgroup $cg: CPU 1's job_util per interval: $J; the loop's share of CPU 1 while in: ${share:-?}"
	diag "$(grep -o 'job_cgid=[0-9]*' "$dir/cg.err")"
	set -- $J
	check "6 cgroup: the program asks the kernel the task's cgroup ($(grep -o 'job_cgid=[0-9]*' "$dir/cg.err"))" \
	    grep -q 'job_cgid=[1-9]' "$dir/cg.err"
	check "6 cgroup: moved in then out: CPU 1's job_util 0 before ($1), while in (${2:-} ${3:-} ${4:-}) at least half the loop's share ${share:-?} and > 0.05, 0 after (${5:-})" \
	    python3 -c 'import sys
s = float(sys.argv[1] or "nan"); v = sys.argv[2:]
sys.exit(len(v) != 5 or "None" in v or not s == s or float(v[0]) != 0 or
         max(float(x) for x in v[1:4]) < max(0.5 * s, 0.05) or float(v[4]) != 0)' "$share" "$@"
	rmdir "$cg" 2>/dev/null && cg=
fi

# 7. nothing left in the kernel when httop ends, SIGKILL included: the
# program is not pinned, so its last file descriptor going (the process
# ending) unloads it and frees its maps. The programs are this httop's own
# (the prog_id of its file descriptors, /proc/PID/fdinfo), each looked up
# by ID in bpftool's list after the kill: another httop starting or ending
# beside the test (another run of the suite) changes nothing (bpftool is in
# the README's install line; skipped without it).
# An ID is "prog:N" or "map:N" (the maps are the process's too).
prog_ids() {
	cat /proc/"$1"/fdinfo/* 2>/dev/null |
	    sed -n 's/^\(prog\|map\)_id:[[:space:]]*\([0-9]*\)$/\1:\2/p' | sort -u | tr '\n' ' '
}
prog_alive() { bpftool "${1%%:*}" show id "${1#*:}" >/dev/null 2>&1; }
if command -v bpftool >/dev/null 2>&1; then
	"$HTTOP" --source bpf --topology "$dir/sib.xml" -b --format json -d 30 >/dev/null 2>&1 &
	hp=$!
	ids= i=0
	while ! case $ids in *prog:*) true ;; *) false ;; esac && [ $i -lt 200 ]; do sleep 0.05; ids=$(prog_ids "$hp"); i=$((i + 1)); done
	sleep 0.2
	ids=$(prog_ids "$hp")
	during=0
	for id in $ids; do prog_alive "$id" && during=$((during + 1)); done
	kill -KILL "$hp" 2>/dev/null
	wait "$hp" 2>/dev/null
	left=1 i=0
	while [ "$left" -gt 0 ] && [ $i -lt 200 ]; do
		left=0
		for id in $ids; do prog_alive "$id" && left=$((left + 1)); done
		[ "$left" -gt 0 ] && sleep 0.05; i=$((i + 1))
	done
	check "7 SIGKILL: httop's programs and maps (${ids% }) loaded while it ran ($during), none left after ($left)" \
	    sh -c '[ "$1" -gt 0 ] && [ "$2" -eq 0 ]' - "$during" "$left"
else
	skip "7 SIGKILL: bpftool is not installed (the programs left would be unseen)"
fi
