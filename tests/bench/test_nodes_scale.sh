#!/bin/sh
# test_nodes_scale.sh: 512 simulated nodes (bench/nodes-scale.sh: recorded
# JSON streams replayed by bench/replay-nodes.py, one `cat` a node) in the
# live view: every node comes up and is shown whole, the viewer's CPU at
# -d 1 under 5% of one CPU and its peak memory under 64 MB (issue 17's
# targets; the CPU, its own process time, is about 1.6% here:
# BENCHMARKS.md). The time to the first full frame is wall time, which
# depends on the machine being otherwise quiet (0.6-0.8 s on an idle
# 2-CPU VM; 5.5 s while two builds ran beside it): it is printed here, and
# measured against its 2 s target by make bench (bench/run.sh runs
# bench/nodes-scale.sh), not asserted (make check asserts no wall time).
# None depends on hwloc: the viewer of many nodes loads no topology.
# 4-5: 4,096 nodes through ONE srun-like stream (VIA=srun, issue 37):
# they come up whole, and the viewer's peak memory is at most 66 MB, the
# line from its fixed part (about 3 MB) to 256 MB at 16,384 nodes (15.4
# KB a node): a node not shown keeps its machine and aggregates, not its
# interval's cores and threads (48 KB a node before: 252 MB here). Its
# CPU is printed, and gated by make bench (BENCHMARKS.md).
. "$HTTOP_SRCDIR/tests/lib.sh"
need tmux tmux
need python3 python3
# AddressSanitizer's shadow memory and quarantine triple the resident
# size: memory is gated in the plain build only.
san=false
grep -q '^SAN_CFLAGS = .*-fsanitize' "$HTTOP_BUILDDIR/Makefile" 2>/dev/null && san=true
plan 5
out=$(sh "$HTTOP_SRCDIR/bench/nodes-scale.sh" "$HTTOP_BUILDDIR" 512 1 5 2>&1)
printf '%s\n' "$out" | sed 's/^/# /'
line=$(printf '%s\n' "$out" | grep '^round 1: nodes ')
first=$(echo "$line" | sed -n 's/.* first_frame \([0-9.]*\) s .*/\1/p')
mem=$(echo "$line" | sed -n 's/.* peak_rss \([0-9.]*\) MB .*/\1/p')
cpu=$(echo "$line" | sed -n 's/.* httop_cpu \([0-9.]*\) % .*/\1/p')
check "512 nodes came up and were shown whole (first full frame: ${first:-never})" [ -n "$first" ]
diag "first full frame: ${first:-never} s (not asserted: make bench measures it)"
if $san; then
	skip "CPU ($cpu %) is gated in the plain build: this is a sanitizer build"
else
	check "the viewer's CPU at -d 1 under 5% of one CPU: $cpu %" \
	    awk -v c="${cpu:-999}" 'BEGIN { exit !(c < 5) }'
fi
if $san; then
	skip "peak memory ($mem MB) is gated in the plain build: this is a sanitizer build"
else
	check "peak memory under 64 MB: $mem MB" awk -v m="${mem:-999}" 'BEGIN { exit !(m < 64) }'
fi
out=$(VIA=srun sh "$HTTOP_SRCDIR/bench/nodes-scale.sh" "$HTTOP_BUILDDIR" 4096 1 3 2>&1)
printf '%s\n' "$out" | sed 's/^/# /'
line=$(printf '%s\n' "$out" | grep '^round 1: nodes ')
first=$(echo "$line" | sed -n 's/.* first_frame \([0-9.]*\) s .*/\1/p')
mem=$(echo "$line" | sed -n 's/.* peak_rss \([0-9.]*\) MB .*/\1/p')
check "4096 nodes in one srun stream came up and were shown whole (first full frame: ${first:-never})" \
    [ -n "$first" ]
if $san; then
	skip "peak memory ($mem MB) is gated in the plain build: this is a sanitizer build"
else
	check "4096 nodes in one srun stream: peak memory at most 66 MB: $mem MB" \
	    awk -v m="${mem:-999}" 'BEGIN { exit !(m <= 66) }'
fi
exit 0
