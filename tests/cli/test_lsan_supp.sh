#!/bin/sh
# test_lsan_supp.sh: in the sanitizer build, httop on a terminal type
# curses does not know (TERM=unknown: refused with a message) and on the
# Linux console's (TERM=linux: ncurses loads GPM for the mouse) ends
# without a LeakSanitizer report: the leaks there are ncurses' own and
# tests/lsan.supp suppresses them (make check's LSAN_OPTIONS). That file
# names libraries only, no function or file of httop's, so a leak in
# httop is still reported.
. "$HTTOP_SRCDIR/tests/lib.sh"
supp="$HTTOP_SRCDIR/tests/lsan.supp"
grep -q '^SAN_CFLAGS = .*-fsanitize=address' "$HTTOP_BUILDDIR/Makefile" 2>/dev/null ||
	skip_all "not a sanitizer build (configure --enable-sanitizers)"
need script bsdutils "a terminal for the TERM=linux run"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
plan 8

# The file: every rule a library's module; none names httop's code.
check "tests/lsan.supp: every rule is leak:<a library>.so" \
    sh -c '! grep -v "^#" "$1" | grep -v "^$" | grep -qv "^leak:lib[a-z0-9_]*\.so$"' sh "$supp"
names=$(grep -rhoE '^[a-z_][a-z0-9_]*\(' "$HTTOP_SRCDIR/src" | tr -d '(' | sort -u)
hit=
for n in $names; do
	grep -v '^#' "$supp" | grep -qw -- "$n" && hit="$hit $n"
done
check "tests/lsan.supp names none of httop's $(echo $names | wc -w) functions${hit:+: }$hit" [ -z "$hit" ]
check "... nor any of its files" sh -c '! grep -v "^#" "$1" | grep -qE "src/|httop|\.c\b"' sh "$supp"

export LSAN_OPTIONS="suppressions=$supp:print_suppressions=0"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1

# TERM=unknown: refused with the message and status 1, no leak report.
TERM=unknown script -qec "'$HTTOP' --demo -n 2 -d 0.05 2>'$tmp/unknown.err'; echo \$? >'$tmp/unknown.st'" \
    /dev/null </dev/null >/dev/null 2>&1
sed 's/^/# /' "$tmp/unknown.err"
check "TERM=unknown: refused, status 1 (got $(cat "$tmp/unknown.st"))" [ "$(cat "$tmp/unknown.st")" = 1 ]
check "TERM=unknown: no leak report" sh -c '! grep -q LeakSanitizer "$1"' sh "$tmp/unknown.err"
# The same without the suppressions: ncurses' leak is reported, so the
# case above tested them (skipped once ncurses frees it).
LSAN_OPTIONS= TERM=unknown script -qec "'$HTTOP' --demo -n 2 -d 0.05 2>'$tmp/bare.err'" \
    /dev/null </dev/null >/dev/null 2>&1
if grep -q 'LeakSanitizer' "$tmp/bare.err"; then
	ok "without tests/lsan.supp, TERM=unknown reports ncurses' leak ($(grep -o 'in [a-z_]* (/[^ ]*' "$tmp/bare.err" | head -n 1))"
else
	skip "this ncurses leaks nothing on TERM=unknown: the suppression is not exercised"
fi

# TERM=linux: two refreshes on a pseudo-terminal, status 0, no leak report
# (the full unwind: tests/lsan.supp says why).
LSAN_OPTIONS="$LSAN_OPTIONS:fast_unwind_on_malloc=0" TERM=linux \
    script -qec "'$HTTOP' --demo -n 2 -d 0.05 2>'$tmp/linux.err'; echo \$? >'$tmp/linux.st'" \
    /dev/null </dev/null >/dev/null 2>&1
sed 's/^/# /' "$tmp/linux.err"
check "TERM=linux: two refreshes, status 0 (got $(cat "$tmp/linux.st"))" [ "$(cat "$tmp/linux.st")" = 0 ]
check "TERM=linux: no leak report" sh -c '! grep -q LeakSanitizer "$1"' sh "$tmp/linux.err"
exit 0
