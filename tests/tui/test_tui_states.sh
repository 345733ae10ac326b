#!/bin/sh
# test_tui_states.sh: httop spins in no state and ends promptly when asked
# in every state. Over 5 s it uses at most 0.25 s of CPU while the live
# view is paused and while a replay sits at its end (an idle wait costs
# nothing; a few redraws of the status line may), and the batch loop at -d 1
# on the simulator at most 0.5 s (five refreshes of 72 simulated threads).
# SIGTERM ends a paused live view, a replay at its end and a start-up
# blocked on opening a FIFO; a start-up parse of /dev/zero too.
. "$HTTOP_SRCDIR/tests/lib.sh"
. "$HTTOP_SRCDIR/tests/tui/tuilib.sh"
plan 10

export XDG_CONFIG_HOME="$tui_dir/config"
work=$tui_dir/work
mkdir -p "$work" || exit 1

# cpu_ticks PID: user + system time so far, in clock ticks.
cpu_ticks() {
	awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null
}
hz=$(getconf CLK_TCK)

# cpu_over_5s PID: CPU seconds used in the next 5 s, as a decimal.
cpu_over_5s() {
	a=$(cpu_ticks "$1")
	sleep 5
	b=$(cpu_ticks "$1")
	awk -v a="$a" -v b="$b" -v hz="$hz" 'BEGIN { printf "%.3f", (b - a) / hz }'
}

# ends_within PID S: the process is gone within S seconds. A generous
# did-it-end-at-all guard (30 s), not a timing: each case below would
# otherwise wait forever, and make check asserts no wall time.
ends_within() {
	n=$(awk -v s="$2" 'BEGIN { print int(s * 20) }')
	while [ "$n" -gt 0 ]; do
		kill -0 "$1" 2>/dev/null || return 0
		sleep 0.05
		n=$((n - 1))
	done
	return 1
}

# --- Paused live view. ---------------------------------------------------
pids=
tui_start 120 40 -- --demo -d 0.2
pids="$pids $tui_pid"
if wait_for 'node .*both [0-9]' 10 && keys p && wait_for 'PAUSED' 5; then
	used=$(cpu_over_5s "$tui_pid")
	check "paused live view: $used s of CPU in 5 s (at most 0.25)" \
	    awk -v u="$used" 'BEGIN { exit !(u <= 0.25) }'
	kill -TERM "$tui_pid"
	check "paused live view: SIGTERM ends it" ends_within "$tui_pid" 30
	tui_wait_exit 5
	check "paused live view: status 0 after SIGTERM (got $tui_status)" [ "$tui_status" = 0 ]
else
	not_ok "paused live view: PAUSED shows"; show_screen
	skip "not paused"; skip "not paused"
fi

# --- A replay at its end. ------------------------------------------------
HTTOP_CLOCK=virtual "$HTTOP" --demo -b -n 4 -d 0.2 --format summary --record "$work/t.trace" \
    >/dev/null 2>"$work/rec.err"
tui_start 120 40 -- --replay "$work/t.trace"
pids="$pids $tui_pid"
if wait_for 'end of replay' 15; then
	used=$(cpu_over_5s "$tui_pid")
	check "replay at its end: $used s of CPU in 5 s (at most 0.25)" \
	    awk -v u="$used" 'BEGIN { exit !(u <= 0.25) }'
	kill -TERM "$tui_pid"
	check "replay at its end: SIGTERM ends it" ends_within "$tui_pid" 30
else
	not_ok "replay: 'end of replay' shows"; show_screen
	sed 's/^/# /' "$work/rec.err"
	skip "no end"
fi
tui_stop

# --- The batch loop on the simulator in real time (no HTTOP_CLOCK). -------
env -u HTTOP_CLOCK "$HTTOP" --demo -b -d 1 -n 6 --format summary >"$work/b.out" 2>&1 &
bpid=$!
pids="$pids $bpid"
sleep 0.5
used=$(cpu_over_5s "$bpid")
wait "$bpid"
check "batch at -d 1: $used s of CPU in 5 s (at most 0.5)" \
    awk -v u="$used" 'BEGIN { exit !(u <= 0.5) }'
check "batch at -d 1 waits in real time: 6 intervals written" \
    [ "$(grep -c . "$work/b.out")" -ge 6 ]

# --- Start-up: blocked opening a FIFO, and a parse of /dev/zero. ----------
mkfifo "$work/fifo"
"$HTTOP" --demo -b -n 1 --record "$work/fifo" >/dev/null 2>&1 &
bpid=$!
pids="$pids $bpid"
sleep 0.5
if kill -0 "$bpid" 2>/dev/null; then
	kill -TERM "$bpid"
	check "start-up blocked on a FIFO: SIGTERM ends it" ends_within "$bpid" 30
else
	ok "start-up blocked on a FIFO: ended by itself before the signal"
fi
wait "$bpid" 2>/dev/null
"$HTTOP" --topology "$HTTOP_FIXTURES/hwloc/skx-6140-2s-18c-ht.x86.xml" --cpuid /dev/zero \
    --sim busy -b -n 1 >/dev/null 2>&1 &
bpid=$!
pids="$pids $bpid"
sleep 0.3
kill -TERM "$bpid" 2>/dev/null
check "--cpuid /dev/zero: SIGTERM (or a refusal) ends it" ends_within "$bpid" 30
wait "$bpid" 2>/dev/null
kill -KILL "$bpid" 2>/dev/null

# --- Nothing of this test is left. ---------------------------------------
sleep 0.2
left=
for p in $pids; do kill -0 "$p" 2>/dev/null && left="$left $p"; done
check "no httop this test started is left running ($pids)" [ -z "$left" ]
exit 0
