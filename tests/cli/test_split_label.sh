#!/bin/sh
# test_split_label.sh: the split method a source without counters names in
# every output. CPUs 0 and 1 declared siblings (hwloc's synthetic "pack:1
# core:1 pu:2"); the scheduler's split (--source sched, exact from the
# context-switch records) is "sched", never the counters' AnyThread "any";
# the tick accounting's (--source procstat, bounds from /proc/stat) is
# "ticks". Parsed from JSON, text, OpenMetrics, --check's text and JSON
# report, and a recording's plan line; the recording replays with the same
# name, and so does one in the 1.4 spelling (split=any or bound beside the
# basis); a split=sched without its basis is refused with one line. The
# HELP of httop_source explains every value its basis label carries
# (scheduler, ticks, and none for the counters), in OpenMetrics and in the
# node exporter's textfile (promtool check metrics, where installed).
. "$HTTOP_SRCDIR/tests/lib.sh"
need python3 python3
need lstopo-no-graphics hwloc "to write the topology that declares CPUs 0 and 1 siblings"
online=$(cat /sys/devices/system/cpu/online 2>/dev/null)
python3 -c '
import sys
s = set()
for p in sys.argv[1].split(","):
    a, _, b = p.partition("-")
    s.update(range(int(a), int(b or a) + 1))
sys.exit(0 if {0, 1} <= s else 1)' "$online" || skip_all "CPUs 0 and 1 are not both online ($online)"

dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
trap 'exit 1' INT TERM HUP
sib=$dir/sib.xml
sched_siblings "$sib"
sched=yes
if [ "$(id -u)" != 0 ]; then
	sched="needs root: CPU-wide perf events"
elif ! sched_opens "$sib" "$dir/probe"; then
	sched="the sched source does not open here: $(cat "$dir/probe")"
fi
plan 25

# json_split FILE NAME BASIS: every line's split is NAME, its basis BASIS.
json_split() {
	python3 - "$@" <<'EOF'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
assert lines, "no line"
for d in lines:
    assert d["split"] == sys.argv[2], d["split"]
    assert d.get("basis") == sys.argv[3], d.get("basis")
EOF
}

# om_split FILE NAME: the info family's split label is NAME, on every
# exposition, and no other.
om_split() {
	python3 - "$@" <<'EOF'
import re, sys
got = re.findall(r'^httop_source_info\{[^}]*\bsplit="([^"]*)"', open(sys.argv[1]).read(), re.M)
assert got and set(got) == {sys.argv[2]}, got
EOF
}

# om_help FILE BASIS: the HELP of httop_source, once per exposition, the
# same each time, explains BASIS (the label's value in the samples) and
# the other values the label takes, with no double quote (OpenMetrics
# would need it escaped, the Prometheus format must not).
om_help() {
	python3 - "$@" <<'EOF'
import re, sys
text = open(sys.argv[1]).read()
helps = re.findall(r'^# HELP httop_source(?:_info)? (.*)$', text, re.M)
assert helps and len(set(helps)) == 1, helps
h = helps[0]
got = set(re.findall(r'^httop_source_info\{[^}]*\bbasis="([^"]*)"', text, re.M))
assert got == {sys.argv[2]}, got
assert '"' not in h, h
for want in ("basis scheduler (--source sched", "or ticks (--source procstat",
             "busy time = time less idle, iowait and steal", "no basis: the performance counters"):
    assert want in h, (want, h)
EOF
}

# text_split FILE NAME: every interval's header says "split: NAME,".
text_split() {
	python3 - "$@" <<'EOF'
import re, sys
heads = [l for l in open(sys.argv[1]) if l.startswith("time ")]
got = [re.search(r", split: ([a-z]+), S ", l).group(1) for l in heads]
assert got and set(got) == {sys.argv[2]}, got
EOF
}

# plan_line TRACE: the trace's plan line, gzip or not.
plan_line() { gzip -cdf "$1" | grep -m1 '^plan '; }

