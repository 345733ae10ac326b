#!/bin/sh
# test_command_msr.sh: httop -- COMMAND on the fake MSR device of a
# Skylake-SP, stopped by Ctrl-C (SIGINT to the whole process group, as a
# terminal sends it) while the command runs: the command ends with the
# signal, httop still prints the summary of the run and exits 130, and
# every register it wrote is back to its value before httop (including
# one another program had set). Then a command that ends by itself: the
# same registers back, status 0. The summary's split comes from the
# device's counters: its shares sum to 100% and its both/busy is both over
# util.
. "${HTTOP_SRCDIR:-.}/tests/cli/fakemsrlib.sh"

plan 8
if ! command -v python3 >/dev/null 2>&1; then
	i=0; while [ $i -lt 8 ]; do skip "python3 is not installed"; i=$((i + 1)); done
	exit 0
fi

fake_mount "$SKX_XML" "$SKX_CPUID" --scenario demo --realtime
ctl poke 1 0x38F 0x2 >/dev/null
ctl dump >"$work/before"

# httop in a process group of its own, as a shell's foreground job; once
# the counters are programmed, SIGINT to the group.
python3 - "$HTTOP" "$mnt" "$SKX_XML" "$SKX_CPUID" "$work" <<'EOF' >"$work/py.out" 2>&1
import os, signal, subprocess, sys, time
# A shell's Ctrl-C reaches a foreground job with SIGINT at its default;
# a suite started in the background (`cmd &`, nohup) inherits it ignored.
signal.signal(signal.SIGINT, signal.SIG_DFL)
httop, mnt, xml, cpuid, work = sys.argv[1:]
argv = [httop, "--source", "msr", "--msr-path", mnt + "/%u/msr", "--topology", xml,
        "--cpuid", cpuid, "-d", "0.2", "--", "sleep", "60"]
with open(work + "/err", "w") as err:
    p = subprocess.Popen(argv, stderr=err, start_new_session=True)
    # Programmed: the main plan's PERFEVTSEL0 written (see test_fakemsr_signals.sh).
    t = time.time()
    while time.time() - t < 20:
        with open(mnt + "/ctl", "w") as c:
            c.write("log\n")
        if "0x186 0x63013c" in open(mnt + "/ctl").read():
            break
        time.sleep(0.1)
    time.sleep(1.0)
    os.killpg(p.pid, signal.SIGINT)
    try:
        rc = p.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        rc = "timeout"
open(work + "/status", "w").write("%s\n" % rc)
EOF
st=$(cat "$work/status" 2>/dev/null)
check "Ctrl-C during the command: httop exits 130, the command's status (got $st)" [ "$st" = 130 ]
check "... the summary: the command was killed by signal 2" \
	grep -q 'sleep 60 (pid [0-9]*): killed by signal 2' "$work/err"
if summary_node "$work/err" | awk '{ s = $1 + $2 + $3 + $4
	ok = NF == 9 && s > 99.5 && s < 100.5 && $5 > 0 && ($6 - 100 * $4 / $5) ^ 2 < 0.2 ^ 2 }
	END { exit !ok }'; then
	ok "... its node row: the device's split (shares sum to 100%, both/busy = both / util)"
else
	not_ok "... its node row: the device's split"; sed 's/^/# /' "$work/err"
fi
ctl dump >"$work/after"
if cmp -s "$work/before" "$work/after"; then
	ok "... every register is back to its value before httop"
else
	not_ok "... every register is back to its value before httop"
	diff "$work/before" "$work/after" | sed 's/^/# /'
fi

# A command that ends by itself.
ctl clearlog >/dev/null
httop_msr "$SKX_XML" "$SKX_CPUID" -d 0.2 -- sleep 1 >"$work/out" 2>"$work/err2"; st=$?
check "-- sleep 1 on the device: exit status 0 (got $st)" [ "$st" -eq 0 ]
check "... the summary covers about 1 s" \
	grep -Eq 'exit status 0 after (0\.9[0-9]|1\.[0-9][0-9]) s' "$work/err2"
check "... with a package row" grep -Eq '^  package [0-9]+ +[0-9]' "$work/err2"
ctl dump >"$work/after"
if cmp -s "$work/before" "$work/after"; then
	ok "... every register is back to its value before httop"
else
	not_ok "... every register is back to its value before httop"
	diff "$work/before" "$work/after" | sed 's/^/# /'
fi
