#!/bin/sh
# time-limit: 1800 (tests/tap-run: callgrind runs and the fake device take minutes)
# test_bench_gate.sh: the CI gate of the benchmarks. Runs bench/run.sh
# --short: the deterministic counts (MSR reads and writes per refresh on
# the four simulated machines, callgrind instructions per refresh of
# reading + metrics and of drawing on the 96-CPU one) and the ratios of
# bench/targets.py (instruction counts of two runs, or timings of two
# things measured in turns in one run, the median of 5 rounds: never an
# absolute time), and fails when a figure
# is more than 20% above bench/baseline.txt. A figure that drops a little
# is news for the baseline, not a failure; one that drops below half of it
# is a broken measurement and fails.
. "$HTTOP_SRCDIR/tests/lib.sh"

if grep -q '^SAN_CFLAGS = .*-fsanitize' "$HTTOP_BUILDDIR/Makefile" 2>/dev/null; then
	skip_all "sanitizer build: instruction counts are the plain build's"
fi
need valgrind valgrind
need tmux tmux
need lstopo hwloc
need fusermount3 fuse3
[ -x "$HTTOP_BUILDDIR/tests/fakemsr/fakemsr" ] ||
	skip_all "the fake MSR device was not built: configure found no fuse3 (Debian: libfuse3-dev)"
need python3 python3
need gzip gzip
if [ ! -e /dev/fuse ] || [ "$(id -u)" -ne 0 ]; then
	skip_all "the fake MSR device needs root and /dev/fuse"
fi

base="$HTTOP_SRCDIR/bench/baseline.txt"
out=$(FIXTURES="$HTTOP_FIXTURES" sh "$HTTOP_SRCDIR/bench/run.sh" --short "$HTTOP_BUILDDIR" 2>&1)
st=$?
keys=$(awk '!/^#/ && NF >= 2 { print $1 }' "$base")
plan $(( $(printf '%s\n' $keys | wc -l) + 1 ))
printf '%s\n' "$out" | sed 's/^/# /'
check "bench/run.sh --short ran (status $st)" [ "$st" -eq 0 ]
# A figure must also be there and not fall to nothing: a count far below
# the baseline means the measurement broke (a pane that never ran), not
# that httop got faster by half.
for k in $keys; do
	b=$(awk -v k="$k" '$1 == k { print $2 }' "$base")
	v=$(printf '%s\n' "$out" | awk -v k="$k" '$1 == k { print $2 }')
	# A ratio that needs a tool this machine lacks (htop, valgrind) is
	# "unmeasurable: why": skipped, with the reason.
	if [ "$v" = "unmeasurable:" ]; then
		skip "$k: $(printf '%s\n' "$out" | sed -n "s/^$k unmeasurable: //p")"
		continue
	fi
	# A figure that depends on the machine more than on httop (htop's own
	# cost grows with the processes it lists) is gated by its goal instead
	# ("goal=G" after the baseline): at most G.
	g=$(awk -v k="$k" '$1 == k && $3 ~ /^goal=/ { sub(/^goal=/, "", $3); print $3 }' "$base")
	if [ -n "$g" ]; then
		check "$k: ${v:-none}, at most the goal $g (baseline $b on the machine that set it)" \
		    awk -v v="${v:-x}" -v g="$g" 'BEGIN { exit !(v ~ /^[0-9.]+$/ && v > 0 && v <= g) }'
		continue
	fi
	check "$k: ${v:-none}, baseline $b, at most +20% (and over half of it)" \
	    awk -v v="${v:-x}" -v b="$b" 'BEGIN { exit !(v ~ /^[0-9.]+$/ && v <= b * 1.2 &&
	        (b == 0 || v > b * 0.5)) }'
done
