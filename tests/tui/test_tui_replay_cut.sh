#!/bin/sh
# test_tui_replay_cut.sh: a trace cut off inside a sample (a recorder
# killed in the middle of a write, a copy cut short), replayed in the live
# view: the intervals before the cut are shown, and at the end the status
# line says the trace is cut off and how many intervals were replayed, as
# batch mode says on standard error (the live view said only "end of
# replay": the reader's note was lost in the pacer's look-ahead). The
# same for a gzip recording cut short (the stream stops without its
# trailer: it said nothing), with the cause. A FIFO is refused at once by
# the live view (it reads the trace again to go back), in one line naming
# the fix, not waited on.
. "$HTTOP_SRCDIR/tests/lib.sh"
. "$HTTOP_SRCDIR/tests/tui/tuilib.sh"
need python3 python3
plan 7

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

# A gzip recording cut right after its fifth sample's sync flush (as a
# recorder killed between two intervals leaves it): four intervals.
"$HTTOP" --demo --seed 3 -b -n 4 -d 0.2 --record "$tui_dir/run.trace.gz" >/dev/null 2>&1
python3 - "$tui_dir/run.trace.gz" "$tui_dir/cut.trace.gz" <<'EOF2'
import sys
raw = open(sys.argv[1], "rb").read()
at = raw.rfind(b"\0\0\xff\xff", 0, len(raw) - 8)
open(sys.argv[2], "wb").write(raw[:at + 4])
EOF2
tui_start 200 30 -- --replay "$tui_dir/cut.trace.gz" -d 0.1
check "live, a cut gzip recording: the end of the replay comes" wait_for 'end of replay' 15
check "live: the status line names the cause and what was replayed" \
    wait_for 'the trace ends after sample 5; replayed its 4 intervals; the gzip data stops without its' 5 ||
    show_screen
keys q
tui_wait_exit 10

mkfifo "$tui_dir/fifo"
tui_start 120 30 -- --replay "$tui_dir/fifo"
tui_wait_exit 30
check "live, a FIFO: refused at once, status 1 (status $tui_status)" [ "$tui_status" = 1 ]
check "... one line naming the fix: $(cat "$tui_dir/stderr")" sh -c '[ "$(wc -l <"$1")" -eq 1 ] &&
    grep -q "^httop: .*fifo is a FIFO (a pipe): the live view cannot replay it, as it reads the trace again to go back; save the trace to a file and replay that, or replay the pipe in batch mode (-b)$" "$1"' \
    sh "$tui_dir/stderr"
