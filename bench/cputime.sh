#!/bin/sh
# cputime.sh: what one instruction of httop costs in CPU time on this
# machine, to turn bench/instr.sh's instruction counts into time.
#
#   bench/cputime.sh BUILD MACHINE [K]
#
# Why not the user time of the msr runs: a refresh on the fake device is
# almost all system time (FUSE round trips), and this kernel splits CPU
# time into user and system by sampling ticks (HZ=250), so the user part
# is a few ticks of noise. Worse, on this VM getrusage under-reports CPU
# time: a loop of 1.8 G instructions reports 0.08 s of user time in 0.19 s
# elapsed on an idle machine. So: `httop -b` on the simulator (--source
# sim, same topology), which is CPU-bound (no sleep, no system call per
# refresh), for -n 1 and -n 1+K; the elapsed time of the difference (best
# of 3 runs, which sheds time stolen by other work), over the instructions
# callgrind counts for the same difference (-n 1 and -n 1+K/10). This is
# a rate for httop's own code on this CPU, to turn counts into time.
#
# Last line: ns_per_ir=X sim_us=N (CPU time of one simulated refresh)
set -u
BUILD=$(cd "$1" && pwd) NAME=$2 K=${3:-100}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d) || exit 1
. "$here/lib.sh"
trap 'rm -rf "$work"' EXIT
trap 'exit 1' INT TERM HUP
command -v python3 >/dev/null 2>&1 || { echo "python3 is not installed" >&2; exit 77; }
command -v valgrind >/dev/null 2>&1 || { echo "valgrind is not installed" >&2; exit 77; }

args="--source sim $(machine_args "$NAME") -b -d 1" || exit 1
# cpu N: elapsed seconds of one run of N refreshes, best of 3.
cpu() {
	# shellcheck disable=SC2086
	python3 - "$HTTOP" $args -n "$1" <<'EOF'
import subprocess, sys, time
best = None
for i in range(3):
    t0 = time.monotonic()
    subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, check=True)
    t = time.monotonic() - t0
    best = t if best is None or t < best else best
print(best)
EOF
}
ir() {
	# shellcheck disable=SC2086
	valgrind --tool=callgrind --callgrind-out-file="$work/cg.out" "$HTTOP" $args -n "$1" \
	    >/dev/null 2>"$work/vg.err" </dev/null || { echo "valgrind failed" >&2; exit 1; }
	callgrind_incl "$work/cg.out" TOTAL
}
K2=$((K / 10))
[ "$K2" -ge 1 ] || K2=1
t0=$(cpu 1) && t1=$(cpu $((1 + K))) || exit 1
i0=$(ir 1) && i1=$(ir $((1 + K2))) || exit 1
awk -v t0="$t0" -v t1="$t1" -v i0="$i0" -v i1="$i1" -v K="$K" -v K2="$K2" 'BEGIN {
	t = (t1 - t0) / K; i = (i1 - i0) / K2
	n = 0
	if (i > 0) n = t / i * 1e9
	printf "ns_per_ir=%.3f sim_us=%.1f\n", n, t * 1e6 }'
