#!/bin/sh
# test_perfmon_cap.sh: who refused the counters (issue 35, 8). A copy of
# httop with `setcap cap_perfmon+ep`, run by an unprivileged user where
# kernel.perf_event_paranoid is above 0, is refused by perf_event_open
# (EACCES) for the sched and perf sources: httop, having gained that
# capability from the file, gives it up before it opens the events
# (httop(1), PRIVILEGE), and the sysctl then refuses CPU-wide events to
# the user. The message says that, with the sysctl's value and the errno,
# and the fix (the sysctl, or root), never "give httop CAP_PERFMON",
# which it has. A plain copy run the same way is told of the sysctl and
# of CAP_PERFMON as an ambient capability, not a file one; and that
# advice holds: with CAP_PERFMON in its ambient set (setpriv), the same
# user's plain copy opens the sched source.
# Needs root, setcap, setpriv, lstopo-no-graphics and a sysctl above 0
# (the test leaves it as it is); skips otherwise.
. "$HTTOP_SRCDIR/tests/lib.sh"
[ "$(id -u)" = 0 ] || skip_all "needs root (to set a file capability and become nobody)"
need setcap libcap2-bin
need setpriv util-linux
need lstopo-no-graphics hwloc "to write the topology that declares CPUs 0 and 1 siblings"
para=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null)
[ -n "$para" ] || skip_all "/proc/sys/kernel/perf_event_paranoid cannot be read"
[ "$para" -gt 0 ] ||
	skip_all "kernel.perf_event_paranoid is $para: nothing refuses a user CPU-wide events"
id nobody >/dev/null 2>&1 || skip_all "no user nobody"
group=$(id -gn nobody)

work=$(mktemp -d /tmp/httop-perfmon.XXXXXX) || exit 1
trap 'rm -rf "$work"' EXIT
trap 'exit 1' INT TERM HUP
chmod 755 "$work"
for v in plain caps; do cp "$HTTOP" "$work/httop-$v"; done
chmod 755 "$work"/httop-*
if ! setcap cap_perfmon+ep "$work/httop-caps" 2>"$work/setcap.err"; then
	skip_all "setcap cap_perfmon+ep failed here: $(cat "$work/setcap.err")"
fi
sched_siblings "$work/sib.xml"
chmod 644 "$work/sib.xml"

plan 11

as_nobody() {
	setpriv --reuid=nobody --regid="$group" --clear-groups -- "$@"
}
# says FILE DESC TEXT: one TAP line, FILE holds TEXT (a fixed string).
says() {
	if grep -qF -- "$3" "$1"; then ok "$2"; else not_ok "$2"; sed 's/^/# /' "$1"; fi
}

for src in sched perf; do
	as_nobody "$work/httop-caps" --source "$src" --topology "$work/sib.xml" -b -n 1 -d 0.1 \
	    >/dev/null 2>"$work/$src.err"
	st=$?
	check "cap_perfmon+ep, nobody, --source $src: refused (status $st)" [ "$st" -ne 0 ]
	says "$work/$src.err" "... the sysctl and its value: kernel.perf_event_paranoid is $para" \
	    "kernel.perf_event_paranoid is $para, which allows CPU-wide events only with CAP_PERFMON"
	says "$work/$src.err" "... that httop gave the file's capability up before opening" \
	    "and httop, installed set-ID or with file capabilities, gives its privilege up before it opens them"
	if grep -q 'give httop CAP_PERFMON' "$work/$src.err"; then
		not_ok "... never 'give httop CAP_PERFMON', which it has"; sed 's/^/# /' "$work/$src.err"
	else
		ok "... never 'give httop CAP_PERFMON', which it has"
	fi
done
says "$work/sched.err" "sched: the errno perf_event_open returned (Permission denied)" \
    "refused to follow the scheduler on CPU 0 (Permission denied)"

as_nobody "$work/httop-plain" --source sched --topology "$work/sib.xml" -b -n 1 -d 0.1 \
    >/dev/null 2>"$work/plain.err"
says "$work/plain.err" "a plain copy: the sysctl, root, or CAP_PERFMON as an ambient capability" \
    "run httop as root or with CAP_PERFMON as an ambient capability (setpriv --inh-caps +perfmon --ambient-caps +perfmon), not a file capability"

# The advice holds: an ambient CAP_PERFMON opens the sched source.
setpriv --reuid=nobody --regid="$group" --clear-groups --inh-caps=+perfmon \
    --ambient-caps=+perfmon -- "$work/httop-plain" --source sched \
    --topology "$work/sib.xml" -b -n 1 -d 0.1 >"$work/amb.out" 2>"$work/amb.err"
st=$?
if [ "$st" -eq 0 ] && grep -q 'source sched' "$work/amb.out"; then
	ok "CAP_PERFMON as an ambient capability: the sched source opens for nobody"
elif grep -q 'setpriv' "$work/amb.err"; then
	skip "setpriv cannot give an ambient CAP_PERFMON here: $(head -n 1 "$work/amb.err")"
else
	not_ok "CAP_PERFMON as an ambient capability: the sched source opens for nobody (status $st)"
	sed 's/^/# /' "$work/amb.err"
fi
