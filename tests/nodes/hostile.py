#!/usr/bin/env python3
"""hostile.py MODE HOST: a node that lies, for tests/cli/test_nodes_untrusted.sh.

Reads the lines of a real node's httop (started as HOST) on standard input
and writes them changed as MODE says, as a node run by someone hostile, or
broken, could:
  reason   the interval invalid, its reason escape sequences, a newline and
           a carriage return that forge a line, a right-to-left override;
           its CPU's "brand" the same
  host     its host name escape sequences and a newline
  claim    it says it is host h1
  dup      "host" twice: its own name first (what httop would read), h1
           last (what jq reads)
  heavy    weights of 1.7e308
  zero     weights of 0 under the figures it shows
  negzero  the node's util written -0 (in a compact line, -0.0 in its "agg")
  list     (compact lines) its first line's "core_list" names CPU 70000
           for its first core: the machine is refused, and its next lines
           have no "core_list"
  rawesc   at its end, where a head parse does not look, a string with a
           raw escape sequence (not JSON)
  rawbidi  at its end a string with a raw right-to-left override (JSON)
  rawfmt   at its end a string with raw DEL, C1 (NEL, CSI), a soft hyphen,
           a zero-width space, a tag character and an isolate, and a tab
           between values (JSON)
  clock-W  its "unix_time" changed (line k, from 0), W one of
           1e300, 1.79e308, -1e300, 0, 1e999 (each line that), past (an
           hour after 1970 and on), back (its own, then 1000 s back on each
           line), ahead (its own, then 1e9 s on), late1e300 (its own
           first, then 1e300)
"""
import json
import re
import sys

NASTY = "\\u001b]0;TITLE\\u0007\\u001b[2J\\r\\nFORGED LINE\\u202e\\u001b[5n"


def change(mode, host, line):
    own = '"host":"%s"' % host
    if mode == "reason":
        line = re.sub(r'"brand":"(?:[^"\\]|\\.)*"', '"brand":"%s"' % NASTY.replace("\\", "\\\\"),
                      line, count=1)
        return line.replace('"valid":true', '"valid":false,"reason":"%s"' % NASTY, 1)
    if mode == "host":
        return line.replace(own, '"host":"%s"' % NASTY, 1)
    if mode == "claim":
        return line.replace(own, '"host":"h1"', 1)
    if mode == "dup":
        return line.replace(own, own + ',"host":"h1"', 1)
    if mode == "heavy":
        return re.sub(r'"weights":\{[^}]*\}',
                      '"weights":{"tsc":1.7e308,"ref":1.7e308,"inst":1.7e308}', line, count=1)
    if mode == "zero":
        return re.sub(r'"weights":\{[^}]*\}', '"weights":{"tsc":0,"ref":0,"inst":0}', line,
                      count=1)
    if mode == "negzero" and '"agg":[' in line:
        d = json.loads(line)
        d["node"]["agg"][7] = -0.0
        return json.dumps(d, separators=(",", ":")) + "\n"
    if mode == "list":
        return line.replace('"core_list":[[0,0,[', '"core_list":[[0,0,[70000,', 1)
    if mode == "negzero":
        return re.sub(r'("node":\{.*?)"util":[0-9.e+-]+', r'\1"util":-0', line, count=1)
    if mode == "rawesc":
        return line.rstrip("\n")[:-1] + ',"x":"\x1b]0;TITLE\x07\x1b[2J"}\n'
    if mode == "rawbidi":
        return line.rstrip("\n")[:-1] + ',"x":"\u202eFORGED"}\n'
    if mode == "rawfmt":
        return (line.rstrip("\n")[:-1] + ',\t"x":"a\x7fb\x85c\x9b2Jd\xade\u200bf\U000e0041g'
                '\u2066h\u00e9"}\n')
    raise SystemExit("hostile.py: unknown mode " + mode)


def clock(when, k, line):
    def stamp(m):
        t = float(m.group(1))
        if when == "past":
            v = "%.6f" % (3600.0 + k)
        elif when == "back":
            v = "%.6f" % (t - 1000.0 * k)
        elif when == "ahead":
            v = "%.6f" % (t + (1e9 if k > 0 else 0.0))
        elif when == "late1e300":
            v = "%.6f" % t if k == 0 else "1e300"
        else:
            v = when
        return '"unix_time":' + v
    return re.sub(r'"unix_time":([0-9.e+-]+)', stamp, line, count=1)


def main():
    mode, host = sys.argv[1], sys.argv[2]
    for k, line in enumerate(sys.stdin):
        if mode.startswith("clock-"):
            out = clock(mode[6:], k, line)
        else:
            out = change(mode, host, line)
        sys.stdout.buffer.write(out.encode("utf-8"))
        sys.stdout.buffer.flush()


main()
