#!/bin/sh
# test_replay_gzcut.sh: a gzip recording cut short, and a batch replay
# from a pipe.
#  - httop killed with SIGKILL while it records to FILE.gz leaves a gzip
#    stream without its trailer: the replay still ends with status 0 and
#    replays every whole interval, and one line on standard error names the
#    cause (the recording was cut) and how many intervals were replayed
#    (it said nothing: zcat at least warns "unexpected end of file");
#  - the same cut made exactly after a sample's sync flush: the words, the
#    sample and the count;
#  - batch mode reads a trace from a pipe (/dev/stdin, plain or gzip) and
#    from a named FIFO whose writer comes later, to the same output as from
#    the file, in every format; a cut gzip stream through a pipe gets the
#    same note; "--replay -" says to give /dev/stdin;
#  - a pipe whose writer stalls (a paused recording, a hung remote end):
#    SIGTERM ends the replay waiting for it, status 0, the intervals read
#    out and nothing on standard error (it waited in read(2) for data that
#    never came); plain and gzip, and a FIFO whose writer never came;
#  - a file that is not a trace: the message says which versions are read.
# (The live view's refusal of a FIFO and its note of the cut:
# tests/tui/test_tui_replay_cut.sh; both inflaters: test_isal_off.sh.)
. "$HTTOP_SRCDIR/tests/lib.sh"
need gzip gzip
need python3 python3
need timeout timeout
tmp=$(mktemp -d) || exit 1
rpid= wpid=
trap '[ -n "$rpid" ] && kill -9 "$rpid" 2>/dev/null; [ -n "$wpid" ] && kill "$wpid" 2>/dev/null
    rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
plan 19

why="the gzip data stops without its trailer, so the recording was cut short (httop was killed, or the disk filled, while it recorded; or it is still recording)"
# intervals FILE: the CSV's intervals (one "node" row each)
intervals() { grep -c '^node,' "$1"; }

# --- 1. a recorder killed with SIGKILL (the trial's case) ----------------
# Real time (the demo paced by the clock, as a user runs it); the test
# waits for four whole samples in the file, not for a time.
HTTOP_CLOCK= "$HTTOP" --demo -b -d 0.1 --format csv --record "$tmp/k.trace.gz" \
    >/dev/null 2>"$tmp/k.rec.err" &
rpid=$!
while [ "$(gzip -dc "$tmp/k.trace.gz" 2>/dev/null | grep -c '^end seq=')" -lt 4 ] &&
    kill -0 "$rpid" 2>/dev/null; do
	sleep 0.1
done
kill -9 "$rpid"
wait "$rpid" 2>/dev/null
rpid=
# the samples the file holds whole (a kill in the middle of a write may
# leave a part of one more)
whole=$(gzip -dc "$tmp/k.trace.gz" 2>/dev/null | grep -c '^end seq=')
gzip -t "$tmp/k.trace.gz" 2>"$tmp/gzt.err"; gst=$?
diag "killed after $whole whole samples; gzip -t: status $gst, $(cat "$tmp/gzt.err")"
"$HTTOP" --replay "$tmp/k.trace.gz" -b --format csv >"$tmp/k.csv" 2>"$tmp/k.err"; st=$?
n=$(intervals "$tmp/k.csv")
check "killed recording: status 0, its $((whole - 1)) whole intervals replayed (status $st, $n intervals)" \
    sh -c '[ "$1" -eq 0 ] && [ "$2" -eq "$3" ] && [ "$2" -ge 3 ]' sh "$st" "$n" "$((whole - 1))"
check "... one line on standard error: where, the count and the cause ($(cat "$tmp/k.err"))" \
    sh -c '[ "$(wc -l <"$1")" -eq 1 ] &&
	grep -Eq "^httop: .*k\.trace\.gz:[0-9]+: .*; replayed (its|the) $3 intervals( before it)?; $2\$" "$1"' \
    sh "$tmp/k.err" "$(printf "%s" "$why" | sed 's/[()]/\\&/g')" "$n"
