#!/bin/sh
# test_schema.sh: the JSON Schema of --format json (httop.schema.json, made
# when httop is built by tools/httop-schema from data/httop.schema.in.json
# and the table of figures, src/metrics/figures.c) holds the table:
# - the built file is what the tool makes of the template now (not a
#   stale one);
# - for every row of the table at each level (httop-schema --table): the
#   level's objects (aggregate, node, package; core; thread) have x, x_lo,
#   x_hi with the $ref of its kind, required unless the row is late; the
#   "absent" object has exactly the table's names; the compact arrays'
#   lengths are the fixed items and the table's rows (early ones for
#   minItems); no member of those objects ends in _lo or _hi but a row's;
# - the template names no figure (a figure is the table's alone), and an
#   unknown mark in it fails the tool;
# - a line with every figure (the demo, full and compact) is valid
#   against it.
. "$HTTOP_SRCDIR/tests/lib.sh"
need python3 python3
plan 6
tool="$HTTOP_BUILDDIR/tools/httop-schema"
schema="$HTTOP_BUILDDIR/httop.schema.json"
tmpl="$HTTOP_SRCDIR/data/httop.schema.in.json"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT INT TERM

check "the built schema is the tool's output for the template now" \
    sh -c '"$1" "$2" >"$3/fresh.json" && cmp -s "$3/fresh.json" "$4"' sh "$tool" "$tmpl" "$dir" \
    "$schema"
"$tool" --table >"$dir/table" || not_ok "httop-schema --table"
check "the schema has every row of the table at each level, as the table says" python3 -c '
import json, sys
table = [l.split() for l in open(sys.argv[1])]
s = json.load(open(sys.argv[2]))
d = s["$defs"]
defs = {"agg": ["aggregate", "node", "package"], "core": ["core"], "thread": ["thread"]}
for lev, names in defs.items():
    rows = [t for t in table if t[0] == lev]
    assert rows, lev
    mine = {r[1] for r in rows}
    for dn in names:
        o = d[dn]
        p = o["properties"]
        for _, n, ref, late in rows:
            for m in (n, n + "_lo", n + "_hi"):
                assert p[m]["$ref"] == "#/$defs/" + ref, (dn, m)
                assert (m in o["required"]) == (late == "early"), (dn, m)
        assert set(p["absent"]["properties"]) == mine, (dn, set(p["absent"]["properties"]) ^ mine)
        extra = [m for m in p if (m.endswith("_lo") or m.endswith("_hi")) and m[:-3] not in mine]
        assert not extra, (dn, extra)
n = {lev: len([t for t in table if t[0] == lev]) for lev in defs}
early = {lev: len([t for t in table if t[0] == lev and t[3] == "early"]) for lev in defs}
# [ncores, nvalid, exact, figures]; [early, inconsistency, flags, late (, {...})];
# [cpu, early, flags, late (, {...})]
for k, lev, lo, hi in (("compact_agg", "agg", 3, 3), ("compact_core", "core", 2, 3),
                       ("compact_thread", "thread", 2, 3)):
    assert d[k]["minItems"] == early[lev] + lo, (k, d[k]["minItems"])
    assert d[k]["maxItems"] == n[lev] + hi, (k, d[k]["maxItems"])
' "$dir/table" "$schema"
check "the template names no figure of the table in the figures' objects" python3 -c '
import json, sys
names = {l.split()[1] for l in open(sys.argv[1])}
d = json.load(open(sys.argv[2]))["$defs"]
for dn in ("aggregate", "node", "package", "core", "thread"):
    p = d[dn]["properties"]
    bad = [m for m in p if m in names or m[:-3] in names]
    assert not bad, (dn, bad)
    assert set(p["absent"]["properties"]) == {"@absent@"}, dn
' "$dir/table" "$tmpl"
sed 's/"@figures@": "core"/"@figures@": "socket"/' "$tmpl" >"$dir/bad.in.json"
check "a mark the tool does not know fails it, with the line" \
    sh -c '! "$1" "$2" >/dev/null 2>"$3/err" && grep -q "bad.in.json:[0-9]*: a mark" "$3/err"' \
    sh "$tool" "$dir/bad.in.json" "$dir"
"$HTTOP" --demo -b -n 2 --format json >"$dir/full.json" 2>/dev/null
"$HTTOP" --demo -b -n 2 --format json --compact >"$dir/compact.json" 2>/dev/null
check "the demo's lines carry every figure of the table at each level" python3 -c '
import json, sys
table = [l.split() for l in open(sys.argv[1])]
j = json.loads(open(sys.argv[2]).readline())
for lev, o in (("agg", j["node"]), ("core", j["cores"][0]), ("thread", j["threads"][0])):
    for t in table:
        if t[0] == lev:
            assert t[1] in o and t[1] + "_lo" in o and t[1] + "_hi" in o, (lev, t[1])
' "$dir/table" "$dir/full.json"
check_schema "$dir/full.json" "$dir/compact.json"
