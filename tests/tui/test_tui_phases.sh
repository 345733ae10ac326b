#!/bin/sh
# test_tui_phases.sh: HTTOP_PHASE_TIMES=1 (bench/draw-cpu.sh) makes the
# live view say at exit, on standard error, how much CPU time its
# refreshes spent reading, computing and drawing; without it, nothing.
# Batch mode (-b) says the same, drawing being writing the output.
. "$HTTOP_SRCDIR/tests/lib.sh"
. "$HTTOP_SRCDIR/tests/tui/tuilib.sh"
plan 7

export XDG_CONFIG_HOME="$tui_dir/config"
RE='^httop: phase times: refreshes=([0-9]+) read_s=([0-9.]+) compute_s=([0-9.]+) draw_s=([0-9.]+)$'

tui_start 120 40 HTTOP_PHASE_TIMES=1 -- --demo -d 0.05 -n 6
tui_wait_exit 30
check "with HTTOP_PHASE_TIMES=1: exit 0 after -n 6 (got $tui_status)" [ "$tui_status" = 0 ]
diag "$(cat "$tui_dir/stderr")"
check "one line of phase times on standard error" \
    [ "$(grep -Ec "$RE" "$tui_dir/stderr")" -eq 1 ]
check "6 refreshes, each phase a positive time, drawing more than computing" \
    awk -v re="$RE" '$0 ~ /^httop: phase times/ {
	for (i = 4; i <= 7; i++) { split($i, kv, "="); v[i] = kv[2] }
	ok = v[4] == 6 && v[5] > 0 && v[6] > 0 && v[7] > 0 && v[7] > v[6] }
	END { exit !ok }' "$tui_dir/stderr"

tui_start 120 40 -- --demo -d 0.05 -n 3
tui_wait_exit 30
check "without it: exit 0 (got $tui_status)" [ "$tui_status" = 0 ]
check "without it: no phase times" sh -c '! grep -q "phase times" "$1"' sh "$tui_dir/stderr"

# With -b the same line: 4 refreshes of the demo; "draw" is writing JSON.
HTTOP_PHASE_TIMES=1 "$HTTOP" --demo -b -n 4 -d 0.05 --format json >"$tui_dir/b.json" \
    2>"$tui_dir/b.err"
check "-b: 4 refreshes, each phase a positive time" \
    awk '$0 ~ /^httop: phase times/ {
	for (i = 4; i <= 7; i++) { split($i, kv, "="); v[i] = kv[2] }
	ok = v[4] == 4 && v[5] > 0 && v[6] > 0 && v[7] > 0 }
	END { exit !ok }' "$tui_dir/b.err"
check_schema "$tui_dir/b.json"
