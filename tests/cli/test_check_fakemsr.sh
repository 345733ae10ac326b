#!/bin/sh
# test_check_fakemsr.sh: httop --check end to end through the msr source on
# the FUSE fake MSR device, which plays case "half" (thread 0 busy in
# [0, 0.5), thread 1 in [0.25, 0.75) of every 5 ms period) on every core:
# a scenario file written here by hand, not by httop's code. --step 1: a
# refresh lets exactly 1 s of the device's time pass, so the shares are
# exact whatever the machine's load. With --topology the machine is
# described, so the device plays the load and httop runs none.
#   - the check passes, its four shares 0.25 each, the registers restored;
#   - the device's reference event ticks at 125 where the table says 120
#     (CPUID 15H 249/2: not an integer, so the table falls back to 4 x the
#     base ratio 30, while the device rounds to 125): the scale fails;
#   - another program holds PERFEVTSEL0 before the check: it refuses, the
#     JSON object says why, nothing is written;
#   - another program takes PERFEVTSEL0 of CPU 0 at the second read: the
#     case is disturbed (not failed), the register is left to it;
#   - Zen 2 (no AnyThread): the shares are bounds that hold, a pass;
#   - SIGTERM while the check waits: it ends at once, restored, status 1.
. "${HTTOP_SRCDIR:-.}/tests/cli/fakemsrlib.sh"

plan 24
ZEN_XML="$HTTOP_FIXTURES/hwloc/zen2-epyc7742-2s-64c-smt.xml"
ZEN_CPUID="$HTTOP_FIXTURES/cpuid/zen2-epyc7742-2s-64c-smt.cpuid.txt"

cat >"$work/half.scen" <<'EOF'
httop-scenario 1
thread 0 of cores all duty duty=0.5 phase=0 period=5ms
thread 1 of cores all duty duty=0.5 phase=0.25 period=5ms
EOF

# check XML CPUID [options]: the check of core 0 (CPUs 0 and 36 on the
# skx-6140, whose TSC read starts each refresh), case half, 1 s, as JSON
# in $work/out; status in $st.
check_run() {
	xml=$1 cpuid=$2
	shift 2
	httop_msr "$xml" "$cpuid" --check --check-case half --cpus 0 --seconds 1 -b \
	    --format json "$@" >"$work/out" 2>"$work/err"
	st=$?
	diag "exit $st: $(head -c 300 "$work/err")"
}

# jqv FILTER: the filter's value in the report.
jqv() {
	jq -r "$1" "$work/out" 2>/dev/null
}

# --- a pass -----------------------------------------------------------------
fake_mount "$SKX_XML" "$SKX_CPUID" --scenario "$work/half.scen" --step 1
ctl dump >"$work/before"
check_run "$SKX_XML" "$SKX_CPUID"
# --step times the device's TSC by refreshes, not by the clock httop times
# its samples with: on a loaded machine the wait can overrun and the TSC
# rate (1 s of TSC over the interval by the clock) fail; nothing else may.
check "half: every figure passes, the TSC rate aside" \
    test "$(jqv '[.cases[0].figures[] | select(.verdict != "pass" and .figure != "tsc_rate")] |
	length')" = 0
check "half: one JSON object, outcome pass (status 0), or fail by the TSC rate alone" \
    test "$(jqv '(.outcome == "pass") or ([.cases[0].figures[] | select(.verdict != "pass") |
	.figure] | unique == ["tsc_rate"])') $st" = "true $([ "$(jqv .outcome)" = pass ] && echo 0 || echo 1)"
check "half: every share 0.25 within its tolerance and judged pass" \
    test "$(jqv '[.cases[0].figures[] | select(.family == "split") |
	select(.verdict == "pass" and ((.measured - 0.25) | fabs) <= .tolerance)] | length')" = 4
check "half: the load was the device's (load: source), the split exact" \
    test "$(jqv '.load + " " + .split + " " + .summary.split')" = "source any trusted"
check "half: the scale measured as the table says" \
    test "$(jqv '.scale.verdict + " " + (.scale.table | tostring)')" = "pass 120"
ctl dump >"$work/after"
check "half: every register as before" cmp -s "$work/before" "$work/after"

# --- another program holds the counter before the check -------------------------
ctl clearlog >/dev/null
ctl poke 0 0x186 0x43003c >/dev/null
check_run "$SKX_XML" "$SKX_CPUID"
check "busy counter: refused with status 1" test "$st" -eq 1
check "busy counter: the message names CPU 0 and PERFEVTSEL0" \
    grep -q "cpu 0 PERFEVTSEL0=0x43003c" "$work/err"
check "busy counter: the JSON object says error, with the same reason" \
    test "$(jqv '.outcome + " " + (.error | test("PERFEVTSEL0=0x43003c") | tostring)')" = "error true"