"$HTTOP" --replay "$tmp/k.trace.gz" -b --format summary >"$tmp/k.sum" 2>"$tmp/k.sum.err"; st=$?
check "... the same with --format summary: status 0, the same line ($(cat "$tmp/k.sum.err"))" \
    sh -c '[ "$1" -eq 0 ] && [ -s "$2" ] && cmp -s "$3" "$4"' sh "$st" "$tmp/k.sum" \
    "$tmp/k.err" "$tmp/k.sum.err"

# --- 2. cut right after the fifth sample's sync flush --------------------
HTTOP_CLOCK=virtual "$HTTOP" --demo --seed 2 -b -n 4 -d 0.2 --format csv \
    --record "$tmp/r.trace.gz" >"$tmp/r.rec.csv" 2>"$tmp/r.rec.err"
gzip -dc "$tmp/r.trace.gz" >"$tmp/r.trace"
python3 - "$tmp/r.trace.gz" "$tmp/c.trace.gz" <<'EOF'
import sys
raw = open(sys.argv[1], "rb").read()
# the last sync flush's empty stored block (the trailer's 8 bytes aside)
at = raw.rfind(b"\0\0\xff\xff", 0, len(raw) - 8)
open(sys.argv[2], "wb").write(raw[:at + 4])
EOF
last=$(wc -l <"$tmp/r.trace")
"$HTTOP" --replay "$tmp/c.trace.gz" -b --format csv >"$tmp/c.csv" 2>"$tmp/c.err"; st=$?
want="httop: $tmp/c.trace.gz:$last: the trace ends after sample 5; replayed its 4 intervals; $why"
check "cut after sample 5's flush: status 0, the 4 intervals (status $st, $(intervals "$tmp/c.csv"))" \
    sh -c '[ "$1" -eq 0 ] && [ "$(grep -c "^node," "$2")" -eq 4 ]' sh "$st" "$tmp/c.csv"
check "... and exactly this line: $(cat "$tmp/c.err")" \
    sh -c '[ "$(cat "$1")" = "$2" ]' sh "$tmp/c.err" "$want"
"$HTTOP" --replay "$tmp/r.trace.gz" -b --format csv >"$tmp/r.csv" 2>"$tmp/r.err"; st=$?
check "the whole file: the same 4 intervals, nothing on standard error (status $st: $(cat "$tmp/r.err"))" \
    sh -c '[ "$1" -eq 0 ] && [ ! -s "$2" ] && cmp -s "$3" "$4"' sh "$st" "$tmp/r.err" \
    "$tmp/r.csv" "$tmp/c.csv"

# --- 3. batch mode from a pipe -------------------------------------------
bad=
for fmt in text csv json openmetrics summary; do
	"$HTTOP" --replay "$tmp/r.trace.gz" -b --format "$fmt" >"$tmp/f.$fmt" 2>"$tmp/f.$fmt.err"
	fst=$?
	gzip -dc "$tmp/r.trace.gz" | "$HTTOP" --replay /dev/stdin -b --format "$fmt" \
	    >"$tmp/p.$fmt" 2>"$tmp/p.$fmt.err"
	pst=$?
	cat "$tmp/r.trace.gz" | "$HTTOP" --replay /dev/stdin -b --format "$fmt" \
	    >"$tmp/z.$fmt" 2>"$tmp/z.$fmt.err"
	zst=$?
	if [ "$fst$pst$zst" != 000 ] || [ ! -s "$tmp/f.$fmt" ] || ! cmp -s "$tmp/f.$fmt" "$tmp/p.$fmt" ||
	    ! cmp -s "$tmp/f.$fmt" "$tmp/z.$fmt" || [ -s "$tmp/p.$fmt.err" ] || [ -s "$tmp/z.$fmt.err" ]; then
		bad="$bad $fmt($fst$pst$zst: $(head -c 200 "$tmp/p.$fmt.err"))"
	fi
done
check "a pipe, plain or gzip, in each format: the file's output, status 0, nothing on standard error (wrong:${bad:- none})" \
    [ -z "$bad" ]
