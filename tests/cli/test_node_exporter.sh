#!/bin/sh
# test_node_exporter.sh: --format openmetrics checked by a strict parser,
# and --textfile read by Debian's real prometheus-node-exporter: started on
# 127.0.0.1 with only its textfile collector, pointed at a temporary
# directory; httop's series in its /metrics must carry the same figures as
# a JSON run of the same seed, with node_textfile_scrape_error 0. The
# counters (seconds per state, busy seconds) go through as counters and add
# up to the time the JSON run covers; each OpenMetrics sample carries the
# interval's wall time as its timestamp, the textfile none: the exporter
# refuses a file that has one (shown here with such a file).
. "$HTTOP_SRCDIR/tests/lib.sh"
EXPORTER=${NODE_EXPORTER:-/usr/bin/prometheus-node-exporter}
CHECK="$HTTOP_SRCDIR/tests/cli/om_check.py"
tmp=$(mktemp -d) || exit 1
exporter_pid=
# The exporter goes on every way out: normal end, error, signal.
cleanup() {
	if [ -n "$exporter_pid" ]; then
		kill "$exporter_pid" 2>/dev/null
		wait "$exporter_pid" 2>/dev/null
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
cd "$tmp" || exit 1
plan 27

if ! command -v python3 >/dev/null 2>&1; then
	for i in $(seq 17); do skip "python3 is not installed (the format checker needs it)"; done
	exit 0
fi

# 1-4: OpenMetrics on standard output, -n 3: one exposition of the three
# intervals.
"$HTTOP" --demo --seed 7 -b -n 3 --format openmetrics >om.txt 2>om.err; st=$?
check "--format openmetrics exits 0" [ "$st" -eq 0 ]
if python3 "$CHECK" openmetrics om.txt >om.check 2>&1; then ok "om_check accepts the output"
else not_ok "om_check rejects the output: $(cat om.check)"; fi
check "one # EOF, the stream's last line" sh -c \
    '[ "$(grep -c "^# EOF\$" om.txt)" -eq 1 ] && [ "$(tail -n 1 om.txt)" = "# EOF" ]'
# 36 cores of two threads, four shares each (the demo's splits are exact).
n=$(python3 "$CHECK" -s httop_core_share_ratio openmetrics om.txt | grep -c '^httop_core_share_ratio{')
check "4 x 36 core shares per interval, three intervals ($n)" [ "$n" -eq 432 ]

# Every sample's timestamp is its interval's unix_time in the JSON of the
# same run (the test clock makes runs repeat).
"$HTTOP" --demo --seed 7 -b -n 3 --format json >omj.json 2>/dev/null
check "each OpenMetrics sample's timestamp is the JSON unix_time of its interval" python3 -c '
import json, sys
want = ["%.6f" % json.loads(l)["unix_time"] for l in open(sys.argv[1])]
got, n = {}, 0
for line in open(sys.argv[2]):
    if not line.startswith("#"):
        series, t = line.rsplit(" ", 2)[0], line.split()[-1]
        got.setdefault(series, []).append(t)
        n += 1
# one exposition: each series its samples in time order, the last ones
# those of the last interval (a counter starts when its core is first seen)
bad = [s for s, t in got.items() if t != want[len(want) - len(t):]]
assert not bad and sorted(set(x for t in got.values() for x in t)) == want, bad[:3]
assert sum(len(t) == 3 for t in got.values()) > 1000, len(got)
print(n)
' omj.json om.txt

# 5-6: the checker itself rejects what httop must never write.
sed '0,/^httop_node_cpi{/s/\(httop_node_cpi{[^}]*}\) .*/\1 NaN/' om.txt >bad1.txt
check "om_check rejects a NaN" sh -c "! python3 '$CHECK' openmetrics bad1.txt 2>/dev/null"
sed '$d' om.txt >bad2.txt
check "om_check rejects a missing # EOF" sh -c "! python3 '$CHECK' openmetrics bad2.txt 2>/dev/null"
# A counter lower than in the exposition before; one that is gone; a
# timestamp in the Prometheus format (the textfile collector refuses it).
awk '/^httop_node_thread_busy_seconds_total/ && ++n == 2 { sub(/ [0-9.]+ /, " 0.5 ") } { print }' \
    om.txt >bad3.txt
check "om_check rejects a counter that went down" sh -c \
    "python3 '$CHECK' openmetrics bad3.txt 2>&1 | grep -q 'went down'"
awk '/^httop_core_uncovered_seconds_total.*core="3"/ && ++n == 3 { next } { print }' om.txt >bad4.txt
check "om_check rejects a counter series that is gone" sh -c \
    "python3 '$CHECK' openmetrics bad4.txt 2>&1 | grep -q 'is gone'"

# 7-9: --textfile: only httop.prom is left, in the Prometheus text format.
mkdir tf
"$HTTOP" --demo --seed 7 -b -n 3 --format json --textfile "$tmp/tf" --textfile-level thread >run.json 2>run.err; st=$?
check "--textfile with --format json exits 0" [ "$st" -eq 0 ]
check_schema run.json
check "the directory holds only httop.prom" [ "$(ls -A tf)" = "httop.prom" ]
if python3 "$CHECK" prometheus tf/httop.prom >tf.check 2>&1; then ok "httop.prom is valid Prometheus text"
else not_ok "httop.prom: $(cat tf.check)"; fi

# A machine whose split is a bound (Zen 2, no both-threads event), as a
# second file: its families mix series with and without the bound label.
mkdir tfz
F=$HTTOP_FIXTURES
"$HTTOP" --sim demo --topology "$F/hwloc/zen2-epyc7742-2s-64c-smt.xml" \
    --cpuid "$F/cpuid/zen2-epyc7742-2s-64c-smt.cpuid.txt" --host zen -b -n 1 \
    --format summary --textfile "$tmp/tfz" --textfile-level thread >zen.out 2>zen.err &&
    cp tfz/httop.prom tf/zen.prom

# 10-15: the real exporter.
if [ ! -x "$EXPORTER" ] || ! command -v curl >/dev/null 2>&1; then
	for i in 10 11 12 13 14 15 16 17 18; do skip "prometheus-node-exporter or curl is not installed"; done
else
	port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	"$EXPORTER" --web.listen-address="127.0.0.1:$port" --collector.disable-defaults \
	    --collector.textfile --collector.textfile.directory="$tmp/tf" >exporter.log 2>&1 &
	exporter_pid=$!
	# Up when it answers (it takes well under a second; allow 20).
	i=0
	while [ $i -lt 200 ] && ! curl -sf "http://127.0.0.1:$port/metrics" >metrics.txt 2>/dev/null; do
		if ! kill -0 "$exporter_pid" 2>/dev/null; then break; fi
		sleep 0.1
		i=$((i + 1))
	done
	check "the exporter serves /metrics on 127.0.0.1:$port" grep -q '^httop_' metrics.txt
	check "node_textfile_scrape_error is 0" grep -q '^node_textfile_scrape_error 0$' metrics.txt
	check "node_textfile_mtime_seconds names httop.prom" \
	    grep -q '^node_textfile_mtime_seconds{file="[^"]*httop.prom"}' metrics.txt
	# The node's four shares and busy share: the last JSON interval's (JSON
	# writes fractions to 10 decimals, OpenMetrics to 12 digits: 1e-10).
	if python3 - run.json metrics.txt >cmp.out 2>&1 <<'EOF'
import json, re, sys
last = json.loads(open(sys.argv[1]).read().splitlines()[-1])
host = last["host"]
got = {}
for line in open(sys.argv[2]):
    m = re.match(r'^httop_node_(share|both_of_busy)_ratio\{(.*)\} (\S+)$', line)
    if m:
        labels = dict(re.findall(r'(\w+)="([^"]*)"', m.group(2)))
        if labels["host"] != host:
            continue
        assert "bound" not in labels, labels
        got[labels.get("state", "both_of_busy")] = float(m.group(3))
want = {k: last["node"][k] for k in ("neither", "t0_only", "t1_only", "both", "both_of_busy")}
assert set(got) == set(want), (got, want)
for k in want:
    assert abs(got[k] - want[k]) <= 1e-10, (k, got[k], want[k])
print("ok", got)
EOF
	then ok "node shares and both/busy in /metrics equal the JSON run's"
	else not_ok "node shares differ: $(cat cmp.out)"; fi
	n=$(grep -c '^httop_thread_valid{' metrics.txt)
	check "72 + 256 thread series in /metrics ($n)" [ "$n" -eq 328 ]
	check "bounds of the Zen file come through as bound=lower/upper" \
	    grep -q '^httop_node_share_ratio{bound="upper",host="zen",state="both"} ' metrics.txt
	check "the counters come through as counters" sh -c \
	    'grep -q "^# TYPE httop_core_state_seconds_total counter$" "$1" &&
	    grep -q "^httop_thread_busy_seconds_total{" "$1"' sh metrics.txt
	# The node's four state totals and its uncovered seconds are 36 cores
	# times the time the three intervals cover (the demo's splits are exact:
	# uncovered 0); the busy thread-seconds are the sum of util x interval.
	check "state + uncovered core-seconds = 36 x the JSON run's intervals; busy = sum of util x interval" \
	    python3 -c '
import json, re, sys
js = [json.loads(l) for l in open(sys.argv[1])]
t = sum(r["interval"] for r in js)
busy = sum(th["util"] * r["interval"] for r in js for th in r["threads"])
got = {}
for line in open(sys.argv[2]):
    m = re.match(r"^httop_node_(state|uncovered|thread_busy)_seconds_total\{(.*)\} (\S+)$", line)
    if m and ("host=\"%s\"" % js[0]["host"]) in m.group(2):
        got[m.group(1) + m.group(2)] = float(m.group(3))
states = sum(v for k, v in got.items() if k.startswith("state"))
unc = sum(v for k, v in got.items() if k.startswith("uncovered"))
b = sum(v for k, v in got.items() if k.startswith("thread_busy"))
assert abs(states + unc - 36 * t) < 1e-4 and unc == 0, (states, unc, 36 * t)
assert abs(b - busy) < 1e-4, (b, busy)
' run.json metrics.txt
	# A file with timestamps, beside: the collector refuses it (which is
	# why httop.prom has none).
	sed 's/^\(httop_node_cores{[^}]*} [0-9]*\)$/\1 1704067200000/' tf/httop.prom >tf/stamped.prom
	curl -sf "http://127.0.0.1:$port/metrics" >metrics2.txt 2>/dev/null
	check "the exporter refuses a text file with a timestamp (scrape error 1)" \
	    grep -q '^node_textfile_scrape_error 1$' metrics2.txt
	rm -f tf/stamped.prom
fi

# 16-17: with the screen, the file is written too (script gives a terminal).
mkdir tf2
if command -v script >/dev/null 2>&1; then
	TERM=xterm script -qec "'$HTTOP' --demo -d 0.1 -n 2 --textfile '$tmp/tf2'" /dev/null \
	    >screen.out 2>&1 </dev/null; st=$?
	check "the screen with --textfile exits 0 ($st)" [ "$st" -eq 0 ]
	check "the screen run wrote a valid httop.prom" python3 "$CHECK" prometheus tf2/httop.prom
else
	skip "script(1) is not installed"; skip "script(1) is not installed"
fi

# 18-20: temporary names created in advance by someone else (the old
# names were .httop.prom.PID.0, .1, ...: 100 of them for the PID httop
# will have made every write fail with "give a directory httop may write
# to"): the names are random now, and those files are not httop's to touch.
mkdir tf3
sh -c 'i=0; while [ $i -lt 100 ]; do : >"$1/.httop.prom.$$.$i"; i=$((i + 1)); done
	exec "$2" --demo -b -n 2 -d 0.05 --textfile "$1"' sh "$tmp/tf3" "$HTTOP" \
	    >planted.out 2>planted.err; st=$?
check "--textfile with planted temporary names exits 0 ($st: $(head -c 200 planted.err))" \
    [ "$st" -eq 0 ]
check "... and wrote httop.prom" python3 "$CHECK" prometheus tf3/httop.prom
check "... and left the 100 planted files alone" \
    [ "$(find tf3 -name '.httop.prom.*' | wc -l)" -eq 100 ]
exit 0
