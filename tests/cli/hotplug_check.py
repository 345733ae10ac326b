#!/usr/bin/env python3
"""hotplug_check.py: judge httop's JSON lines (-b --format json) of a run
in which CPU 1 went offline and came back (test_sched_hotplug.sh).

Usage: hotplug_check.py FILE OFF0 OFF1 ON0 ON1 LOAD0 LOAD1
  OFF0, OFF1: wall-clock times just before and just after the write that
  took CPU 1 offline (the kernel did it in between); ON0, ON1 the same
  for the write that brought it back; LOAD0, LOAD1: a busy loop pinned to
  CPU 1 ran between them. Prints one line per check, "PASS what" or
  "FAIL what"; the shell makes TAP of them.

An interval (P, C] runs from the previous read's wall time P to its own
C (C - interval). Checks:
  - every line parses as JSON without NaN or infinities, and every
    utilisation of a core or thread is null or within [0, 1];
  - CPU 1 is valid in some interval before OFF0;
  - an interval that overlaps the time CPU 1 was surely offline, from
    OFF1 to ON0, by more than 10 ms (P < ON0 - 0.01, C > OFF1 + 0.01:
    the margin covers the read's two clocks) shows CPU 1 invalid with
    reason offline or lost (never a share), and at least one of them
    says offline;
  - within three intervals after ON1, CPU 1 is valid again;
  - an interval inside the load (P >= LOAD0 + 0.05, C <= LOAD1) shows
    CPU 1 valid at 90% or more (the loop is all it runs; the tick sources
    count whole 10 ms ticks)."""
import json
import math
import sys


def bad_const(name):
    raise ValueError("non-finite number " + name)


def cpu1(d):
    for t in d.get("threads", []):
        if t.get("cpu") == 1:
            return t
    return None


def core_of_cpu1(d):
    for c in d.get("cores", []):
        if 1 in c.get("cpus", []):
            return c
    return None


def main():
    path = sys.argv[1]
    off0, off1, on0, on1, load0, load1 = (float(x) for x in sys.argv[2:8])
    res = []

    def check(what, cond):
        res.append(("PASS " if cond else "FAIL ") + what)

    ivs = []
    try:
        with open(path) as f:
            for line in f:
                ivs.append(json.loads(line, parse_constant=bad_const))
        parsed = len(ivs) > 0
    except ValueError as e:
        parsed = False
        res.append("FAIL the JSON lines parse: %s" % e)
    check("%d JSON lines, every one parsed" % len(ivs), parsed)
    wrong = []
    for d in ivs:
        for o in d.get("cores", []) + d.get("threads", []):
            u = o.get("util")
            if u is not None and (not isinstance(u, (int, float)) or
                                  math.isnan(u) or u < 0 or u > 1):
                wrong.append("%.2f: %r" % (d["time"], u))
    check("every utilisation is null or in [0, 1]%s" %
          (": " + ", ".join(wrong[:4]) if wrong else ""), not wrong)

    before = [d for d in ivs if d["unix_time"] < off0 and cpu1(d) is not None and
              cpu1(d).get("valid") and cpu1(d).get("util") is not None]
    early = ["%.2f:%s" % (d["time"], cpu1(d).get("reason", "valid") if cpu1(d) else "-")
             for d in ivs if d["unix_time"] < off0]
    check("CPU 1 valid before it goes offline (%d of %s)" % (len(before), " ".join(early)),
          len(before) > 0)

    marked, wrong, offline = 0, [], 0
    for d in ivs:
        c = d["unix_time"]
        p = c - d["interval"]
        if not (p < on0 - 0.01 and c > off1 + 0.01):
            continue
        t = cpu1(d)
        k = core_of_cpu1(d)
        why = t.get("reason") if t is not None else "offline"
        if t is not None and (t.get("valid") or t.get("util") is not None or
                              why not in ("offline", "lost")):
            wrong.append("%.2f: thread valid=%s util=%s reason=%s" %
                         (d["time"], t.get("valid"), t.get("util"), why))
        if k is not None and (k.get("valid") or k.get("util") is not None):
            wrong.append("%.2f: core util=%s" % (d["time"], k.get("util")))
        marked += 1
        offline += why == "offline"
    check("the %d intervals that overlap the offline time show CPU 1 offline or "
          "lost, no share (%d offline)%s" % (marked, offline,
                                            ": " + "; ".join(wrong[:3]) if wrong else ""),
          marked > 0 and offline > 0 and not wrong)

    after = [d for d in ivs if d["unix_time"] - d["interval"] >= on1]
    back = [d for d in after[:3] if cpu1(d) is not None and cpu1(d).get("valid")]
    check("CPU 1 valid again within three intervals after it came back (%s)" %
          ", ".join("%.2f" % d["time"] for d in back), len(back) > 0)

    # busy plus stolen (the host's share, which procstat reads apart: a
    # sanitizer pass in CI saw 0.874 busy under a VM's steal)
    load = [cpu1(d).get("util") + (cpu1(d).get("steal") or 0.0) for d in ivs
            if d["unix_time"] - d["interval"] >= load0 + 0.05 and d["unix_time"] <= load1
            and cpu1(d) is not None and cpu1(d).get("valid") and cpu1(d).get("util") is not None]
    check("CPU 1's utilisation (with its steal) back under the busy loop: %s" %
          ", ".join("%.3f" % u for u in load),
          len(load) > 0 and max(load) >= 0.9)
    print("\n".join(res))


main()
