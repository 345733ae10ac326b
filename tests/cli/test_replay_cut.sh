#!/bin/sh
# test_replay_cut.sh: a trace cut before its first interval is complete (a
# recorder killed while it wrote its first or second sample, or right after
# the header) holds nothing to replay: --replay says so in one line naming
# the cut, and ends with status 1. Every cut from the end of the header to
# the end of the second sample of the hand-made tests/data/trace/good.trace
# (plain and gzip-compressed), and cuts inside a simulator's recording.
# The cut at the end of the second sample still replays its one interval
# with status 0.
. "$HTTOP_SRCDIR/tests/lib.sh"
need gzip gzip
need python3 python3
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
plan 12

good=$HTTOP_SRCDIR/tests/data/trace/good.trace
# byte offsets: just after "header-end\n", and after the second "end" line
hend=$(awk '{ n += length($0) + 1 } /^header-end$/ { print n; exit }' "$good")
s2end=$(awk '{ n += length($0) + 1 } /^end seq=1$/ { print n; exit }' "$good")
diag "good.trace: header ends at byte $hend, its second sample at $s2end"

# One cut: status 1, nothing on standard output, one line on standard
# error saying there is nothing to replay and why (cut off, or the samples
# it ends after). Prints the offsets that failed.
cut_check() {
	file=$1 off=$2 z=$3
	if [ "$z" = gz ]; then
		head -c "$off" "$file" | gzip -c >"$tmp/c.trace.gz"
		t=$tmp/c.trace.gz
	else
		head -c "$off" "$file" >"$tmp/c.trace"
		t=$tmp/c.trace
	fi
	"$HTTOP" --replay "$t" -b --format csv >"$tmp/out" 2>"$tmp/err"
	st=$?
	if [ "$st" -ne 1 ] || [ -s "$tmp/out" ] || [ "$(wc -l <"$tmp/err")" -ne 1 ] ||
	    ! grep -q "^httop: .*c\.trace.*: .*there is nothing to replay; record again" "$tmp/err" ||
	    ! grep -Eq "cut off|ends after [01] complete sample" "$tmp/err"; then
		echo "$off:$st:$(head -c 300 "$tmp/err")"
	fi
}

for z in plain gz; do
	: >"$tmp/bad.$z"
	off=$hend
	while [ "$off" -lt "$s2end" ]; do
		cut_check "$good" "$off" "$z" >>"$tmp/bad.$z"
		off=$((off + 1))
	done
	check "good.trace ($z) cut at each of bytes $hend to $((s2end - 1)): status 1, one line, nothing to replay ($(wc -l <"$tmp/bad.$z") wrong; first: $(head -n 1 "$tmp/bad.$z"))" \
	    [ ! -s "$tmp/bad.$z" ]
done

# The words for each kind of cut (the plain file, line numbers of good.trace)
head -c "$hend" "$good" >"$tmp/c.trace"
"$HTTOP" --replay "$tmp/c.trace" -b >/dev/null 2>"$tmp/err"
check "the header alone: $(cat "$tmp/err")" grep -q "c.trace: the trace ends after 0 complete samples, before its first interval" "$tmp/err"
head -c $((hend + 40)) "$good" >"$tmp/c.trace"
"$HTTOP" --replay "$tmp/c.trace" -b >/dev/null 2>"$tmp/err"
check "inside the first sample: $(cat "$tmp/err")" grep -q "c.trace:[0-9]*: the trace is cut off inside its first sample: there is nothing to replay" "$tmp/err"
head -c $((s2end - 3)) "$good" >"$tmp/c.trace"
"$HTTOP" --replay "$tmp/c.trace" -b >/dev/null 2>"$tmp/err"
check "inside the second sample: $(cat "$tmp/err")" grep -q "c.trace:39: the trace is cut off inside its second sample, before its first interval was complete" "$tmp/err"

head -c "$s2end" "$good" >"$tmp/c.trace"
"$HTTOP" --replay "$tmp/c.trace" -b --format csv >"$tmp/out" 2>"$tmp/err"; st=$?
check "cut after the second sample: its one interval, status 0 (got $st, $(grep -c '^node,' "$tmp/out"))" \
    sh -c '[ "$1" -eq 0 ] && [ "$(grep -c "^node," "$2")" -eq 1 ] && ! grep -q "cut off\|nothing to replay" "$3"' sh "$st" "$tmp/out" "$tmp/err"

# A simulator's recording (the demo machine: a first sample of some KB),
# cut every 61 bytes through its first sample and at its end.
"$HTTOP" --demo -b -n 2 -d 0.1 --record "$tmp/sim.trace" --format csv >/dev/null 2>"$tmp/rec.err"
shend=$(awk '{ n += length($0) + 1 } /^header-end$/ { print n; exit }' "$tmp/sim.trace")
s1end=$(awk '{ n += length($0) + 1 } /^end seq=/ { print n; exit }' "$tmp/sim.trace")
if [ -z "$shend" ] || [ -z "$s1end" ]; then
	not_ok "the demo's recording has no header end or sample: $(cat "$tmp/rec.err")"
	not_ok "(no recording)"
	exit 1
fi
: >"$tmp/bad.sim"
off=$shend
while [ "$off" -le "$s1end" ]; do
	cut_check "$tmp/sim.trace" "$off" plain >>"$tmp/bad.sim"
	off=$((off + 61))
