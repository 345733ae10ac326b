#!/bin/sh
# test_tui_config.sh: the settings file $XDG_CONFIG_HOME/httop/httoprc:
# key w writes the current settings, the next start uses them, and a
# malformed file is named with its line and never overwritten by w.
. "$HTTOP_SRCDIR/tests/lib.sh"
. "$HTTOP_SRCDIR/tests/tui/tuilib.sh"
plan 9

export XDG_CONFIG_HOME="$tui_dir/config"
rc=$XDG_CONFIG_HOME/httop/httoprc

tui_start 160 50 -- --demo -d 0.5
if ! wait_for ' 1 Cores ' 10; then
	not_ok "the screen comes up"; show_screen
	i=1; while [ $i -lt 9 ]; do skip "no screen"; i=$((i + 1)); done
	exit 0
fi
ok "the screen comes up"
# Threads view, the 10 s window, interval 1 s, then w.
keys 2 a +
wait_for '10 s average' 5
keys w
n=0; while [ ! -s "$rc" ] && [ $n -lt 50 ]; do sleep 0.1; n=$((n + 1)); done
check "w writes $rc" [ -s "$rc" ]
check "... with view = threads" grep -Eq '^[[:space:]]*view[[:space:]]*=[[:space:]]*threads' "$rc"
check "... and delay = 1" grep -Eq '^[[:space:]]*delay[[:space:]]*=[[:space:]]*1(\.0*)?[[:space:]]*$' "$rc"
keys q; tui_wait_exit 5

# The next start opens on the threads view with the 10 s window.
tui_start 160 50 -- --demo
expect "the saved view and window are used at the next start" '10 s average' 10
check "... the threads view" wait_for 'IPC' 5
keys q; tui_wait_exit 5

# Line 3 is malformed: the message names the file and the line; w must
# leave the file as it was.
printf '# httoprc written by hand\nview = cores\ncolour = purple\n' >"$rc"
cp "$rc" "$tui_dir/rc.orig"
tui_start 160 50 -- --demo -d 0.5
if wait_for 'httoprc:3' 10 || grep -q 'httoprc:3' "$tui_dir/stderr"; then
	ok "a malformed httoprc: the message names line 3"
else
	not_ok "a malformed httoprc: the message names line 3"; show_screen
fi
check "... and the view still comes up" wait_for ' 1 Cores ' 10
keys w; sleep 1
check "w does not overwrite the malformed file" cmp -s "$rc" "$tui_dir/rc.orig"
keys q; tui_wait_exit 5
