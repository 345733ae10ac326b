"""dash_check.py: run the Grafana dashboard's queries against a real
Prometheus, as Grafana would, and judge each panel's answer.

usage: dash_check.py --api URL DASHBOARD [--var NAME=VALUE]... ROW:EXPECT...

ROW is a row's title word ("Node" or "Job"); EXPECT is "numbers" (every
panel of the row answers at least one series, every value finite, shares
and utilisations in [0, 1]) or "numbers-or-why:ID,ID" (those panels may
answer nothing, if the panel says why in its noValue text; the others must
answer numbers). $__rate_interval is 1m. Prints a line per panel; exit 1
when one fails."""
import json
import math
import sys
import urllib.parse
import urllib.request


def query(api, expr):
    url = api + "/query?" + urllib.parse.urlencode({"query": expr})
    r = json.load(urllib.request.urlopen(url))
    assert r["status"] == "success", r
    return r["data"]["result"]


def rows(dash):
    """(row title, [panels]) in order: Grafana's flat layout, a panel
    belongs to the row above it."""
    out = []
    for p in dash["panels"]:
        if p["type"] == "row":
            out.append((p["title"], []))
        elif out:
            out[-1][1].append(p)
    return out


def judge(panel, result, may_be_empty):
    unit = panel.get("fieldConfig", {}).get("defaults", {}).get("unit")
    if not result:
        why = panel.get("fieldConfig", {}).get("defaults", {}).get("noValue", "")
        if may_be_empty and why:
            return True, "no series; the panel says: %s" % why
        return False, "no series"
    vals = []
    for r in result:
        v = float(r["value"][1])
        vals.append(v)
        if not math.isfinite(v):
            return False, "%s is %s" % (r["metric"], v)
        if unit == "percentunit" and not -1e-9 <= v <= 1 + 1e-9:
            return False, "%s is %s, not a share" % (r["metric"], v)
    return True, "%d series, %s" % (len(result), " ".join("%.4g" % v for v in vals[:6]))


def main(argv):
    api = None
    subs = {"$__rate_interval": "1m"}
    want = []
    args = argv[1:]
    while args:
        a = args.pop(0)
        if a == "--api":
            api = args.pop(0)
        elif a == "--var":
            k, v = args.pop(0).split("=", 1)
            subs["$" + k] = v
        elif ":" in a:
            want.append(a)
        else:
            dash = json.load(open(a))
    bad = 0
    for spec in want:
        row, expect = spec.split(":", 1)
        empty_ok = set()
        if expect.startswith("numbers-or-why:"):
            empty_ok = {int(x) for x in expect.split(":", 1)[1].split(",")}
        elif expect != "numbers":
            raise SystemExit("unknown expectation " + expect)
        panels = [ps for title, ps in rows(dash) if title.split()[0] == row]
        assert len(panels) == 1 and panels[0], "no row " + row
        for p in panels[0]:
            for t in p["targets"]:
                e = t["expr"]
                for k in sorted(subs, key=len, reverse=True):
                    e = e.replace(k, subs[k])
                ok, what = judge(p, query(api, e), p["id"] in empty_ok)
                print("%s %s (panel %d): %s" % ("ok" if ok else "FAIL", p["title"], p["id"], what))
                bad += not ok
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