done
cut_check "$tmp/sim.trace" "$s1end" plain >>"$tmp/bad.sim"
cut_check "$tmp/sim.trace" $((s1end - 1)) gz >>"$tmp/bad.sim"
check "the demo's recording cut in its first sample (bytes $shend to $s1end): status 1, one line ($(wc -l <"$tmp/bad.sim") wrong; first: $(head -n 1 "$tmp/bad.sim"))" \
    [ ! -s "$tmp/bad.sim" ]
"$HTTOP" --replay "$tmp/sim.trace" -b --format csv >"$tmp/out" 2>"$tmp/err"; st=$?
check "... whole, it replays its 2 intervals, status 0 (got $st)" \
    sh -c '[ "$1" -eq 0 ] && [ "$(grep -c "^node," "$2")" -eq 2 ]' sh "$st" "$tmp/out"

# The number in "cut off inside sample N" is the sample's place in the
# file, 1 for the first, as httop numbers samples everywhere (source_pos),
# not its seq= (a recording's seldom starts at 1: the demo's at 2, so its
# fifth sample has seq=6). A recording of 6 samples cut 20 bytes into the
# first cpu line of its fifth sample: the 4 whole samples before it make
# 3 intervals.
"$HTTOP" --demo -b -n 5 -d 0.1 --record "$tmp/five.trace" --format csv >/dev/null 2>"$tmp/rec5.err"
s5=$(awk '/^sample / { k++ } k == 5 { print NR; exit }' "$tmp/five.trace")
seq5=$(awk '/^sample / { k++ } k == 5 { sub(/.*seq=/, ""); sub(/ .*/, ""); print; exit }' "$tmp/five.trace")
off5=$(awk -v l="$s5" 'NR <= l { n += length($0) + 1 } END { print n + 20 }' "$tmp/five.trace")
want="five5.trace:$((s5 + 1)): the trace is cut off inside sample 5; replayed the 3 intervals before it"
head -c "$off5" "$tmp/five.trace" >"$tmp/five5.trace"
"$HTTOP" --replay "$tmp/five5.trace" -b --format csv >"$tmp/out" 2>"$tmp/err"; st=$?
check "a recording cut inside its fifth sample (line $s5, seq=$seq5): 'sample 5', 3 intervals, status 0 ($(cat "$tmp/err"))" \
    sh -c '[ "$1" -eq 0 ] && [ "$(grep -c "^node," "$2")" -eq 3 ] && [ "$(wc -l <"$3")" -eq 1 ] &&
	grep -qF "$4" "$3"' sh "$st" "$tmp/out" "$tmp/err" "$want"
gzip -c "$tmp/five5.trace" >"$tmp/five5.trace.gz"
"$HTTOP" --replay "$tmp/five5.trace.gz" -b --format csv >"$tmp/outz" 2>"$tmp/errz"; st=$?
check "the same gzip-compressed: the same line and intervals ($(cat "$tmp/errz"))" \
    sh -c '[ "$1" -eq 0 ] && cmp -s "$2" "$3" && grep -qF "$4" "$5"' \
    sh "$st" "$tmp/out" "$tmp/outz" "five5.trace.gz:$((s5 + 1)): the trace is cut off inside sample 5; replayed the 3 intervals before it" "$tmp/errz"
# A whole gzip file whose stream is cut inside the fifth sample (a
# recorder with --record FILE.gz killed mid-write): the shortest prefix of
# the stream whose inflated text goes 20 bytes into that sample.
gzip -c "$tmp/five.trace" >"$tmp/fivez.trace.gz"
zoff=$(python3 - "$tmp/fivez.trace.gz" "$off5" <<'EOF'
import sys, zlib
z = open(sys.argv[1], "rb").read()
d = zlib.decompressobj(31)
out = 0
for i in range(len(z)):
    out += len(d.decompress(z[i:i + 1]))
    if out >= int(sys.argv[2]):
        print(i + 1)
        break
EOF
)
head -c "$zoff" "$tmp/fivez.trace.gz" >"$tmp/fivecut.trace.gz"
"$HTTOP" --replay "$tmp/fivecut.trace.gz" -b --format csv >"$tmp/outc" 2>"$tmp/errc"; st=$?
check "a gzip stream cut in the fifth sample's part: 'inside sample 5', the cause ($(cat "$tmp/errc"))" \
    sh -c '[ "$1" -eq 0 ] && [ "$(grep -c "^node," "$2")" -eq 3 ] && [ "$(wc -l <"$3")" -eq 1 ] &&
	grep -qF "the trace is cut off inside sample 5; replayed the 3 intervals before it; the gzip data stops without its trailer, so the recording was cut short (httop was killed, or the disk filled, while it recorded; or it is still recording)" "$3"' \
    sh "$st" "$tmp/outc" "$tmp/errc"
# A gzip file cut before its first line is whole (its header and a few
# bytes): not "empty file", which it is not (it said "empty file: not an
# httop trace" of a 20-byte file).
gzip -c "$good" | head -c 20 >"$tmp/head.trace.gz"
"$HTTOP" --replay "$tmp/head.trace.gz" -b >"$tmp/outh" 2>"$tmp/errh"; st=$?
check "a gzip file cut before its first line: status 1, says it is cut off ($(cat "$tmp/errh"))" \
    sh -c '[ "$1" -eq 1 ] && [ ! -s "$2" ] && ! grep -q "empty file" "$3" && grep -q "cut off" "$3"' \
    sh "$st" "$tmp/outh" "$tmp/errh"
exit 0
