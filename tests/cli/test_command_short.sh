#!/bin/sh
# test_command_short.sh: a command that ends before one interval can measure
# it (httop -- true: well under the shortest interval httop takes, -d 0.05)
# gets no figures, with the reason (too-short), in the summary and in every
# batch format: its interval and its whole-run record alike. A command that
# runs longer keeps its figures, its short last interval included.
. "$HTTOP_SRCDIR/tests/lib.sh"
need jq
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
plan 10

timeout 30 "$HTTOP" --demo -- true >out 2>err; st=$?
check "httop --demo -- true: exit status 0 (got $st)" [ "$st" -eq 0 ]
node=$(summary_node err)
check "... the node's rows have no figures: nine dashes ($node)" \
	[ "$node" = "- - - - - - - - -" ]
# (the absent: line wrapped at 80 columns, joined again)
absent=$(awk '/^  absent: / { p = 1; printf "%s", $0; next }
    p && /^    / { printf " %s", $0; next } { p = 0 }' err | tr -s ' ')
check "... and says why ($absent)" \
    sh -c 'echo "$1" | grep -q "^ absent: .*CPI: too short to measure (under 0.05 s)$"' sh "$absent"
check "... no percentage anywhere in the table" sh -c '! grep -Eq "^  (package [0-9]+|node) .*[0-9]" err'
# Every core of the command is too short, not core 0 alone: with more
# than one core the reason names them all.
n=$(sed -n 's/.*the command.s CPUs [^(]*(\([0-9]*\) cores*).*/\1/p' err)
if [ "${n:-0}" -gt 1 ]; then
	# (wrapped at 80 columns: its continuation lines joined)
	nv=$(awk '/^  not valid over the whole run: / { p = 1; printf "%s", $0; next }
	    p && /^    / { printf " %s", $0; next } { p = 0 }' err | tr -s ' ')
	check "... the reason names all $n cores ($nv)" sh -c 'echo "$1" |
		grep -Eq "^ not valid over the whole run: all $2 cores \(cpus [0-9,-]+\): too short to measure"' \
		sh "$nv" "$n"
else
	check "... the reason names the one core" grep -Eq '^  not valid over the whole run: package [0-9]+, core [0-9]+ \(cpus [0-9,]+\): too short' err
fi

timeout 30 "$HTTOP" --demo -b --format json -- true 2>out.json
check "json: both records (the interval, the whole run) invalid, no figure, reason too-short" \
	test "$(jq -r '[.valid, .node.both, .node.active_threads, .node.absent.both,
	    (.cores[0].reason)] | map(tostring) | join(" ")' out.json | sort -u)" = \
	"false null null too-short too-short"
timeout 30 "$HTTOP" --demo -b --format csv -- true 2>out.csv
check "csv: the job row and the run row invalid, both and util empty, absent too-short" \
	python3 -c '
import csv, sys
rows = [r for r in csv.DictReader(open("out.csv")) if r["kind"] in ("job", "run")]
sys.exit(not (len(rows) == 2 and all(r["valid"] == "0" and r["both"] == "" and r["util"] == ""
    and "both:too-short" in r["absent"] for r in rows)))'
timeout 30 "$HTTOP" --demo -b --format summary -- true 2>out.sum
check "summary: the records say too short, with dashes for the figures" \
	awk '!/^#/ && NF > 0 { n++; if (!/too short to measure/ || $5 != "-") bad = 1 }
	    END { exit !(n == 2 && !bad) }' out.sum
timeout 30 "$HTTOP" --demo -b --format openmetrics -- true 2>out.om
check "openmetrics: no share or utilisation sample, the interval invalid" \
	sh -c '! grep -Eq "^httop_(node|core)_(share|utilization)_ratio" out.om &&
	    grep -q "^httop_interval_valid{host=\"[^\"]*\",jobid=\"[0-9]*\"} 0" out.om'

# Longer than an interval: figures, its last (short) interval too.
timeout 30 "$HTTOP" --demo -d 0.1 -b --format json -- sleep 0.35 2>long.json
check "-- sleep 0.35 with -d 0.1: every record has the node's figures" \
	test "$(jq -r '.node.both != null' long.json | sort -u)" = true
