#!/bin/sh
# test_record_tui.sh: --record on the screen (the demo in a tmux pane,
# -d 0.05) onto a 64 KiB tmpfs: the disk fills after a dozen samples and
# httop ends with status 1, the terminal as it was, one message on
# standard error naming the file; the file replays the samples it keeps.
. "$HTTOP_SRCDIR/tests/lib.sh"
. "$HTTOP_SRCDIR/tests/tui/tuilib.sh"
plan 4

export XDG_CONFIG_HOME="$tui_dir/config"
m=$tui_dir/m
mkdir "$m"
if ! mount -t tmpfs -o size=64k tmpfs "$m" 2>"$tui_dir/mount.err"; then
	for i in 1 2 3 4; do skip "cannot mount a tmpfs here: $(cat "$tui_dir/mount.err")"; done
	exit 0
fi
trap 'tui_kill; umount "$m"; rm -rf "$tui_dir"' EXIT

tui_start 120 40 -- --demo -d 0.05 --record "$m/tui.trace"
if tui_wait_exit 60; then
	check "a full disk ends the screen with status 1 (got $tui_status)" [ "$tui_status" = 1 ]
else
	not_ok "httop did not stop on a full disk"
fi
check "the terminal is as it was" tui_restored
diag "$(cat "$tui_dir/stderr")"
check "one message: the file, ENOSPC, the fix" sh -c '[ "$(wc -l <"$1")" -eq 1 ] &&
    grep -q "tui.trace: No space left on device: free some space" "$1"' sh "$tui_dir/stderr"
kept=$(sed -n 's/.*keeps its first \([0-9]*\) samples.*/\1/p' "$tui_dir/stderr")
"$HTTOP" --replay "$m/tui.trace" -b --format csv >"$tui_dir/r.csv" 2>"$tui_dir/r.err"; st=$?
check "the file replays its $kept samples: $((kept - 1)) intervals" sh -c \
    '[ "$1" -eq 0 ] && [ ! -s "$2" ] && [ "$(grep -c "^node," "$3")" -eq $(($4 - 1)) ]' \
    sh "$st" "$tui_dir/r.err" "$tui_dir/r.csv" "${kept:-0}"
exit 0
