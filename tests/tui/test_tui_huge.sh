#!/bin/sh
# test_tui_huge.sh: a terminal larger than any real one (issue 35, 5):
# COLUMNS=10000 LINES=10000 took 8 GB and 25 s, curses keeping three copies
# of every cell. httop lays out at most 1000 x 500 (ui/term.h); a larger
# terminal, whether LINES and COLUMNS say so or the terminal itself (stty),
# is drawn at that bound, the status line says so, the peak resident size
# stays small and q ends it. The sizes are 3000 x 2000 and 2500 x 1500, not
# 10000 x 10000: over the bound all the same, and a regression costs some
# 500 MB rather than the machine's memory. No timing is asserted.
. "$HTTOP_SRCDIR/tests/lib.sh"
. "$HTTOP_SRCDIR/tests/tui/tuilib.sh"
[ -x /usr/bin/time ] || skip_all "/usr/bin/time is not installed (Debian: time)"
plan 8

export XDG_CONFIG_HOME="$tui_dir/config"
real=$HTTOP
# The pane runs this in httop's place: the terminal's size set first when
# STTY is given, and httop's peak resident size to $tui_dir/time.
cat >"$tui_dir/timed.sh" <<EOS
#!/bin/sh
[ -n "\$STTY" ] && stty \$STTY
exec /usr/bin/time -v -o $(q "$tui_dir/time") $(q "$real") "\$@"
EOS
chmod +x "$tui_dir/timed.sh"
HTTOP=$tui_dir/timed.sh
# The peak resident size of the last run, in kB (0 when unknown).
max_rss() {
	sed -n 's/^[[:space:]]*Maximum resident set size (kbytes): *//p' "$tui_dir/time" 2>/dev/null |
	    grep -E '^[0-9]+$' || echo 0
}
# run WHAT VAR=VALUE...: the demo in a 100 x 30 pane with those variables;
# it comes up, q ends it (status 0), its peak is under 200 MB.
run() {
	what=$1
	shift
	rm -f "$tui_dir/time"
	tui_start 100 30 "$@" -- --demo -d 0.5
	if wait_for 'util [0-9]' 30; then ok "$what: the demo comes up"; else
		not_ok "$what: the demo comes up"; show_screen; fi
}
quits() {
	keys q
	if tui_wait_exit 30 && [ "$tui_status" = 0 ]; then ok "$1: q ends httop (status 0)"; else
		not_ok "$1: q ends httop (status '$tui_status')"; show_screen
		sed 's/^/# stderr: /' "$tui_dir/stderr"
	fi
	kb=$(max_rss)
	check "$1: peak resident size $kb kB < 200 MB" [ "$kb" -gt 0 -a "$kb" -lt 204800 ]
}

# LINES and COLUMNS above the bound.
run "COLUMNS=3000 LINES=2000" COLUMNS=3000 LINES=2000
quits "COLUMNS=3000 LINES=2000"

# The terminal itself that large (its window size set with stty).
run "stty cols 2500 rows 1500" "STTY=cols 2500 rows 1500"
quits "stty cols 2500 rows 1500"

# Only COLUMNS above it: the status line (row 30) says what is drawn.
run "COLUMNS=3000" COLUMNS=3000
if wait_for 'the terminal is 3000 x 30: httop draws at most 1000 x 500' 10; then
	ok "the status line: the terminal is 3000 x 30: httop draws at most 1000 x 500"
else
	not_ok "the status line: the terminal is 3000 x 30: httop draws at most 1000 x 500"
	show_screen
fi
keys q; tui_wait_exit 30
