#!/bin/sh
# test_fakemsr_spr.sh: httop's msr source on the fake MSR device of a
# 2-socket Sapphire Rapids (spr-max9460 topology: 80 cores, 160 CPUs; CPUID
# of a W9-3475X, the same family 6 model 0x8F). No AnyThread there: the
# plan puts ONE_THREAD_ACTIVE (event 0x3C umask 0x02, USR+OS+EN =
# 0x43023C) in PERFEVTSEL0 of every thread. Checks the encodings, that no
# write sets ANY (bit 21), the split against the truth, and the restore.
. "${HTTOP_SRCDIR:-.}/tests/cli/fakemsrlib.sh"

plan 8

# Cores 0-11: 60% duty cycles half a period apart (t0 only .4, t1 only .4,
# both .2); cores 12-23: t0 50%, t1 25% in phase (neither .5, t0 only .25,
# both .25); the other cores idle (neither 1).
cat >"$work/steady.scn" <<'EOS'
httop-scenario 1
default idle
thread 0 of cores 0-11 duty duty=0.6 period=200us phase=0
thread 1 of cores 0-11 duty duty=0.6 period=200us phase=0.5
thread 0 of cores 12-23 duty duty=0.5 period=200us
thread 1 of cores 12-23 duty duty=0.25 period=200us
EOS

fake_mount "$SPR_XML" "$SPR_CPUID" --scenario "$work/steady.scn" --step 0.2 \
    --counters-start 0xFFFFFFFF0000
ctl poke 81 0x38F 0x2 >/dev/null
ctl dump >"$work/before"

if httop_msr "$SPR_XML" "$SPR_CPUID" -b -n 3 -d 0.2 --format json >"$work/out.json" \
    2>"$work/err"; then
	ok "httop -b -n 3 over the fake device exits 0"
else
	not_ok "httop -b -n 3 over the fake device exits 0"
	sed 's/^/# /' "$work/err"
fi
check_schema "$work/out.json"
check "0x186 = 0x43023c (ONE_THREAD_ACTIVE) on all 160 CPUs" \
    test "$(log_cpus 0x186 0x43023c)" = "$(seq_list 0 159)"
anybit=$(ctl log | awk '$2 == "0x186" { print $3 }' | while read -r v; do
	[ $((v & 0x200000)) -ne 0 ] && echo "$v"
done)
check "no PERFEVTSEL0 write sets AnyThread (bit 21)" test -z "$anybit"
check "0x38D = 0x333 on all 160 CPUs" test "$(log_cpus 0x38d 0x333)" = "$(seq_list 0 159)"

ctl dump >"$work/after"
if cmp -s "$work/before" "$work/after"; then
	ok "every register is back to its value before httop"
else
	not_ok "every register is back to its value before httop"
	diff "$work/before" "$work/after" | sed 's/^/# /'
fi

truth_file 80 "$work/truth"
res=$(split_vs_truth "$work/out.json" "$work/truth" 0.005)
st=$?
diag "$res"
nvalid=$(echo "$res" | awk '/^checked/ { print $2 }')
if [ $st -eq 0 ] && [ "${nvalid:-0}" -eq 240 ]; then
	ok "split within 0.5% of the truth on $nvalid of 240 core-intervals"
else
	not_ok "split within 0.5% of the truth on $nvalid of 240 core-intervals"
	echo "$res" | sed 's/^/# /'
fi
t0=$(sed -n 1p "$work/truth")
diag "truth core 0: $t0"
check "core 0's truth is 0 .4 .4 .2" awk -v a="$t0" 'BEGIN { split(a, x, " ")
	split("0 0.4 0.4 0.2", e, " ")
	for (k = 1; k <= 4; k++) { d = x[k + 1] - e[k]; if (d < 0) d = -d; if (d > 0.002) exit 1 } }'
exit 0
