#!/bin/sh
# time-limit: 1200 (tests/tap-run: one build of httop)
# test_isal_off.sh: the two inflaters of gzip traces (src/trace/tracez_isal.c,
# tracez_zlib.c)
# read the same traces to the same bytes. This build inflates with Intel
# ISA-L (configure found libisal); a copy of the source tree
# (copy_source_tree) is configured --without-isal, so that zlib inflates,
# and httop alone is built:
#  1. configure says so ("no: --without-isal; zlib inflates them"), the
#     build succeeds and links no libisal (this one does); where
#     libisal-dev is missing configure goes on with zlib and says why,
#     and --with-isal stops there;
#  2. every trace below replays, to JSON and to the summary, to the same
#     standard output, standard error and exit status with both, and to
#     what the case expects: a clean recording, the same in 3 gzip members
#     (and an empty one), at level 9, plain; cut in the header, in the
#     data, after a sync flush, in the trailer (a note that the gzip data
#     stops without its trailer, after the intervals read); the stored block of a sync flush damaged; a
#     wrong CRC-32 and a wrong length; bytes after the last member
#     (ignored, or refused where they start like a member); a header with
#     every optional field, a wrong header CRC, a method other than
#     deflate;
#  3. a recording cut after a sync flush, through a FIFO whose writer then
#     stalls (a recording still going): each inflater hands out the 12
#     intervals that came without waiting for more input, and SIGTERM
#     ends the wait (status 0, nothing on standard error).
# Damage at random places is read alike too, but not always: where it
# falls in a block's code tables that zlib refuses (an incomplete code),
# ISA-L inflates wrong bytes until a wrong code or the CRC stops it, and
# the reader may first refuse those (both exit 1 on the same line). So
# the damage here is where both stop at the same byte.
# One build: a minute or two on two busy CPUs (run-suite's distcheck stage
# leaves it out, like test_bpf_off).
. "$HTTOP_SRCDIR/tests/lib.sh"
grep -q '^#define HAVE_ISAL 1' "$HTTOP_BUILDDIR/config.h" ||
	skip_all "this build inflates gzip traces with zlib: configure found no ISA-L (Debian: libisal-dev) or was given --without-isal"
