#!/bin/sh
# test_fakemsr_conflict.sh: another program reprograms the PMU under httop
# (--on-conflict report|reclaim|exit), on the fake MSR device: skx-6140
# topology, 6154 CPUID (72 CPUs, core n = {n, n + 36}), scenario busy
# (every thread always active), --step 0.5 (deterministic time).
#
# httop's SKX plan puts PERFEVTSEL0 = 0x63013c (REF_XCLK:ANY) on thread 0
# (CPUs 0-35). The fake's "at 4 takeover CPU 0x43003c" for CPUs 0-35 acts
# as another program between two refreshes: PERFEVTSEL0 = 0x43003c (core
# cycles) and PMC0 = 0. Refresh starts: 2 of calibration, the first read,
# then one per interval; "at 4" runs at the 5th, the end of interval 2. So
# interval 1 is valid and interval 2 flagged on every core (PMC0 went
# backwards: a delta near 2^48), the flagged CPUs being 0-71.
. "${HTTOP_SRCDIR:-.}/tests/cli/fakemsrlib.sh"

plan 21

fake_mount "$SKX_XML" "$SKX_CPUID" --scenario busy --step 0.5
ctl dump >"$work/before"

NOTE='counts impossible for the programmed events on CPUs 0-71: another program changed PERFEVTSEL0 0x63013c -> 0x43003c on CPUs 0-35'

# run POLICY N: arm the takeover, run httop -n N; status in $st, JSON in
# $work/out, stderr in $work/err, the valid flags in order in $valid.
run() {
	ctl clearlog >/dev/null
	cmds=
	for c in $(seq_list 0 35); do
		cmds="${cmds}at 4 takeover $c 0x43003c
"
	done
	printf '%s' "$cmds" >"$mnt/ctl" || { echo "Bail out! the fake refused 'at'"; exit 1; }
	httop_msr "$SKX_XML" "$SKX_CPUID" -b -n "$2" -d 0.1 --format json --on-conflict "$1" \
	    >"$work/out" 2>"$work/err"
	st=$?
	valid=$(jq -r .valid "$work/out" | tr '\n' ' ')
	diag "$1: exit $st, valid: $valid"
	sed 's/^/# /' "$work/err"
}

# notes: the conflict lines on stderr.
notes() {
	grep -c "counts impossible" "$work/err"
}

# restored: every control register as before httop started.
restored() {
	ctl dump >"$work/after" && cmp -s "$work/before" "$work/after"
}

# left_to_other: after httop, every control register as before it started,
# but PERFEVTSEL0 of CPUs 0-35 as the other program set it (0x43003c):
# httop left it to that program, and said so in one line.
left_to_other() {
	ctl dump >"$work/after" || return 1
	{
		cat "$work/before"
		for c in $(seq_list 0 35); do echo "$c 0x186 0x43003c"; done
	} | sort >"$work/want"
	sort "$work/after" | cmp -s - "$work/want" &&
	    test "$(grep -c 'left PERFEVTSEL0' "$work/err")" -eq 1 &&
	    grep -q '^httop: left PERFEVTSEL0 on CPUs 0-35 as another program set it' "$work/err"
}

# other_ends: the other program stops and clears its counter.
other_ends() {
	for c in $(seq_list 0 35); do ctl poke "$c" 0x186 0 >/dev/null || return 1; done
	ctl dump >"$work/after" && cmp -s "$work/before" "$work/after"
}

# note_time_ok: the note's time is the end of interval 2 (to 0.05 s).
note_time_ok() {
	t=$(sed -n 's/^httop: \([0-9.]*\) s: counts impossible.*/\1/p' "$work/err")
	e=$(jq -s -r '.[1].time' "$work/out")
	awk -v t="$t" -v e="$e" 'BEGIN { d = t - e; if (d < 0) d = -d; exit !(t != "" && d <= 0.05) }'
}

# rewrites CPU VALUE: how many times the log shows VALUE written to PERFEVTSEL0.
rewrites() {
	ctl log | awk -v c="$1" -v v="$2" '$1 == c && $2 == "0x186" && $3 == v' | wc -l
}

# 1. report: one note, interval 2 on invalid (the other program's event
#    stays), exit 0; at exit httop leaves the other program's register
#    and restores its own.
run report 5
check "report: exit 0 with 5 intervals" test "$st" -eq 0 -a "$(jq -s length "$work/out")" = 5
check_schema "$work/out"
check "report: valid, then invalid from interval 2 on" test "$valid" = "true false false false false "
check "report: one note, naming the register, old and new value and the CPUs" \
    eval 'test "$(notes)" -eq 1 && grep -q -- "$NOTE; these cores stay invalid while it lasts (--on-conflict report)\$" "$work/err"'
check "report: the note's time is the end of interval 2" note_time_ok
check "report: nothing written back mid-run" test "$(rewrites 7 0x63013c)" -eq 1
check "report: at exit PERFEVTSEL0 of CPUs 0-35 left to the other program, the rest restored" \
    left_to_other
check "report: with the other program gone, the device is as before httop" other_ends

# 2. reclaim: one note, PERFEVTSEL0 written back on CPUs 0-35; interval 3
#    began before the write-back (the read-back and writes take fake
#    time: it may be invalid), interval 4 is valid and so is every later one.
run reclaim 6
check "reclaim: exit 0 with 6 intervals" test "$st" -eq 0 -a "$(jq -s length "$work/out")" = 6
check_schema "$work/out"
check "reclaim: valid, invalid at 2, valid again from 4 on" \
    eval 'case "$valid" in "true false "*"true true true ") true ;; *) false ;; esac'
check "reclaim: one note, saying the settings were written back" \
    eval 'test "$(notes)" -eq 1 && grep -q -- "$NOTE; httop wrote its settings back (--on-conflict reclaim)\$" "$work/err"'
check "reclaim: 0x63013c written twice (program, reclaim) on CPUs 0 and 35, never on 36" \
    eval 'test "$(rewrites 0 0x63013c)" -eq 2 && test "$(rewrites 35 0x63013c)" -eq 2 &&
    test "$(rewrites 36 0x63013c)" -eq 0'
check "reclaim: every register restored (httop's settings were back)" \
    eval 'restored && ! grep -q "left PERFEVTSEL0" "$work/err"'

# 3. exit: status 1 after interval 2 (written first), one line; the
#    other program's register left to it, the rest restored.
run exit 6
check "exit: status 1" test "$st" -eq 1
check "exit: intervals 1 and 2 written, the second invalid" test "$valid" = "true false "
check_schema "$work/out"
check "exit: one note on stderr, with the policy" \
    eval 'test "$(notes)" -eq 1 && grep -q -- "$NOTE; httop restored the registers and stops (--on-conflict exit)\$" "$work/err"'
check "exit: the note's time is the end of interval 2" note_time_ok
check "exit: PERFEVTSEL0 of CPUs 0-35 left to the other program, the rest restored" \
    left_to_other
check "exit: with the other program gone, the device is as before httop" other_ends
exit 0