check "... the pipe's CSV has the 4 intervals" sh -c '[ "$(grep -c "^node," "$1")" -eq 4 ]' sh "$tmp/p.csv"
mkfifo "$tmp/fifo"
"$HTTOP" --replay "$tmp/fifo" -b --format csv >"$tmp/fifo.csv" 2>"$tmp/fifo.err" &
rpid=$!
# the writer comes after httop opened the FIFO: httop waits for it (a FIFO
# without a writer reads as ended)
sleep 0.3
cat "$tmp/r.trace" >"$tmp/fifo"
wait "$rpid"; st=$?
rpid=
check "a named FIFO, its writer after httop: the file's intervals, status 0 (status $st: $(cat "$tmp/fifo.err"))" \
    sh -c '[ "$1" -eq 0 ] && cmp -s "$2" "$3" && [ ! -s "$4" ]' sh "$st" "$tmp/fifo.csv" \
    "$tmp/r.csv" "$tmp/fifo.err"
cat "$tmp/c.trace.gz" | "$HTTOP" --replay /dev/stdin -b --format csv >"$tmp/pc.csv" 2>"$tmp/pc.err"; st=$?
check "the cut gzip stream through a pipe: 4 intervals, status 0, the same line for /dev/stdin ($(cat "$tmp/pc.err"))" \
    sh -c '[ "$1" -eq 0 ] && cmp -s "$2" "$3" && [ "$(cat "$4")" = "$5" ]' sh "$st" "$tmp/pc.csv" \
    "$tmp/c.csv" "$tmp/pc.err" "httop: /dev/stdin:$last: the trace ends after sample 5; replayed its 4 intervals; $why"
# a plain trace cut inside a sample, through a pipe: the plain note
head -c -20 "$tmp/r.trace" | "$HTTOP" --replay /dev/stdin -b --format csv >"$tmp/pp.csv" 2>"$tmp/pp.err"; st=$?
check "a plain trace cut inside sample 5 through a pipe: 3 intervals, status 0, the plain note ($(cat "$tmp/pp.err"))" \
    sh -c '[ "$1" -eq 0 ] && [ "$(grep -c "^node," "$2")" -eq 3 ] &&
	grep -q "^httop: /dev/stdin:[0-9]*: the trace is cut off inside sample 5; replayed the 3 intervals before it$" "$3"' \
    sh "$st" "$tmp/pp.csv" "$tmp/pp.err"
# a gzip stream cut before its first line, through a pipe: cut, not empty
head -c 20 "$tmp/r.trace.gz" | "$HTTOP" --replay /dev/stdin -b >"$tmp/h.out" 2>"$tmp/h.err"; st=$?
check "a gzip stream cut before its first line through a pipe: status 1, cut off, not empty ($(cat "$tmp/h.err"))" \
    sh -c '[ "$1" -eq 1 ] && [ ! -s "$2" ] && [ "$(cat "$3")" = "httop: /dev/stdin: the compressed data is cut off before the trace'"'"'s first line: it is truncated, or not an httop trace" ]' \
    sh "$st" "$tmp/h.out" "$tmp/h.err"
# not a trace, through a pipe: refused like a file
echo hello | "$HTTOP" --replay /dev/stdin -b >"$tmp/nt.out" 2>"$tmp/nt.err"; st=$?
check "a pipe of something else: status 1, one line ($(cat "$tmp/nt.err"))" \
    sh -c '[ "$1" -eq 1 ] && [ ! -s "$2" ] && [ "$(wc -l <"$3")" -eq 1 ] && grep -q "not an httop trace" "$3"' \
    sh "$st" "$tmp/nt.out" "$tmp/nt.err"
"$HTTOP" --replay - -b >"$tmp/dash.out" 2>"$tmp/dash.err"; st=$?
check "--replay -: a usage error naming /dev/stdin and the file for the live view ($(cat "$tmp/dash.err"))" \
    sh -c '[ "$1" -eq 2 ] && [ "$(head -n 1 "$2")" = "$3" ]' sh "$st" "$tmp/dash.err" \
    "httop: --replay -: a trace is replayed from a file; to replay standard input in batch mode give --replay /dev/stdin -b (the live view reads the trace again to go back: save it to a file first), or give ./- for a file named -"
