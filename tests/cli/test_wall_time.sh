#!/bin/sh
# test_wall_time.sh: the wall-clock time in every batch format, read back
# by parsing each format (python3: json, csv; awk: text and summary).
#  - json: unix_time (seconds, microsecond digits) and iso_time (ISO 8601
#    with the local zone's offset, with a colon) name the same instant, in
#    UTC and in zones with odd offsets (+05:30, -03:30, +10:30 in summer);
#  - the test clock (HTTOP_CLOCK=virtual) starts the simulator at
#    1704067200 (2024-01-01T00:00:00Z): unix_time = that + time, exactly,
#    so runs repeat; in real time it is the time of day of the run;
#  - csv's unix_time column, the text header and the summary's column give
#    the same time as json, per interval (to the millisecond in the last
#    two);
#  - a trace without wall times (version 1.0, tests/data/trace/good.trace,
#    created 2024-01-01T00:00:00Z) replays with created + time.
. "$HTTOP_SRCDIR/tests/lib.sh"
command -v python3 >/dev/null 2>&1 || { echo "1..0 # SKIP python3 is not installed"; exit 77; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
plan 11

# jsonchk FILE: unix_time and iso_time agree on every line, iso_time has the
# offset of TZ at that moment; prints the unix_times.
jsonchk() {
	python3 - "$1" <<'EOF'
import datetime, json, re, sys, time
pat = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}[+-]\d\d:\d\d$")
for line in open(sys.argv[1]):
    r = json.loads(line)
    u, iso = r["unix_time"], r["iso_time"]
    assert isinstance(u, float) and pat.match(iso), (u, iso)
    d = datetime.datetime.fromisoformat(iso)
    assert abs(d.timestamp() - u) < 5e-7, (d.timestamp(), u)
    # the local zone's offset at that moment, as the C library says it
    off = time.localtime(int(u)).tm_gmtoff
    assert d.utcoffset().total_seconds() == off, (iso, off)
    # six decimals written, as the figure's precision says
    assert re.search(r'"unix_time":\d+\.\d{6},', line), line[:80]
    print("%.6f" % u)
EOF
}

HTTOP_CLOCK=virtual TZ=UTC "$HTTOP" --demo -b -n 3 -d 0.5 --format json >v.json 2>v.err
check_schema v.json
if TZ=UTC jsonchk v.json >v.times 2>v.chk; then ok "json: unix_time and iso_time agree (UTC)"
else not_ok "json (UTC): $(tail -n 1 v.chk)"; fi
check "the test clock: unix_time = 1704067200 + time on every line" python3 -c '
import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    assert abs(r["unix_time"] - 1704067200 - r["time"]) < 1.5e-6, r["unix_time"]
    assert r["iso_time"].startswith("2024-01-01T00:00:0") and r["iso_time"].endswith("+00:00")
' v.json
# Zones with odd offsets (the time zone database: Debian's tzdata).
if [ -r /usr/share/zoneinfo/Asia/Kolkata ] && [ -r /usr/share/zoneinfo/America/St_Johns ] &&
    [ -r /usr/share/zoneinfo/Australia/Adelaide ]; then
	bad=
	for z in Asia/Kolkata America/St_Johns Australia/Adelaide; do
		HTTOP_CLOCK=virtual TZ=$z "$HTTOP" --demo -b -n 2 --format json >z.json 2>/dev/null
		TZ=$z jsonchk z.json >/dev/null 2>z.chk || bad="$bad $z: $(tail -n 1 z.chk)"
	done
	check "json: the local zone's offset with a colon in three zones${bad:+:$bad}" [ -z "$bad" ]
	HTTOP_CLOCK=virtual TZ=Asia/Kolkata "$HTTOP" --demo -b -n 1 --format json >k.json 2>/dev/null
	check "json: Asia/Kolkata says 05:30 past midnight, +05:30" \
	    grep -q '"iso_time":"2024-01-01T05:30:01.[0-9]*+05:30"' k.json
else
	skip "no time zone database in /usr/share/zoneinfo (Debian package tzdata)"
	skip "no time zone database in /usr/share/zoneinfo (Debian package tzdata)"
fi

# In real time: the time of the run.
t0=$(date +%s)
env -u HTTOP_CLOCK "$HTTOP" --demo -b -n 2 -d 0.2 --format json >r.json 2>/dev/null
t1=$(date +%s)
check "real time: unix_time within the run ($t0 to $t1 + 1)" python3 -c '
import json, sys
t0, t1 = int(sys.argv[2]), int(sys.argv[3]) + 1
us = [json.loads(l)["unix_time"] for l in open(sys.argv[1])]
assert len(us) == 2 and t0 <= us[0] < us[1] <= t1, (t0, us, t1)
' r.json "$t0" "$t1"

# csv, text, summary of the same (repeatable) run as v.json.
HTTOP_CLOCK=virtual TZ=UTC "$HTTOP" --demo -b -n 3 -d 0.5 --format csv >v.csv 2>/dev/null
check "csv: unix_time on every row, the json line's of its interval" python3 -c '
import csv, json, sys
js = [json.loads(l) for l in open(sys.argv[1])]
rows = list(csv.DictReader(open(sys.argv[2], newline="")))
want = {"%.6f" % r["time"]: "%.6f" % r["unix_time"] for r in js}
assert len(rows) > 3 and all(r["unix_time"] == want[r["time"]] for r in rows)
assert len({r["unix_time"] for r in rows}) == 3
' v.json v.csv
HTTOP_CLOCK=virtual TZ=UTC "$HTTOP" --demo -b -n 3 -d 0.5 --format text >v.txt 2>/dev/null
HTTOP_CLOCK=virtual TZ=UTC "$HTTOP" --demo -b -n 3 -d 0.5 --format summary >v.sum 2>/dev/null
sed -n 's/^time [0-9.]* s (Unix time \([0-9.]*\)), .*/\1/p' v.txt >txt.times
awk '{ print $3 }' v.sum >sum.times
awk '{ printf "%.3f\n", $1 }' v.times >ms.times
check "text: the header's Unix time, to the millisecond, is json's" cmp -s ms.times txt.times
check "summary: the third column, to the millisecond, is json's" cmp -s ms.times sum.times
check "three intervals in each" [ "$(wc -l <ms.times)" -eq 3 ]

# A trace from before wall times (1.0): created (2024-01-01T00:00:00Z) +
# time, 1 and 2.5 s after the first sample's 0.
"$HTTOP" --replay "$HTTOP_SRCDIR/tests/data/trace/good.trace" -b --format json >old.json 2>/dev/null
check "an old trace replays with created + time: 1704067201, 1704067202.5" sh -c '
[ "$(python3 -c "import json,sys; print(*[json.loads(l)[\"unix_time\"] for l in open(sys.argv[1])])" "$1")" = \
  "1704067201.0 1704067202.5" ]' sh old.json
exit 0
