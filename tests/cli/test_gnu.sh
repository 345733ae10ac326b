#!/bin/sh
# test_gnu.sh: the GNU conventions of --help and --version.
# - A write error on standard output (a full device) is an error: status 1
#   and one message naming it, not a silent success.
# - A reader that goes away early (a closed pipe) is not: status 0, as in
#   every mode of httop (httop(1), EXIT STATUS).
. "$HTTOP_SRCDIR/tests/lib.sh"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
need python3 python3
[ -w /dev/full ] || skip_all "no /dev/full to write to"
plan 5

for opt in --help --version; do
	"$HTTOP" $opt >/dev/full 2>"$tmp/err"; st=$?
	check "$opt >/dev/full: status 1 (was $st)" [ "$st" -eq 1 ]
	check "$opt >/dev/full: one message naming the write error ($(head -c 120 "$tmp/err"))" \
		sh -c '[ "$(wc -l <"$1")" -eq 1 ] && grep -q "^httop: writing to standard output: No space left on device$" "$1"' \
		sh "$tmp/err"
done
# The reader is gone before httop writes (the pipe's read end closed
# first): EPIPE, status 0.
out=$(python3 -c '
import os, subprocess, sys
r, w = os.pipe()
os.close(r)
p = subprocess.run([sys.argv[1], "--help"], stdout=w, stderr=subprocess.PIPE)
print(p.returncode, len(p.stderr))' "$HTTOP")
check "--help into a pipe whose reader is gone: status 0, nothing on standard error ($out)" \
	[ "$out" = "0 0" ]
