#!/bin/sh
# test_tui_exit.sh: every way out leaves the pane's terminal as it was:
# the same `stty -g` before and after, out of the alternate screen, the
# cursor shown, no mouse reporting. q, Ctrl-C and SIGTERM end with status
# 0; SIGHUP (a dropped ssh) with 129 (128 + 1).
. "$HTTOP_SRCDIR/tests/lib.sh"
. "$HTTOP_SRCDIR/tests/tui/tuilib.sh"
plan 8

export XDG_CONFIG_HOME="$tui_dir/config"

# way DESC STATUS ACTION: start the demo, eval ACTION ($tui_pid is
# httop's PID), check the status and the terminal.
way() {
	desc=$1 want=$2 action=$3
	tui_start 120 40 -- --demo -d 0.2
	if ! wait_for ' 1 Cores ' 10; then
		not_ok "$desc: the screen comes up"; show_screen; skip "no screen"
		return
	fi
	eval "$action"
	if tui_wait_exit 10; then
		check "$desc: exit status $want (got $tui_status)" [ "$tui_status" = "$want" ]
	else
		not_ok "$desc: httop did not exit"
	fi
	if tui_restored; then
		ok "$desc: the terminal is as it was"
	else
		not_ok "$desc: the terminal is not as it was"
		diag "stty before: $(cat "$tui_dir/stty.before" 2>/dev/null)"
		diag "stty after:  $(cat "$tui_dir/stty.after" 2>/dev/null)"
		diag "alternate, cursor, mouse: $(tm display-message -p -t t '#{alternate_on}#{cursor_flag}#{mouse_any_flag}')"
	fi
}

way "q" 0 'keys q'
way "Ctrl-C" 0 'keys C-c'
way "SIGTERM" 0 'kill -TERM "$tui_pid"'
way "SIGHUP" 129 'kill -HUP "$tui_pid"'
