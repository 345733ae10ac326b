#!/bin/sh
# test_fakemsr_priv.sh: the real binary on the fake MSR device (skx-6140
# topology, 6154 CPUID: 72 CPUs, core {n, n+36}) when the device refuses to
# open. Without privilege (EACCES, then EPERM; for every CPU, then for CPU 7
# alone after CPUs 0-6 opened) httop exits non-zero with one line that names
# the device and says to run as root, give it CAP_SYS_RAWIO with setcap, or
# use msr-safe, and touches no register. A CPU whose device answers ENXIO at
# start (the msr driver's answer for an offline CPU) is shown offline and
# the rest is measured, and so is one whose device has vanished (ENOENT)
# while the others opened (test_fakemsr_hotplug.sh: when every device is
# missing, the message says to load the msr module).
. "${HTTOP_SRCDIR:-.}/tests/cli/fakemsrlib.sh"

plan 20

fake_mount "$SKX_XML" "$SKX_CPUID" --scenario demo --step 0.2

# deny SPEC ERRNO / allow: set the fake's open fault, or end the test.
deny() {
	ctl allow open all >/dev/null && ctl deny open "$1" "$2" >/dev/null ||
	    { echo "Bail out! the fake MSR device refused 'deny open $1 $2'"; exit 1; }
}

# run_httop: httop on the fake device; its status, output and
# message are in $st, $work/out, $work/err.
run_httop() {
	httop_msr "$SKX_XML" "$SKX_CPUID" -b -n 2 -d 0.2 --format json >"$work/out" 2>"$work/err"
	st=$?
	diag "exit $st: $(cat "$work/err")"
}

# advice_line DEVICE: one line, naming DEVICE, with all three remedies.
advice_line() {
	[ "$(wc -l <"$work/err")" -eq 1 ] &&
	    grep -q -- "$1" "$work/err" &&
	    grep -q "run as root" "$work/err" &&
	    grep -q "setcap cap_sys_rawio" "$work/err" &&
	    grep -q "msr-safe" "$work/err"
}

# Nothing reached a register: the fake saw no read and no write at all.
untouched() {
	[ "$(ctl counts)" = "reads 0 writes 0" ] && [ -z "$(ctl log)" ]
}

ctl dump >"$work/before"

# 1. EACCES on every CPU: the first device httop opens is CPU 0's.
deny all EACCES
run_httop
check "EACCES: exit status is neither 0 nor 2 (usage)" test "$st" -ne 0 -a "$st" -ne 2
check "EACCES: exactly one line on stderr" test "$(wc -l <"$work/err")" -eq 1
check "EACCES: it names the device $mnt/0/msr" grep -q -- "$mnt/0/msr" "$work/err"
check "EACCES: it says to run as root" grep -q "run as root" "$work/err"
check "EACCES: it names setcap cap_sys_rawio" grep -q "setcap cap_sys_rawio" "$work/err"
check "EACCES: it names msr-safe" grep -q "msr-safe" "$work/err"
check "EACCES: no output" test ! -s "$work/out"
check "EACCES: no register was read or written" untouched

# 2. EPERM on every CPU: the same advice.
deny all EPERM
run_httop
check "EPERM: non-zero exit, one line naming $mnt/0/msr with the three remedies" \
    eval 'test "$st" -ne 0 -a "$st" -ne 2 && advice_line "$mnt/0/msr"'
check "EPERM: no output, no register read or written" \
    eval 'test ! -s "$work/out" && untouched'

# 3. EPERM on CPU 7 only: CPUs 0-6 open, then httop stops at CPU 7 before
#    reading or writing anything.
deny 7 EPERM
run_httop
check "EPERM on CPU 7: non-zero exit, one line naming $mnt/7/msr with the remedies" \
    eval 'test "$st" -ne 0 -a "$st" -ne 2 && advice_line "$mnt/7/msr"'
check "EPERM on CPU 7: no output, no register read or written" \
    eval 'test ! -s "$work/out" && untouched'

# 4. A vanished device (ENOENT) on CPU 5 while the others open: CPU 5 is
#    offline (as after hotplug), its core {5, 41} shows offline in both
#    intervals, CPU 5 is never written.
deny 5 ENOENT
ctl clearlog >/dev/null
run_httop
check "ENOENT on CPU 5: exit 0, its core (CPUs 5, 41) offline in both intervals" \
    eval 'test "$st" -eq 0 && test "$(jq -r '"'"'.cores[] | select(.cpus == [5, 41]) |
    "\(.valid) \(.reason)"'"'"' "$work/out" | sort | uniq -c | awk '"'"'{ print $1, $2, $3 }'"'"')" = "2 false offline"'
check "ENOENT on CPU 5: CPU 5 never written, the 35 other cores valid" \
    eval 'test -z "$(ctl log | awk '"'"'$1 == 5'"'"')" &&
    test "$(jq -r '"'"'[.cores[] | select(.cpus != [5, 41] and .valid)] | length'"'"' "$work/out" |
    sort -u)" = 35'
check_schema "$work/out"

# 5. ENXIO on CPU 5 (core {5, 41}): that core is offline in both
#    intervals, the other 35 cores are valid, CPU 5 is never written, and
#    every register is back afterwards.
deny 5 ENXIO
run_httop
check "ENXIO on CPU 5: exit 0 with two intervals" \
    eval 'test "$st" -eq 0 && test "$(jq -s length "$work/out")" = 2'
check_schema "$work/out"
check "ENXIO on CPU 5: its core (CPUs 5, 41) is offline in both intervals" \
    test "$(jq -r '.cores[] | select(.cpus == [5, 41]) | "\(.valid) \(.reason)"' "$work/out" |
    sort | uniq -c | awk '{ print $1, $2, $3 }')" = "2 false offline"
check "ENXIO on CPU 5: the 35 other cores are valid in both intervals" \
    test "$(jq -r '[.cores[] | select(.cpus != [5, 41] and .valid)] | length' "$work/out" |
    sort -u)" = 35
check "ENXIO on CPU 5: CPU 5 never written, its sibling 41 programmed, all restored" \
    eval 'test -z "$(ctl log | awk '"'"'$1 == 5'"'"')" &&
    test -n "$(log_cpus 0x38d 0x333 | grep -x 41)" &&
    ctl dump >"$work/after" && cmp -s "$work/before" "$work/after"'
exit 0
