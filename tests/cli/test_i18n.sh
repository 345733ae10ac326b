#!/bin/sh
# test_i18n.sh: the German translation. po/de.po covers every string of
# the current sources (no untranslated or fuzzy entry, format strings
# intact: msgfmt -c), and httop speaks German under LANGUAGE=de
# LC_ALL=de_DE.UTF-8: --help, an error, the batch text output; the
# machine formats (csv, json) and the figures stay as they are in C.
. "$HTTOP_SRCDIR/tests/lib.sh"
. "$HTTOP_SRCDIR/tests/cli/i18nlib.sh"

for t in xgettext msgmerge msgfmt; do
	need $t gettext
done
need jq jq
plan 19
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# 1-3: the catalogue against a template made now from po/POTFILES.in.
(cd "$HTTOP_SRCDIR" && xgettext --keyword=_ --keyword=N_ --from-code=UTF-8 \
    -f po/POTFILES.in -o "$tmp/now.pot" 2>/dev/null)
check "xgettext makes a template from po/POTFILES.in" [ -s "$tmp/now.pot" ]
msgmerge -q --no-fuzzy-matching -o "$tmp/merged.po" "$HTTOP_SRCDIR/po/de.po" "$tmp/now.pot" 2>/dev/null
stats=$(LC_ALL=C msgfmt -c --statistics -o /dev/null "$tmp/merged.po" 2>&1)
diag "de.po against the sources: $stats"
case $stats in
*untranslated* | *fuzzy* | *error* | "")
	not_ok "po/de.po translates every message of the sources (run make -C po update-po, translate)"
	# One line per message (a long msgid continues on "..." lines).
	msgattrib --untranslated --no-obsolete --no-wrap "$tmp/merged.po" 2>/dev/null |
	    awk '/^msgid / { m = substr($0, 7); c = 1; next }
		c && /^"/ { m = m $0; next }
		c { if (m != "\"\"") print "# untranslated: " m; c = 0 }' | head -20
	;;
*" translated message"*) ok "po/de.po translates every message of the sources" ;;
*) not_ok "msgfmt --statistics said: $stats" ;;
esac
check "po/de.po passes msgfmt -c (format strings, plural forms, header)" \
    msgfmt -c -o /dev/null "$HTTOP_SRCDIR/po/de.po"

if ! i18n_setup "$tmp"; then
	i=3; while [ $i -lt 14 ]; do skip "$i18n_skip"; i=$((i + 1)); done
	exit 0
fi

# 4-5: --help.
de "$HTTOP" --help >"$tmp/help" 2>&1; st=$?
check "--help in German: exit 0 (got $st), 'Aufruf: httop [Optionen]'" \
    sh -c '[ "$1" -eq 0 ] && grep -q "^Aufruf: httop \[Optionen\]" "$2"' sh "$st" "$tmp/help"
check "--help in German: 'Leistungszählern', 'Aktualisierungsintervall in Sekunden'" \
    sh -c 'grep -q "Leistungszählern" "$1" && grep -q "Aktualisierungsintervall in Sekunden" "$1"' sh "$tmp/help"

# 6-7: errors go to stderr in German, with the usage status 2.
de "$HTTOP" -d abc >"$tmp/out" 2>"$tmp/err"; st=$?
check "-d abc: status 2 (got $st)" [ "$st" -eq 2 ]
check "-d abc: \"httop: -d/--delay: 'abc' ist keine Anzahl Sekunden; ...\"" \
    grep -q "^httop: -d/--delay: 'abc' ist keine Anzahl Sekunden; geben Sie z. B. -d 1 oder -d 0.5 an$" "$tmp/err"
de "$HTTOP" --format nope >/dev/null 2>"$tmp/err2"
check "--format nope: 'unbekanntes Format'" grep -q "unbekanntes Format 'nope'" "$tmp/err2"

# 8-12: batch text output of the demo (deterministic: seed 0). The
# node line in C reads
#   node: util 80.2%, neither 19.8%, t0 only 38.7%, t1 only 21.2%, both 20.4%, ...
# (19.8 + 38.7 + 21.2 + 20.4 = 100.1, four rounded shares; util = 100 - 19.8).
LC_ALL=C "$HTTOP" --demo -b -n 2 -d 0.05 >"$tmp/c.txt" 2>/dev/null
de "$HTTOP" --demo -b -n 2 -d 0.05 >"$tmp/de.txt" 2>/dev/null
check "batch text: German interval line ('Zeit ... Intervall 0.050 s ... Quelle sim')" \
    grep -q '^Zeit [0-9.]* s (Unix-Zeit [0-9.]*), Intervall 0.050 s, Host .*, Quelle sim, ' "$tmp/de.txt"
