#!/bin/sh
# test_tui_replay_cut.sh: a trace cut off inside a sample (a recorder
# killed in the middle of a write, a copy cut short), replayed in the live
# view: the intervals before the cut are shown, and at the end the status
# line says the trace is cut off and how many intervals were replayed, as
# batch mode says on standard error (the live view said only "end of
# replay": the reader's note was lost in the pacer's look-ahead).
. "$HTTOP_SRCDIR/tests/lib.sh"
. "$HTTOP_SRCDIR/tests/tui/tuilib.sh"
plan 3

export XDG_CONFIG_HOME="$tui_dir/config"
export HTTOP_CLOCK=virtual
trace=$tui_dir/run.trace
cut=$tui_dir/cut.trace
"$HTTOP" --demo --seed 3 -b -n 4 -d 0.2 --record "$trace" >/dev/null 2>&1
# Cut in the middle of the fifth sample's lines: four samples whole,
# three intervals.
line=$(grep -n '^sample seq=' "$trace" | sed -n '5p' | cut -d: -f1)
head -n $((line + 3)) "$trace" >"$cut"
printf 'c 9 ok 12' >>"$cut"
"$HTTOP" --replay "$cut" -b --format json >"$tui_dir/b.json" 2>"$tui_dir/b.err"
check "batch: three intervals, and standard error says where it is cut ($(cat "$tui_dir/b.err"))" \
    sh -c '[ "$(wc -l <"$1")" -eq 3 ] && grep -q "cut off inside sample 5; replayed the 3 intervals" "$2"' \
    sh "$tui_dir/b.json" "$tui_dir/b.err"

tui_start 120 30 -- --replay "$cut" -d 0.1
check "live: the end of the replay comes" wait_for 'end of replay' 15
check "live: the status line says the trace is cut off and what was replayed" \
    wait_for 'cut off inside sample 5; replayed the 3 intervals' 5 || show_screen
keys q
tui_wait_exit 10
