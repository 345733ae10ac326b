#!/bin/sh
# test_check_hotplug.sh: httop --check while CPU 1 goes offline and comes
# back, for real, as root. Every run must end by itself with status 0 or 1
# (never a signal), write a report whose JSON parses with no NaN and
# every share and utilisation in [0, 1], and mark the case during which
# CPU 1 was away disturbed, with "CPU 1 was offline" as the reason (a
# source that does not see hotplug must not pass or fail it):
#  - procstat, CPUs 0 and 1 declared siblings (--topology), case t1: the
#    load on CPU 1 is moved off it by the kernel mid-case;
#  - the same, CPU 1 taken offline as the scheduler's reader thread
#    starts, before the case's load and first read (or as the load
#    starts, where no scheduler's record is read);
#  - the scheduler source itself, declared siblings, case t0: CPU 1 idle
#    (no load there) goes offline mid-case;
#  - msr through the FUSE fake MSR device (which knows nothing of
#    hotplug), --cpus 1, the scheduler's record beside it: every register
#    as before; and once more over every case with CPU 1 going offline
#    and back every few tenths of a second;
#  - CPU 1 offline when httop starts, --cpus 1: a usage error (status 2)
#    that says so (this was a crash, SIGSEGV).
# CPU 1 offline breaks any test pinned to it, so this one runs alone, in
# the serial phase (make check-serial; HACKING.md). CPU 1 is always
# brought back (trap on EXIT, INT, TERM, HUP), the device unmounted.
. "$HTTOP_SRCDIR/tests/lib.sh"
need python3 python3
need jq jq
need_cpu1_hotplug

