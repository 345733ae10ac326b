#!/bin/sh
# test_tui_term.sh: terminals: UTF-8 glyphs only under a UTF-8 locale,
# plain ASCII under LANG=C; 256 colours, 8, and none (NO_COLOR, TERM=vt100);
# resizing below 40 x 10 and back; keys while it is too small.
. "$HTTOP_SRCDIR/tests/lib.sh"
. "$HTTOP_SRCDIR/tests/tui/tuilib.sh"
plan 16

export XDG_CONFIG_HOME="$tui_dir/config"
up() { wait_for ' 1 Cores ' 10; }
# The 38;5;N / 48;5;N form of the 256-colour palette.
sgr256() { cape | LC_ALL=C grep -c "$(printf '\033')\[[0-9;]*[34]8;5;" ; }

# UTF-8: the bars use block glyphs.
tui_start 160 50 -- --demo -d 0.5
if up; then
	n=$(non_ascii)
	check "LANG=C.UTF-8: block glyphs in the bars ($n non-ASCII bytes)" [ "$n" -gt 0 ]
	n=$(sgr256)
	check "TERM=screen-256color: the 256-colour palette is used ($n lines)" [ "$n" -gt 0 ]
else
	not_ok "the demo did not come up under LANG=C.UTF-8"; show_screen; skip "no screen"
fi
keys q; tui_wait_exit 5

# LANG=C: nothing but ASCII on the screen.
tui_start 160 50 LANG=C LC_ALL=C -- --demo -d 0.5
if up; then
	settle 10
	n=$(non_ascii)
	check "LANG=C: only ASCII ($n other bytes)" [ "$n" -eq 0 ]
	keys 2; wait_for IPC 5; n=$(non_ascii)
	check "LANG=C: the threads view too ($n)" [ "$n" -eq 0 ]
else
	not_ok "the demo did not come up under LANG=C"; show_screen; skip "no screen"
fi
keys q; tui_wait_exit 5

# TERM=screen: 8 colours, no 256-colour escapes, but colours.
tui_start 160 50 TERM=screen -- --demo -d 0.5
if up; then
	settle 10
	check "TERM=screen: colours ($(colour_escapes) escapes)" [ "$(colour_escapes)" -gt 0 ]
	check "TERM=screen: none from the 256-colour palette" [ "$(sgr256)" -eq 0 ]
else
	not_ok "the demo did not come up under TERM=screen"; show_screen; skip "no screen"
fi
keys q; tui_wait_exit 5

# NO_COLOR (any value) and TERM=vt100: no colour at all.
tui_start 160 50 NO_COLOR=1 -- --demo -d 0.5
if up; then
	settle 10
	check "NO_COLOR: no colour escapes ($(colour_escapes))" [ "$(colour_escapes)" -eq 0 ]
else
	not_ok "the demo did not come up under NO_COLOR"; show_screen
fi
keys q; tui_wait_exit 5
tui_start 160 50 TERM=vt100 -- --demo -d 0.5
if up; then
	settle 10
	check "TERM=vt100: no colour escapes ($(colour_escapes))" [ "$(colour_escapes)" -eq 0 ]
else
	not_ok "the demo did not come up under TERM=vt100"; show_screen
fi
keys q; tui_wait_exit 5

# Resize: below 40 x 10 the screen asks for room, wrapped to its width,
# and says that q quits (a line of its own, 7 columns: in a 20 x 5 pane);
# 40 x 10 is enough; back to 160 x 50 the full screen returns. Then q
# still restores the terminal.
# request: the screen's text joined into one line.
request() { cap | tr -s ' \n' '  ' | sed 's/^ //; s/ $//'; }
tui_start 160 50 -- --demo -d 0.5
if up; then
	tm resize-window -t t -x 39 -y 10
	check "39 x 10: a request for at least 40 x 10" wait_for 'at least 40 x' 5
	check "... and the key that quits, nothing else: '$(request)'" \
	    [ "$(request)" = "httop needs at least 40 x 10 (now 39 x 10) q quits" ]
	tm resize-window -t t -x 20 -y 5
	wait_for '^40 x 10 \(now 20 x 5\)' 5
	check "20 x 5: the whole request, wrapped at blanks, and q quits: '$(request)'" \
	    [ "$(cap | sed -n 1p)" = "httop needs at least" -a \
	    "$(cap | sed -n 2p)" = "40 x 10 (now 20 x 5)" -a "$(cap | sed -n 3p)" = "q quits" ]
	tm resize-window -t t -x 60 -y 9
	check "60 x 9: the request too" wait_for 'at least 40 x 10' 5
	tm resize-window -t t -x 40 -y 10
	if wait_gone 'at least 40 x 10' 5 && wait_for '^ 1 Cores ' 5; then
		ok "40 x 10: the screen again"
	else
		not_ok "40 x 10: the screen again"; show_screen
	fi
	tm resize-window -t t -x 160 -y 50
	check "160 x 50: every core again" wait_for '35,71' 5
	keys q
	tui_wait_exit 5
	check "after the resizes q restores the terminal" tui_restored
else
	not_ok "the demo did not come up for the resize test"; show_screen
	skip "no screen"; skip "no screen"; skip "no screen"; skip "no screen"; skip "no screen"
	skip "no screen"
fi

# Too small from the start: only the request is shown, so h (a help that
# cannot be seen) does nothing and the first q quits.
tui_start 20 5 -- --demo -d 0.5
if wait_for 'needs at least' 10; then
	keys h
	sleep 0.5
	keys q
	if tui_wait_exit 5; then
		ok "20 x 5: h then q quits at once (status $tui_status)"
	else
		not_ok "20 x 5: h then q quits at once"; show_screen
	fi
else
	not_ok "the demo did not come up at 20 x 5"; show_screen
fi
