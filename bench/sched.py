#!/usr/bin/env python3
"""sched.py BUILD [ROUNDS] (HTTOP_BENCH_WHOLE_ONLY=1: bench/whole.py, the whole cost;
HTTOP_BENCH_JOB_ONLY=1: the cost per record alone, without and with a job): the cost of the scheduler source (--source sched,
issue 27) on this machine's CPUs 0 and 1, declared siblings of one core
(hwloc's synthetic "pack:1 core:1 pu:2"). Needs root (CPU-wide perf
events) and lstopo-no-graphics.

Each round runs, in turns (the order turned every round):
  load   two pinned pairs of processes passing a byte through a pipe
         (bench/httop-pingpong: CPU 0 with CPU 0, CPU 1 with CPU 1), each
         paced at 10,000 round trips a second: 20,000 switches a second on
         each CPU, plus the pacing's own;
  idle   nothing started;
with `httop --source sched -b -d 1 -n N --format json` over the load, its
CPU time (wait4: user + system, its ring-draining thread included) over
its wall time, its records read and lost (HTTOP_PHASE_TIMES=1 makes it say
them at exit), the intervals it marked invalid, and its peak RSS. Then
  job    the load again, httop watching one pair as a job (--pid): the
         job's figures counted from every record (issue 33);
  cgjob  the same, the pair watched by its cgroup (--cgroup, a v1 cpuset
         or v2 cgroup made for the bench, the pair moved into it): each
         task's cgroup read again once per interval (watch/jobtask.c);
  flood  the same pairs unpaced (as fast as they go), to show what a rate
         beyond the rings does: records lost and said, memory the same.
Prints min / median over the rounds of: the switch rate per CPU (records
read / 2 / s / 2 CPUs: a switch writes an out and an in record), httop's
CPU % of one CPU under the load and idle, the cost per record ((CPU load -
CPU idle) / records) without and with a watched job (by ancestry, by
cgroup), records lost,
invalid intervals, peak RSS.

The whole cost (issue 37: the load's own CPU growth with each observer,
next to perf record and an empty bpftrace program) is bench/whole.py's;
HTTOP_BENCH_WHOLE_ONLY=1 runs it alone (whole.py BUILD ROUNDS)."""
import json
import os
import re
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True   # bench/lib.py: nothing written into the source tree
import lib  # noqa: E402

N = 10


