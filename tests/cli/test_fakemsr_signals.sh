#!/bin/sh
# test_fakemsr_signals.sh: httop on the fake MSR device of a Skylake-SP is
# stopped by SIGTERM, SIGHUP and SIGINT in the middle of a run; every time
# every register it wrote is back to its value before httop, including a
# value another program had set (PMC1 enabled in GLOBAL_CTRL on CPU 1).
. "${HTTOP_SRCDIR:-.}/tests/cli/fakemsrlib.sh"
# Under nohup (SIGHUP ignored when the test starts; the library's trap on
# HUP cannot change that) httop keeps SIGHUP ignored, as it should: the
# SIGHUP case would run its 1000 refreshes out; it skips with the reason.
hup_ign=false
hup_ignored && hup_ign=true

plan 13

fake_mount "$SKX_XML" "$SKX_CPUID" --scenario busy --realtime
ctl poke 1 0x38F 0x2 >/dev/null
ctl dump >"$work/before"

outs=
for sig in TERM HUP INT; do
	if [ "$sig" = HUP ] && $hup_ign; then
		for c in "is running" "ended" "the last interval read then" "every register is back"; do
			skip "SIG$sig: $c: $hup_skip_reason"
		done
		continue
	fi
	outs="$outs $work/out.$sig"
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
	t=$(date +%s.%N)
	kill -"$sig" "$bg_pid"
	wait "$bg_pid"
	st=$?
	bg_pid=
	diag "SIG$sig: exit status $st, $(wc -l <"$work/out.$sig") intervals"
	# 0 or 128 + the signal, as main decides; the registers are the test.
	case $sig in TERM) n=15 ;; HUP) n=1 ;; INT) n=2 ;; esac
	check "SIG$sig: httop ended (status $st)" test "$st" -eq 0 -o "$st" -eq $((128 + n))
	# The window ends at the signal: the counters were read once more when
	# it came (the last interval's time is after the signal was sent), a
	# partial interval (-d 0.2).
	check "SIG$sig: the last, partial interval was read when the signal came" \
	    jq -se --argjson t "$t" 'length > 0 and (.[-1].unix_time >= $t) and
	    (.[-1].interval > 0) and (.[-1].interval <= 0.25)' "$work/out.$sig"
	ctl dump >"$work/after"
	if cmp -s "$work/before" "$work/after"; then
		ok "SIG$sig: every register is back to its value before httop"
	else
		not_ok "SIG$sig: every register is back to its value before httop"
		diff "$work/before" "$work/after" | sed 's/^/# /'
	fi
done
# What was written before each signal is whole, valid lines.
# shellcheck disable=SC2086
check_schema $outs
exit 0