need python3 python3
need timeout timeout
# holds CONDITION: check's command for a condition of several tests
holds() { eval "$1"; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
KNL="$HTTOP_FIXTURES/hwloc/knl-7250-68c-4t-flat-quadrant.xml"

# the traces: a recording (the recorder's gzip: a sync flush after each
# sample) and its variants
mkdir "$tmp/t" || exit 1
HTTOP_CLOCK=virtual "$HTTOP" --sim demo --topology "$KNL" -b -n 12 --format summary \
    --record "$tmp/t/clean.trace.gz" >/dev/null 2>"$tmp/rec.err" || {
	sed 's/^/# /' "$tmp/rec.err"; echo "Bail out! the recording failed"; exit 1; }
python3 - "$tmp/t" <<'EOF' || { echo "Bail out! the variants were not made"; exit 1; }
import gzip, struct, sys, zlib
d = sys.argv[1]
raw = open(d + "/clean.trace.gz", "rb").read()
text = gzip.decompress(raw)
def put(name, data):
    with open("%s/%s" % (d, name), "wb") as f:
        f.write(data)
def header(flags=0, method=8, extra=b"", name=b"", comment=b"", hcrc_bad=False):
    h = bytes([0x1F, 0x8B, method, flags, 0, 0, 0, 0, 0, 3])
    if flags & 4:
        h += struct.pack("<H", len(extra)) + extra
    if flags & 8:
        h += name + b"\0"
    if flags & 16:
        h += comment + b"\0"
    if flags & 2:
        h += struct.pack("<H", (zlib.crc32(h) & 0xFFFF) ^ hcrc_bad)
    return h
def mem(data, level=6, flush_at=None, **kw):
    c = zlib.compressobj(level, zlib.DEFLATED, -15)
    body = b""
    rest = data
    if flush_at is not None:
        body = c.compress(data[:flush_at]) + c.flush(zlib.Z_SYNC_FLUSH)
        rest = data[flush_at:]
    body += c.compress(rest) + c.flush()
    return header(**kw) + body + struct.pack("<II", zlib.crc32(data), len(data))
n = len(text)
put("plain.trace", text)
put("level9.trace.gz", mem(text, level=9))
put("members.trace.gz", mem(text[:n // 3]) + mem(b"") + mem(text[n // 3:n // 2], level=1) +
    mem(text[n // 2:], level=0))
put("cut-header.trace.gz", raw[:7])
put("cut-early.trace.gz", raw[:len(raw) // 5])
put("cut-middle.trace.gz", raw[:len(raw) // 2 + 3])
put("cut-trailer.trace.gz", raw[:-4])
# cut right after the last sample's sync flush (a recorder killed
# between two intervals): every interval, no trailer
put("cut-flush.trace.gz", raw[:raw.rfind(b"\0\0\xff\xff", 0, len(raw) - 8) + 4])
# a sync flush's empty stored block (00 00 ff ff) with its length's
# complement damaged, half way through
flushed = mem(text, flush_at=n // 2 + 7)
c2 = zlib.compressobj(6, zlib.DEFLATED, -15)
first = c2.compress(text[:n // 2 + 7]) + c2.flush(zlib.Z_SYNC_FLUSH)
mark = 10 + len(first) - 1
assert flushed[mark - 3:mark + 1] == b"\0\0\xff\xff"
put("damaged.trace.gz", flushed[:mark] + b"\xfe" + flushed[mark + 1:])
put("bad-crc.trace.gz", raw[:-8] + bytes([raw[-8] ^ 1]) + raw[-7:])
put("bad-length.trace.gz", raw[:-4] + bytes([raw[-4] ^ 1]) + raw[-3:])
put("after-zeros.trace.gz", raw + b"\0" * 64)
put("after-text.trace.gz", raw + b"not gzip\n")
put("after-1f.trace.gz", raw + b"\x1f")
put("after-notgzip.trace.gz", raw + b"\x1fnot gzip")
put("after-reserved.trace.gz", raw + b"\x1f\x8b\x08\xe0rest")
put("header-fields.trace.gz", mem(text, flags=2 | 4 | 8 | 16, extra=b"e" * 300,
    name=b"n" * 200000, comment=b"comment"))
put("header-crc.trace.gz", mem(text, flags=2 | 8, name=b"name", hcrc_bad=True))
put("method.trace.gz", mem(text, method=9))
EOF
# what each case ends with: 0 (all intervals), stops (exit 0, all
# intervals, one line: the gzip data stops without its trailer: a
# trailer cut off, or a member started after the last and cut, as gzip
# -d says "unexpected end of file"), cut (exit 0, a note that the trace is
# cut off), head (exit 1: cut before its first line), corrupt (exit 1,
# the gzip data is corrupt)
expect_of() {
	case $1 in
	clean|plain|level9|members|after-zeros|after-text) echo 0 ;;
	header-fields) echo 0 ;;
	cut-trailer|cut-flush|after-1f) echo stops ;;
	cut-header) echo head ;;
	cut-*) echo cut ;;
	*) echo corrupt ;;
	esac
}
cases=$(cd "$tmp/t" && ls | sed 's/\.trace.*//' | sort)
ncases=$(echo "$cases" | wc -l)
plan $((7 + 2 * ncases))

copy_source_tree "$tmp/httop" || exit 1
mkdir "$tmp/httop/b" || exit 1
cd "$tmp/httop/b" || exit 1
../configure --disable-tests --disable-bpf --without-isal >"$tmp/conf.out" 2>"$tmp/conf.err"
st=$?
line=$(grep 'whether to inflate gzip traces with ISA-L' "$tmp/conf.out")
want="checking whether to inflate gzip traces with ISA-L (--with-isal)... no: --without-isal; zlib inflates them"
check "configure --without-isal succeeds (status $st) and says so: $line" \
	holds '[ "$st" -eq 0 ] && [ "$line" = "$want" ]'
[ "$st" -eq 0 ] || { sed 's/^/# /' "$tmp/conf.err" | tail -n 15; exit 1; }
make -s -j2 src/httop >"$tmp/make.out" 2>&1
st=$?
check "httop builds with zlib's inflate (status $st)" [ "$st" -eq 0 ]
[ "$st" -eq 0 ] || { sed 's/^/# /' "$tmp/make.out" | tail -n 15; exit 1; }
ZHTTOP="$tmp/httop/b/src/httop"
# configure where libisal-dev is missing (a pkg-config that does not know
# it): auto goes on with zlib and says why; --with-isal stops and says why
printf '%s\n' '#!/bin/sh' 'for a; do case $a in libisal*) exit 1 ;; esac; done' \
    'exec pkg-config "$@"' >"$tmp/pc-noisal"
chmod +x "$tmp/pc-noisal"
mkdir "$tmp/httop/n" && cd "$tmp/httop/n" || exit 1
../configure --disable-tests --disable-bpf PKG_CONFIG="$tmp/pc-noisal" >"$tmp/conf2.out" 2>&1
st=$?
line=$(grep 'whether to inflate gzip traces with ISA-L' "$tmp/conf2.out")
want="checking whether to inflate gzip traces with ISA-L (--with-isal)... no: libisal-dev is missing (Debian: libisal-dev); zlib inflates them"
check "configure without libisal-dev goes on (status $st) and says why: $line" \
	holds '[ "$st" -eq 0 ] && [ "$line" = "$want" ]'
../configure --disable-tests --disable-bpf --with-isal PKG_CONFIG="$tmp/pc-noisal" >"$tmp/conf3.out" 2>&1
st=$?
line=$(tail -n 1 "$tmp/conf3.out")
check "configure --with-isal without libisal-dev stops (status $st): $line" \
	holds '[ "$st" -ne 0 ] && [ "$line" = "configure: error: --with-isal: libisal-dev is missing (Debian: libisal-dev)" ]'
if command -v ldd >/dev/null 2>&1; then
	check "this build links libisal, the other does not" sh -c \
	    'ldd "$1" | grep -q libisal && ! ldd "$2" | grep -q libisal' sh "$HTTOP" "$ZHTTOP"
else
	skip "ldd is not installed (Debian: libc-bin)"
fi

cd "$tmp/t" || exit 1
for c in $cases; do
	f=$(ls "$c".trace*)
	want=$(expect_of "$c")
	for fmt in json summary; do
		"$HTTOP" --replay "$f" -b --format "$fmt" >"$tmp/i.$fmt" 2>"$tmp/i.$fmt.err"
		echo $? >"$tmp/i.$fmt.st"
		"$ZHTTOP" --replay "$f" -b --format "$fmt" >"$tmp/z.$fmt" 2>"$tmp/z.$fmt.err"
		echo $? >"$tmp/z.$fmt.st"
	done
	st=$(cat "$tmp/i.json.st")
	err=$(cat "$tmp/i.json.err")
	lines=$(wc -l <"$tmp/i.json")
	case $want in
	0) check "$f: exit 0, 12 intervals, nothing on standard error (status $st, $lines lines: $err)" \
	    holds '[ "$st" -eq 0 ] && [ "$lines" -eq 12 ] && [ -z "$err" ]' ;;
	stops) check "$f: exit 0, 12 intervals, one line: ends after sample 13, the gzip data stops ($st, $lines lines: $err)" \
	    sh -c '[ "$1" -eq 0 ] && [ "$2" -eq 12 ] && [ "$(printf "%s\n" "$3" | wc -l)" -eq 1 ] &&
		case $3 in *": the trace ends after sample 13; replayed its 12 intervals; the gzip data stops without its trailer, so the recording was cut short"*) ;; *) exit 1 ;; esac' \
	    sh "$st" "$lines" "$err" ;;
	cut) check "$f: exit 0, fewer intervals, says it is cut off and why ($st, $lines lines: $err)" \
	    sh -c '[ "$1" -eq 0 ] && [ "$2" -lt 12 ] && [ "$(printf "%s\n" "$3" | wc -l)" -eq 1 ] &&
		case $3 in *"cut off"*"; the gzip data stops without its trailer"*) ;; *) exit 1 ;; esac' \
	    sh "$st" "$lines" "$err" ;;
	head) check "$f: exit 1, no interval, one line: cut off before the first line ($st, $err)" \
	    sh -c '[ "$1" -eq 1 ] && [ "$2" -eq 0 ] && [ "$(printf "%s\n" "$3" | wc -l)" -eq 1 ] &&
		case $3 in *"cut off before the trace"*"first line"*) ;; *) exit 1 ;; esac' \
	    sh "$st" "$lines" "$err" ;;
	corrupt) check "$f: exit 1 after $lines intervals, one line: the gzip data is corrupt ($err)" \
	    sh -c '[ "$1" -eq 1 ] && [ "$(printf "%s\n" "$3" | wc -l)" -eq 1 ] &&
		case $3 in *"the gzip data is corrupt here"*) ;; *) exit 1 ;; esac' sh "$st" "$lines" "$err" ;;
	esac
	same=yes
	for x in json json.err json.st summary summary.err summary.st; do
		cmp -s "$tmp/i.$x" "$tmp/z.$x" || { same="no: $x differs"; break; }
	done
	check "$f: ISA-L and zlib replay it alike (json, summary: output, errors, status): $same" \
		[ "$same" = yes ]
