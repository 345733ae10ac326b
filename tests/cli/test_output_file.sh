#!/bin/sh
# test_output_file.sh: -o FILE for every batch format and for --check's
# report, and --interval as the long name of -d (httop(1), OPTIONS).
#  - each format written with -o is what standard output gets (the test
#    clock makes runs repeat), read back by its parser (jq and the schema,
#    python's csv, om_check.py, awk); standard output stays empty;
#  - -o - is standard output; -o implies -b;
#  - the file is opened as --record's is: an old file is emptied, a FIFO
#    is a stream, /dev/null takes it, a device or a directory is refused
#    (status 1, nothing written), a symbolic link refused when privileged;
#  - --check -o FILE: the report in the file;
#  - bad combinations end with status 2 and one line.
. "$HTTOP_SRCDIR/tests/lib.sh"
command -v python3 >/dev/null 2>&1 || { echo "1..0 # SKIP python3 is not installed"; exit 77; }
command -v jq >/dev/null 2>&1 || { echo "1..0 # SKIP jq is not installed"; exit 77; }
CHECK="$HTTOP_SRCDIR/tests/cli/om_check.py"
tmp=$(mktemp -d) || exit 1
reader=
cleanup() {
	[ -n "$reader" ] && kill "$reader" 2>/dev/null
	mountpoint -q "$tmp/tfm" 2>/dev/null && umount "$tmp/tfm"
	rm -rf "$tmp"
}
trap cleanup EXIT
cd "$tmp" || exit 1
export HTTOP_CLOCK=virtual
plan 33

for f in text csv json openmetrics summary; do
	"$HTTOP" --demo -b -n 3 --format "$f" >"std.$f" 2>/dev/null
	"$HTTOP" --demo -n 3 --format "$f" -o "file.$f" >"out.$f" 2>"err.$f"; st=$?
	check "$f: -o FILE exits 0 ($st), nothing on standard output, the same as standard output gets" \
	    sh -c '[ "$1" -eq 0 ] && [ ! -s "$2" ] && [ -s "$3" ] && cmp -s "$3" "$4"' sh \
	    "$st" "out.$f" "file.$f" "std.$f"
done
check "json: three lines, each a valid interval" sh -c \
    '[ "$(jq -c .node.util "$1" | wc -l)" -eq 3 ]' sh file.json
check_schema file.json
check "csv: python's csv reads it, a node row per interval" python3 -c '
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
assert sum(r["kind"] == "node" for r in rows) == 3 and all(r["unix_time"] for r in rows)
' file.csv
check "openmetrics: om_check accepts three expositions" sh -c \
    'python3 "$1" openmetrics "$2" | grep -c "^exposition" | grep -qx 3' sh "$CHECK" file.openmetrics
check "summary: three lines of ten columns, the last node (no header into a file)" sh -c \
    '[ "$(awk "NF == 10 && \$10 == \"node\"" "$1" | wc -l)" -eq 3 ] && [ "$(wc -l <"$1")" -eq 3 ]' sh file.summary
check "text: three interval headers" [ "$(grep -c '^time ' file.text)" -eq 3 ]

"$HTTOP" --demo -n 1 --format json -o - >dash.json 2>/dev/null
check "-o - is standard output" sh -c '[ "$(wc -l <"$1")" -eq 1 ] && jq -e .unix_time "$1" >/dev/null' \
    sh dash.json

# An old, longer file is emptied first.
head -c 100000 /dev/zero | tr '\0' x >old.json
"$HTTOP" --demo -n 1 --format json -o old.json 2>/dev/null
check "an old file is emptied, then written" sh -c \
    '[ "$(wc -l <"$1")" -eq 1 ] && ! grep -q xxx "$1"' sh old.json
# A FIFO is a stream: a reader gets every line.
mkfifo pipe
cat pipe >piped.json &
reader=$!
"$HTTOP" --demo -n 2 --format json -o pipe 2>pipe.err; st=$?
wait "$reader"
reader=
check "a FIFO is written as a stream ($st)" sh -c '[ "$1" -eq 0 ] && [ "$(wc -l <"$2")" -eq 2 ]' \
    sh "$st" piped.json
"$HTTOP" --demo -n 1 -o /dev/null 2>null.err; st=$?
check "/dev/null takes it ($st)" [ "$st" -eq 0 ]
"$HTTOP" --demo -n 1 -o /dev/zero >zero.out 2>zero.err; st=$?
check "a device is refused: status 1, the message says why ($(cat zero.err))" sh -c \
    '[ "$1" -eq 1 ] && grep -q "^httop: -o /dev/zero: is a character device" "$2" && [ ! -s "$3" ]' \
    sh "$st" zero.err zero.out
# A full disk: status 1, said once; with a command too (its status 0 is
# then httop's 1).
"$HTTOP" --demo -n 1 -o /dev/full 2>full.err; st=$?
check "-o /dev/full: status 1, 'No space left' said once ($st)" sh -c \
    '[ "$1" -eq 1 ] && [ "$(grep -c "No space left" "$2")" -eq 1 ]' sh "$st" full.err
"$HTTOP" --demo -o /dev/full -- true 2>fullc.err; st=$?
check "-o /dev/full with a command that succeeds: status 1, said once ($st)" sh -c \
    '[ "$1" -eq 1 ] && [ "$(grep -c "No space left" "$2")" -eq 1 ]' sh "$st" fullc.err
