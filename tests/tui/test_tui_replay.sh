#!/bin/sh
# test_tui_replay.sh: the live view of a real recording: Stampede2 node
# c591-803 (2 x 24-core Skylake-SP, periodic-performance-counters output)
# converted with httop-ppc2trace --sockets 2 --smt 2. In its first interval
# core 1 (CPUs 1,49) has its threads read too far apart; from interval 18
# another program reprogrammed core 0's counters (CPUs 0,48); 58 intervals.
. "$HTTOP_SRCDIR/tests/lib.sh"
. "$HTTOP_SRCDIR/tests/tui/tuilib.sh"
plan 8

export XDG_CONFIG_HOME="$tui_dir/config"
lua=$HTTOP_FIXTURES/real/stampede2-c591-803/c591-803.perfcounts.lua
trace=$tui_dir/c591-803.trace
if [ ! -f "$lua" ]; then
	i=0; while [ $i -lt 8 ]; do skip "no fixture $lua"; i=$((i + 1)); done
	exit 0
fi
"$HTTOP_BUILDDIR/tools/httop-ppc2trace" --sockets 2 --smt 2 "$lua" -o "$trace"
check "the fixture converts to a trace" [ -s "$trace" ]

tui_start 160 60 -- --replay "$trace" -d 0.5
if ! wait_for ' 1 Cores ' 10; then
	not_ok "the replay comes up"; show_screen; sed 's/^/# stderr: /' "$tui_dir/stderr"
	i=2; while [ $i -lt 8 ]; do skip "no screen"; i=$((i + 1)); done
	exit 0
fi
ok "the replay comes up"
check "header: source replay" wait_for 'source replay' 5
check "header: the recorded host c591-803" wait_for 'c591-803' 5
check "status line: the first interval's reason (read too far apart)" wait_for 'too far apart' 5

# When core 0's counters are reprogrammed it shows the reason, or its
# fallback bound labelled as one: never bare numbers.
if wait_for 'reprogrammed' 15; then
	keys p; wait_for PAUSED 5
	row=$(cap | grep '0,48' | head -n 1)
	if printf '%s' "$row" | grep -q 'reprogrammed' && ! printf '%s' "$row" | grep -q '[0-9]\.[0-9]'; then
		ok "core 0 reprogrammed: the reason, no figures ($row)"
	elif printf '%s' "$row" | grep -qi 'bound'; then
		ok "core 0 reprogrammed: its fallback figures are labelled a bound ($row)"
	else
		not_ok "core 0 reprogrammed: row '$row'"; show_screen
	fi
	keys p
else
	not_ok "the reprogrammed interval is named in the status line"; show_screen
fi

# Faster to the end: - x3 = 0.0625 s; the last frame stays with
# "end of replay" until q.
keys - - -
check "the end of the replay is announced and the last frame stays" wait_for 'end of replay' 20
keys q
tui_wait_exit 5
if [ "$tui_status" = 0 ] && tui_restored; then
	ok "q after the end: status 0, the terminal restored"
else
	not_ok "q after the end: status '$tui_status', or the terminal not restored"
fi
