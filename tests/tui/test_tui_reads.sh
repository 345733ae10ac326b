#!/bin/sh
# test_tui_reads.sh: what read wrong in the live view (issue 35).
# - Enter and Esc on one machine say where they work (the Nodes view of
#   httop --nodes, as 5 does); Enter said "unknown key Ctrl-M", Esc
#   "unknown key Esc". The help lists them as keys of many nodes.
# - The Threads view's thread number stands apart from its bar's left edge
#   ("  0 ▕###", "  0 [###"); it touched it ("  0▕###").
# - A replay counts intervals as the recording did: -n 3 replays as 1/3 to
#   3/3 (it said 4/4), and [ lands on the first interval with its figures
#   (it showed the first sample alone: 1/4, "figures last 0 s").
. "$HTTOP_SRCDIR/tests/lib.sh"
. "$HTTOP_SRCDIR/tests/tui/tuilib.sh"
plan 17

export XDG_CONFIG_HOME="$tui_dir/config"
mkdir -p "$XDG_CONFIG_HOME/httop"

# --- Enter and Esc on one machine ---------------------------------------------
tui_start 120 30 -- --demo -d 0.3
if wait_for ' 1 Cores ' 10; then
	keys Enter
	wait_for 'Enter and Esc open|unknown key' 5
	if cap | grep -q 'Enter and Esc open and leave a node in the Nodes view of httop --nodes'
	then
		ok "Enter on one machine says it opens a node in httop --nodes' Nodes view"
	else
		not_ok "Enter on one machine says it opens a node in httop --nodes' Nodes view"
		show_screen
	fi
	if cap | grep -q 'unknown key'; then
		not_ok "... not 'unknown key Ctrl-M'"; show_screen
	else
		ok "... not 'unknown key Ctrl-M'"
	fi
	keys 1
	expect_gone "(the note goes with the next key)" 'Enter and Esc open' 5
	keys Escape
	expect "Esc says the same, not 'unknown key Esc'" \
	    'Enter and Esc open and leave a node in the Nodes view of httop --nodes' 5
	keys h
	expect "the help lists 5 Enter Esc as keys of many nodes" \
	    '5 Enter Esc +many nodes \(--nodes\): the Nodes view' 5
	keys q
else
	not_ok "the demo comes up"; show_screen
	i=1; while [ $i -lt 5 ]; do skip "no screen"; i=$((i + 1)); done
fi
tui_wait_exit 5

# --- the Threads view: a blank between the thread number and the bar ------------
# Rows: CPU, package, core, thread, then the bar's left edge.
threads_check() {
	# $1: the edge's glyph, as a regex
	rows=$(cap | grep -cE "^ +[0-9]+ +[0-9]+ +[0-9]+ +[01] $1")
	touch=$(cap | grep -cE "^ +[0-9]+ +[0-9]+ +[0-9]+ +[01]$1")
	[ "$rows" -ge 10 ] && [ "$touch" -eq 0 ]
}
tui_start 120 30 -- --demo -d 0.3
if wait_for ' 1 Cores ' 10; then
	keys 2
	wait_for 'netGHz' 5
	sleep 0.4
	if threads_check '▕'; then
		ok "Threads view (UTF-8): '0 ▕' in every row ($rows rows)"
	else
		not_ok "Threads view (UTF-8): '0 ▕' in every row ($rows rows, $touch touching)"
		show_screen
	fi
	if cap | grep -Eq ' t  utilisation '; then
		ok "... the utilisation head over the bar, apart from t"
	else
		not_ok "... the utilisation head over the bar, apart from t"; show_screen
	fi
	keys q
else
	not_ok "the demo comes up"; show_screen
	skip "no screen"
fi
tui_wait_exit 5
tui_start 120 30 LANG=C LC_ALL=C -- --demo -d 0.3
if wait_for ' 1 Cores ' 10; then
	keys 2
	wait_for 'netGHz' 5
	sleep 0.4
	if threads_check '\['; then
		ok "Threads view (ASCII): '0 [' in every row ($rows rows)"
	else
		not_ok "Threads view (ASCII): '0 [' in every row ($rows rows, $touch touching)"
		show_screen
	fi
	keys q
else
	not_ok "the demo comes up in ASCII"; show_screen
fi
tui_wait_exit 5

# --- a replay of -n 3 counts 3 intervals ----------------------------------------
trace=$tui_dir/n3.trace
"$HTTOP" --demo -b -n 3 -d 0.2 --record "$trace" >/dev/null 2>"$tui_dir/rec.err"
check "--demo -b -n 3 --record: 3 intervals recorded ($(grep -c '^sample ' "$trace") samples)" \
    [ "$(grep -c '^sample ' "$trace")" -eq 4 ]
n=$("$HTTOP" --replay "$trace" -b 2>/dev/null | grep -c '^time ')
check "batch replay: 3 intervals, as recorded (got $n)" [ "$n" -eq 3 ]
n=$("$HTTOP" --replay "$trace" -b --format json 2>/dev/null | grep -c '"time"')
check "batch replay, JSON: 3 records (got $n)" [ "$n" -eq 3 ]

seen=$tui_dir/seen
: >"$seen"
# The header's position, every capture kept: no 4th and no 0 s window.
pos_re() { expect "$1" "$2" 5; cap | grep 'source replay' >>"$seen"; }
tui_start 140 30 -- --replay "$trace"
if wait_for 'source replay [0-9]+/[0-9]+ ' 10; then
	pos_re "the replay runs to its end: 3/3, end of replay" \
	    'source replay 3/3 \(0\.[0-9] s of 0\.[0-9] s\) x1 end of replay'
	keys p
	wait_for 'PAUSED' 5
	keys '['
	pos_re "'[': the first interval, 1/3" 'source replay 1/3 \(0\.[1-9] s of '
	expect "... with its figures (the node's split, not '-')" 'node .*both [0-9]' 5
	keys .
	pos_re "'.': 2/3" 'source replay 2/3 '
	keys .
	pos_re "'.': 3/3, end of replay" 'source replay 3/3 .*end of replay'
	if grep -Eq '[0-9]+/4|figures last 0 s' "$seen"; then
		not_ok "no 'N/4' and no 'figures last 0 s' in any position"
		sed 's/^/# /' "$seen"
	else
		ok "no 'N/4' and no 'figures last 0 s' in any position"
	fi
	keys q
else
	not_ok "the replay comes up"; show_screen
	i=1; while [ $i -lt 6 ]; do skip "no screen"; i=$((i + 1)); done
fi
tui_wait_exit 5
