#!/bin/sh
# test_tui_replay_controls.sh: every replay key in the live view, on the
# Stampede2 recording (node c591-803, 2 x 24-core Skylake-SP; converted
# with httop-ppc2trace --sockets 2 --smt 2): 59 samples, the first at
# time 0 and the last at 57.859492 s, so the header says "of 57.9 s"; 58
# intervals, which is what the header counts (issue 35: it counted samples).
# The replay is paced by the recording (no -d); x1 shows one interval
# per ~1.02 s, so the test pauses at once and moves only by keys.
#   .     one interval forward: N -> N+1, still paused
#   n     the same
#   > <   the speed shown: x1 -> x2 -> x4 -> x2; x1/4 is the floor
#   ]     the last interval, 58/58 (57.9 s of 57.9 s), "end of replay"
#   [     the first interval, 1/58 (1.0 s ...), its figures at once (it
#         showed the first sample alone: 1/59, "figures last 0 s")
#   p     PAUSED in the header; resumed, the position moves on its own
#   > after "already at its minimum": the stale answer goes with the change
#   + -   paced by the recording (no -d) they change nothing: they say so
#   a a   after ], the run's window is the one interval since the jump:
#         "run 0.0372 s" (it said "run 0 s"), then back to "last"
# Outside a replay the keys only say so.
. "$HTTOP_SRCDIR/tests/lib.sh"
. "$HTTOP_SRCDIR/tests/tui/tuilib.sh"
plan 25

export XDG_CONFIG_HOME="$tui_dir/config"
lua=$HTTOP_FIXTURES/real/stampede2-c591-803/c591-803.perfcounts.lua
trace=$tui_dir/c591-803.trace
if [ ! -f "$lua" ]; then
	i=0; while [ $i -lt 25 ]; do skip "no fixture $lua"; i=$((i + 1)); done
	exit 0
fi
"$HTTOP_BUILDDIR/tools/httop-ppc2trace" --sockets 2 --smt 2 "$lua" -o "$trace"
check "the fixture converts to a trace of 59 samples" \
    [ "$(grep -c '^sample ' "$trace")" -eq 59 ]

# The position "N/58": the header's source line.
pos() { cap | sed -n 's/.*source replay \([0-9]*\)\/.*/\1/p' | head -n 1; }

tui_start 160 50 -- --replay "$trace"
if ! wait_for 'source replay [0-9]+/58 ' 10; then
	not_ok "the replay comes up with its length counted"; show_screen
	sed 's/^/# stderr: /' "$tui_dir/stderr"
	i=2; while [ $i -lt 25 ]; do skip "no screen"; i=$((i + 1)); done
	exit 0
fi
ok "the replay comes up with its length counted in intervals (N/58)"
keys p
expect "p: PAUSED in the header" 'source replay .*PAUSED'
settle 10
at=$(pos)
keys .
expect "'.' steps one interval: $at/58 -> $((at + 1))/58" "source replay $((at + 1))/58 "
keys n
expect "'n' steps one more: $((at + 2))/58, still paused" \
    "source replay $((at + 2))/58 .*PAUSED"

expect "x1 at the start" "source replay [0-9]+/58 \([0-9.]+ s of 57\.9 s\) x1 "
keys '>'
expect "'>': x2" "58 \([0-9.]+ s of 57\.9 s\) x2 "
keys '>'
expect "'>' again: x4" "58 \([0-9.]+ s of 57\.9 s\) x4 "
keys '<'
expect "'<': back to x2" "58 \([0-9.]+ s of 57\.9 s\) x2 "
keys '<' '<' '<' '<'
expect "'<' stops at x1/4 and says so" 'already at its minimum \(x1/4\)'
keys '>'
expect "'>' after it: x1/2" "58 \([0-9.]+ s of 57\.9 s\) x1/2 "
if cap | grep -q 'already at its minimum'; then
	not_ok "... and the answer about the minimum is gone"; show_screen
else
	ok "... and the answer about the minimum is gone"
fi
keys '<'
expect "'<': x1/4 again" "58 \([0-9.]+ s of 57\.9 s\) x1/4 "
keys '+'
expect "'+' in a replay paced by its recording says what changes the pace" \
    'a replay keeps its recorded pace: > and < change its speed'

keys ']'
expect "']': the last interval, 58/58 (57.9 s of 57.9 s), end of replay" \
    'source replay 58/58 \(57\.9 s of 57\.9 s\) x1/4 end of replay'
expect "... its interval computed (the node's split shown, not '-')" 'node .*both [0-9]'
keys a a
expect "a a after ']': the run's window is the last interval's 0.0372 s (as the interval's length is shown), not 'run 0 s'" \
    'interval 0\.0372 s +figures run 0\.0372 s '
keys a
expect "a: back to the last interval, its length as the interval's" 'interval 0\.0372 s +figures last 0\.0372 s '
keys .
sleep 0.3
expect "'.' at the end stays at 58/58" 'source replay 58/58 '

keys '['
expect "'[': the first interval, 1/58 (1.0 s of 57.9 s)" \
    'source replay 1/58 \(1\.0 s of 57\.9 s\)'
expect "... its figures at once (the node's split shown, not '-'; no 'figures last 0 s')" \
    'node .*both [0-9]'
if cap | grep -q 'figures last 0 s'; then
	not_ok "... the header's window is the interval's, not 0 s"; show_screen
else
	ok "... the header's window is the interval's, not 0 s"
fi
keys .
expect "'.' after '[': 2/58, the second interval" 'source replay 2/58 \([0-9.]+ s of 57\.9 s\)'

# Resumed at x64 the position moves by itself (about 16 ms an interval).
keys '>' '>' '>' '>' '>' '>' '>' '>' p
expect "p resumes at x64: the replay runs to the end by itself" \
    'source replay 58/58 .*x64 end of replay' 15
keys q
tui_wait_exit 5

# Outside a replay the keys say where they work.
tui_start 120 30 -- --demo -d 0.2
if wait_for ' 1 Cores ' 10; then
	keys ']'
	expect "outside a replay ']' says it works only in a replay" 'only in a replay'
else
	not_ok "the demo comes up"; show_screen
fi
keys q
tui_wait_exit 5
