#!/bin/sh
# test_signal_window.sh: the window is the job's. httop in batch mode
# watching a job (--pid) with an interval far longer than the test, ended
# by SIGTERM (as the Slurm epilog ends the prolog's httop), SIGINT or
# SIGHUP: it reads the counters once more when the signal comes and writes
# that last, partial interval (shorter than -d, read after the signal was
# sent) and the whole job, whose length is exactly the sum of its
# intervals (from the first sample to the signal). For each source this
# machine has: procstat, sched (root), perf (where the PMU is there), the
# simulator; the fake MSR device's is in test_fakemsr_signals.sh. Then
# `-- COMMAND`: the command's end is read at once, the run is the
# command's. No wall time is asserted: the interval is 100 s, so a signal
# or an end not answered at once leaves the figures of a later read (or
# none), and the time limit catches a hang.
. "$HTTOP_SRCDIR/tests/lib.sh"
need python3 python3
tmp=$(mktemp -d) || exit 1
jobpid=
cleanup() {
	[ -n "$jobpid" ] && kill "$jobpid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
cd "$tmp" || exit 1
# Real time: the test clock has no time between reads to give.
unset HTTOP_CLOCK
hup_ign=false
hup_ignored && hup_ign=true
plan 11

# A job: a process of this machine, not ending during the test.
sleep 600 &
jobpid=$!

# in_wait PID: httop's main thread is in the one wait (poll), so the
# signal is handled by the loop, not by start-up's quick exit.
in_wait() {
	i=0
	while [ $i -lt 300 ]; do
		case $(cat "/proc/$1/wchan" 2>/dev/null) in
		*poll*) sleep 0.2; case $(cat "/proc/$1/wchan" 2>/dev/null) in *poll*) return 0 ;; esac ;;
		esac
		kill -0 "$1" 2>/dev/null || return 1
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# window NAME SIG OPTIONS...: httop --pid with -d 100 ended by SIG; one
# check of its output.
window() {
	name=$1 sig=$2
	shift 2
	"$HTTOP" -b --format json -d 100 --pid "$jobpid" "$@" >"$name.json" 2>"$name.err" &
	hp=$!
	if ! in_wait "$hp"; then
		wait "$hp"
		not_ok "$name: httop did not reach its loop: $(tail -n 1 "$name.err")"
		return
	fi
	t=$(date +%s.%N)
	kill -s "$sig" "$hp"
	wait "$hp"; st=$?
	case $sig in TERM | INT) want=0 ;; HUP) want=129 ;; esac
	check "$name: SIG$sig: status $st (want $want); the last, partial interval, then the whole job from the first sample to the signal" \
	    python3 -c '
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
st, want, t = int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
assert st == want, (st, want)
assert len(lines) == 2, [l.get("window") for l in lines]
iv, run = lines
assert iv.get("window") is None and run["window"] == "run", (iv.get("window"), run["window"])
# Partial: far shorter than -d 100, read once the signal was sent (the
# sched source cuts its reads 20 ms behind the clock).
assert 0 < iv["interval"] < 100, iv["interval"]
assert iv["unix_time"] >= t - 0.1, (iv["unix_time"], t)
# The whole job is the intervals: its length theirs, its end the last one.
assert abs(run["interval"] - iv["interval"]) <= 1e-6, (run["interval"], iv["interval"])
assert abs(run["unix_time"] - iv["unix_time"]) <= 1e-6, (run["unix_time"], iv["unix_time"])
assert run["job"]["kind"] == "pid" and run["job"]["pid"] == sys.argv[5], run["job"]
# Every figure exact or absent with its reason, never a made-up one.
for l in lines:
    n = l["node"]
    for k in ("util", "neither", "both", "ghz", "cpi", "cpu_s"):
        v = n.get(k)
        assert isinstance(v, (int, float)) or (v is None and (k in n.get("absent", {}) or
            n.get(k + "_lo") is not None)), (k, v, n.get("absent"))
' "$name.json" "$st" "$want" "$t" "$jobpid" || sed 's/^/# /' "$name.err" "$name.json" | cut -c1-300
}

window procstat TERM --source procstat
window procstat-int INT --source procstat
if $hup_ign; then
	skip "SIGHUP: $hup_skip_reason"
else
	window procstat-hup HUP --source procstat
fi
window sim TERM --sim busy
if [ "$(id -u)" -eq 0 ] && "$HTTOP" --source sched -b -n 1 -d 0.1 >/dev/null 2>sched.err; then
	window sched TERM --source sched
	check "sched: the job's own CPU seconds are there (cpu_s $(python3 -c '
import json, sys; print(json.loads(open(sys.argv[1]).read().splitlines()[-1])["job"]["cpu_s"])' sched.json))" \
	    python3 -c '
import json, sys
run = json.loads(open(sys.argv[1]).read().splitlines()[-1])
j = run["job"]
# exact, or a bound where records were lost on a core
assert (isinstance(j["cpu_s"], (int, float)) and j["cpu_s"] >= 0) or (j["cpu_s"] is None and
    0 <= j["cpu_s_lo"] <= j["cpu_s_hi"]), j' sched.json
else
	skip "--source sched is not available here: $(tail -n 1 sched.err)"
	skip "--source sched is not available here"
fi
if "$HTTOP" --source perf -b -n 1 -d 0.1 >/dev/null 2>perf.err; then
	window perf TERM --source perf
else
	skip "--source perf is not available here: $(tail -n 1 perf.err | cut -c1-120)"
fi

# -- COMMAND: its end wakes the wait at once; the last interval is read
# then, and the run is the command's: one interval (shorter than -d 100,
# at least the command's 1 s) and the whole run, the same length.
for s in "--source procstat" "--sim busy"; do
	name=cmd-$(echo "$s" | sed 's/.* //')
	# shellcheck disable=SC2086 # the source's words
	"$HTTOP" -b --format json -d 100 -o "$name.json" $s -- sleep 1 2>"$name.err"; st=$?
	check "$name: -- sleep 1 with -d 100: status $st, one interval of the command's run and the whole run" \
	    python3 -c '
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
assert int(sys.argv[2]) == 0, sys.argv[2]
assert len(lines) == 2, [l.get("window") for l in lines]
iv, run = lines
assert iv.get("window") is None and run["window"] == "run", (iv.get("window"), run["window"])
# the run of the command (sleep 1) from the first read of httop, which
# comes a moment after the command started on a busy machine: about 1 s
assert 0.5 <= iv["interval"] < 100, iv["interval"]
assert abs(run["interval"] - iv["interval"]) <= 1e-6, (run["interval"], iv["interval"])
' "$name.json" "$st" || sed 's/^/# /' "$name.err"
done

# Without a watched job: the last, partial interval alone.
"$HTTOP" -b --format json -d 100 --source procstat >plain.json 2>plain.err &
hp=$!
if in_wait "$hp"; then
	t=$(date +%s.%N)
	kill -s TERM "$hp"
fi
wait "$hp"; st=$?
check "no job, SIGTERM: status $st; the one partial interval read after the signal, no whole run" \
    python3 -c '
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
assert int(sys.argv[2]) == 0 and len(lines) == 1, (sys.argv[2], len(lines))
assert lines[0].get("window") is None and 0 < lines[0]["interval"] < 100, lines[0]["interval"]
assert lines[0]["unix_time"] >= float(sys.argv[3]) - 0.1, (lines[0]["unix_time"], sys.argv[3])
' plain.json "$st" "${t:-0}"
# And nothing of it left running.
check "no httop left running" sh -c '! kill -0 "$1" 2>/dev/null' sh "$hp"
exit 0
