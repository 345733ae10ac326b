#!/usr/bin/env python3
"""om_check.py: a strict checker of httop's metric expositions, standard
library only.

  om_check.py openmetrics FILE   one or more OpenMetrics expositions, each
                                 ending with "# EOF" (httop --format
                                 openmetrics: with -n N one exposition of
                                 the N intervals, each family once; without,
                                 one per interval)
  om_check.py prometheus FILE    one Prometheus text-format file, as the node
                                 exporter's textfile collector reads it

Checks the grammar (OpenMetrics 1.0 text format, the subset httop writes:
gauge, counter and info families, no exemplars; a counter family is named
without _total and its samples with it, where the Prometheus format names
both with it) and httop's own rules: no NaN or infinity, shares and ratios
not negative, shares at most 1, a bound always both ends with lower <=
upper. Timestamps: in OpenMetrics a series' samples all have one or none
has, they increase within it, its samples are consecutive in its family;
the samples of one time (an interval) are taken together as one
snapshot, and the snapshots' times increase from one to the next;
the Prometheus format (the node exporter's textfile collector refuses
them) has none. A last exposition whose samples all carry window="run"
(a whole-run record) may have the last interval's timestamp. Counters: never negative, never lower than in an earlier
snapshot, and a counter series once written is in every later one. Prints one line per
snapshot (an interval), "exposition N: F families, S samples", and for each sample of the families
named with -s NAME "NAME{labels} value". Exit status 1 and a message naming
the line on the first error."""

import re
import sys

NAME = r"[a-zA-Z_:][a-zA-Z0-9_:]*"
LABEL = r"[a-zA-Z_][a-zA-Z0-9_]*"
NUMBER = re.compile(r"^[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$")


class Bad(Exception):
    pass


def parse_labels(text, lineno):
    """'a="x",b="y"' -> list of (name, value); strict escapes."""
    out = []
    i = 0
    while i < len(text):
        m = re.compile(LABEL).match(text, i)
        if not m:
            raise Bad("line %d: bad label name at %r" % (lineno, text[i:]))
        name = m.group(0)
        if name.startswith("__"):
            raise Bad("line %d: reserved label name %s" % (lineno, name))
        i = m.end()
        if text[i:i + 2] != '="':
            raise Bad("line %d: label %s not followed by =\"" % (lineno, name))
        i += 2
        val = []
        while True:
            if i >= len(text):
                raise Bad("line %d: unterminated label value" % lineno)
            c = text[i]
            if c == "\\":
                nxt = text[i + 1:i + 2]
                if nxt not in ("\\", '"', "n"):
                    raise Bad("line %d: bad escape \\%s in a label value" % (lineno, nxt))
                val.append({"\\": "\\", '"': '"', "n": "\n"}[nxt])
                i += 2
            elif c == '"':
                i += 1
                break
            elif c == "\n":
                raise Bad("line %d: raw line feed in a label value" % lineno)
            else:
                val.append(c)
                i += 1
        out.append((name, "".join(val)))
        if i < len(text):
            if text[i] != ",":
                raise Bad("line %d: expected ',' between labels" % lineno)
            i += 1
            if i == len(text):
                raise Bad("line %d: trailing comma in labels" % lineno)
    names = [n for n, _ in out]
    if len(set(names)) != len(names):
        raise Bad("line %d: a label given twice" % lineno)
    return out


def check_help(text, lineno, om):
    allowed = ("\\", "n", '"') if om else ("\\", "n")
    i = 0
    while i < len(text):
        if text[i] == "\\":
            if text[i + 1:i + 2] not in allowed:
                raise Bad("line %d: bad escape in HELP" % lineno)
            i += 2
        elif om and text[i] == '"':
            # OpenMetrics' escaped-string: a double quote only escaped
            raise Bad("line %d: a raw double quote in HELP" % lineno)
        else:
            i += 1


