#!/bin/sh
# test_cli_replay.sh: replay of the hand-made trace
# tests/data/trace/good.trace (1 package, 2 cores of 2 threads, CPUs 0,2
# and 1,3; 3 samples; S = 84). It ends at the end of the data with status
# 0 after 2 intervals.
# Core 0 over the first interval, from the trace's counters:
#   dTSC = 0x107d2b7500 - 0x1000000000 = 2100000000
#   ref0 = 0x3e95bab0 - 0x30 = 1050000000        (u0 = 0.5)
#   ref1 = 0x258d09b2 - 0x32 = 630000000         (u1 = 0.3)
#   any  = (0xe4e200 - 0x40) * 84 = 1260000000   (0.6)
#   C = 0.5 + 0.3 - 0.6 = 0.2, A = 0.6 - 0.3 = 0.3, B = 0.6 - 0.5 = 0.1,
#   N = 1 - 0.6 = 0.4: the split the trace's note says it was built from.
# In the second interval CPU 1 has a read error and CPU 3 is offline.
. "$HTTOP_SRCDIR/tests/lib.sh"
need jq jq
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
plan 21

"$HTTOP" --replay "$tmp/missing.trace" -b >"$tmp/out" 2>"$tmp/err"; st=$?
check "a missing trace is an error, status 1 (got $st)" [ "$st" -eq 1 ]
check "... named in one line" sh -c '[ "$(wc -l <"$1")" -eq 1 ] && grep -q missing.trace "$1"' sh "$tmp/err"

trace=$HTTOP_SRCDIR/tests/data/trace/good.trace
if [ ! -f "$trace" ]; then
	for i in 1 2 3 4 5 6 7; do not_ok "$trace is missing from the source tree"; done
	exit 1
fi
"$HTTOP" --replay "$trace" -b --format json >"$tmp/j" 2>"$tmp/err"; st=$?
check "replay to the end of the data exits 0 (got $st)" [ "$st" -eq 0 ]
check "... after 2 intervals (3 samples)" [ "$(wc -l <"$tmp/j")" -eq 2 ]
check_schema "$tmp/j"
if command -v python3 >/dev/null 2>&1; then
	check "core 0, first interval: N 0.4, A 0.3, B 0.1, C 0.2" python3 -c '
import json, sys
d = json.loads(open(sys.argv[1]).readline())
assert d["source"] == "replay" and d["valid"] is True, d
c = d["cores"][0]
assert c["cpus"] == [0, 2], c["cpus"]
for k, v in (("neither", 0.4), ("t0_only", 0.3), ("t1_only", 0.1), ("both", 0.2)):
    assert abs(c[k] - v) <= 1e-9, (k, c[k], v)
assert c["exact"] is True
' "$tmp/j"
	check "second interval invalid, core 1 not valid" python3 -c '
import json, sys
d = [json.loads(l) for l in open(sys.argv[1])][1]
assert d["valid"] is False and d["reason"], d
assert d["cores"][1]["valid"] is False, d["cores"][1]
' "$tmp/j"
else
	skip "python3 is not installed"
	skip "python3 is not installed"
fi
"$HTTOP" --replay "$trace" -b -n 1 >"$tmp/t"; st=$?
check "-n 1 stops the replay after 1 interval" sh -c '[ "$1" -eq 0 ] && [ "$(grep -c "^time " "$2")" -eq 1 ]' sh "$st" "$tmp/t"
# --cpus 1 selects core 1 (CPUs 1 and 3) only: one core row, two thread
# rows per interval (the trace records all four CPUs).
"$HTTOP" --replay "$trace" -b -n 1 --cpus 1 --format csv >"$tmp/c"; st=$?
check "--cpus with a replay exits 0 (got $st)" [ "$st" -eq 0 ]
check "... and shows only core 1 and CPUs 1, 3" sh -c '
[ "$(grep -c "^core," "$1")" -eq 1 ] && grep -q "^core,.*,1 3," "$1" &&
[ "$(grep -c "^thread," "$1")" -eq 2 ] && ! grep -q "^thread,\([^,]*,\)\{7\}[02]," "$1"' sh "$tmp/c"
# The trace with its first sample appended again as a fourth (a recording
# spliced out of order): the third interval runs backwards (-2.5 s). It is
# invalid with time-backwards on core 0 (core 1 has an offline CPU), never
# an interval of centuries with shares near 0.
sed -n '/^sample seq=0/,/^end seq=0/p' "$trace" | sed 's/seq=0/seq=3/' >"$tmp/again"
cat "$trace" "$tmp/again" >"$tmp/back.trace"
"$HTTOP" --replay "$tmp/back.trace" -b --format json >"$tmp/b.json" 2>/dev/null; st=$?
check "a spliced trace replays to its end (exit $st, 3 intervals)" \
    sh -c '[ "$1" -eq 0 ] && [ "$(wc -l <"$2")" -eq 3 ]' sh "$st" "$tmp/b.json"
