#!/bin/sh
# instr.sh: instructions per refresh (callgrind) of httop's msr source on
# the fake device, for one simulated machine.
#
#   bench/instr.sh BUILD MACHINE batch|tui [K]
#
# batch: `httop -b` with -n 1 and -n 1+K on a fresh device each (--step
#   clock, so both runs see the same counter values); the difference of the
#   inclusive counts of source_read and metrics_compute, over K, is the
#   reading and computing of one refresh; TOTAL is the whole process
#   (the batch text output included).
# tui: the same in a 200 x 60 tmux pane without -b (-n 2 and -n 2+K, so the
#   first frame's full paint cancels): the reading, metrics_compute,
#   history_add, history_compute and tui_draw.
# The figures are deterministic: callgrind counts user-space instructions,
# the kernel and the FUSE device are outside.
#
# Last line: read=N metrics=N history=N draw=N total=N (per refresh)
set -u
BUILD=$(cd "$1" && pwd) NAME=$2 MODE=$3 K=${4:-5}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d) || exit 1
. "$here/lib.sh"
trap 'tm_stop; fake_umount; rm -rf "$work"' EXIT
trap 'exit 1' INT TERM HUP
command -v valgrind >/dev/null 2>&1 || { echo "valgrind is not installed" >&2; exit 77; }

FUNCS="source_read metrics_compute history_add history_compute tui_draw TOTAL"
VG="valgrind --tool=callgrind --callgrind-out-file=$work/cg.out"

# measure N: the inclusive counts of FUNCS for a run of N refreshes.
measure() {
	fake_mount "$NAME" --scenario demo --step 0.05 || exit 1
	rm -f "$work/cg.out"
	if [ "$MODE" = batch ]; then
		# shellcheck disable=SC2046
		$VG "$HTTOP" $(msr_args "$NAME") -b -d 0.05 -n "$1" >/dev/null 2>"$work/vg.err"
	else
		pane_start 200 60 "$VG $HTTOP $(msr_args "$NAME") -d 0.05 -n $1 2>$work/vg.err" || exit 1
		pane_go
		pane_wait_done 300 || { echo "httop under valgrind did not end" >&2; exit 1; }
	fi
	tm_stop
	[ -s "$work/cg.out" ] || { echo "no callgrind output: $(tail -5 "$work/vg.err")" >&2; exit 1; }
	# shellcheck disable=SC2086
	callgrind_incl "$work/cg.out" $FUNCS | tr '\n' ' '
	fake_umount
}

# In this shell, not in $(...): an exit in a subshell would skip the EXIT
# trap that unmounts the device and stops tmux, and lose its state.
if [ "$MODE" = batch ]; then n0=1; else n0=2; fi
measure $n0 >"$work/a" || exit 1
measure $((n0 + K)) >"$work/b" || exit 1
a=$(cat "$work/a") b=$(cat "$work/b")
[ "$(echo $a | wc -w)" -eq 6 ] && [ "$(echo $b | wc -w)" -eq 6 ] ||
	{ echo "callgrind counts missing: '$a' '$b'" >&2; exit 1; }
echo "$a" "$b" | awk -v K="$K" '{
	h = NF / 2
	for (i = 1; i <= h; i++) d[i] = ($(i + h) - $i) / K
	printf "read=%.0f metrics=%.0f history=%.0f draw=%.0f total=%.0f\n",
	    d[1], d[2], d[3] + d[4], d[5], d[6] }'
