#!/bin/sh
# draw-cpu.sh: CPU time per refresh of httop's live view, by phase, on the
# fake device of one simulated machine, in a 200 x 60 tmux pane.
#
#   bench/draw-cpu.sh BUILD MACHINE [K] [ROUNDS]
#
# httop with HTTOP_PHASE_TIMES=1 sums its thread's CPU time (the
# scheduler's clock, in ns) spent in reading (source_read), computing
# (metrics_compute, history_add) and drawing (tui_draw, the terminal write
# included) and says it at exit. Runs of -n 11 and -n 11+K (-d 0.05 on a
# --step 0.05 device), the difference over K: start-up and the first full
# paint cancel. ROUNDS (default 3) such pairs, in turns (short, long, long,
# short, ...), each giving one difference; min and median of them. A
# difference at or below zero means the noise is larger than the figure:
# it is printed as unmeasurable. Reading here includes the FUSE round
# trips of the fake device (kernel time; bench/refresh-cpu.sh measures the
# user-space part); drawing is what a node would spend too.
#
# Last line: read_us=MIN/MEDIAN compute_us=MIN/MEDIAN draw_us=MIN/MEDIAN
# (per refresh), or unmeasurable for a figure
set -u
BUILD=$(cd "$1" && pwd) NAME=$2 K=${3:-30} R=${4:-3}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d) || exit 1
. "$here/lib.sh"
trap 'tm_stop; fake_umount; rm -rf "$work"' EXIT
trap 'exit 1' INT TERM HUP
command -v tmux >/dev/null 2>&1 || { echo "tmux is not installed" >&2; exit 77; }

# measure N: "refreshes read_s compute_s draw_s" of a run of N refreshes.
measure() {
	fake_mount "$NAME" --scenario demo --step 0.05 || exit 1
	rm -f "$work/ph.err"
	pane_start 200 60 "env HTTOP_PHASE_TIMES=1 $HTTOP $(msr_args "$NAME") -d 0.05 -n $1 2>$work/ph.err" || exit 1
	pane_go
	pane_wait_done 120 || { echo "httop did not end" >&2; exit 1; }
	tm_stop
	sed -n 's/^httop: phase times: refreshes=\([0-9]*\) read_s=\([0-9.]*\) compute_s=\([0-9.]*\) draw_s=\([0-9.]*\)$/\1 \2 \3 \4/p' \
	    "$work/ph.err" | grep . || { echo "no phase times: $(cat "$work/ph.err")" >&2; exit 1; }
	fake_umount
}
# In this shell, not in $(...): see bench/instr.sh.
: >"$work/diffs"
i=0
while [ $i -lt "$R" ]; do
	if [ $((i % 2)) -eq 0 ]; then
		measure 11 >"$work/a" || exit 1
		measure $((11 + K)) >"$work/b" || exit 1
	else
		measure $((11 + K)) >"$work/b" || exit 1
		measure 11 >"$work/a" || exit 1
	fi
	echo "$(cat "$work/a") $(cat "$work/b")" | awk '{
		k = $5 - $1
		printf "%.3f %.3f %.3f\n", ($6 - $2) / k * 1e6, ($7 - $3) / k * 1e6, ($8 - $4) / k * 1e6 }' \
	    >>"$work/diffs"
	i=$((i + 1))
done
# min/median of column C, or unmeasurable when one round is not positive.
mm() {
	sort -n -k "$1" "$work/diffs" | awk -v c="$1" '
	    { v[NR] = $c } END {
		if (v[1] <= 0) { print "unmeasurable"; exit }
		printf "%.1f/%.1f\n", v[1], (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
sed "s/^/# round: /" "$work/diffs" >&2
echo "read_us=$(mm 1) compute_us=$(mm 2) draw_us=$(mm 3)"
