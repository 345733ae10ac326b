#!/bin/sh
# test_record.sh: httop --record FILE end to end, on the simulated demo
# machine (2 packages x 24 cores x 2 threads, 96 CPUs): a replay gives the
# same figures as the run that recorded it (plain and gzip), kill -9
# leaves every complete interval, a full disk (a 64 KiB tmpfs), /dev/full
# and a file size limit stop the run with one message and a valid trace,
# and the files it refuses.
. "$HTTOP_SRCDIR/tests/lib.sh"
need jq jq
tmp=$(mktemp -d) || exit 1
mnt=
pid=
cleanup() {
	[ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	[ -n "$mnt" ] && umount "$mnt" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
cd "$tmp" || exit 1
plan 36

# The figures of every interval, without the source's name.
figures() {
	jq -c '{time, interval, valid, reason, node, packages, cores, threads}' "$1"
}

# ends FILE: complete intervals ("end" lines) in a plain or gzip trace.
ends() {
	gzip -dc -f "$1" 2>/dev/null | grep -c '^end seq='
}

# 1-9: replay identity, 20 intervals, seed 3 (sim truth included: the
# trace announces it and the replay keeps it).
for f in run.trace run.trace.gz; do
	"$HTTOP" --demo --seed 3 -b -n 20 --format json --record "$f" >live.json 2>err; st=$?
	check "$f: the recording run exits 0 (got $st)" [ "$st" -eq 0 ]
	# A trace does not carry CAPID6 (yet): the demo's is given to the
	# replay, so its die grid is the recorded run's.
	"$HTTOP" --replay "$f" -b --format json --capid6 0adb56dd,076dabb6 >replay.json 2>err; st=$?
	check "$f: its replay exits 0 with 20 intervals (got $st, $(wc -l <replay.json))" \
	    [ "$st" -eq 0 -a "$(wc -l <replay.json)" -eq 20 ]
	figures live.json >a; figures replay.json >b
	check "$f: every figure of every interval is the same in the replay" cmp -s a b
	check_schema live.json replay.json
done
check "run.trace.gz is gzip (1f 8b), run.trace is text" sh -c \
    '[ "$(od -An -tx1 -N2 run.trace.gz | tr -d " ")" = 1f8b ] && head -1 run.trace | grep -q "^httop-trace 1\."'
"$HTTOP" --demo -b -n 2 --record plain.name --record-compress >/dev/null 2>&1
# The trace's note names the source, and its detail only where it has one
# (the sim's scenario): the bpf source has none, and its note ended in a
# blank ("recorded from the bpf source ").
"$HTTOP" --demo -b -n 1 --record sim.trace >/dev/null 2>&1
check "the note of a demo recording names the source and its scenario" \
    grep -qx 'note text="recorded from the sim source demo"' sim.trace
if "$HTTOP" --source bpf -b -n 1 -d 0.1 --record bpf.trace >/dev/null 2>bpf.err; then
	check "the note of a bpf recording: no blank at its end ($(grep '^note' bpf.trace))" \
	    grep -qx 'note text="recorded from the bpf source"' bpf.trace
else
	skip "the bpf source does not run here: $(head -c 200 bpf.err)"
fi
check "--record-compress writes gzip whatever the name" \
    [ "$(od -An -tx1 -N2 plain.name | tr -d " ")" = 1f8b ]
check "--record-compress without --record is a usage error (2)" \
    sh -c '"$1" --demo -b -n 1 --record-compress >/dev/null 2>&1; [ $? -eq 2 ]' sh "$HTTOP"

# 31-32 (here, while run.trace.gz is fresh): damage near its end (bytes
# overwritten at 80% of the file): the replay shows the intervals before
# the damage, then stops with one line naming the file and line, and exits
# 1. Damaged deflate data either fails to inflate ("the gzip data is
# corrupt here") or inflates to garbage that the parser refuses (the
# checksum comes only at the end); which one depends on the bytes.
cp run.trace.gz damaged.trace.gz
size=$(wc -c <damaged.trace.gz)
printf '\377\377\377\377\377\377\377\377' |
    dd of=damaged.trace.gz bs=1 seek=$((size * 8 / 10)) conv=notrunc 2>/dev/null
"$HTTOP" --replay damaged.trace.gz -b --format csv >damaged.csv 2>damaged.err; st=$?
got=$(grep -c '^node,' damaged.csv)
diag "damaged: exit $st, $got intervals, $(cat damaged.err)"
check "a damaged gzip recording: exit 1, one line naming the place and the cause" sh -c \
    '[ "$1" -eq 1 ] && [ "$(wc -l <damaged.err)" -eq 1 ] &&
    grep -q "^httop: damaged.trace.gz:[0-9][0-9]*: " damaged.err' sh "$st"
check "... after the intervals before the damage (between 5 and 19 of 20: $got)" \
    [ "$got" -ge 5 -a "$got" -lt 20 ]

# 10-13: kill -9 while recording. Without -b and with standard output not a
# terminal, httop runs the batch loop on the real clock (-d 0.05): wait
# for 5 complete intervals in the file, then kill. The replay must give
# every complete interval: one fewer than the samples ("end" lines).
for f in kill.trace kill.trace.gz; do
	"$HTTOP" --demo -d 0.05 --record "$f" >/dev/null 2>kill.err &
	pid=$!
	i=0
	while [ "$(ends "$f")" -lt 5 ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
	kill -KILL "$pid"; wait "$pid" 2>/dev/null; pid=
	n=$(ends "$f")
	"$HTTOP" --replay "$f" -b --format csv >replay.csv 2>replay.err; st=$?
	got=$(grep -c '^node,' replay.csv)
	diag "$f: $n samples written before kill -9; replayed $got intervals; $(cat replay.err)"
	check "$f: the replay after kill -9 exits 0 with no error" [ "$st" -eq 0 -a "$n" -ge 5 ]
	check "$f: ... and gives every complete interval ($n samples, $((n - 1)) intervals)" \
	    [ "$got" -eq $((n - 1)) ]
done

# 14-16: the header cannot be written: /dev/full.
"$HTTOP" --demo -b -n 3 --record /dev/full >out 2>err; st=$?
check "/dev/full: exit 1 (got $st)" [ "$st" -eq 1 ]
check "... one line naming /dev/full, the error and the fix" sh -c \
    '[ "$(wc -l <err)" -eq 1 ] && grep -q "/dev/full: No space left on device: free some space" err'
check "... and no interval shown" [ ! -s out ]

# 17-24: a full disk mid-run, plain and gzip: exit 1, one message saying
# how many samples the file keeps, and the file replays exactly those
# (samples - 1 intervals) with no note of a cut-off line: it was cut back
# (the gzip file without its trailer: its replay says so, once).
mkdir m
if mount -t tmpfs -o size=64k tmpfs m 2>mount.err; then
	mnt=$tmp/m
	for f in full.trace full.trace.gz; do
		"$HTTOP" --demo -b --format csv --record "m/$f" >out 2>err; st=$?
		diag "$f: $(cat err)"
		check "$f on a 64 KiB tmpfs: exit 1 (got $st)" [ "$st" -eq 1 ]
		check "... one line: the file, ENOSPC, the fix" sh -c '[ "$(wc -l <err)" -eq 1 ] &&
		    grep -q "recording stopped; m/$1 keeps its first [0-9]* samples: writing the trace m/$1: No space left on device: free some space" err' sh "$f"
		kept=$(sed -n 's/.*keeps its first \([0-9]*\) samples.*/\1/p' err)
		"$HTTOP" --replay "m/$f" -b --format csv >replay.csv 2>replay.err; st=$?
		# Cut back to its last whole sample; a gzip file has no trailer
		# then (no room to write it), which its replay says, once.
		case $f in
		*.gz)
			check "... the file replays with status 0, one note: ends after sample $kept, $((kept - 1)) intervals, no gzip trailer (the disk filled)" \
			    sh -c '[ "$1" -eq 0 ] && [ "$(wc -l <replay.err)" -eq 1 ] &&
			    grep -q "the trace ends after sample $2; replayed its $(($2 - 1)) intervals; the gzip data stops without its trailer, so the recording was cut short (.*the disk filled" replay.err' sh "$st" "$kept" ;;
		*)
			check "... the file replays with status 0 and nothing on stderr" \
			    [ "$st" -eq 0 -a ! -s replay.err ] ;;
		esac
		check "... $((kept - 1)) intervals, as the message says" \
		    [ "$(grep -c '^node,' replay.csv)" -eq $((kept - 1)) -a "$kept" -gt 1 ]
		rm -f "m/$f"
	done
	umount m; mnt=
else
	for i in 1 2 3 4 5 6 7 8; do skip "cannot mount a tmpfs here: $(cat mount.err)"; done
fi

# 25-26: a file size limit (ulimit -f 16: 8 KiB) is EFBIG, not SIGXFSZ.
(ulimit -f 16; exec "$HTTOP" --demo -b -n 50 --record big.trace) >/dev/null 2>err0; st=$?
check "ulimit -f: exit 1 (got $st), the message names EFBIG and ulimit -f" sh -c \
    '[ "$1" -eq 1 ] && grep -q "File too large: raise the file size limit (ulimit -f)" err0' sh "$st"
# 8 KiB hold the demo's header, not its first sample: the file is cut back
# to the header, whole (a trace of no sample, which has nothing to replay).
check "... the file is cut back to its header, whole: no sample, nothing to replay" sh -c \
    '"$1" --replay big.trace -b >/dev/null 2>err; [ $? -eq 1 ] &&
    grep -q "keeps its first 0 samples" err0 &&
    grep -q "big.trace: the trace ends after 0 complete samples" err && ! grep -q "cut off" err' sh "$HTTOP"

# 27-30: files that are refused, before anything is written.
"$HTTOP" --demo -b -n 1 --record /dev/zero >out 2>err; st=$?
check "a device is refused (exit 1, says so)" sh -c \
    '[ "$1" -eq 1 ] && grep -q "is a character device" err && [ ! -s out ]' sh "$st"
"$HTTOP" --demo -b -n 1 --record "$tmp" >out 2>err; st=$?
check "a directory is refused (exit 1)" sh -c '[ "$1" -eq 1 ] && grep -q "Is a directory" err' sh "$st"
echo keep >target
ln -s target link
if [ "$(id -u)" -eq 0 ]; then
	"$HTTOP" --demo -b -n 1 --record link >out 2>err; st=$?
	check "as root a symbolic link is refused, the target untouched" sh -c \
	    '[ "$1" -eq 1 ] && grep -q "symbolic link" err && [ "$(cat target)" = keep ]' sh "$st"
else
	skip "not root: a link is followed (the user's own rights apply)"
fi
"$HTTOP" --replay run.trace -b --record run.trace >out 2>err; st=$?
check "recording over the trace being replayed is refused (exit 2)" \
    [ "$st" -eq 2 -a "$(ends run.trace)" -eq 21 ]
exit 0