done

# 3. a stalled writer: what came is replayed, SIGTERM ends the wait
for who in "$HTTOP" "$ZHTTOP"; do
	rm -f "$tmp/sfifo"
	mkfifo "$tmp/sfifo"
	{ cat "$tmp/t/cut-flush.trace.gz"; exec sleep 600; } >"$tmp/sfifo" &
	wpid=$!
	timeout -s KILL 60 "$who" --replay "$tmp/sfifo" -b --format csv >"$tmp/s.csv" 2>"$tmp/s.err" &
	rpid=$!
	i=0
	while [ "$(grep -c '^node,' "$tmp/s.csv")" -lt 12 ] && [ $i -lt 300 ]; do
		sleep 0.1; i=$((i + 1))
	done
	kill -TERM "$(pgrep -P "$rpid")" 2>/dev/null
	wait "$rpid"; st=$?
	kill "$wpid" 2>/dev/null; wait "$wpid" 2>/dev/null
	case $who in "$ZHTTOP") name=zlib ;; *) name=ISA-L ;; esac
	check "$name: cut-flush through a stalled FIFO: its 12 intervals out before SIGTERM, which ends it (status $st: $(head -c 200 "$tmp/s.err"))" \
	    sh -c '[ "$1" -eq 0 ] && [ "$(grep -c "^node," "$2")" -eq 12 ] && [ ! -s "$3" ]' \
	    sh "$st" "$tmp/s.csv" "$tmp/s.err"
done
