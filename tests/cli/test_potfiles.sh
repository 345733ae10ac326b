#!/bin/sh
# test_potfiles.sh: po/POTFILES.in names every source file with a
# translatable string (_(), N_(), ngettext()), so the template cannot miss
# one, and names no file that is gone. xgettext itself finds the strings,
# so a "_(" inside a comment does not count.
. "$HTTOP_SRCDIR/tests/lib.sh"

need xgettext gettext
plan 4
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

cd "$HTTOP_SRCDIR" || exit 1
find src tools -name '*.[ch]' | LC_ALL=C sort >"$tmp/all"
# The keywords are po/Makevars' (ngettext is one of xgettext's defaults).
xgettext --keyword=_ --keyword=N_ --from-code=UTF-8 --no-wrap -o "$tmp/all.pot" \
    -f "$tmp/all" 2>"$tmp/xgettext.err"
check "xgettext reads every file under src/ and tools/ ($(wc -l <"$tmp/all") files)" \
    [ -s "$tmp/all.pot" ]
sed 's/^/# xgettext: /' "$tmp/xgettext.err"

# "#: src/app.c:101 src/conflict.c:7" -> one file per line.
sed -n 's/^#: //p' "$tmp/all.pot" | tr ' ' '\n' | sed 's/:[0-9]*$//' | grep . |
    LC_ALL=C sort -u >"$tmp/used"
grep -v '^#' po/POTFILES.in | grep . | LC_ALL=C sort -u >"$tmp/listed"
check "some files have strings ($(wc -l <"$tmp/used") files)" [ "$(wc -l <"$tmp/used")" -gt 10 ]

LC_ALL=C comm -23 "$tmp/used" "$tmp/listed" >"$tmp/missing"
if [ -s "$tmp/missing" ]; then
	not_ok "po/POTFILES.in lists every file with translatable strings"
	sed 's/^/# add to po\/POTFILES.in: /' "$tmp/missing"
else
	ok "po/POTFILES.in lists every file with translatable strings"
fi

missing=
while read -r f; do
	[ -f "$f" ] || missing="$missing $f"
done <"$tmp/listed"
check "every file po/POTFILES.in lists exists${missing:+ (gone:$missing)}" [ -z "$missing" ]
exit 0
