#!/bin/sh
# test_tui_de.sh: the live view in German (LANGUAGE=de LC_ALL=de_DE.UTF-8,
# catalogue compiled from po/de.po) of the demo machine (2 x 18 cores x
# 2 threads) in a 100 x 36 tmux pane: the header, tabs, legend, every
# view's labels, the help and the pause mark are German, and the labels
# that must fit their columns do.
. "$HTTOP_SRCDIR/tests/lib.sh"
. "$HTTOP_SRCDIR/tests/tui/tuilib.sh"
. "$HTTOP_SRCDIR/tests/cli/i18nlib.sh"
plan 13

if ! i18n_setup "$tui_dir/i18n"; then
	i=0; while [ $i -lt 13 ]; do skip "$i18n_skip"; i=$((i + 1)); done
	exit 0
fi
export XDG_CONFIG_HOME="$tui_dir/config"
# $i18n_env is a list of VAR=VALUE words without blanks (mktemp paths).
# shellcheck disable=SC2086
tui_start 100 36 $i18n_env -- --demo -d 0.5
if ! wait_for ' 1 Kerne ' 10; then
	not_ok "httop --demo in German shows the tab ' 1 Kerne ' in a 100 x 36 pane"
	show_screen
	sed 's/^/# stderr: /' "$tui_dir/stderr"
	i=1; while [ $i -lt 13 ]; do skip "the screen did not come up"; i=$((i + 1)); done
	exit 0
fi
ok "httop --demo in German shows the tab ' 1 Kerne ' in a 100 x 36 pane"

has() { printf '%s' "$s" | grep -q -- "$1"; }
s=$(cap)
check "tabs: 1 Kerne 2 Threads 3 Topologie 4 Die-Raster, then 'h Hilfe  q Ende'" \
    has ' 1 Kerne .* 2 Threads .* 3 Topologie .* 4 Die-Raster .*h Hilfe  q Ende'
check "header: 2 Sockel, 36 Kerne; Quelle sim  Intervall 0.5 s" \
    sh -c 'printf "%s" "$1" | grep -q "2 Sockel, 36 Kerne" &&
	printf "%s" "$1" | grep -q "Quelle sim  Intervall 0.5 s"' sh "$s"
check "legend: Knoten, beide, nur t0, nur t1, keiner, Ausl." \
    has 'Knoten .*beide .*nur t0 .*nur t1 .*keiner .*Ausl\. '
# The cores view at 100 columns: two columns of cores, each headed
# "Kern Anteile (beide|t0|t1) ... beide%  GHz" (beide% in its 7 columns).
check "cores view: heads 'Kern', 'Anteile (beide|t0|t1)', 'beide%  GHz' twice" \
    has '^Kern Anteile (beide|t0|t1) *beide%  GHz  Kern Anteile (beide|t0|t1) *beide%  GHz$'
check "cores view: 'Package 0, 18 Kerne'" has 'Package 0, 18 Kerne'
# The key hint is whole on the last line (59 columns of 100).
check "hint line: 'Tab Ansicht  p Pause  +- Intervall  a Fenster  h Hilfe  q Ende'" \
    sh -c 'printf "%s" "$1" | tail -n 1 | grep -q "Tab Ansicht  p Pause  +- Intervall  a Fenster  h Hilfe  q Ende *$"' sh "$s"
check "no English labels left on the cores view" \
    sh -c '! printf "%s" "$1" | grep -Eq "source |interval |sockets|Cores|Topology| both |neither| help "' sh "$s"

keys 2
# (at 100 columns the bar is too narrow for its German head, Auslastung,
# which is then left out whole; Steal%, the last figure, is the first
# figure left out where the columns are too few)
check "2: threads view heads in German, each within its column ('Ausl.%', 'nomCPI', 'Status')" \
    wait_for 'CPU. +Pkg +Kern +t( +Auslastung)? +Ausl\.% +CPI +nomCPI +GHz +netGHz +IPC( +[^ ]+)* +Status' 5
keys 3
# Labels in a 12-column field: "Basisfaktor" (11) fits. Demo: base ratio
# 30 x 100 MHz = 3.00 GHz; scale 120 = the measured reference ratio.
if wait_for 'Verwendete Angaben' 5 && sleep 0.3 && s=$(cap) &&
    has '^Basisfaktor 30 x 100.00 MHz' && has '^Skala  *120 TSC-Takte je Zählschritt'; then
	ok "3: topology view: 'Verwendete Angaben', 'Basisfaktor 30 x 100.00 MHz', 'Skala 120 TSC-Takte'"
else
	not_ok "3: topology view in German"; show_screen
fi
keys 4
check "4: die grid view: 'Die-Raster — physisch:' (the demo's CAPID6)" wait_for 'Die-Raster (—|-) physisch:' 5
keys 1
wait_for ' 1 Kerne ' 5
keys h
# The help's descriptions wrap inside the box: the German ones are longer.
if wait_for 'httop-Tasten' 5 && sleep 0.3 && s=$(cap) &&
    has 'nächste Ansicht (Umschalt-Tab: vorige)' &&
    has 'Werte über: das letzte Intervall, das Mittelungsfenster' &&
    has 'Strg-L' && has 'jede Taste schließt dies'; then
	ok "h: the help in German, every line whole"
else
	not_ok "h: the help in German"; show_screen
fi
keys x
wait_gone 'httop-Tasten' 5
keys p
check "p: PAUSIERT" wait_for 'PAUSIERT' 5
keys q
tui_wait_exit 10
exit 0
