#!/bin/sh
# test_pingpong_pace.sh: bench/httop-pingpong, the switching load of
# bench/sched.py and bench/whole.py, stays paced after a stall: stopped
# (SIGSTOP) for a while, it drops the round trips it missed beyond 20 ms
# (and says how many) instead of making them up at full speed, a flood
# (before, a stall of half a second was followed by 5,000 round trips as
# fast as they go). Asserted on its counts, not on a time: the trips made
# and dropped add up to its schedule.
. "$HTTOP_SRCDIR/tests/lib.sh"

P="$HTTOP_BUILDDIR/bench/httop-pingpong"
[ -x "$P" ] || skip_all "bench/httop-pingpong was not built"
plan 3
T=$(mktemp) || exit 1
trap 'rm -f "$T"' EXIT
"$P" 0 0 1000 3 > "$T" &
pid=$!
sleep 0.5
kill -STOP "$pid"
sleep 1
kill -CONT "$pid"
wait "$pid"
st=$?
l=$(cat "$T")
diag "$l"
kv() { printf '%s\n' "$l" | tr ' ' '\n' | sed -n "s/^$1=//p"; }
trips=$(kv trips) dropped=$(kv dropped)
check "it ran (status $st) and said trips and dropped" \
    test "$st" -eq 0 -a -n "$trips" -a -n "$dropped"
# Stopped for 1 s at 1,000 round trips a second: at least 900 dropped
# (all but the 20 ms it may catch up), whatever the machine's load made
# the stop last beyond it.
check "the stall's round trips dropped, not made up ($dropped >= 900)" [ "${dropped:-0}" -ge 900 ]
# Made and dropped: the schedule's 3,000 (+ the batch of 10 under way at
# the end, and the 20 ms caught up).
check "trips $trips + dropped $dropped = the schedule's 3000 (within 40)" \
    awk -v t="${trips:-0}" -v d="${dropped:-0}" 'BEGIN { x = t + d - 3000; exit !(x >= -40 && x <= 40) }'