# a device or a directory is still refused in batch mode
"$HTTOP" --replay /dev/null -b >/dev/null 2>"$tmp/dev.err"; st=$?
check "a device in batch mode: still refused, status 1 ($(cat "$tmp/dev.err"))" \
    sh -c '[ "$1" -eq 1 ] && grep -q "/dev/null is a device, not a trace file" "$2"' sh "$st" "$tmp/dev.err"

# --- 4. a stalled writer, then SIGTERM ------------------------------------
# stalled NAME FILE N: FILE through a FIFO whose writer then waits for good;
# once httop wrote N intervals (it writes each as it comes), SIGTERM. The
# guard (timeout) kills an httop deaf to it: status 137.
stalled() {
	rm -f "$tmp/sfifo"
	mkfifo "$tmp/sfifo"
	{ [ -n "$2" ] && cat "$2"; exec sleep 600; } >"$tmp/sfifo" &
	wpid=$!
	timeout -s KILL 60 "$HTTOP" --replay "$tmp/sfifo" -b --format csv >"$tmp/$1.csv" \
	    2>"$tmp/$1.err" &
	rpid=$!
	i=0
	while [ "$(grep -c '^node,' "$tmp/$1.csv")" -lt "$3" ] && [ $i -lt 300 ]; do
		sleep 0.1; i=$((i + 1))
	done
	# (no writer yet: httop waits for one, opening the FIFO)
	[ "$3" -eq 0 ] && sleep 0.5
	kill -TERM "$(pgrep -P "$rpid" -x httop)" 2>/dev/null
	wait "$rpid"; echo $? >"$tmp/$1.st"
	rpid=
	kill "$wpid" 2>/dev/null; wait "$wpid" 2>/dev/null
	wpid=
}
head -c -20 "$tmp/r.trace" >"$tmp/s.trace"
stalled splain "$tmp/s.trace" 3
check "a plain pipe stalled after 3 intervals: SIGTERM ends it, status 0, its 3 intervals, nothing on standard error (status $(cat "$tmp/splain.st"): $(head -c 200 "$tmp/splain.err"))" \
    sh -c '[ "$(cat "$1.st")" -eq 0 ] && [ "$(grep -c "^node," "$1.csv")" -eq 3 ] && [ ! -s "$1.err" ]' \
    sh "$tmp/splain"
stalled sgz "$tmp/c.trace.gz" 4
check "a gzip pipe stalled after 4 intervals: SIGTERM ends it, status 0, the 4 intervals, nothing on standard error (status $(cat "$tmp/sgz.st"): $(head -c 200 "$tmp/sgz.err"))" \
    sh -c '[ "$(cat "$1.st")" -eq 0 ] && cmp -s "$1.csv" "$2" && [ ! -s "$1.err" ]' \
    sh "$tmp/sgz" "$tmp/c.csv"
stalled snone "" 0
check "a FIFO whose writer never writes: SIGTERM ends it, status 0, nothing written (status $(cat "$tmp/snone.st"): $(head -c 200 "$tmp/snone.err"))" \
    sh -c '[ "$(cat "$1.st")" -eq 0 ] && [ ! -s "$1.csv" ] && [ ! -s "$1.err" ]' sh "$tmp/snone"

# --- 5. not a trace: the versions read ------------------------------------
"$HTTOP" --replay "$HTTOP_SRCDIR/tests/data/trace/not-a-trace.trace" -b >/dev/null 2>"$tmp/v.err"; st=$?
check "not a trace: status 1, says which versions are read ($(cat "$tmp/v.err"))" \
    sh -c '[ "$1" -eq 1 ] && [ "$(cat "$2")" = "httop: $3/tests/data/trace/not-a-trace.trace:1: not an httop trace: its first line is not \"httop-trace 1.N\" (this httop reads versions 1.0 to 1.6, and a later 1.N without what it adds)" ]' \
    sh "$st" "$tmp/v.err" "$HTTOP_SRCDIR"
exit 0
