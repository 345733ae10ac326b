#!/bin/sh
# test_fakemsr_recover.sh: httop killed with SIGKILL (as the OOM killer
# does) on the fake MSR device of a Skylake-SP (skx-6140 topology, 6154
# CPUID: 72 CPUs, thread 0 = CPUs 0-35) leaves its settings in the PMU
# (FIXED_CTR_CTRL 0x333, PERFEVTSEL0 0x63013c on thread 0, its bits of
# PERF_GLOBAL_CTRL). Its saved state (HTTOP_STATE_DIR, as /run/httop) lets
# the next run put back exactly the values from before the killed run,
# writing only FIXED_CTR_CTRL, PERFEVTSEL0 and PERF_GLOBAL_CTRL. A
# register another program set since is left to it and still refused.
# Without a state the run is refused with a message naming httop
# --restore, which sets httop's bits to their power-on value 0; --force
# takes the leftovers over and leaves those bits 0 at its end. A second
# httop while the first runs is told apart from a killed one.
. "${HTTOP_SRCDIR:-.}/tests/cli/fakemsrlib.sh"

plan 26

fake_mount "$SKX_XML" "$SKX_CPUID" --scenario busy --realtime
# What other programs left before httop: GLOBAL_CTRL enables PMC1 on CPU 1,
# fixed counter 3's field (not httop's bits) set on CPU 2.
ctl poke 1 0x38F 0x2 >/dev/null
ctl poke 2 0x38D 0x3000 >/dev/null
ctl dump >"$work/before"
HTTOP_STATE_DIR="$work/state"
export HTTOP_STATE_DIR
mkdir -m 700 "$HTTOP_STATE_DIR"

hargs="--source msr --msr-path $mnt/%u/msr --topology $SKX_XML --cpuid $SKX_CPUID"

# start_killed: an httop that runs with its counters programmed, killed
# with SIGKILL; its PID in $killed.
start_killed() {
	ctl clearlog >/dev/null
	# shellcheck disable=SC2086
	"$HTTOP" $hargs -b -n 1000 -d 0.2 --format json >"$work/out.bg" 2>"$work/err.bg" &
	bg_pid=$!
	wait_log "0x186 0x63013c" && sleep 0.3 && kill -0 "$bg_pid" 2>/dev/null
	rc=$?
	kill -KILL "$bg_pid"
	wait "$bg_pid" 2>/dev/null
	killed=$bg_pid
	bg_pid=
	return $rc
}

# run_once [options]: one refresh in batch mode; status in $st.
run_once() {
	ctl clearlog >/dev/null
	# shellcheck disable=SC2086
	"$HTTOP" $hargs -b -n 1 -d 0.2 --format json "$@" >"$work/out" 2>"$work/err"
	st=$?
	sed 's/^/# /' "$work/err"
}

# same_as_before: every control register as before the killed run.
same_as_before() {
	ctl dump >"$work/after" && cmp -s "$work/before" "$work/after" ||
	    { diff "$work/before" "$work/after" | head -5 | sed 's/^/# /'; return 1; }
}

# only_plan_writes: the log shows writes, all of them to httop's three.
only_plan_writes() {
	ctl log >"$work/log"
	test -s "$work/log" &&
	    awk '$2 != "0x38d" && $2 != "0x186" && $2 != "0x38f" { bad = 1 } END { exit bad }' \
	    "$work/log"
}

# 1. Killed: the leftovers are there, and so is its state.
check "an httop with its counters programmed is killed with SIGKILL" start_killed
ctl dump >"$work/left"
check "it left its settings: PERFEVTSEL0 0x63013c on CPU 0" \
	grep -qx "0 0x186 0x63013c" "$work/left"
check "... and its saved state in the state directory" \
	grep -q "^pid $killed " "$HTTOP_STATE_DIR"/msr-"$killed"-*

# 2. The next run puts back the values from before the killed run.
run_once
check "the next run works (status $st)" test "$st" -eq 0
check "it says it put back the registers the killed httop (pid $killed) left" \
	grep -q "^httop: put back 180 registers that httop (pid $killed), killed before it could restore them, had programmed (PERF_GLOBAL_CTRL, FIXED_CTR_CTRL, PERFEVTSEL0 on CPUs 0-71)" "$work/err"
check "after it every register is as before the killed run" same_as_before
check "it wrote only FIXED_CTR_CTRL, PERFEVTSEL0 and PERF_GLOBAL_CTRL" only_plan_writes
check "the killed run's state is gone, and this run's too" \
	test -z "$(ls "$HTTOP_STATE_DIR")"

# 3. Killed again; then another program takes PMC0 of CPU 3.
check "killed again" start_killed
ctl poke 3 0x186 0x43003c >/dev/null
run_once
check "another program's register is still refused (status $st)" test "$st" -eq 1
check "... as another program's, named" \
	grep -q "in use by another program (cpu 3 PERFEVTSEL0=0x43003c)" "$work/err"
check "... and the rest of what the killed run left was put back first" \
	grep -q "^httop: put back 179 registers .*; left PERFEVTSEL0 on CPU 3 as another program set it since" "$work/err"
{ grep -v "^3 0x186 " "$work/before"; echo "3 0x186 0x43003c"; } | sort >"$work/want"
ctl dump | sort >"$work/after"
check "every register as before, but the other program's" cmp -s "$work/want" "$work/after"
ctl poke 3 0x186 0 >/dev/null

# 4. Killed with no state left (no /run/httop): refused, the fix named.
check "killed a third time" start_killed
rm -f "$HTTOP_STATE_DIR"/*
run_once
check "without a saved state the leftovers are refused (status $st)" test "$st" -eq 1
check "... as httop's own, naming httop --restore" \
	grep -q "the PMU holds httop's own settings (cpu 0 FIXED_CTR_CTRL=0x333, .*run 'httop --restore'" "$work/err"
check "... and nothing was written" test -z "$(ctl log)"
grep -v " 0x38f " "$work/before" >"$work/want"
run_once --force
check "with --force it runs (status $st)" test "$st" -eq 0
ctl dump | grep -v " 0x38f " >"$work/after"
check "... and at its end does not put the killed run's settings back" \
	cmp -s "$work/want" "$work/after"
check "killed a fourth time" start_killed
rm -f "$HTTOP_STATE_DIR"/*
run_once --restore
check "httop --restore works (status $st)" test "$st" -eq 0
ctl dump | grep -v " 0x38f " >"$work/after"
check "httop's bits of FIXED_CTR_CTRL and PERFEVTSEL0 are 0 again, others kept" \
	cmp -s "$work/want" "$work/after"

# 5. A second httop while the first runs is not a killed one.
ctl clearlog >/dev/null
# shellcheck disable=SC2086
"$HTTOP" $hargs -b -n 1000 -d 0.2 --format json >"$work/out.bg" 2>"$work/err.bg" &
bg_pid=$!
wait_log "0x186 0x63013c"
run_once
check "a second httop is refused while the first runs (status $st)" test "$st" -eq 1
check "... naming the first one's PID" grep -q "in use by another httop (pid $bg_pid)" "$work/err"
run_once --restore
check "httop --restore refuses too" grep -q "another httop (pid $bg_pid) is running" "$work/err"
kill -TERM "$bg_pid"
wait "$bg_pid"
bg_pid=
ctl dump | grep -v " 0x38f " >"$work/after"
check "the first one ends and puts its registers back" cmp -s "$work/want" "$work/after"
exit 0
