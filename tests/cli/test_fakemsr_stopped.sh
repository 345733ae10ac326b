#!/bin/sh
# test_fakemsr_stopped.sh: another program stops a counter under httop by
# clearing its enable bits, on the fake MSR device: skx-6140 topology, 6154
# CPUID (72 CPUs, core n = {n, n + 36}), scenario busy (every thread always
# active), --step 0.5 (deterministic time).
#
# httop's SKX plan writes FIXED_CTR_CTRL = 0x333 (fixed counters 0-2, OS
# and USR) on every CPU. "at 4 poke CPU 0x38d 0x330" clears fixed counter
# 0's two enable bits on CPUs 4-7 at the start of the refresh that ends
# interval 2 (refreshes: 2 of calibration, the first read, then one per
# interval), so from then on their instructions retired stand still while
# both clocks run: interval 3 is the first with a delta of 0. Its CPI and
# IPC are absent with the reason "stopped", the interval is flagged, and
# the note names the register and the bits found clear.
. "${HTTOP_SRCDIR:-.}/tests/cli/fakemsrlib.sh"

plan 17

fake_mount "$SKX_XML" "$SKX_CPUID" --scenario busy --step 0.5
ctl dump >"$work/before"

NOTE='counter stopped: instructions retired on CPUs 4-7: another program cleared FIXED_CTR_CTRL 0x3 (fixed counter 0: OS, USR) on all of them'

# run POLICY N [options]: arm the stop, run httop -n N; status in $st,
# JSON in $work/out, stderr in $work/err, the valid flags in $valid.
run() {
	pol=$1 n=$2
	shift 2
	ctl clearlog >/dev/null
	cmds=
	for c in 4 5 6 7; do
		cmds="${cmds}at 4 poke $c 0x38d 0x330
"
	done
	printf '%s' "$cmds" >"$mnt/ctl" || { echo "Bail out! the fake refused 'at'"; exit 1; }
	httop_msr "$SKX_XML" "$SKX_CPUID" -b -n "$n" -d 0.1 --format json --on-conflict "$pol" \
	    "$@" >"$work/out" 2>"$work/err"
	st=$?
	valid=$(jq -r .valid "$work/out" | tr '\n' ' ')
	diag "$pol: exit $st, valid: $valid"
	sed 's/^/# /' "$work/err"
}

# notes: the stop notes on stderr.
notes() {
	grep -c "counter stopped:" "$work/err"
}

# absent_in N: in interval N (1-based), CPUs 4-7 have CPI, nominal CPI
# and IPC absent for "stopped" and the counter "inst" listed, GHz still
# there; their siblings 40-43 and CPU 8 keep their IPC.
absent_in() {
	jq -s -e --argjson n "$1" '.[$n - 1] as $i |
	    ($i.reason | test("counter stopped: instructions retired on CPUs 4-7")) and
	    ([$i.threads[] | select(.cpu >= 4 and .cpu <= 7) |
	      .valid and .ipc == null and .cpi == null and .absent.ipc == "stopped" and
	      .absent.cpi == "stopped" and .absent.nominal_cpi == "stopped" and
	      .stopped == ["inst"] and .ghz != null] | all) and
	    ([$i.threads[] | select(.cpu == 8 or (.cpu >= 40 and .cpu <= 43)) | .ipc != null] | all)' \
	    "$work/out" >/dev/null
}

# regs CPU MSR: the register's value now.
regs() {
	ctl get "$1" "$2"
}

# writes CPU VALUE: how many times the log shows VALUE written to FIXED_CTR_CTRL.
writes() {
	ctl log | awk -v c="$1" -v v="$2" '$1 == c && $2 == "0x38d" && $3 == v' | wc -l
}

# 1. report: one note; intervals 3 on flagged (the counter stays
#    stopped); the register is left to the other program at exit.
run report 5 --record "$work/rec.trace"
check "report: exit 0 with 5 intervals" test "$st" -eq 0 -a "$(jq -s length "$work/out")" = 5
check "report: valid 1-2, invalid from 3 on" test "$valid" = "true true false false false "
check "report: CPI and IPC of CPUs 4-7 absent (stopped) in intervals 3 and 5" \
    eval 'absent_in 3 && absent_in 5'
check "report: one note, naming the register and the bits" \
    eval 'test "$(notes)" -eq 1 && grep -q -- "$NOTE; its figures stay absent while it lasts (--on-conflict report)\$" "$work/err"'
check "report: at exit FIXED_CTR_CTRL of CPUs 4-7 left to the other program" \
    eval 'test "$(regs 4 0x38d)" = 0x330 && grep -q "^httop: left FIXED_CTR_CTRL on CPUs 4-7 as another program set it" "$work/err"'
check "report: the recording has the note and the flagged intervals as events" \
    eval 'grep -q "text=\"reprogrammed: .*$NOTE" "$work/rec.trace" &&
    test "$(grep -c "text=\"invalid: counter stopped: instructions retired on CPUs 4-7\"" "$work/rec.trace")" -eq 3'

# 2. Its replay applies the same rule to the recorded counts.
"$HTTOP" --replay "$work/rec.trace" -b --format json >"$work/out" 2>"$work/err"
st=$?
check "replay: exit 0, the same intervals flagged" \
    eval 'test "$st" -eq 0 && test "$(jq -r .valid "$work/out" | tr "\n" " ")" = "true true false false false "'
check "replay: CPI and IPC of CPUs 4-7 absent (stopped) in interval 3" absent_in 3
check "replay: a note for the stop, no registers to read" \
    grep -q "counter stopped: instructions retired on CPUs 4-7: registers not available in a replay" "$work/err"
for c in 4 5 6 7; do ctl poke "$c" 0x38d 0 >/dev/null; done

# 3. reclaim: one note; httop sets 0x333 again on CPUs 4-7 right after
#    interval 3, so the counter runs through interval 4: valid again.
run reclaim 6
check "reclaim: exit 0 with 6 intervals" test "$st" -eq 0 -a "$(jq -s length "$work/out")" = 6
check "reclaim: invalid at 3 only" test "$valid" = "true true false true true true "
check "reclaim: one note, saying the bits were set again" \
    eval 'test "$(notes)" -eq 1 && grep -q -- "$NOTE; httop set its bits again (--on-conflict reclaim)\$" "$work/err"'
check "reclaim: 0x333 written once more on CPUs 4 and 7 (the reclaim) than on 8 (calibration, program)" \
    eval 'test "$(writes 8 0x333)" -eq 2 && test "$(writes 4 0x333)" -eq 3 && test "$(writes 7 0x333)" -eq 3 && test "$(writes 36 0x333)" -eq 2'
check "reclaim: every register restored (httop's settings were back)" \
    eval 'ctl dump >"$work/after" && cmp -s "$work/before" "$work/after" && ! grep -q "left FIXED" "$work/err"'

# 4. exit: status 1 after interval 3 (written first); the register left
#    to the other program, the rest restored.
run exit 6
check "exit: status 1 after 3 intervals, the third invalid" \
    eval 'test "$st" -eq 1 && test "$valid" = "true true false "'
check "exit: the note, with the policy" \
    grep -q -- "$NOTE; httop restored the registers and stops (--on-conflict exit)\$" "$work/err"
for c in 4 5 6 7; do ctl poke "$c" 0x38d 0 >/dev/null; done
check "exit: with the other program gone, the device is as before httop" \
    eval 'ctl dump >"$work/after" && cmp -s "$work/before" "$work/after"'
exit 0
