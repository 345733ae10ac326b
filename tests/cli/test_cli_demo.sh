#!/bin/sh
# test_cli_demo.sh: the batch outputs of the simulator on the demo machine
# (2 x 18-core Skylake-SP, 72 CPUs, data/demo-skx.*).
# - json: one valid line per interval; the four shares of each core sum
#   to 1 (within 1e-9) and match the simulator's truth within 0.005, the
#   validity tolerance of 0.5% of the interval.
# - csv: the same figures as json for the same seed.
# - text: one row per core; --cpus keeps only the cores named.
. "$HTTOP_SRCDIR/tests/lib.sh"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
plan 17

if ! command -v python3 >/dev/null 2>&1; then
	i=0; while [ $i -lt 16 ]; do skip "python3 is not installed"; i=$((i + 1)); done
	exit 0
fi

"$HTTOP" -b -n 3 --format json --demo --seed 5 >"$tmp/j" 2>"$tmp/err"; st=$?
check "--demo -b -n 3 --format json exits 0" [ "$st" -eq 0 ]
check "... and says nothing on stderr" [ ! -s "$tmp/err" ]
check "... prints exactly 3 lines" [ "$(wc -l <"$tmp/j")" -eq 3 ]
check_schema "$tmp/j"

check "every line is valid JSON with time, interval, valid, cores, threads" python3 -c '
import json, math, sys
for line in open(sys.argv[1]):
    d = json.loads(line, parse_constant=lambda c: sys.exit("bad constant " + c))
    for k in ("time", "interval", "valid", "host", "source", "split", "node", "packages", "cores", "threads"):
        assert k in d, k
    assert d["source"] == "sim" and d["valid"] is True, d.get("reason")
    assert len(d["cores"]) == 36 and len(d["threads"]) == 72
' "$tmp/j"

check "shares sum to 1 within 1e-9 and are never negative" python3 -c '
import json, sys
for line in open(sys.argv[1]):
    for c in json.loads(line)["cores"]:
        s = [c[k] for k in ("neither", "t0_only", "t1_only", "both")]
        assert c["exact"] and all(isinstance(x, float) or isinstance(x, int) for x in s), c
        assert all(x >= 0 for x in s), c
        assert abs(sum(s) - 1) <= 1e-9, (c["cpus"], sum(s))
' "$tmp/j"

check "shares match the simulator truth within 0.005" python3 -c '
import json, sys
worst = 0
for line in open(sys.argv[1]):
    for c in json.loads(line)["cores"]:
        for k in ("neither", "t0_only", "t1_only", "both"):
            worst = max(worst, abs(c[k] - c["truth"][k]))
assert worst <= 0.005, worst
' "$tmp/j"

"$HTTOP" -b -n 3 --format csv --demo --seed 5 >"$tmp/c" 2>"$tmp/err"; st=$?
check "--format csv exits 0" [ "$st" -eq 0 ]
check "csv parses and holds the json figures of the same seed" python3 -c '
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[2], newline="")))
js = [json.loads(l) for l in open(sys.argv[1])]
cores = [r for r in rows if r["kind"] == "core"]
threads = [r for r in rows if r["kind"] == "thread"]
assert len(cores) == 3 * 36 and len(threads) == 3 * 72, (len(cores), len(threads))
assert len([r for r in rows if r["kind"] == "node"]) == 3
i = 0
for d in js:
    for c in d["cores"]:
        r = cores[i]; i += 1
        assert r["cpus"] == " ".join(map(str, c["cpus"])), (r["cpus"], c["cpus"])
        assert abs(float(r["time"]) - d["time"]) < 1e-6
        for k in ("neither", "t0_only", "t1_only", "both", "util"):
            assert abs(float(r[k]) - c[k]) <= 1e-12, (k, r[k], c[k])
        for k in ("neither", "t0_only", "t1_only", "both"):
            assert abs(float(r["truth_" + k]) - c["truth"][k]) <= 1e-12
' "$tmp/j" "$tmp/c"

"$HTTOP" -b -n 2 --demo >"$tmp/t" 2>"$tmp/err"; st=$?
check "text output exits 0" [ "$st" -eq 0 ]
# A core row: package, core id, CPUs, then figures; 36 cores, 2 intervals.
check "text has one row per core per interval (72)" \
	[ "$(grep -c '^ *[0-9][0-9]* *[0-9][0-9]* [0-9][0-9]*,[0-9]' "$tmp/t")" -eq 72 ]
check "text has a header per interval" [ "$(grep -c '^pkg core cpus' "$tmp/t")" -eq 2 ]

# --cpus 1,36: CPU 36 is thread 1 of core 0 of package 0 (CPU 0), CPU 1
# is thread 0 of core 0 of package 1: two whole cores, four threads.
"$HTTOP" -b -n 1 --format json --demo --cpus 1,36 >"$tmp/s" 2>"$tmp/err"; st=$?
check "--cpus 1,36 exits 0" [ "$st" -eq 0 ]
check "--cpus 1,36 reads the cores of CPUs 0,36 and 1,37 only" python3 -c '
import json, sys
d = json.loads(open(sys.argv[1]).readline())
assert [c["cpus"] for c in d["cores"]] == [[0, 36], [1, 37]], d["cores"]
assert [t["cpu"] for t in d["threads"]] == [0, 1, 36, 37]
assert d["node"]["ncores"] == 2
' "$tmp/s"
check_schema "$tmp/s"
"$HTTOP" -b -n 1 --demo --cpus 1,36 >"$tmp/st"
check "--cpus 1,36 text shows 2 core rows" \
	[ "$(grep -c '^ *[0-9][0-9]* *[0-9][0-9]* [0-9][0-9]*,[0-9]' "$tmp/st")" -eq 2 ]
# Without -b, standard output a file: batch mode all the same (httop(1),
# -b), the text format, ended by -n.
HTTOP_CLOCK=virtual "$HTTOP" -n 2 --demo >"$tmp/nob" 2>/dev/null </dev/null; st=$?
check "without -b into a file: status 0, two intervals as text ($st)" \
	sh -c '[ "$1" -eq 0 ] && [ "$(grep -c "^time " "$2")" -eq 2 ]' sh "$st" "$tmp/nob"
