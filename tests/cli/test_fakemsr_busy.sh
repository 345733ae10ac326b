#!/bin/sh
# test_fakemsr_busy.sh: another program holds a counter (PERFEVTSEL0 on
# CPU 3 = 0x43003c: event 0x3C umask 0 with USR, OS and EN, bit 22). httop
# refuses, names the register and the CPU, and writes nothing at all; with
# --force it takes the counters and gives the other program's value back.
. "${HTTOP_SRCDIR:-.}/tests/cli/fakemsrlib.sh"

plan 10

fake_mount "$SKX_XML" "$SKX_CPUID" --scenario busy --realtime
ctl poke 3 0x186 0x43003c >/dev/null
ctl dump >"$work/before"

httop_msr "$SKX_XML" "$SKX_CPUID" -b -n 3 -d 0.2 --format json >"$work/out" 2>"$work/err"
st=$?
diag "without --force: status $st: $(cat "$work/err")"
check "refused: exit status is not 0" test "$st" -ne 0
check "the message names CPU 3 and PERFEVTSEL0=0x43003c" \
    grep -q "cpu 3 PERFEVTSEL0=0x43003c" "$work/err"
check "the message suggests --force" grep -q -- "--force" "$work/err"
check "the refusal is the only line (no calibration note before it)" \
    test "$(grep -c . "$work/err")" -eq 1
check "nothing was written (the log is empty)" test -z "$(ctl log)"
check "no interval was printed" test ! -s "$work/out"

httop_msr "$SKX_XML" "$SKX_CPUID" -b -n 2 -d 0.2 --format json --force \
    >"$work/out" 2>"$work/err"
st=$?
check "with --force: exit status 0" test "$st" -eq 0
[ "$st" -eq 0 ] || sed 's/^/# /' "$work/err"
check_schema "$work/out"
check "with --force: CPU 3 got httop's PERFEVTSEL0 0x63013c" \
    test -n "$(log_cpus 0x186 0x63013c | grep -x 3)"
ctl dump >"$work/after"
if cmp -s "$work/before" "$work/after"; then
	ok "the other program's 0x43003c is back on CPU 3, nothing else changed"
else
	not_ok "the other program's 0x43003c is back on CPU 3, nothing else changed"
	diff "$work/before" "$work/after" | sed 's/^/# /'
fi
exit 0