class Exposition:
    def __init__(self, om):
        self.om = om
        self.families = {}      # name -> {"type", "unit", "help", "done"}
        self.order = []
        self.current = None
        self.series = set()
        self.nsamples = 0
        self.samples = []       # (family, labels dict, value)
        self.stamps = set()     # the samples' timestamps (None: none)
        self.stamp_of = []      # each sample's
        self.last = {}          # series -> its last timestamp
        self.gone = set()       # series of the current family another followed
        self.prev = None

    def family(self, name, lineno):
        if name in self.families:
            if self.current != name:
                raise Bad("line %d: family %s interleaved with another" % (lineno, name))
            return self.families[name]
        if self.current is not None:
            self.families[self.current]["done"] = True
        f = {"type": None, "unit": None, "help": None, "done": False}
        self.families[name] = f
        self.order.append(name)
        self.current = name
        return f

    def meta(self, line, lineno):
        m = re.match(r"^# (TYPE|HELP|UNIT) (" + NAME + r") ?(.*)$", line)
        if not m:
            raise Bad("line %d: not a TYPE, HELP or UNIT line: %r" % (lineno, line))
        kind, name, rest = m.groups()
        f = self.family(name, lineno)
        if f.get("samples"):
            raise Bad("line %d: metadata after the samples of %s" % (lineno, name))
        if kind == "TYPE":
            types = ("gauge", "counter", "info") if self.om else ("gauge", "counter")
            if rest not in types:
                raise Bad("line %d: type %r (want one of %s)" % (lineno, rest, types))
            if rest == "counter" and self.om == name.endswith("_total"):
                raise Bad("line %d: counter family %s %s end in _total in %s" % (
                    lineno, name, "must not" if self.om else "must",
                    "OpenMetrics" if self.om else "the Prometheus format"))
            if f["type"] is not None:
                raise Bad("line %d: second TYPE for %s" % (lineno, name))
            f["type"] = rest
        elif kind == "UNIT":
            if not self.om:
                raise Bad("line %d: UNIT in the Prometheus text format" % lineno)
            if f["unit"] is not None or not re.match(r"^[a-zA-Z0-9_:]+$", rest):
                raise Bad("line %d: bad or second UNIT" % lineno)
            if not name.endswith("_" + rest):
                raise Bad("line %d: %s does not end in its unit %s" % (lineno, name, rest))
            f["unit"] = rest
        else:
            if f["help"] is not None:
                raise Bad("line %d: second HELP for %s" % (lineno, name))
            check_help(rest, lineno, self.om)
            f["help"] = rest

    def sample(self, line, lineno):
        m = re.match(r"^(" + NAME + r")(?:\{(.*)\})? (\S+)(?: (\S+))?$", line)
        if not m:
            raise Bad("line %d: not a sample: %r" % (lineno, line))
        name, labels, value, stamp = m.groups()
        if stamp is not None:
            if not self.om:
                raise Bad("line %d: a timestamp in the Prometheus format (the node exporter's "
                          "textfile collector refuses it): %r" % (lineno, line))
            if not NUMBER.match(stamp):
                raise Bad("line %d: timestamp %r is not a number" % (lineno, stamp))
            stamp = float(stamp)
        self.stamps.add(stamp)
        fam = name[:-5] if name.endswith("_info") and name[:-5] in self.families else name
        if self.om and name.endswith("_total") and name[:-6] in self.families:
            fam = name[:-6]
        if fam not in self.families:
            raise Bad("line %d: sample of %s before its TYPE" % (lineno, name))
        f = self.family(fam, lineno)
        if f["type"] is None:
            raise Bad("line %d: family %s has no TYPE" % (lineno, fam))
        if f["type"] == "info" and name != fam + "_info":
            raise Bad("line %d: info sample must be named %s_info" % (lineno, fam))
        if f["type"] == "gauge" and name != fam:
            raise Bad("line %d: gauge sample named %s in family %s" % (lineno, name, fam))
        if f["type"] == "counter" and name != (fam + "_total" if self.om else fam):
            raise Bad("line %d: counter sample named %s in family %s" % (lineno, name, fam))
        f["samples"] = True
        lab = parse_labels(labels or "", lineno)
        key = (name, tuple(sorted(lab)))
        if (key, stamp) in self.series:
            raise Bad("line %d: the same series twice" % lineno)
        self.series.add((key, stamp))
        if key in self.last:
            if key in self.gone:
                raise Bad("line %d: a series' samples not consecutive" % lineno)
            if (self.last[key] is None) != (stamp is None):
                raise Bad("line %d: a series mixes samples with and without a timestamp"
                          % lineno)
            if stamp is not None and stamp <= self.last[key]:
                raise Bad("line %d: a series' timestamps do not increase" % lineno)
        if self.prev is not None and self.prev != key:
            self.gone.add(self.prev)
        self.prev = key
        self.last[key] = stamp
        if not NUMBER.match(value):
            raise Bad("line %d: value %r is not a finite number" % (lineno, value))
        x = float(value)
        if f["type"] == "info" and x != 1:
            raise Bad("line %d: info value must be 1" % lineno)
        if f["type"] == "counter" and x < 0:
            raise Bad("line %d: negative counter %s" % (lineno, name))
        f.setdefault("counter", f["type"] == "counter")
        if (name.endswith("_ratio") or name.endswith("_hertz")) and x < 0:
            raise Bad("line %d: negative %s" % (lineno, name))
        if name.endswith("share_ratio") and x > 1 + 1e-9:
            raise Bad("line %d: share above 1" % lineno)
        self.nsamples += 1
        self.samples.append((name, dict(lab), x, lineno))
        self.stamp_of.append(stamp)

    def finish(self):
        # A bound is both ends, lower <= upper.
        ends = {}
        for name, lab, x, lineno in self.samples:
            if "bound" in lab:
                rest = tuple(sorted((k, v) for k, v in lab.items() if k != "bound"))
                ends.setdefault((name, rest), {})[lab["bound"]] = (x, lineno)
        for (name, rest), e in ends.items():
            if set(e) != {"lower", "upper"}:
                raise Bad("%s%s: a bound without both ends" % (name, dict(rest)))
            if e["lower"][0] > e["upper"][0] + 1e-12:
                raise Bad("line %d: lower bound above the upper" % e["lower"][1])


