#!/bin/sh
# test_tui_sizes.sh: the screen reads whole at every size. The demo at
# 160 x 50, 120 x 40, 80 x 24 and 40 x 12, and an AMD machine (sim on the
# EPYC 7742 topology, whose figures are bounds: long) at 160 x 50: no
# header field cut (a figure without its unit or its number, "2 soc"),
# the cores view's heads whole, and the help: every key readable, the
# long lines wrapped, scrolling where the box is too small (40 x 12).
. "$HTTOP_SRCDIR/tests/lib.sh"
. "$HTTOP_SRCDIR/tests/tui/tuilib.sh"
plan 26

export XDG_CONFIG_HOME="$tui_dir/config"
F=$HTTOP_FIXTURES

# The header: the rows above the tabs, joined with blanks.
header() { cap | sed '/^ *1 /,$d' | tr -s ' \n' '  '; }
# has DESC RE: one TAP line, the joined header matches RE.
has() {
	if header | grep -Eq -- "$2"; then ok "$1"; else not_ok "$1"; show_screen; fi
}
# whole_header W H: the fields of the demo's header are whole (each with
# its unit, label or number) at W x H.
whole_header() {
	has "$1 x $2: util with its %" 'util [0-9]+\.[0-9]%'
	has "$1 x $2: thr, GHz and CPI with their numbers" \
	    'thr [0-9.]+ .*[0-9]\.[0-9]{2} GHz .*CPI [0-9.]+'
	has "$1 x $2: the four shares, each with its %" \
	    'both [0-9.]+% .*t0 only [0-9.]+% .*t1 only [0-9.]+% .*neither [0-9.]+%'
}

tui_start 160 50 -- --demo -d 0.5
if ! wait_for 'util [0-9]' 10; then
	not_ok "the demo comes up at 160 x 50"; show_screen
	i=1; while [ $i -lt 26 ]; do skip "no screen"; i=$((i + 1)); done
	exit 0
fi
ok "the demo comes up at 160 x 50"
whole_header 160 50
has "160 x 50: 2 sockets, 36 cores, 72 threads" '2 sockets, 36 cores, 72 threads'

# 120 x 40: the bar's head is whole or its first word, never
# "split (both|t0".
tm resize-window -t t -x 120 -y 40
wait_for 'core split' 5
if cap | grep -q 'split (both|t0|t1)\|split  ' && ! cap | grep -q 'split ([a-z0-9|]*  '; then
	ok "120 x 40: the cores view's head is whole"
else
	not_ok "120 x 40: the cores view's head is whole"; show_screen
fi

tm resize-window -t t -x 80 -y 24
wait_for 'CPI [0-9]' 5
whole_header 80 24
has "80 x 24: the machine's size whole, if shown" '(2 sockets, 36 cores, 72 threads|^[^s]*$)'
if header | grep -Eq '(^| )[0-9]+ soc( |$)'; then
	not_ok "80 x 24: no '2 soc'"; show_screen
else
	ok "80 x 24: no '2 soc'"
fi
# The help at 80 x 24: the averaging window's line ends whole.
keys h
wait_for 'httop keys' 5
if cap | tr -d '│|' | tr -s ' \n' '  ' | grep -q 'the whole run'; then
	ok "80 x 24: the help's long lines wrap ('the whole run')"
else
	not_ok "80 x 24: the help's long lines wrap ('the whole run')"; show_screen
fi
keys Escape; wait_gone 'httop keys' 5

# 40 x 12: the node's first shares, the tabs (numbers for the others),
# the help scrolls through every key.
tm resize-window -t t -x 40 -y 12
wait_for '^ 1 ' 5
has "40 x 12: the shares shown are whole" 'node █ both [0-9.]+% ▓ t0 only [0-9.]+%'
check "40 x 12: the tabs fit: ' 1 Cores ' and the others' numbers" \
    sh -c 'printf "%s\n" "$1" | grep -Eq "^ 1 Cores +2 +3 +4 "' sh "$(cap)"
# No row of the screen ends inside a word of the header's fields.
if cap | grep -Eq '(utili|GH|CP|sock|thre|figur|interv)$'; then
	not_ok "40 x 12: no row ends in a cut word"; show_screen
else
	ok "40 x 12: no row ends in a cut word"
fi
keys h
wait_for 'httop keys' 5
help=
n=0
while [ $n -lt 20 ]; do
	help="$help
$(cap)"
	keys NPage
	sleep 0.3
	n=$((n + 1))
done
# The box's lines: key and text between the frame's bars.
lines=$(printf '%s\n' "$help" | sed -n 's/^│ \(.*\) │$/\1/p')
for k in Tab '1 2 3 4' 's' 'S' 'f F' 'p Space' '+ -' '. n' '> <' '\[ \]' 'a' 'c' 'j' 'w' \
    'Up Down' 'PgUp PgDn' 'Home End' 'Ctrl-L' 'mouse' 'h ? F1' 'q F10'; do
	printf '%s\n' "$lines" | grep -q "^$k  " || { missing="$missing '$k'"; }
done
check "40 x 12: PgDn through the help shows every key${missing:+ (missing:$missing)}" \
    [ -z "$missing" ]
# (PgDn keeps a line of context: the pages overlap)
joined=$(printf '%s\n' "$lines" | awk '!seen[$0]++' | cut -c 12- | tr -s ' \n' '  ')
check "40 x 12: the descriptions read whole across lines" \
    sh -c 'printf "%s" "$1" | grep -q "figures over: the last interval, the averaging window (avg_seconds in httoprc, 10 s by default), the whole run"' sh "$joined"
check "40 x 12: the frame says which lines are shown" \
    sh -c 'printf "%s" "$1" | grep -Eq "[0-9]+-[0-9]+ of [0-9]+: Up Down PgUp PgDn"' sh "$help"
keys Home; sleep 0.3
check "40 x 12: Home goes back to the first key" \
    sh -c 'printf "%s\n" "$1" | grep -q "^│ Tab "' sh "$(cap)"
keys x
check "any other key closes the help" wait_gone 'httop keys' 5
# Back to 80 x 24 and 160 x 50: the same fields whole.
tm resize-window -t t -x 160 -y 50
wait_for '72 threads' 5
whole_header 160 50
keys q; tui_wait_exit 5

# AMD at 160 x 50: the node line's figures are bounds ("64.0-83.1%"):
# none of them ends the row without its value.
tui_start 160 50 -- --sim demo -d 0.5 --topology "$F/hwloc/zen2-epyc7742-2s-64c-smt.xml" \
    --cpuid "$F/cpuid/zen2-epyc7742-2s-64c-smt.cpuid.txt"
if wait_for 'util [0-9]' 10; then
	ok "AMD EPYC 7742 at 160 x 50 comes up"
	if cap | sed '/^ *1 /,$d' | grep -Eq '(CPI|thr|util) *$'; then
		not_ok "AMD: no header row ends with a label without its figure"; show_screen
	else
		ok "AMD: no header row ends with a label without its figure"
	fi
	has "AMD: CPI with its value (a number or -)" 'CPI (-|[0-9.]+)'
else
	not_ok "AMD EPYC 7742 at 160 x 50 comes up"; show_screen
	skip "no screen"; skip "no screen"
fi
keys q; tui_wait_exit 5
