"""lib.py: what bench/sched.py and bench/whole.py both use: CPUs 0 and 1
declared siblings of one core, a cpuset cgroup made for a bench, and the
switching load (two pinned pairs of bench/httop-pingpong).
"""
import os
import subprocess


def siblings_xml(path):
    """CPUs 0 and 1 declared siblings of one core (hwloc's synthetic
    "pack:1 core:1 pu:2"), written as XML to path for --topology."""
    subprocess.run(["lstopo-no-graphics", "--input", "pack:1 core:1 pu:2", "--of", "xml", path],
                   check=True, capture_output=True)


def make_cpuset(name):
    """A cpuset cgroup NAME.PID (v1 cpuset, or v2 with cpuset), with its
    parent's CPUs and memory nodes: its directory, or raise OSError
    saying why not."""
    why = "no cpuset controller mounted (v1 cpuset or v2 with cpuset)"
    for root in ("/sys/fs/cgroup/cpuset", "/sys/fs/cgroup"):
        if not any(os.path.exists(os.path.join(root, f)) for f in
                   ("cpuset.cpus.effective", "cpuset.effective_cpus", "cpuset.cpus")):
            continue
        cg = os.path.join(root, "%s.%d" % (name, os.getpid()))
        try:
            os.mkdir(cg)
        except OSError as e:
            why = "cannot make %s: %s" % (cg, e.strerror)
            continue
        for f in ("cpus", "mems"):
            try:
                with open(os.path.join(root, "cpuset." + f)) as src:
                    v = src.read()
                with open(os.path.join(cg, "cpuset." + f), "w") as dst:
                    dst.write(v)
            except OSError:
                pass
        return cg
    raise OSError(why)


def start_pairs(build, rate, secs, cg=None):
    """The switching load: two pinned pairs of processes passing a byte
    through a pipe (bench/httop-pingpong: CPU 0 with CPU 0, CPU 1 with
    CPU 1), each paced at `rate` round trips a second (0: as fast as they
    go) for `secs` seconds, their standard output a pipe (pingpong.c's
    counts). cg: the CPU 0 pair runs in that cgroup (it moves itself in
    before its exec: its child is forked inside)."""
    pp = os.path.join(build, "bench/httop-pingpong")

    def into_cg():
        with open(os.path.join(cg, "cgroup.procs"), "w") as f:
            f.write(str(os.getpid()))
    return [subprocess.Popen([pp, cpu, cpu, str(rate), str(secs)], stdout=subprocess.PIPE,
                             preexec_fn=into_cg if cpu == "0" and cg is not None else None)
            for cpu in ("0", "1")]