check "... its backward interval is invalid: time-backwards, no valid core" \
    sh -c 'jq -e "select(.interval < 0) | .valid == false and .node.nvalid == 0 and
        .cores[0].reason == \"time-backwards\"" "$1" >/dev/null' sh "$tmp/b.json"
check_schema "$tmp/b.json"
# Only a sample's time= edited back (its counters intact): the interval
# it ends would be -1.5 s beside figures of the counters' own time; it is
# invalid the same way.
sed '40s/time=2.5/time=0.5/' "$trace" >"$tmp/edited.trace"
"$HTTOP" --replay "$tmp/edited.trace" -b --format json >"$tmp/e.json" 2>/dev/null; st=$?
check "a sample's time= edited back: that interval invalid, time-backwards (exit $st)" \
    sh -c '[ "$1" -eq 0 ] && jq -se "[.[] | select(.interval <= 0)] | length == 1 and
        (.[0].valid == false and .[0].cores[0].reason == \"time-backwards\")" "$2" >/dev/null' \
    sh "$st" "$tmp/e.json"
"$HTTOP" --replay "$trace" -b --force >/dev/null 2>"$tmp/f.err"; st=$?
check "--force on a replay: exit 0 and one line saying it has no effect" \
    sh -c '[ "$1" -eq 0 ] && grep -q "^httop: --force has no effect with the replay source: a replay programs no counters$" "$2"' sh "$st" "$tmp/f.err"
# A trace cut inside an interval (a recorder killed mid-write): every
# complete interval, status 0, and one line on standard error saying where
# the data stop (httop-trace(5)) and how many intervals came before (one
# less than the samples). truncated.trace stops inside sample 3 (seq=2): the third in the file.
cut=$HTTOP_SRCDIR/tests/data/trace/truncated.trace
"$HTTOP" --replay "$cut" -b --format csv >"$tmp/cut.csv" 2>"$tmp/cut.err"; st=$?
check "a cut trace replays its complete intervals, status 0 (got $st, $(grep -c '^node,' "$tmp/cut.csv"))" \
    sh -c '[ "$1" -eq 0 ] && [ "$(grep -c "^node," "$2")" -eq 1 ]' sh "$st" "$tmp/cut.csv"
# (its other line is the event the trace holds before interval 1)
check "... and says so in one line: $(grep cut "$tmp/cut.err")" sh -c '[ "$(grep -c "cut off" "$1")" -eq 1 ] &&
    grep -q "^httop: .*truncated.trace:43: the trace is cut off inside sample 3; replayed the 1 interval before it$" "$1"' sh "$tmp/cut.err"
gzip -c "$cut" | head -c -9 >"$tmp/cut.trace.gz"
"$HTTOP" --replay "$tmp/cut.trace.gz" -b --format csv >"$tmp/cutz.csv" 2>"$tmp/cutz.err"; st=$?
check "the same gzip-compressed, its trailer cut too: same intervals and line" sh -c '[ "$1" -eq 0 ] &&
    cmp -s "$2" "$3" && [ "$(grep -c "cut off inside sample 3" "$4")" -eq 1 ]' \
    sh "$st" "$tmp/cut.csv" "$tmp/cutz.csv" "$tmp/cutz.err"
# Not a file: a device, a directory: one line each, status 1. (A FIFO is
# read in batch mode, refused at once by the live view:
# test_replay_gzcut.sh, tests/tui/test_tui_replay_cut.sh.)
for f in /dev/null "$tmp"; do
	timeout 10 "$HTTOP" --replay "$f" -b >"$tmp/nf.out" 2>"$tmp/nf.err"; st=$?
	check "--replay $(basename "$f"): refused in one line, status 1 (got $st: $(cat "$tmp/nf.err"))" \
	    sh -c '[ "$1" -eq 1 ] && [ "$(wc -l <"$2")" -eq 1 ] && [ ! -s "$3" ] &&
	    grep -q "is a \(FIFO\|device\|directory\), not a trace file: give the file --record wrote" "$2"' \
	    sh "$st" "$tmp/nf.err" "$tmp/nf.out"
done
# A line over the limit names the limit and what to give instead.
{ sed -n 1,30p "$trace"; head -c 5000 /dev/zero | tr '\0' x; echo; } >"$tmp/long.trace"
"$HTTOP" --replay "$tmp/long.trace" -b >/dev/null 2>"$tmp/long.err"; st=$?
check "a 5000-byte line: status 1, one line with the file, line, limit and fix" sh -c '[ "$1" -eq 1 ] &&
    [ "$(wc -l <"$2")" -eq 1 ] &&
    grep -q "long.trace:31: line longer than 4096 bytes: .*httop --record" "$2"' sh "$st" "$tmp/long.err"
exit 0