check "busy counter: nothing was written" test -z "$(ctl log)"
ctl poke 0 0x186 0 >/dev/null

# --- another program takes the counter mid-check ----------------------------------
# Refresh starts: two of calibration, the first read, the second: "at 3"
# acts just before the second read of the case.
ctl "at 3 takeover 0 0x43003c" >/dev/null
check_run "$SKX_XML" "$SKX_CPUID"
check "taken mid-check: status 1" test "$st" -eq 1
check "taken mid-check: outcome disturbed, not fail" test "$(jqv .outcome)" = disturbed
check "taken mid-check: the case says another program reprogrammed the counters" \
    test "$(jqv '.cases[0].disturbed')" = "another program reprogrammed the counters during the case"
check "taken mid-check: no figure failed" \
    test "$(jqv '[.cases[0].figures[] | select(.verdict == "fail" or .verdict == "none")] | length')" = 0
check "taken mid-check: PERFEVTSEL0 of CPU 0 left to the other program, and said" \
    sh -c 'grep -q "left PERFEVTSEL0" "$1" && [ "$(printf "get 0 0x186\n" >"$2/ctl" && cat "$2/ctl")" = 0x43003c ]' \
    sh "$work/err" "$mnt"
ctl poke 0 0x186 0 >/dev/null
fake_unmount

# --- the reference event ticks at another ratio than the table -----------------------
sed 's/^CPUID 00000015: 00000002-000000F0-/CPUID 00000015: 00000002-000000F9-/' "$SKX_CPUID" \
    >"$work/skx-125.cpuid"
fake_mount "$SKX_XML" "$work/skx-125.cpuid" --scenario "$work/half.scen" --step 1
check_run "$SKX_XML" "$work/skx-125.cpuid"
check "wrong scale: status 1" test "$st" -eq 1
check "wrong scale: table 120, measured 125, the scale failed" \
    test "$(jqv '"\(.scale.table) \(.scale.measured) \(.scale.verdict) \(.summary.scale)"')" = \
    "120 125 fail failed"
check "wrong scale: the split, on the measured scale, still passes" \
    test "$(jqv '.summary.split + " " + .outcome')" = "trusted fail"
fake_unmount

# --- no AnyThread: Zen 2 --------------------------------------------------------
fake_mount "$ZEN_XML" "$ZEN_CPUID" --scenario "$work/half.scen" --step 1
httop_msr "$ZEN_XML" "$ZEN_CPUID" --check --check-case half --cpus 0 --seconds 1 -b \
    --format json >"$work/out" 2>"$work/err"
st=$?
diag "zen 2: exit $st: $(head -c 300 "$work/err")"
check "zen 2: status 0" test "$st" -eq 0
check "zen 2: the split is bounds only, every bound held" \
    test "$(jqv '.summary.split + " " + ([.cases[0].figures[] | select(.family == "split") |
	.verdict] | unique | join(","))')" = "bound bound"
check "zen 2: the utilisations are exact and pass" \
    test "$(jqv '[.cases[0].figures[] | select(.figure == "util" and .verdict == "pass")] | length')" = 2
fake_unmount

# --- SIGTERM while the check waits -----------------------------------------------
fake_mount "$SKX_XML" "$SKX_CPUID" --scenario "$work/half.scen" --realtime
ctl dump >"$work/before"
# The binary itself in the background (a shell function would be a
# subshell, and the signal would go to the shell).
"$HTTOP" --source msr --msr-path "$mnt/%u/msr" --topology "$SKX_XML" --cpuid "$SKX_CPUID" \
    --check --check-case half --cpus 0 --seconds 60 -b --format json >"$work/out" 2>"$work/err" &
bg_pid=$!
sleep 1.5
t0=$(date +%s%N)
kill -TERM "$bg_pid"
wait "$bg_pid"
st=$?
bg_pid=
t1=$(date +%s%N)
diag "SIGTERM: exit $st after $(( (t1 - t0) / 1000000 )) ms: $(head -c 200 "$work/err")"
# (The signal, not the 60 s, ended it: the outcome below says interrupted;
# the time is a diagnostic, make check asserts no wall time.)
check "SIGTERM: exit status 1 (no verdict is not a pass)" test "$st" -eq 1
# No summary of cases that did not run (it said "unchecked", or "trusted"
# on the cases judged before the signal).
check "SIGTERM: the JSON object says interrupted, with no summary" \
    test "$(jqv '.outcome + " " + (.summary | tostring) + " " + (.unchecked | tostring)')" = \
    "interrupted null null"
ctl dump >"$work/after"
check "SIGTERM: every register as before" cmp -s "$work/before" "$work/after"
exit 0
