#!/bin/sh
# run.sh: httop's benchmarks (`make bench`), or their short version for the
# CI gate.
#
#   bench/run.sh BUILD          the full set; tables on standard output
#   bench/run.sh --short BUILD  "key value" lines, the figures bench/baseline.txt
#                               holds: reads, writes and instructions per
#                               refresh (deterministic), and the ratios of
#                               bench/targets.py --short (medians of runs in
#                               turns)
#
# Every figure comes from one of the scripts next to this one; each says
# how it measures. Every timing is a ratio or a difference of runs made in
# turns in this one run, repeated, and printed as min/median; one that
# cannot be measured says "unmeasurable". Machines: bench/lib.sh. Needs
# root and /dev/fuse (the fake MSR device), tmux, valgrind, strace,
# python3, lstopo; htop for its row and its ratio.
set -u
short=
[ "${1:-}" = --short ] && { short=1; shift; }
BUILD=$(cd "${1:?usage: $0 [--short] BUILD}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d) || exit 1
. "$here/lib.sh"
trap 'rm -rf "$work"' EXIT
trap 'exit 1' INT TERM HUP

# kv LINE KEY: the value of KEY=... in LINE.
kv() { printf '%s\n' "$1" | tr ' ' '\n' | sed -n "s/^$2=//p" | head -n 1; }
# lastline CMD...: the last line CMD prints, and CMD's own exit status (a
# pipe into tail would hide a failed measurement behind tail's success).
lastline() {
	_out=$("$@") || return 1
	printf '%s\n' "$_out" | tail -n 1
}

if [ -n "$short" ]; then
	# One refresh more is enough: the counts are exact.
	for m in $MACHINES; do
		l=$(lastline env NOSTRACE=1 sh "$here/reads.sh" "$BUILD" "$m" 1) || exit 1
		echo "reads_$m $(kv "$l" reads)"
		echo "writes_$m $(kv "$l" writes)"
	done
	l=$(lastline sh "$here/instr.sh" "$BUILD" skx96 batch 3) || exit 1
	echo "ir_read_metrics_skx96 $(( $(kv "$l" read) + $(kv "$l" metrics) ))"
	l=$(lastline sh "$here/instr.sh" "$BUILD" skx96 tui 3) || exit 1
	echo "ir_draw_skx96 $(kv "$l" draw)"
	l=$(lastline sh "$here/nodes-instr.sh" "$BUILD" 256) || exit 1
	echo "ir_node_line_srun $(kv "$l" line)"
	echo "ir_node_first_line_srun $(kv "$l" first)"
	FIXTURES="$FIXTURES" python3 "$here/targets.py" "$BUILD" --short --rounds 5 || exit 1
	exit 0
fi

echo "httop benchmarks, $(date -u +%Y-%m-%d), $(uname -m), $(nproc) CPUs:" \
    "$(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n 1)," \
    "load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "msr source on the FUSE fake MSR device; screens 200 x 60 in tmux"
echo
echo "Counts (deterministic)"
printf '%-8s %5s | %6s %6s %6s %5s %4s | %9s %9s %9s %7s\n' \
    machine cpus reads writes turbo span frgn "Ir rd+met" "Ir/cpu" "Ir draw" "us@1ns"
for m in $MACHINES; do
	n=$(machine_cpus "$m")
	r=$(lastline sh "$here/reads.sh" "$BUILD" "$m" 10) || exit 1
	i=$(lastline sh "$here/instr.sh" "$BUILD" "$m" tui 5) || exit 1
	rm=$(( $(kv "$i" read) + $(kv "$i" metrics) + $(kv "$i" history) ))
	printf '%-8s %5s | %6s %6s %6s %5s %4s | %9s %9s %9s %7s\n' \
	    "$m" "$n" "$(kv "$r" reads)" "$(kv "$r" writes)" "$(kv "$r" turbostat)" \
	    "$(kv "$r" span)" "$(kv "$r" foreign)" \
	    "$rm" "$(calc "int($rm / $n)")" "$(kv "$i" draw)" "$(calc "int($rm / $n) / 1000")"
done
echo
echo "Timings: min/median over runs made in turns (each script's head says how)"
# The first frames: every machine and htop started in turns, 3 rounds.
screens=$(sh "$here/screen.sh" "$BUILD" "$MACHINES htop" 1 3 2>/dev/null) || exit 1
printf '%-8s | %15s %15s | %13s %13s | %9s %9s %9s | %6s | %5s %5s %6s\n' \
    machine "us/cpu warm" "us/cpu cold" "draw us" "read us" "1st ms" "/syn2" "fig ms" \
    "RSS kB" "B/ref" full ratio
for m in $MACHINES htop; do
	s=$(printf '%s\n' "$screens" | grep "^$m ") || s=
	if [ "$m" = htop ]; then
		c= d=
		b=$(lastline sh "$here/bytes.sh" "$BUILD" htop) || b=
		warm=- cold=-
	else
		c=$(lastline sh "$here/refresh-cpu.sh" "$BUILD" "$m") || exit 1
		d=$(lastline sh "$here/draw-cpu.sh" "$BUILD" "$m" 2>/dev/null) || exit 1
		b=$(lastline sh "$here/bytes.sh" "$BUILD" "$m") || exit 1
		warm="$(kv "$c" us_per_cpu_best)/$(kv "$c" us_per_cpu_median)"
		cold="$(kv "$c" us_per_cpu_cold)/$(kv "$c" us_per_cpu_cold_median)"
		case $cold in unmeasurable/*) cold=unmeasurable ;; esac
	fi
	printf '%-8s | %15s %15s | %13s %13s | %9s %9s %9s | %6s | %5s %5s %6s\n' \
	    "$m" "$warm" "$cold" "$(kv "$d" draw_us)" "$(kv "$d" read_us)" \
	    "$(kv "$s" first_ms)" "$(kv "$s" first_vs_syn2)" "$(kv "$s" figures_ms)" \
	    "$(kv "$s" rss_kb)" "$(kv "$b" per_refresh)" "$(kv "$b" full)" "$(kv "$b" ratio)"
done
# The bytes at other sizes, on the largest machine (target: under a
# quarter of a full repaint at every size).
echo
printf 'syn1024 bytes per refresh by pane size:'
for sz in 160x50 80x24 40x12; do
	b=$(lastline sh "$here/bytes.sh" "$BUILD" syn1024 10 "${sz%x*}" "${sz#*x}") || b=
	printf '  %s %s/%s = %s' "$sz" "$(kv "$b" per_refresh)" "$(kv "$b" full)" "$(kv "$b" ratio)"
done
echo
cat <<EOF

reads, writes: MSR accesses per refresh in steady state (fake device's counts)
turbo: turbostat's model, one read per counter per CPU, for the same counters
span: most reads from a core's first to its last read in one refresh (its
  own reads when read back to back); frgn: other cores' reads inside that span
Ir rd+met: instructions per refresh in source_read, metrics_compute and the
  history (callgrind, live view); Ir draw: in tui_draw; us@1ns: Ir rd+met
  per CPU at a flat 1 ns per instruction (a conservative bound)
us/cpu warm: CPU time of reading + metrics per refresh per CPU, measured with
  no system call in the timed loop (bench/refresh-cpu.sh, passes: min/median);
  cold: the same with the caches flushed before each refresh (5 passes;
  unmeasurable when the clock's noise exceeds the figure); draw us, read us:
  CPU time of drawing one refresh (the terminal write included) and of
  reading it, in the live view: the difference of runs of 11 and 41
  refreshes, 3 pairs in turns (bench/draw-cpu.sh; reading includes the fake
  device's FUSE round trips)
1st ms: start to the first frame (header, views, cores marked "no previous
  sample yet"), the machines and htop started in turns, 3 rounds; /syn2: the
  ratio to syn2's start in the same round; fig ms: to the first figures (-d
  1: 0.1 s calibration and a 0.25 s first interval by design); RSS: VmHWM
  after 3 s; B/ref: terminal bytes per refresh, full: one full repaint
  (Ctrl-L), ratio: B/ref / full (counts of bytes: one run each)
htop: this VM's $(nproc) CPUs, htop -d 10, same pane

EOF
FIXTURES="$FIXTURES" python3 "$here/targets.py" "$BUILD" --rounds 5

# The live view over 512 nodes (issue 17; bench/nodes-scale.sh says how):
# the first full frame is wall time, so it is measured here and not in
# make check (tests/bench/test_nodes_scale.sh gates the CPU and memory).
echo
if command -v tmux >/dev/null 2>&1 && command -v python3 >/dev/null 2>&1; then
	sh "$here/nodes-scale.sh" "$BUILD" 512 3 20 | tail -n 1
	echo "targets: first full frame 2 s, cpu 5 % of one CPU, peak memory 64 MB"
	l=$(lastline sh "$here/nodes-instr.sh" "$BUILD" 256) && echo "instructions per node line (bench/nodes-instr.sh): $l"
	# One srun stream (issue 37): 4,096 nodes' CPU at -d 1, 16,384
	# nodes' CPU, first full frame and memory at -d 4, each against its
	# target (bench/nodes-targets.sh says how).
	echo
	sh "$here/nodes-targets.sh" "$BUILD" 3 20
else
	echo "nodes at scale: not measured (needs tmux and python3)"
fi

# The Slurm epilog (issue 34): how long it takes once the job is over, and
# where the record's whole job ends (bench/epilog.sh says how). A wall
# time: measured here, not in make check.
echo
if command -v python3 >/dev/null 2>&1; then
	sh "$here/epilog.sh" "$BUILD" 5 | tail -n 1
	echo "target: the epilog returns within 1 s (the record's end within 0.5 s of its signal)"
else
	echo "the Slurm epilog: not measured (needs python3)"
fi

# The scheduler source (issue 27): its cost under a switching load and a
# flood beyond its rings (bench/sched.py says how).
echo
if [ "$(id -u)" = 0 ] && command -v lstopo-no-graphics >/dev/null 2>&1; then
	python3 "$here/sched.py" "$BUILD" 3
else
	echo "scheduler source: not measured (needs root and lstopo-no-graphics)"
fi

# bench_whole: the whole cost of watching switches (issue 37): no monitor,
# the floor (an empty bpftrace program), perf record, httop's sched and
# bpf sources with and without a job by cgroup, side by side in one run,
# as markdown rows for BENCHMARKS.md, and its targets' verdicts
# (bench/whole.py says how). Its status is make bench's: 1 when a target
# is not met. HTTOP_BENCH_WHOLE_ROUNDS: its rounds (default 20, about 22 minutes:
# BENCHMARKS.md's figure is python3 bench/whole.py BUILD 20).
bench_whole() {
	echo
	if [ "$(id -u)" != 0 ]; then
		echo "whole cost (issue 37): not measured: needs root"
		return 0
	fi
	if ! command -v lstopo-no-graphics >/dev/null 2>&1; then
		echo "whole cost (issue 37): not measured: needs lstopo-no-graphics"
		return 0
	fi
	python3 "$here/whole.py" "$BUILD" "${HTTOP_BENCH_WHOLE_ROUNDS:-20}"
}
status=0
bench_whole || status=1
[ "$status" -eq 0 ] || echo "make bench: a target above is NOT met (or bench/whole.py failed: its message above)"
exit "$status"
