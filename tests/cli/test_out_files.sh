#!/bin/sh
# test_out_files.sh: the files httop writes, read back by other programs.
#  - every fixture topology (hwloc XML files and the fsroot and CPUID
#    tarballs): a short simulated run recorded, and its replay gives the
#    same JSON (but "source"); Xeon Phi machines have no L3 (l3=none);
#  - a host name that is not UTF-8 still gives valid JSON, escaped as the
#    OpenMetrics output does (a '?' for each bad byte);
#  - every JSON line of all that is valid against httop.schema.json;
#    a figure that is a bound on one line and exact on another keeps one
#    type per member (x, x_lo, x_hi: number or null) for typed readers;
#  - CSV is RFC 4180 but for its LF line ends: python's csv module reads
#    every record with the header's columns, bounds in the _lo/_hi ones.
. "$HTTOP_SRCDIR/tests/lib.sh"
command -v python3 >/dev/null 2>&1 || { echo "1..0 # SKIP python3 is not installed"; exit 77; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

xmls=$(ls "$HTTOP_FIXTURES"/hwloc/*.xml 2>/dev/null)
tars=$(ls "$HTTOP_FIXTURES"/hwloc/*.tar.bz2 2>/dev/null)
nx=$(printf '%s\n' $xmls | grep -c .)
nt=$(printf '%s\n' $tars | grep -c .)
if [ "$nx" -eq 0 ]; then
	echo "1..0 # SKIP no fixture topologies in $HTTOP_FIXTURES/hwloc"
	exit 77
fi
plan $((nx + nt + 7))

# same LIVE REPLAY: every line's members equal, but "source".
same() {
	python3 - "$1" "$2" <<'PY'
import json, sys
a = [json.loads(l) for l in open(sys.argv[1])]
b = [json.loads(l) for l in open(sys.argv[2])]
assert len(a) == 3 and len(a) == len(b), (len(a), len(b))
for x, y in zip(a, b):
    assert x.pop("source") == "sim" and y.pop("source") == "replay"
    assert x == y, [k for k in x if x[k] != y.get(k)]
PY
}

# roundtrip NAME TOPOLOGY: record 3 intervals of the demo scenario, replay.
roundtrip() {
	"$HTTOP" --sim demo --seed 2 --topology "$2" -b -n 3 -d 0.5 --format json \
	    --record "$1.trace.gz" >"$1.live.json" 2>"$1.err" &&
	"$HTTOP" --replay "$1.trace.gz" -b --format json >"$1.replay.json" 2>>"$1.err" &&
	same "$1.live.json" "$1.replay.json" >>"$1.err" 2>&1
}

for x in $xmls; do
	n=$(basename "$x" .xml)
	if roundtrip "$n" "$x"; then
		ok "$n: recorded and replayed, the same JSON"
	else
		not_ok "$n: $(tail -n 2 "$n.err" | tr "\n" " ")"
	fi
done
# The tarballs hold a copy of /sys and /proc (or hwloc's CPUID dump):
# read without hwloc's x86 component, as test_topology does.
for t in $tars; do
	n=$(basename "$t" .tar.bz2)
	mkdir "$n.d" && tar -xjf "$t" -C "$n.d" 2>/dev/null
	d=$(ls -d "$n.d"/*/ | head -n 1)
	if HWLOC_COMPONENTS=-x86 roundtrip "$n" "$d"; then
		ok "$n: recorded and replayed, the same JSON"
	else
		not_ok "$n: $(tail -n 2 "$n.err" | tr "\n" " ")"
	fi
done

knl=$HTTOP_FIXTURES/hwloc/knl-7250-68c-4t-flat-quadrant.xml
gzip -dc knl-7250-68c-4t-flat-quadrant.trace.gz 2>/dev/null >knl.trace
check "a Xeon Phi recording says l3=none on its 272 cpu lines" \
    [ "$(grep -c '^cpu .* l3=none ' knl.trace)" -eq 272 ]
# A recording made before (l3=4294967295) replays too.
sed 's/ l3=none / l3=4294967295 /' knl.trace >old.trace
check "... and one made before this was fixed (l3=4294967295) replays the same" sh -c '
"$1" --replay old.trace -b --format json >old.json 2>/dev/null &&
cmp -s old.json knl-7250-68c-4t-flat-quadrant.replay.json' sh "$HTTOP"

# A host name is letters, digits, '.', '-' and '_' (httop(1), SECURITY):
# one with a byte that is not UTF-8 (0xff) and an é is refused, status 2,
# one line; a good one is the JSON's "host" as it is.
"$HTTOP" --demo --host "$(printf 'h\377z\303\251')" -b -n 2 --format json >bad.json 2>bad.err; st=$?
"$HTTOP" --demo --host h-1.z_2 -b -n 2 --format json >host.json 2>host.err
check "--host that is not a host name: status 2, one line, nothing written; a good one as it is ($st)" \
    python3 -c '
import json, sys
st, bad, err, good = sys.argv[1:]
assert st == "2" and open(bad, "rb").read() == b"", st
assert len(open(err, "rb").read().splitlines()) == 1
assert b"is not a host name" in open(err, "rb").read()
lines = open(good, "rb").read().decode("utf-8").splitlines()
assert len(lines) == 2
for l in lines:
    assert json.loads(l)["host"] == "h-1.z_2", json.loads(l)["host"]
' "$st" bad.json bad.err host.json

# Every JSON line above: the live and replayed runs of every machine.
check_schema ./*.live.json ./*.replay.json host.json

# Typed readers: over all those lines, each member of the same object kind
# always holds one JSON type (or null). A bound used to be an array where
# the exact figure is a number.
check "every member has one type across all lines and machines (number or null)" python3 -c '
import json, sys
types = {}
def walk(kind, o):
    for k, v in o.items():
        if isinstance(v, dict):
            walk(kind + "." + k, v)
        elif isinstance(v, list) and v and isinstance(v[0], dict):
            for x in v: walk(kind + "." + k, x)
        elif v is not None:
            t = "number" if isinstance(v, (int, float)) and not isinstance(v, bool) else type(v).__name__
            types.setdefault(kind + "." + k, set()).add(t)
for f in sys.argv[1:]:
    for l in open(f):
        walk("", json.loads(l))
bad = {k: v for k, v in types.items() if len(v) > 1}
assert not bad, bad
assert types[".cores.neither_lo"] == {"number"} and types[".node.util_hi"] == {"number"}
' ./*.live.json

# CSV: the demo (exact) and a Zen machine (no AnyThread: every split a
# bound), read by python's csv module in strict mode.
"$HTTOP" --demo -b -n 2 --format csv >demo.csv 2>/dev/null
"$HTTOP" --sim demo --topology "$HTTOP_FIXTURES/hwloc/zen2-epyc7742-2s-64c-smt.xml" \
    -b -n 2 --format csv >zen.csv 2>/dev/null
check "csv: records end in LF alone (no CR), as httop(1) says" sh -c '
[ -s demo.csv ] && [ -s zen.csv ] && ! grep -q "$(printf "\r")" demo.csv zen.csv'
check "csv: every record has the header's columns, each once (unix_time, host, job, then steal, the job's figures and what was added since, three each, last); a bound is in x_lo, x_hi with x empty" python3 -c '
import csv, sys
for f in sys.argv[1:]:
    with open(f, newline="") as fp:
        rows = list(csv.reader(fp, strict=True))
    head = rows[0]
    assert len(head) >= 81 and len(set(head)) == len(head), len(head)
    u = head.index("unix_time")
    assert head[u:u + 6] == ["unix_time", "host", "job", "steal", "steal_lo", "steal_hi"], head[u:u + 6]
    late = head[u + 3:]
    assert len(late) % 3 == 0 and all(late[i + 1] == late[i] + "_lo" and late[i + 2] == late[i] + "_hi"
        for i in range(0, len(late), 3)), late
    assert late[3:18:3] == ["job_both", "job_alone", "job_shared", "job_none", "job_util"], late
    assert "cpu_s" in late[::3], late
    assert all(len(r) == len(head) for r in rows), f
    for k in ("neither", "util", "ghz", "cpi", "both_of_busy"):
        i = head.index(k)
        assert head[i + 1] == k + "_lo" and head[i + 2] == k + "_hi"
    d = [dict(zip(head, r)) for r in rows[1:]]
    node = [r for r in d if r["kind"] == "node"]
    if f == "zen.csv":
        assert all(r["neither"] == "" and float(r["neither_lo"]) <= float(r["neither_hi"]) for r in node)
    else:
        assert all(r["neither"] != "" and r["neither_lo"] == r["neither_hi"] == "" for r in node)
' demo.csv zen.csv
exit 0
