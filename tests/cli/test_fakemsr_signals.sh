#!/bin/sh
# test_fakemsr_signals.sh: httop on the fake MSR device of a Skylake-SP is
# stopped by SIGTERM, SIGHUP and SIGINT in the middle of a run; every time
# every register it wrote is back to its value before httop, including a
# value another program had set (PMC1 enabled in GLOBAL_CTRL on CPU 1).
. "${HTTOP_SRCDIR:-.}/tests/cli/test_fakemsr_lib.sh"

plan 10

fake_mount "$SKX_XML" "$SKX_CPUID" --scenario busy --realtime
ctl poke 1 0x38F 0x2 >/dev/null
ctl dump >"$work/before"

for sig in TERM HUP INT; do
	ctl clearlog >/dev/null
	# Not through the httop_msr function: $! must be httop itself.
	"$HTTOP" --source msr --msr-path "$mnt/%u/msr" --topology "$SKX_XML" \
	    --cpuid "$SKX_CPUID" -b -n 1000 -d 0.2 --format json \
	    >"$work/out.$sig" 2>"$work/err.$sig" &
	bg_pid=$!
	# Running: the main plan's PERFEVTSEL0 is written, one interval is out.
	if wait_log "0x186 0x63013c" && sleep 0.5 && kill -0 "$bg_pid" 2>/dev/null; then
		ok "SIG$sig: httop is running with the counters programmed"
	else
		not_ok "SIG$sig: httop is running with the counters programmed"
		sed 's/^/# /' "$work/err.$sig"
	fi
	kill -"$sig" "$bg_pid"
	wait "$bg_pid"
	st=$?
	bg_pid=
	diag "SIG$sig: exit status $st, $(wc -l <"$work/out.$sig") intervals"
	# 0 or 128 + the signal, as main decides; the registers are the test.
	case $sig in TERM) n=15 ;; HUP) n=1 ;; INT) n=2 ;; esac
	check "SIG$sig: httop ended (status $st)" test "$st" -eq 0 -o "$st" -eq $((128 + n))
	ctl dump >"$work/after"
	if cmp -s "$work/before" "$work/after"; then
		ok "SIG$sig: every register is back to its value before httop"
	else
		not_ok "SIG$sig: every register is back to its value before httop"
		diff "$work/before" "$work/after" | sed 's/^/# /'
	fi
done
# What was written before each signal is whole, valid lines.
check_schema "$work/out.TERM" "$work/out.HUP" "$work/out.INT"
exit 0