dir=$(mktemp -d "${TMPDIR:-/tmp}/httop-checkplug.XXXXXX") || exit 1
mnt=
pid=
back() { echo 1 >"$ctl" 2>/dev/null; }
cleanup() {
	[ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	back
	if [ -n "$mnt" ]; then
		fusermount3 -u "$mnt" 2>/dev/null || umount -l "$mnt" 2>/dev/null
		rmdir "$mnt" 2>/dev/null
	fi
	rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
if ! echo 0 >"$ctl" 2>"$dir/off.err"; then
	skip_all "CPU 1 cannot go offline: $(cat "$dir/off.err")"
fi
back
[ "$(cat "$ctl")" = 1 ] || { echo "Bail out! CPU 1 did not come back online"; exit 1; }

# Declared siblings need exactly CPUs 0 and 1 (test_check_beside.sh).
sib=
if [ "$(cat /sys/devices/system/cpu/online)" = 0-1 ] &&
    command -v lstopo-no-graphics >/dev/null 2>&1; then
	lstopo-no-graphics --input "pack:1 core:1 pu:2" --of xml "$dir/sib.xml" 2>/dev/null &&
		[ -s "$dir/sib.xml" ] && sib=$dir/sib.xml
fi
# The fake MSR device with this machine's topology, as test_check_threads.sh.
FAKEMSR=$HTTOP_BUILDDIR/tests/fakemsr/fakemsr
SKX_CPUID=$HTTOP_FIXTURES/cpuid/skx-6154-2s-18c-ht.cpuid.txt
nofake=
if [ ! -x "$FAKEMSR" ]; then
	nofake="the fake MSR device was not built (configure found no fuse3)"
elif [ ! -c /dev/fuse ]; then
	nofake="no /dev/fuse here"
elif ! command -v lstopo-no-graphics >/dev/null 2>&1; then
	nofake="lstopo-no-graphics (hwloc) is missing"
else
	lstopo-no-graphics --of xml "$dir/live.xml" 2>/dev/null
	printf 'httop-scenario 1\ndefault busy ghz=10\n' >"$dir/busy.scen"
	mnt=$(mktemp -d "${TMPDIR:-/tmp}/httop-checkplug-mnt.XXXXXX") || exit 1
	if ! "$FAKEMSR" "$mnt" --topology "$dir/live.xml" --cpuid "$SKX_CPUID" \
	    --scenario "$dir/busy.scen" --realtime 2>"$dir/fakemsr.err" || [ ! -e "$mnt/ctl" ]; then
		nofake="the fake MSR device did not mount: $(head -c 200 "$dir/fakemsr.err")"
		rmdir "$mnt" 2>/dev/null
		mnt=
	fi
fi
fctl() { printf '%s\n' "$*" >"$mnt/ctl" && cat "$mnt/ctl"; }
# The case that loads CPU 1 when --cpus 1 picks its core: t0 if CPU 1 is
# its core's first thread, t1 if it is the second.
first=$(cat /sys/devices/system/cpu/cpu1/topology/thread_siblings_list 2>/dev/null)
first=${first%%[,-]*}
case1=t0
[ -n "$first" ] && [ "$first" != 1 ] && case1=t1

# start NAME ARGS...: httop --check in the background (the machine is
# shared: HTTOP_CHECK_BUSY_MAX), JSON to $dir/NAME.json.
start() {
	name=$1
	shift
	HTTOP_CHECK_BUSY_MAX=1 "$HTTOP" --check -b --format json "$@" >"$dir/$name.json" \
	    2>"$dir/$name.err" &
	pid=$!
}

# await COMM: wait (5 s at most) for a thread of httop named COMM (an
# extended regular expression) to run.
await() {
	n=0
	while ! cat /proc/"$pid"/task/*/comm 2>/dev/null | grep -qxE "$1" && [ "$n" -lt 250 ]; do
		sleep 0.02
		n=$((n + 1))
	done
}

# pulse AFTER FOR: CPU 1 offline AFTER s from now, for FOR s.
pulse() {
	sleep "$1"
	echo 0 >"$ctl"
	sleep "$2"
	back
}

# finish NAME CASE: wait for httop (20 s at most), then judge its status
# and report: CASE (if not empty) is the one CPU 1 went away in.
finish() {
	name=$1
	n=0
	while kill -0 "$pid" 2>/dev/null && [ "$n" -lt 200 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	kill -KILL "$pid" 2>/dev/null
	wait "$pid"
	st=$?
	pid=
	back
	diag "$name: exit $st, $(head -c 300 "$dir/$name.err")"
	# (and no sanitizer report: UBSan's halt_on_error ends with status 1)
	check "$name: ended by itself with status 0 or 1 (never a signal), CPU 1 back online" \
	    sh -c "[ $st -le 1 ] && [ \"\$(cat $ctl)\" = 1 ] &&
		! grep -q 'Sanitizer\|runtime error' '$dir/$name.err'"
	python3 - "$dir/$name.json" "$2" >"$dir/$name.res" 2>&1 <<'EOF'
import json, sys

def bad(n):
    raise ValueError("%s in the JSON" % n)

def share(v):   # a figure: a number, a bound [lo, hi], or null
    vs = [] if v is None else v if isinstance(v, list) else [v]
    return all(0.0 <= x <= 1.0 for x in vs)

r = json.loads(open(sys.argv[1]).read(), parse_constant=bad)
if r.get("outcome") == "error":
    sys.exit("the check failed: %s" % r.get("error"))
cases = r.get("cases") or []
for c in cases:
    for f in c["figures"]:
        if f["family"] in ("split", "util") and not share(f["measured"]):
            sys.exit("case %s: %s %s out of [0, 1]" % (c["case"], f["figure"], f["measured"]))
    for f in (c.get("beside") or {}).get("figures", []):
        if not share(f["measured"]) or not share(f["sched"]):
            sys.exit("case %s: beside %s out of [0, 1]" % (c["case"], f["figure"]))
print("%d cases: %s" % (len(cases), ", ".join("%s %s" % (c["case"], c["verdict"]) for c in cases)))
if sys.argv[2]:
    c = [c for c in cases if c["case"] == sys.argv[2]]
    if not c:
        sys.exit("no case %s" % sys.argv[2])
    c = c[0]
    why = c.get("disturbed") or ""
    print("case %s: %s (%s)" % (c["case"], c["verdict"], why))
    if c["verdict"] != "disturbed" or "CPU 1 was offline" not in why:
        sys.exit("case %s is not disturbed by CPU 1 offline" % c["case"])
EOF
	prc=$?
	check "$name: the JSON parses, no NaN, shares in [0, 1]${2:+, case $2 disturbed: CPU 1 offline}: $(tr '\n' ' ' <"$dir/$name.res")" \
	    test "$prc" = 0
}

if [ -n "$sib" ]; then
	# The load on CPU 1 is in its interval (which starts within 0.1 s
	# of the load thread) when CPU 1 goes.
	start procstat-mid --source procstat --topology "$sib" --check-case t1 --seconds 1.5
	await httop-load
	pulse 0.3 0.4
	finish procstat-mid t1
	start procstat-start --source procstat --topology "$sib" --check-case t1 --seconds 0.5
	await 'httop-sched|httop-load'
	pulse 0 0.8
	finish procstat-start t1
	start sched-mid --source sched --topology "$sib" --check-case t0 --seconds 1.5
	await httop-load
	pulse 0.3 0.4
	finish sched-mid t0
else
	for t in procstat-mid procstat-start sched-mid; do
		skip "$t: needs exactly CPUs 0 and 1 online and lstopo-no-graphics (hwloc)"
		skip "$t: (its report)"
	done
fi

if [ -n "$mnt" ]; then
	msr="--source msr --msr-path $mnt/%u/msr --cpuid $SKX_CPUID"
	fctl dump >"$dir/before"
	start msr-mid $msr --cpus 1 --check-case "$case1" --seconds 1.5
	await httop-load
	fctl dump >"$dir/during"
	pulse 0.3 0.4
	finish msr-mid "$case1"
	fctl dump >"$dir/after"
	diag "msr-mid: beside $(jq -c '[.beside.source, .cases[0].beside.disturbed]' "$dir/msr-mid.json" 2>/dev/null)"
	check "msr-mid: the check wrote registers, and every one is as before" \
	    sh -c "! cmp -s '$dir/before' '$dir/during' && cmp -s '$dir/before' '$dir/after'"
	start msr-pulses $msr --cpus 1 --seconds 0.4
	n=0
	while kill -0 "$pid" 2>/dev/null && [ "$n" -lt 40 ]; do
		pulse 0.3 0.2
		n=$((n + 1))
	done
	finish msr-pulses ""
	fctl dump >"$dir/after"
	check "msr-pulses: every register as before" cmp -s "$dir/before" "$dir/after"
else
	for t in msr-mid msr-mid msr-mid msr-pulses msr-pulses msr-pulses; do
		skip "$t: $nofake"
	done
fi

# CPU 1 offline when httop reads the topology: no core is known for it.
echo 0 >"$ctl"
HTTOP_CHECK_BUSY_MAX=1 "$HTTOP" --check --source procstat --cpus 1 --seconds 0.5 \
    >"$dir/at-start.out" 2>"$dir/at-start.err"
st=$?
back
diag "at-start: exit $st, $(head -c 300 "$dir/at-start.err")"
check "at-start: CPU 1 offline at start, --cpus 1: status 2, the reason said" \
    sh -c "[ $st = 2 ] && grep -q 'CPU 1 was offline when the topology was read' '$dir/at-start.err'"
check "CPU 1 is online at the end" test "$(cat "$ctl")" = 1
plan "$tap_n"
[ "$tap_failed" -eq 0 ]