def run_httop(build, sib, env, extra=()):
    t0 = time.monotonic()
    p = subprocess.Popen([os.path.join(build, "src/httop"), "--source", "sched", "--topology",
                          sib, "-b", "-d", "1", "-n", str(N), "--format", "json"] + list(extra),
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    out, err = p.communicate()
    wall = time.monotonic() - t0
    # communicate() reaped it: take its rusage from the children's totals.
    return out.decode(), err.decode(), wall


def children_cpu():
    r = os.times()
    return r.children_user + r.children_system


def maxrss_children():
    import resource
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss


def move_tree(pid, cg):
    """pid and its children into cgroup cg (cgroup.procs)."""
    pids = [pid]
    try:
        with open("/proc/%d/task/%d/children" % (pid, pid)) as f:
            pids += [int(x) for x in f.read().split()]
    except OSError:
        pass
    for p in pids:
        with open(os.path.join(cg, "cgroup.procs"), "w") as f:
            f.write(str(p))


def one(build, sib, mode):
    env = dict(os.environ, HTTOP_PHASE_TIMES="1")
    loads = []
    extra = []
    if mode != "idle":
        loads = lib.start_pairs(build, 0 if mode == "flood" else 10000, N + 3)
        time.sleep(0.5)
    if mode == "job":
        # One pair watched as the job (--pid: it and its descendants): every
        # record then asks the job's tasks (watch/jobtask.c) and counts the
        # job's split.
        extra = ["--pid", str(loads[0].pid)]
    cg = None
    if mode == "cgjob":
        try:
            cg = lib.make_cpuset("httop-bench-sched")
        except OSError:
            for p in loads:
                p.kill()
                p.wait()
            return None
        move_tree(loads[0].pid, cg)
        extra = ["--cgroup", cg]
    # The CPU of httop alone: os.times() sums the reaped children, so take
    # the difference around httop (the loads are reaped afterwards).
    c0 = children_cpu()
    out, err, wall = run_httop(build, sib, env, extra)
    cpu = children_cpu() - c0
    for p in loads:
        p.wait()
    if cg is not None:
        try:
            os.rmdir(cg)
        except OSError:
            pass
    m = re.search(r"source stats: records=(\d+) drains=(\d+) lost=(\d+)", err)
    records, drains, lost = (int(x) for x in m.groups()) if m else (0, 0, 0)
    invalid = sum(1 for l in out.splitlines() if not json.loads(l)["valid"])
    lost_said = err.count("lost ")
    return {"cpu_pct": 100.0 * cpu / wall, "records": records, "drains": drains, "lost": lost,
            "invalid": invalid, "wall": wall, "lost_said": lost_said,
            "rate": records / 2.0 / wall / 2.0}


def rss_of(build, sib, mode):
    """Peak RSS (KiB) of one httop run under `mode`, in a child of its own."""
    code = ("import sys, resource; sys.dont_write_bytecode = True; sys.path.insert(0, %r); "
            "import sched as s; "
            "s.one(%r, %r, %r); print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
            % (os.path.dirname(os.path.abspath(__file__)), build, sib, mode))
    return int(subprocess.run([sys.executable, "-c", code], capture_output=True,
                              text=True).stdout.split()[-1])


def mm(xs):
    xs = sorted(xs)
    return xs[0], xs[len(xs) // 2]


def print_cost(cost):
    if cost and min(cost) > 0:
        lo, med = mm(cost)
        print("%-44s %.0f / %.0f" % ("cost per record, ns ((load - idle) / records)", lo, med))
    else:
        print("%-44s unmeasurable" % "cost per record, ns")


def job_costs(res):
    """The cost per record with a watched job, by ancestry and by cgroup."""
    for key, label in (("job", "a watched job"), ("cgjob", "a job by cgroup")):
        jcost = [(j["cpu_pct"] - i["cpu_pct"]) / 100.0 * j["wall"] / j["records"] * 1e9
                 for j, i in zip(res[key], res["idle"]) if j["records"] > 0]
        if jcost and min(jcost) > 0:
            lo, med = mm(jcost)
            print("%-44s %.0f / %.0f" % ("cost per record, ns, " + label, lo, med))
        else:
            print("%-44s unmeasurable" % ("cost per record, ns, " + label))


def main():
    build = os.path.abspath(sys.argv[1])
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    d = tempfile.mkdtemp()
    sib = os.path.join(d, "sib.xml")
    lib.siblings_xml(sib)
    if os.environ.get("HTTOP_BENCH_WHOLE_ONLY"):
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import whole
        sys.exit(whole.main_args([build, str(rounds)]))
    job_only = bool(os.environ.get("HTTOP_BENCH_JOB_ONLY"))
    res = {"load": [], "idle": [], "job": [], "cgjob": []}
    for r in range(rounds):
        order = ["load", "idle", "job", "cgjob"]
        for mode in order if r % 2 == 0 else order[::-1]:
            x = one(build, sib, mode)
            if x is not None:
                res[mode].append(x)
    if job_only:
        print_cost([(l["cpu_pct"] - i["cpu_pct"]) / 100.0 * l["wall"] / l["records"] * 1e9
                    for l, i in zip(res["load"], res["idle"]) if l["records"] > 0])
        job_costs(res)
        return
    flood = one(build, sib, "flood")
    cost = [(l["cpu_pct"] - i["cpu_pct"]) / 100.0 * l["wall"] / l["records"] * 1e9
            for l, i in zip(res["load"], res["idle"]) if l["records"] > 0]
    print("scheduler source, -d 1 -n %d, CPUs 0 and 1 declared siblings; %s, load average %s"
          % (N, time.strftime("%Y-%m-%d", time.gmtime()), open("/proc/loadavg").read().split()[0]))
    print("%-44s %s" % ("figure", "min / median of %d rounds" % rounds))
    for label, key in (("switches per s per CPU (records/2/s/2)", "rate"),
                       ("httop CPU %% of one CPU, load", "cpu_pct"),
                       ("records read, load", "records"),
                       ("records lost, load", "lost"),
                       ("invalid intervals, load", "invalid"),
                       ("drain-thread wake-ups, load", "drains")):
        lo, med = mm([x[key] for x in res["load"]])
        print("%-44s %.1f / %.1f" % (label.replace("%%", "%"), lo, med))
    lo, med = mm([x["cpu_pct"] for x in res["idle"]])
    print("%-44s %.2f / %.2f" % ("httop CPU % of one CPU, idle", lo, med))
    print_cost(cost)
    job_costs(res)
    print("flood: %.0f switches/s per CPU, %d records read, %d lost, %d of %d intervals invalid, "
          "'lost' said %d times, httop CPU %.1f%%" % (flood["rate"], flood["records"],
                                                      flood["lost"], flood["invalid"], N,
                                                      flood["lost_said"], flood["cpu_pct"]))
    print("peak RSS, KiB: idle %d, load %d, flood %d" % (rss_of(build, sib, "idle"),
                                                         rss_of(build, sib, "load"),
                                                         rss_of(build, sib, "flood")))


if __name__ == "__main__":
    main()