class Snapshot:
    """The samples of one time in an exposition: an interval's."""
    def __init__(self, e, stamp, rows):
        self.om = e.om
        self.families = e.families
        self.stamps = {stamp} if rows else set()
        self.samples = rows
        self.nsamples = len(rows)


def snapshots(e):
    """An exposition's samples by time, a whole-run record's (window="run")
    after them: one snapshot per interval."""
    times, run = {}, []
    for row, stamp in zip(e.samples, e.stamp_of):
        if row[1].get("window") == "run":
            run.append(row)
        else:
            times.setdefault(stamp, []).append(row)
    keys = sorted(times, key=lambda t: (t is not None, t or 0))
    out = [Snapshot(e, t, times[t]) for t in keys]
    if run:
        out.append(Snapshot(e, e.stamp_of[e.samples.index(run[0])], run))
    return out or [Snapshot(e, None, [])]


def check(mode, path, show):
    om = mode == "openmetrics"
    data = open(path, "rb").read()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise Bad("not UTF-8: %s" % err)
    if not text.endswith("\n"):
        raise Bad("does not end with a line feed")
    lines = text[:-1].split("\n")
    expos = []
    cur = Exposition(om)
    ended = False
    for lineno, line in enumerate(lines, 1):
        if line == "":
            raise Bad("line %d: empty line" % lineno)
        ended = False
        if line == "# EOF":
            if not om:
                raise Bad("line %d: # EOF in the Prometheus text format" % lineno)
            cur.finish()
            expos.append(cur)
            cur = Exposition(om)
            ended = True
            continue
        if line.startswith("#"):
            cur.meta(line, lineno)
        else:
            cur.sample(line, lineno)
    if om:
        if not ended:
            raise Bad("the stream does not end with # EOF")
    else:
        cur.finish()
        expos.append(cur)
    if not expos:
        raise Bad("no exposition")
    expos = [snap for e in expos for snap in snapshots(e)]
    # Across expositions: timestamps increase, counters never go down and
    # a counter series never disappears.
    last_stamp, counters = None, {}
    for n, e in enumerate(expos, 1):
        stamp = next(iter(e.stamps)) if e.stamps else None
        # A whole-run record (every sample labelled window="run", after the
        # last interval) has that interval's time and series of its own.
        if e.samples and all(lab.get("window") == "run" for _, lab, _, _ in e.samples):
            if n != len(expos):
                raise Bad("exposition %d: a whole-run record before the end" % n)
            if stamp is not None and last_stamp is not None and stamp < last_stamp:
                raise Bad("exposition %d: whole-run record before the last interval" % n)
            continue
        if stamp is not None and last_stamp is not None and stamp <= last_stamp:
            raise Bad("exposition %d: timestamp %r not after the one before (%r)" %
                      (n, stamp, last_stamp))
        last_stamp = stamp if stamp is not None else last_stamp
        now = {}
        for name, lab, x, lineno in e.samples:
            fam = e.families.get(name[:-6] if e.om else name) or e.families.get(name)
            if fam is not None and fam.get("counter"):
                now[(name, tuple(sorted(lab.items())))] = (x, lineno)
        for key, x in counters.items():
            if key not in now:
                raise Bad("exposition %d: counter %s%s is gone" % (n, key[0], dict(key[1])))
            if now[key][0] < x:
                raise Bad("line %d: counter %s%s went down from %r to %r" %
                          (now[key][1], key[0], dict(key[1]), x, now[key][0]))
        counters = {k: v[0] for k, v in now.items()}
    for n, e in enumerate(expos, 1):
        print("exposition %d: %d families, %d samples" % (n, len(e.families), e.nsamples))
        for name, lab, x, _ in e.samples:
            if name in show:
                print("%s{%s} %r" % (name, ",".join("%s=%s" % kv for kv in sorted(lab.items())), x))


def main(argv):
    show = []
    args = []
    i = 1
    while i < len(argv):
        if argv[i] == "-s":
            show.append(argv[i + 1])
            i += 2
        else:
            args.append(argv[i])
            i += 1
    if len(args) != 2 or args[0] not in ("openmetrics", "prometheus"):
        sys.stderr.write("usage: om_check.py [-s NAME]... openmetrics|prometheus FILE\n")
        return 2
    try:
        check(args[0], args[1], show)
    except Bad as err:
        sys.stderr.write("om_check: %s: %s\n" % (args[1], err))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
