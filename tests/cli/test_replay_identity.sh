#!/bin/sh
# test_replay_identity.sh: replaying a recording gives the same figures as
# the run that made it. Two runs are recorded with --record: the simulator
# on the demo machine (2 x 18-core Skylake-SP, SMT 2, seed 3) and the msr
# source on the FUSE fake MSR device (the same machine from the skx-6140
# fixtures). Each is replayed with -b --format json and compared interval
# by interval with jq.
#
# Compared: every field of every interval as text (jq -S: the node, the
# packages, every core's split, bounds, utilisation, thr, CPI, GHz,
# validity and reasons, the simulator's truth, every thread's figures,
# and the time and interval length: the trace keeps times to the last
# bit), except "source", which is "sim" or "msr" live and "replay" in
# the replay. Equal as text, not merely close.
. "${HTTOP_SRCDIR:-.}/tests/cli/fakemsrlib.sh"

plan 12

# jq -S per line, the fields named in $2 deleted.
norm() { jq -cS "$2" "$1"; }

"$HTTOP" --demo --sim demo -b --format json -n 20 --seed 3 --record "$work/sim.trace" \
    >"$work/sim.json" 2>"$work/sim.err"
check "sim run with --record exits 0" [ $? -eq 0 ]
# A trace does not carry CAPID6 (yet): the demo's is given to the replay,
# so its die grid is the recorded run's.
"$HTTOP" --replay "$work/sim.trace" -b --format json --capid6 0adb56dd,076dabb6 \
    >"$work/simr.json" 2>"$work/simr.err"
check "its replay exits 0 at the end of the trace" [ $? -eq 0 ]
check "20 intervals live and 20 replayed" sh -c \
    '[ "$(wc -l <"$1")" -eq 20 ] && [ "$(wc -l <"$2")" -eq 20 ]' sh "$work/sim.json" "$work/simr.json"
# The run has SMT splits to compare (not just absent figures): the node's
# four shares are numbers that add up to 1.
check "the sim run has an exact four-way split" sh -c \
    'jq -e "select(.node.exact == true and (.node.both + .node.t0_only + .node.t1_only +
    .node.neither - 1 | fabs) < 1e-9)" "$1" | grep -q both' sh "$work/sim.json"
check_schema "$work/sim.json" "$work/simr.json"
norm "$work/sim.json" 'del(.source)' >"$work/a"
norm "$work/simr.json" 'del(.source)' >"$work/b"
if cmp -s "$work/a" "$work/b"; then
	ok "sim: every figure of the replay equals the live run's (all fields but source)"
else
	not_ok "sim: every figure of the replay equals the live run's"
	diff "$work/a" "$work/b" | head -n 6 | cut -c 1-300 | sed 's/^/# /'
fi

# The msr source on the fake device (root and /dev/fuse, as CI has), with
# work on every core so there are splits to compare: cores 0-11 both
# threads 60% out of phase, 12-23 thread 0 50% and thread 1 25%, 24-35
# thread 0 busy (the scenario of test_fakemsr_skx.sh).
cat >"$work/steady.scn" <<'EOF'
httop-scenario 1
default idle
thread 0 of cores 0-11 duty duty=0.6 period=200us phase=0
thread 1 of cores 0-11 duty duty=0.6 period=200us phase=0.5
thread 0 of cores 12-23 duty duty=0.5 period=200us
thread 1 of cores 12-23 duty duty=0.25 period=200us
thread 0 of cores 24-35 busy
EOF
fake_mount "$SKX_XML" "$SKX_CPUID" --scenario "$work/steady.scn" --step 0.2
if httop_msr "$SKX_XML" "$SKX_CPUID" -b -n 5 -d 0.2 --format json --record "$work/msr.trace" \
    >"$work/msr.json" 2>"$work/msr.err"; then
	ok "msr run on the fake device with --record exits 0"
else
	not_ok "msr run on the fake device with --record exits 0"
	sed 's/^/# /' "$work/msr.err"
fi
"$HTTOP" --replay "$work/msr.trace" -b --format json >"$work/msrr.json" 2>"$work/msrr.err"
check "its replay exits 0" [ $? -eq 0 ]
check "5 intervals live and 5 replayed" sh -c \
    '[ "$(wc -l <"$1")" -eq 5 ] && [ "$(wc -l <"$2")" -eq 5 ]' sh "$work/msr.json" "$work/msrr.json"
# The split is there to compare: cores 0-11 share "both" 0.2 (0.6 + 0.6 - 1)
# within the 0.1% a 200 us period leaves in a 0.2 s interval.
check "the msr run has the scenario's split (core 0: both 0.2 +- 0.002)" sh -c \
    'jq -e "select((.cores[0].both - 0.2 | fabs) < 0.002)" "$1" | grep -q both' sh "$work/msr.json"
check_schema "$work/msr.json" "$work/msrr.json"
norm "$work/msr.json" 'del(.source)' >"$work/a"
norm "$work/msrr.json" 'del(.source)' >"$work/b"
if [ -s "$work/a" ] && cmp -s "$work/a" "$work/b"; then
	ok "msr: every figure of the replay equals the live run's (all fields but source)"
else
	not_ok "msr: every figure of the replay equals the live run's"
	diff "$work/a" "$work/b" | head -n 6 | cut -c 1-300 | sed 's/^/# /'
fi
exit 0
