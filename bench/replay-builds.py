#!/usr/bin/env python3
"""replay-builds.py A B [ROUNDS]: two builds' replay of one gzip trace
against `gzip -dc` (and `igzip -dc` where installed), process CPU time,
all commands in turns each round (bench/targets.py's trace: the KNL,
272 CPUs, 500 intervals; its rounds_of and child_cpu). For A/B of a
change to the replay path, e.g. an ISA-L build against --without-isal:

  FIXTURES=build/tests/unpacked python3 bench/replay-builds.py build zbuild 31

Prints each command's CPU seconds and each build's ratio over gzip -dc,
min and median over the rounds, and the load average before and after."""
import os
import shutil
import statistics
import sys
import tempfile

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import targets  # noqa: E402


def main():
    args = sys.argv[1:]
    if len(args) not in (2, 3):
        raise SystemExit("usage: replay-builds.py BUILD_A BUILD_B [ROUNDS]")
    n = int(args[2]) if len(args) == 3 else 31
    fixtures = os.environ.get("FIXTURES") or os.environ.get("HTTOP_FIXTURES")
    if not fixtures:
        raise SystemExit("replay-builds.py: set FIXTURES (or HTTOP_FIXTURES) to the fixtures")
    gz = shutil.which("gzip")
    if gz is None:
        raise SystemExit("replay-builds.py: gzip is not installed")
    builds = [("A", os.path.join(os.path.abspath(args[0]), "src", "httop")),
              ("B", os.path.join(os.path.abspath(args[1]), "src", "httop"))]
    work = tempfile.mkdtemp(prefix="httop-replay-builds.")
    try:
        trace = targets.replay_trace(builds[0][1], targets.machines(fixtures, work), work)
        cmds = {"gzip": [gz, "-dc", trace]}
        for name, httop in builds:
            for fmt in ("json", "summary"):
                cmds["%s-%s" % (name, fmt)] = [httop, "--replay", trace, "-b", "--format", fmt]
        if shutil.which("igzip"):
            cmds["igzip"] = [shutil.which("igzip"), "-dc", trace]
        names = list(cmds)
        print("A %s, B %s, %d rounds, load average %s" %
              (args[0], args[1], n, " ".join(open("/proc/loadavg").read().split()[:3])))
        got = targets.rounds_of(n, names, lambda k: targets.child_cpu(cmds[k])[0])
        print("load average after %s" % " ".join(open("/proc/loadavg").read().split()[:3]))
        for k in names:
            print("%-10s CPU s  min %.3f  median %.3f" % (k, min(got[k]), statistics.median(got[k])))
        for k in names[1:]:
            r = targets.ratios(got, k, "gzip")
            print("%-10s / gzip -dc  min %.2f  median %.2f" % (k, min(r), statistics.median(r)))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