# source_case SOURCE NAME BASIS: the outputs of one source, its recording,
# its replay, and the recording in the 1.4 spelling OLD.
source_case() {
	src=$1 name=$2 basis=$3 old=$4
	"$HTTOP" --source "$src" --topology "$sib" -b --format json -d 0.2 -n 2 \
	    --record "$dir/$src.trace" >"$dir/$src.json" 2>"$dir/$src.err"
	check "$src json: split \"$name\", basis \"$basis\"" json_split "$dir/$src.json" "$name" "$basis"
	"$HTTOP" --source "$src" --topology "$sib" -b -d 0.2 -n 2 >"$dir/$src.txt" 2>>"$dir/$src.err"
	check "$src text: 'split: $name,' in every header" text_split "$dir/$src.txt" "$name"
	"$HTTOP" --source "$src" --topology "$sib" -b --format openmetrics -d 0.2 -n 2 \
	    >"$dir/$src.om" 2>>"$dir/$src.err"
	check "$src openmetrics: httop_source_info's split=\"$name\"" om_split "$dir/$src.om" "$name"
	check "$src openmetrics: the HELP of httop_source explains basis=\"$basis\" and the others" \
	    om_help "$dir/$src.om" "$basis"
	# Its time is no instruction, cycle or TSC tick: no raw count family,
	# the busy seconds instead.
	check "$src openmetrics: no raw count family (instructions, cycles, TSC ticks), busy seconds" \
	    sh -c "! grep -q '^httop_[a-z]*_\(instructions\|cycles\|reference_cycles\|tsc_cycles\|any_thread_cycles\|one_thread_active_cycles\)_total' '$dir/$src.om' &&
		grep -q '^httop_thread_busy_seconds_total{' '$dir/$src.om'"
	p=$(plan_line "$dir/$src.trace")
	check "$src recording: plan line split=$name basis=$basis ($p)" \
	    sh -c "printf '%s\n' \"\$1\" | grep -q ' split=$name .* basis=$basis '" sh "$p"
	"$HTTOP" --replay "$dir/$src.trace" -b --format json >"$dir/$src.rep" 2>>"$dir/$src.err"
	check "$src replay: split \"$name\", basis \"$basis\"" json_split "$dir/$src.rep" "$name" "$basis"
	# The same recording as httop 1.4 wrote it: the method beside the
	# basis. Replayed, it names the split as this httop does.
	sed -e '1s/^httop-trace 1\.5$/httop-trace 1.4/' -e "s/^\(plan .*\) split=$name /\1 split=$old /" \
	    "$dir/$src.trace" >"$dir/$src.old.trace"
	check "$src: the 1.4 spelling written (split=$old)" grep -q "^plan .* split=$old " "$dir/$src.old.trace"
	"$HTTOP" --replay "$dir/$src.old.trace" -b --format json >"$dir/$src.old.rep" 2>>"$dir/$src.err"
	check "$src: a 1.4 recording (split=$old basis=$basis) replays as \"$name\"" \
	    json_split "$dir/$src.old.rep" "$name" "$basis"
	gzip -c "$dir/$src.old.trace" >"$dir/$src.old.trace.gz"
	"$HTTOP" --replay "$dir/$src.old.trace.gz" -b -n 1 >"$dir/$src.old.txt" 2>>"$dir/$src.err"
	check "$src: the same recording gzipped, text: 'split: $name,'" text_split "$dir/$src.old.txt" "$name"
	diag "$src: $(head -c 300 "$dir/$src.err")"
}

source_case procstat ticks ticks bound

# The node exporter's textfile (Prometheus format): the same HELP, and
# promtool's lint takes it.
mkdir "$dir/tf"
"$HTTOP" --source procstat --topology "$sib" -b -n 1 -d 0.2 --format summary \
    --textfile "$dir/tf" >/dev/null 2>>"$dir/procstat.err"
check "procstat textfile: the HELP of httop_source_info explains basis=\"ticks\" and the others" \
    om_help "$dir/tf/httop.prom" ticks
if command -v promtool >/dev/null 2>&1; then
	check "procstat textfile: promtool check metrics takes it" sh -c \
	    "promtool check metrics <'$dir/tf/httop.prom' >'$dir/lint' 2>&1 && [ ! -s '$dir/lint' ]"
else
	skip "promtool is not installed (Debian: prometheus)"
fi

# The new name needs its basis: a plan line that says split=ticks and no
# basis is refused, naming what is missing.
sed -e 's/ basis=ticks clock_hz=[0-9]*//' "$dir/procstat.trace" >"$dir/nobasis.trace"
"$HTTOP" --replay "$dir/nobasis.trace" -b -n 1 >/dev/null 2>"$dir/nobasis.err"
st=$?
check "split=ticks without basis=ticks: refused, status 1, one line ($(cat "$dir/nobasis.err"))" \
    sh -c "[ $st = 1 ] && grep -q 'split=ticks needs basis=ticks' '$dir/nobasis.err' &&
	[ \$(wc -l <'$dir/nobasis.err') = 1 ]"

if [ "$sched" = yes ]; then
	source_case sched sched scheduler any
	# --check's report head, text and JSON (the verdict depends on the
	# machine's other work: only the head is asserted).
	HTTOP_CHECK_BUSY_MAX=1 "$HTTOP" --check --source sched --topology "$sib" --seconds 1 -b --format json \
	    >"$dir/check.json" 2>"$dir/check.err"
	check "--check json: split \"sched\", source sched" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["split"] == "sched" and d["source"] == "sched", (d["split"], d["source"])' "$dir/check.json"
	HTTOP_CHECK_BUSY_MAX=1 "$HTTOP" --check --source sched --topology "$sib" --seconds 1 >"$dir/check.txt" 2>&1
	check "--check text: the head says 'split sched' ($(head -n 1 "$dir/check.txt"))" \
	    grep -q '^httop .* --check on .*: source sched, split sched$' "$dir/check.txt"
else
	n=0
	while [ $n -lt 12 ]; do skip "$sched"; n=$((n + 1)); done
fi
