#!/bin/sh
# test_promtool.sh: a stream of --format openmetrics loads into
# Prometheus's TSDB as a whole (promtool tsdb create-blocks-from
# openmetrics, the backfill httop(1) suggests): one "# EOF" at the end of
# the stream, not one per interval (a parser refuses data after it). The
# three intervals' samples come back from the blocks with the timestamps
# of the JSON run of the same seed, and the node exporter's textfile
# passes promtool's own lint (promtool check metrics).
. "$HTTOP_SRCDIR/tests/lib.sh"
need promtool prometheus
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
cd "$tmp" || exit 1
export HTTOP_CLOCK=virtual
plan 6

"$HTTOP" --demo --seed 7 -b -n 3 --format openmetrics >s.om 2>err; st=$?
check "--format openmetrics -n 3 exits 0" [ "$st" -eq 0 ]
check "one # EOF, the last line" sh -c '[ "$(grep -c "^# EOF$" s.om)" = 1 ] &&
    [ "$(tail -n 1 s.om)" = "# EOF" ]'
if promtool tsdb create-blocks-from openmetrics s.om blocks >load.out 2>&1; then
	ok "promtool loads the 3-interval stream"
else
	not_ok "promtool refuses the stream: $(tail -n 3 load.out)"
fi
# promtool's dump wants a WAL directory, even an empty one.
mkdir -p blocks/wal
promtool tsdb dump --match='{__name__="httop_node_cpi"}' blocks >cpi.dump 2>&1
"$HTTOP" --demo --seed 7 -b -n 3 --format json >s.json 2>/dev/null
# Each stored sample: its value and timestamp are the JSON's node CPI (6
# digits there) and unix_time (us; the store keeps ms, cut) of the same
# interval.
check "the blocks hold the node's CPI of each interval at its time" python3 -c '
import json, sys
want = []
for l in open(sys.argv[1]):
    j = json.loads(l)
    want.append((j["node"]["cpi"], j["unix_time"] * 1000))
got = []
for l in open(sys.argv[2]):
    v, t = l.split()[-2:]
    got.append((float(v), int(t)))
assert len(got) == 3, got
for (v, t), (wv, wt) in zip(got, want):
    assert abs(v - wv) < 1e-6 and 0 <= wt - t < 1.001, (got, want)
' s.json cpi.dump
mkdir tf
"$HTTOP" --demo --seed 7 -b -n 2 --format summary --textfile "$PWD/tf" >/dev/null 2>&1
check "the textfile passes promtool check metrics" sh -c \
    'promtool check metrics <tf/httop.prom >lint.out 2>&1 && [ ! -s lint.out ]'
# Every share of every core of every interval is stored.
n=$(promtool tsdb dump blocks 2>/dev/null | grep -c '^{__name__="httop_core_share_ratio"')
check "4 shares x 36 cores x 3 intervals stored ($n)" [ "$n" = 432 ]
exit 0