check "batch text: German node line with the C run's figures" \
    grep -q '^Knoten: Ausl. 80.2%, keiner 19.8%, nur t0 38.7%, nur t1 21.2%, beide 20.4%, 1.25 Threads, ' "$tmp/de.txt"
# Every number of the German output is the C output's, in order, with a
# decimal point (LC_NUMERIC stays C).
nums() { grep -o '[0-9][0-9.,]*' "$1" | tr '\n' ' '; }
check "batch text: the same numbers as in C, decimal points kept" \
    sh -c '[ "$1" = "$2" ] && [ -n "$1" ]' sh "$(nums "$tmp/c.txt")" "$(nums "$tmp/de.txt")"
# The column heads still sit over their columns: 'beide' ends where the
# first core's fourth share ends ("%" in the same column).
check "batch text: the German column heads line up with the figures" \
    awk '/^Pkg Kern CPUs/ { h = index($0, "beide") + 4; next }
	h && /^ *0 +0 / { exit !(substr($0, h, 1) == "%") }
	END { if (!h) exit 1 }' "$tmp/de.txt"

# 13-14: the machine formats are not translated.
LC_ALL=C "$HTTOP" --demo -b -n 2 -d 0.05 --format csv >"$tmp/c.csv" 2>/dev/null
de "$HTTOP" --demo -b -n 2 -d 0.05 --format csv >"$tmp/de.csv" 2>/dev/null
check "csv: identical in German and C" sh -c '[ -s "$1" ] && cmp -s "$1" "$2"' sh "$tmp/c.csv" "$tmp/de.csv"
LC_ALL=C "$HTTOP" --demo -b -n 2 -d 0.05 --format json >"$tmp/c.json" 2>/dev/null
de "$HTTOP" --demo -b -n 2 -d 0.05 --format json >"$tmp/de.json" 2>/dev/null
check "json: identical in German and C, layout texts included" \
    sh -c '[ -s "$1" ] && [ "$(jq -S . "$1")" = "$(jq -S . "$2")" ]' sh "$tmp/c.json" "$tmp/de.json"
check_schema "$tmp/c.json" "$tmp/de.json"
# The real Stampede2 trace has invalid intervals (another program
# reprogrammed the counters at 18.4 s): their reason is English in JSON and
# CSV, as in C, and German on the text output.
lua="$HTTOP_FIXTURES/real/stampede2-c591-803/c591-803.perfcounts.lua"
"$HTTOP_BUILDDIR/tools/httop-ppc2trace" --sockets 2 --smt 2 "$lua" -o "$tmp/s2.trace" 2>/dev/null
LC_ALL=C "$HTTOP" --replay "$tmp/s2.trace" -b --format json >"$tmp/s2c.json" 2>/dev/null
de "$HTTOP" --replay "$tmp/s2.trace" -b --format json >"$tmp/s2de.json" 2>/dev/null
de "$HTTOP" --replay "$tmp/s2.trace" -b >"$tmp/s2de.txt" 2>/dev/null
check "json: an invalid interval's reason in English under German, as in C" \
    sh -c '[ "$(jq -r "select(.valid == false) | .reason" "$1" | head -n 1)" = \
        "$(jq -r "select(.valid == false) | .reason" "$2" | head -n 1)" ] &&
        jq -r "select(.valid == false) | .reason" "$1" | head -n 1 | grep -q "^package [0-9]*, core [0-9]* (cpus [0-9,]*): [a-z]"' \
    sh "$tmp/s2de.json" "$tmp/s2c.json"
check "text: the same interval's reason in German" \
    grep -q "^UNGÜLTIG: Package [0-9]*, Kern [0-9]* (CPUs [0-9,]*): " "$tmp/s2de.txt"
# Xeon Phi has a layout note: English in JSON, German on the text output.
knl="$HTTOP_FIXTURES/hwloc/knl-7250-68c-4t-flat-quadrant.xml"
de "$HTTOP" --source sim --topology "$knl" -b -n 1 -d 0.05 --format json >"$tmp/knl.json" 2>/dev/null
check "json: the Xeon Phi layout note and basis in English under German" \
    sh -c 'jq -e ".layout_note | startswith(\"the physical positions of Xeon Phi tiles are not sourced\")" "$1" &&
        jq -e ".layout_basis | test(\"^[a-z]\")" "$1"' sh "$tmp/knl.json"
# The real Stampede2 trace's replay and the Xeon Phi run, under both.
check_schema "$tmp/s2c.json" "$tmp/s2de.json" "$tmp/knl.json"
exit 0
