#!/bin/sh
# test_fakemsr_skx.sh: httop's msr source on the fake MSR device of a
# 2-socket Skylake-SP (skx-6140 topology, 6154 CPUID: 36 cores, CPUs 0-35
# are thread 0 and 36-71 thread 1 of the same cores). Checks the exact
# encodings written, the accuracy of the split against the simulator's
# truth, and that every register is back to its value before httop,
# including values another program had set, with counters started near
# the 48-bit wrap.
. "${HTTOP_SRCDIR:-.}/tests/cli/fakemsrlib.sh"

plan 12

# Steady duty cycles with a 200 us period, so any 0.2 s interval has the
# shares of the period (within 200us/0.2s = 0.1%):
# cores 0-11: each thread 60% active, half a period apart: both when they
#   overlap, 0.6 + 0.6 - 1 = 0.2; t0 only 0.4; t1 only 0.4; neither 0.
# cores 12-23: t0 50%, t1 25%, in phase: both 0.25, t0 only 0.25, neither 0.5.
# cores 24-35: t0 always busy, t1 idle: t0 only 1.
cat >"$work/steady.scn" <<'EOF'
httop-scenario 1
default idle
thread 0 of cores 0-11 duty duty=0.6 period=200us phase=0
thread 1 of cores 0-11 duty duty=0.6 period=200us phase=0.5
thread 0 of cores 12-23 duty duty=0.5 period=200us
thread 1 of cores 12-23 duty duty=0.25 period=200us
thread 0 of cores 24-35 busy
EOF

# Counters start 2^48 - 2^16 ticks: they wrap within microseconds.
fake_mount "$SKX_XML" "$SKX_CPUID" --scenario "$work/steady.scn" --step 0.2 \
    --counters-start 0xFFFFFFFF0000

# Another program's settings that are not "busy" (outside the busy masks):
# PMC1 enabled in GLOBAL_CTRL on CPU 1, the PMI bit of fixed counter 0 on
# CPU 2, and PERFEVTSEL1 (not httop's) on CPU 40.
ctl poke 1 0x38F 0x2 >/dev/null
ctl poke 2 0x38D 0x8 >/dev/null
ctl poke 40 0x187 0x41003c >/dev/null
ctl dump >"$work/before"

if httop_msr "$SKX_XML" "$SKX_CPUID" -b -n 3 -d 0.2 --format json >"$work/out.json" \
    2>"$work/err"; then
	ok "httop -b -n 3 over the fake device exits 0"
else
	not_ok "httop -b -n 3 over the fake device exits 0"
	sed 's/^/# /' "$work/err"
fi
check "three JSON intervals" test "$(jq -s length "$work/out.json" 2>/dev/null)" = 3
check_schema "$work/out.json"

# FIXED_CTR_CTRL = 0x333 (fixed 0-2, OS+USR) on every CPU.
check "0x38D = 0x333 on all 72 CPUs" \
    test "$(log_cpus 0x38d 0x333)" = "$(seq_list 0 71)"
# PERFEVTSEL0 = 0x0063013C (REF_XCLK with USR, OS, ANY, EN) on thread 0 only.
check "0x186 = 0x63013c on CPUs 0-35 (thread 0) only" \
    test "$(log_cpus 0x186 0x63013c)" = "$(seq_list 0 35)"
check "no write to 0x186 on thread-1 CPUs" \
    test -z "$(ctl log | awk '$2 == "0x186" && $1 >= 36')"
# PERF_GLOBAL_CTRL: bits 0 and 32-34 set on every CPU (the calibration plan
# and the main plan both write it); CPU 1 keeps its bit 1.
cpus=$(ctl log | awk '$2 == "0x38f" { print $1, $3 }' | while read -r cpu val; do
	[ $((val & 0x700000001)) -eq $((0x700000001)) ] && echo "$cpu"
done | sort -n | uniq)
check "0x38F has bits 0 and 32-34 on all 72 CPUs" test "$cpus" = "$(seq_list 0 71)"
check "0x38F on CPU 1 keeps the other program's bit 1 (0x700000003)" \
    test -n "$(log_cpus 0x38f 0x700000003 | grep -x 1)"

ctl dump >"$work/after"
if cmp -s "$work/before" "$work/after"; then
	ok "every register is back to its value before httop"
else
	not_ok "every register is back to its value before httop"
	diff "$work/before" "$work/after" | sed 's/^/# /'
fi
check "the pre-set values are in the dump" test "$(wc -l <"$work/before")" -eq 3

# Accuracy: httop's shares against the simulator's truth, 0.5% of the
# interval. The truth is cumulative since the mount; the scenario is steady.
truth_file 36 "$work/truth"
res=$(split_vs_truth "$work/out.json" "$work/truth" 0.005)
st=$?
diag "$res"
nvalid=$(echo "$res" | awk '/^checked/ { print $2 }')
# With --step the device's time does not depend on how busy this machine
# is: every one of the 3 x 36 core-intervals must be valid and right.
if [ $st -eq 0 ] && [ "${nvalid:-0}" -eq 108 ]; then
	ok "split within 0.5% of the truth on $nvalid valid core-intervals"
else
	not_ok "split within 0.5% of the truth on $nvalid valid core-intervals"
	echo "$res" | sed 's/^/# /'
fi
# The truth itself is the analytic split of the scenario (see above).
t0=$(sed -n 1p "$work/truth") t12=$(sed -n 13p "$work/truth") t30=$(sed -n 31p "$work/truth")
diag "truth: $t0 / $t12 / $t30"
check "the truth is the scenario's split (0 .4 .4 .2 / .5 .25 0 .25 / 0 1 0 0)" \
    awk -v a="$t0" -v b="$t12" -v c="$t30" 'BEGIN {
	split(a, x, " "); split(b, y, " "); split(c, z, " ")
	split("0 0.4 0.4 0.2", ex, " "); split("0.5 0.25 0 0.25", ey, " "); split("0 1 0 0", ez, " ")
	for (k = 1; k <= 4; k++) {
		d = x[k + 1] - ex[k]; if (d < 0) d = -d; if (d > 0.002) exit 1
		d = y[k + 1] - ey[k]; if (d < 0) d = -d; if (d > 0.002) exit 1
		d = z[k + 1] - ez[k]; if (d < 0) d = -d; if (d > 0.002) exit 1
	}
    }'
exit 0
