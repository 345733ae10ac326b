#!/bin/sh
# test_scale_absent.sh: the scale S belongs to the counters (TSC ticks per
# count of a reference event); a source without counters has none. With
# --source procstat and --source sched, each with and without CPUs 0 and 1
# declared siblings (hwloc's synthetic "pack:1 core:1 pu:2"), and their
# recordings replayed, every output that shows S shows it absent with its
# reason: the text header "S - (no counters)", json "scale":null with
# "scale_absent":"not-counted" (valid against httop.schema.json), where the
# simulator's counters still say "S 120 (measured)" and "scale":120. The
# header's split is "none" without the declaration (one thread a core: no
# split) and the source's own ("ticks", "sched") with it.
. "$HTTOP_SRCDIR/tests/lib.sh"
need python3 python3
need lstopo-no-graphics hwloc "to write the topology that declares CPUs 0 and 1 siblings"
[ "$(cat /sys/devices/system/cpu/online 2>/dev/null)" = 0-1 ] ||
    skip_all "needs exactly CPUs 0 and 1 online ($(cat /sys/devices/system/cpu/online))"

dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
trap 'exit 1' INT TERM HUP
sib=$dir/sib.xml
lstopo-no-graphics --input "pack:1 core:1 pu:2" --of xml "$sib" 2>/dev/null
[ -s "$sib" ] || skip_all "lstopo-no-graphics wrote no synthetic topology"
sched=yes
if [ "$(id -u)" != 0 ]; then
	sched="needs root: CPU-wide perf events"
elif ! "$HTTOP" --source sched -b -n 1 -d 0.1 >/dev/null 2>"$dir/probe"; then
	grep -q 'perf_event_open' "$dir/probe" ||
	    { echo "1..1"; echo "not ok 1 - the sched source: $(cat "$dir/probe")"; exit 1; }
	sched="the sched source does not open here: $(cat "$dir/probe")"
fi
plan 23

# text_head FILE SPLIT SCALE: every interval's header ends
# ", split: SPLIT, SCALE" (SCALE the whole S field).
text_head() {
	python3 - "$@" <<'EOF'
import re, sys
heads = [l.rstrip("\n") for l in open(sys.argv[1]) if l.startswith("time ")]
assert heads, "no header"
for h in heads:
    m = re.search(r", split: ([a-z]+), (S .*)$", h)
    assert m and m.groups() == (sys.argv[2], sys.argv[3]), h
EOF
}

# json_head FILE SPLIT SCALE ABSENT: every line's split, scale and
# scale_absent ("none": the member is not there).
json_head() {
	python3 - "$@" <<'EOF'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
assert lines, "no line"
want_scale = None if sys.argv[3] == "null" else int(sys.argv[3])
for d in lines:
    assert d["split"] == sys.argv[2], d["split"]
    assert "scale" in d and d["scale"] == want_scale and type(d["scale"]) is type(want_scale), d["scale"]
    assert d.get("scale_absent", "none") == sys.argv[4], d.get("scale_absent")
EOF
}

# source_case SOURCE TOPO SPLIT: text, json and a recording replayed.
source_case() {
	src=$1 topo=$2 split=$3
	set -- --source "$src"
	[ "$topo" = sib ] && set -- "$@" --topology "$sib"
	tag=$src-$topo
	"$HTTOP" "$@" -b -d 0.2 -n 2 >"$dir/$tag.txt" 2>"$dir/$tag.err"
	check "$tag text: 'split: $split, S - (no counters)' ($(grep -m1 '^time ' "$dir/$tag.txt" | sed 's/.*host//'))" \
	    text_head "$dir/$tag.txt" "$split" "S - (no counters)"
	"$HTTOP" "$@" -b --format json -d 0.2 -n 2 --record "$dir/$tag.trace" \
	    >"$dir/$tag.json" 2>>"$dir/$tag.err"
	check "$tag json: split $split, scale null, scale_absent not-counted" \
	    json_head "$dir/$tag.json" "$split" null not-counted
	check_schema "$dir/$tag.json"
	"$HTTOP" --replay "$dir/$tag.trace" -b >"$dir/$tag.rep.txt" 2>>"$dir/$tag.err"
	check "$tag replayed, text: 'split: $split, S - (no counters)'" \
	    text_head "$dir/$tag.rep.txt" "$split" "S - (no counters)"
	"$HTTOP" --replay "$dir/$tag.trace" -b --format json >"$dir/$tag.rep.json" 2>>"$dir/$tag.err"
	check "$tag replayed, json: scale null, scale_absent not-counted" \
	    json_head "$dir/$tag.rep.json" "$split" null not-counted
	diag "$tag: $(head -c 300 "$dir/$tag.err")"
}

source_case procstat one none
source_case procstat sib ticks
if [ "$sched" = yes ]; then
	source_case sched one none
	source_case sched sib sched
else
	n=0
	while [ $n -lt 10 ]; do skip "$sched"; n=$((n + 1)); done
fi

# The counters keep their S: the simulator's Skylake-SP measures 120.
"$HTTOP" --demo -b -d 0.2 -n 2 >"$dir/demo.txt" 2>"$dir/demo.err"
check "demo text: 'split: any, S 120 (measured)'" text_head "$dir/demo.txt" any "S 120 (measured)"
"$HTTOP" --demo -b --format json -d 0.2 -n 2 >"$dir/demo.json" 2>>"$dir/demo.err"
check "demo json: scale 120, no scale_absent" json_head "$dir/demo.json" any 120 none
check_schema "$dir/demo.json"
exit $((tap_failed > 0))