# Many nodes' merged JSON lines: a write that fails is said once, with
# its cause, to -o FILE and to standard output alike (it used to end with
# status 1 and nothing said).
via="env NODES_RUN=$tmp $HTTOP_SRCDIR/tests/nodes/as-host.sh %h"
"$HTTOP" --nodes h1 --via "$via" --remote-httop "$HTTOP" -n 1 -o /dev/full 2>nfull.err; st=$?
check "--nodes -o /dev/full: status 1, 'No space left' said once ($st: $(cat nfull.err))" sh -c \
    '[ "$1" -eq 1 ] && [ "$(grep -c "merged JSON lines to /dev/full failed: No space left" "$2")" -eq 1 ] &&
    [ "$(wc -l <"$2")" -eq 1 ]' sh "$st" nfull.err
"$HTTOP" --nodes h1 --via "$via" --remote-httop "$HTTOP" -b -n 1 >/dev/full 2>nfull2.err; st=$?
check "--nodes >/dev/full: status 1, 'No space left' said once ($st: $(cat nfull2.err))" sh -c \
    '[ "$1" -eq 1 ] && [ "$(grep -c "merged JSON lines to standard output failed: No space left" "$2")" -eq 1 ] &&
    [ "$(wc -l <"$2")" -eq 1 ]' sh "$st" nfull2.err
# --textfile on a full disk (a 4 KiB tmpfs; httop.prom is larger): the
# cause is ENOSPC, not the "Input/output error" a stream's later flush
# gave; nothing is left in the directory.
mkdir tfm
if mount -t tmpfs -o size=4k tmpfs tfm 2>mount.err; then
	"$HTTOP" --demo -b -n 1 --textfile tfm >/dev/null 2>tfull.err; st=$?
	check "--textfile on a full disk: status 1, the cause is ENOSPC ($st: $(cat tfull.err))" sh -c \
	    '[ "$1" -eq 1 ] && grep -q "^httop: --textfile: write of tfm/httop.prom failed: No space left on device" "$2"' \
	    sh "$st" tfull.err
	check "... and leaves nothing in the directory" [ -z "$(ls -A tfm)" ]
	umount tfm
else
	skip "cannot mount a tmpfs here: $(cat mount.err)"
	skip "cannot mount a tmpfs here"
fi
mkdir adir
"$HTTOP" --demo -n 1 -o adir 2>dir.err; st=$?
check "a directory is refused: status 1" sh -c '[ "$1" -eq 1 ] && grep -q "^httop: -o adir:" "$2"' \
    sh "$st" dir.err
echo keep >target
ln -s target link
"$HTTOP" --demo -n 1 --format json -o link 2>link.err; st=$?
if [ "$(id -u)" -eq 0 ]; then
	check "as root a symbolic link is refused, its target untouched" sh -c \
	    '[ "$1" -eq 1 ] && grep -q "symbolic link" "$2" && [ "$(cat target)" = keep ]' \
	    sh "$st" link.err
else
	check "unprivileged, a symbolic link is followed" sh -c \
	    '[ "$1" -eq 0 ] && jq -e .time target >/dev/null' sh "$st"
fi

# --check's report.
"$HTTOP" --demo --check --check-case idle --seconds 0.2 --format json -o check.json \
    >check.out 2>check.err; st=$?
check "--check -o FILE: the JSON report in FILE, nothing on standard output ($st)" sh -c \
    '[ ! -s "$1" ] && jq -e ".httop_check == 1" "$2" >/dev/null' sh check.out check.json

# --interval is -d.
"$HTTOP" --demo -n 2 --interval 0.25 --format json >i.json 2>/dev/null
"$HTTOP" --demo -n 2 -d 0.25 --format json >d.json 2>/dev/null
check "--interval 0.25 is -d 0.25" sh -c \
    'cmp -s "$1" "$2" && [ "$(jq -c "select(.interval > 0.24 and .interval < 0.26)" "$1" | wc -l)" -eq 2 ]' \
    sh i.json d.json

# Bad combinations: status 2, one line.
bad() {
	d=$1
	shift
	"$HTTOP" --demo -n 1 "$@" >bad.out 2>bad.err
	st=$?
	check "$d: status 2, one line ($(head -c 120 bad.err))" sh -c \
	    '[ "$1" -eq 2 ] && [ "$(wc -l <"$2")" -eq 1 ] && [ ! -s "$3" ]' sh "$st" bad.err bad.out
}
bad "-o with an empty name" -o ""
bad "-o the --record file" -o same.trace --record same.trace
# The --record file under another name (./other.trace, a link to it, which
# a privileged httop refuses as a link): both wrote into one file, and
# neither the trace nor the output was left (its replay said "not an
# httop trace").
for name in ./other.trace link.trace; do
	rm -f other.trace link.trace
	[ "$name" = link.trace ] && : >other.trace && ln -s other.trace link.trace
	"$HTTOP" --demo -n 2 -d 0.1 --format json -o "$name" --record other.trace >same.out 2>same.err
	st=$?
	check "-o $name, the --record file under another name: status 1, one line, no output ($st: $(head -c 120 same.err))" \
	    sh -c '[ "$1" -eq 1 ] && [ "$(wc -l <"$2")" -eq 1 ] && grep -Eq -- "--record|symbolic link" "$2" && [ ! -s "$3" ]' \
	    sh "$st" same.err same.out
done
rm -f other.trace link.trace
bad "--level without --format openmetrics" --format json --level core
bad "--textfile-level without --textfile" --textfile-level node
bad "--level with an unknown level" --format openmetrics --level cores
exit 0
