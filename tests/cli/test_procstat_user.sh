#!/bin/sh
# test_procstat_user.sh: httop as a new user would run it where the
# counters are closed: an unprivileged user (nobody) with
# kernel.perf_event_paranoid at 2 (put back on exit):
#  - --source auto says why each source before it does not work (the
#    sched source, where this httop has it, with its reason) and uses
#    procstat: the JSON lines name it;
#  - httop -- COMMAND with no source at all (--source perf: per-CPU
#    counting needs paranoid 0 or less) runs the command, exits with its
#    status, and its JSON record (-b --format json -o FILE) gives the
#    elapsed, user and system CPU time, what was not measured and why;
#  - the same in text: the command's output, "CPU time:", "not measured";
#  - with procstat, the command's summary has the four shares.
# Needs root (to change the sysctl and become nobody) and setpriv.
. "${HTTOP_SRCDIR:-.}/tests/lib.sh"

[ "$(id -u)" = 0 ] || skip_all "needs root (to set perf_event_paranoid and become nobody)"
need setpriv util-linux
need python3 python3
para=/proc/sys/kernel/perf_event_paranoid
[ -w "$para" ] || skip_all "$para cannot be written here"
id nobody >/dev/null 2>&1 || skip_all "no user nobody"
group=$(id -gn nobody)

work=$(mktemp -d /tmp/httop-psuser.XXXXXX) || exit 1
old=$(cat "$para")
cleanup() {
	echo "$old" >"$para"
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
chmod 755 "$work"
mkdir -m 777 "$work/out"
cp "$HTTOP" "$work/httop" && chmod 755 "$work/httop"
echo 2 >"$para"

as_nobody() {
	setpriv --reuid=nobody --regid="$group" --clear-groups -- "$@"
}

plan 12

(cd "$work/out" && as_nobody "$work/httop" -v -b -n 2 -d 0.2 --format json) \
	>"$work/auto.json" 2>"$work/auto.err"
st=$?
check "nobody, paranoid 2, --source auto: exit status 0 (got $st)" [ "$st" -eq 0 ]
check "... says why perf does not work (paranoid) and that it uses procstat" \
	sh -c "grep -q 'perf: .*paranoid' '$work/auto.err' && grep -q 'using procstat' '$work/auto.err'"
# msr failed first (its note says why): perf's fix is the sysctl, root or
# an ambient CAP_PERFMON, never --source msr again.
check "... perf's fix: the sysctl, root or CAP_PERFMON, not --source msr (tried already)" \
	sh -c "grep -q \"perf: [^;]*paranoid[^;]*; run 'sysctl kernel.perf_event_paranoid=0' as root, or run httop as root or with CAP_PERFMON as an ambient capability ([^;]*), not a file capability; \" '$work/auto.err' && ! grep -q -- '--source msr' '$work/auto.err'"
if "$work/httop" --help 2>&1 | grep -q 'sched'; then
	check "... the sched source refused with its reason" \
		grep -q 'sched: [^;]*paranoid' "$work/auto.err"
else
	skip "this httop has no sched source"
fi
check "... every JSON line is from procstat" \
	python3 -c "
import json, sys
ls = [json.loads(l) for l in open(sys.argv[1])]
assert len(ls) == 2 and all(d['source'] == 'procstat' for d in ls), ls" "$work/auto.json"
diag "$(cat "$work/auto.err")"

(cd "$work/out" && as_nobody "$work/httop" --source perf -b --format json -o "$work/out/cmd.json" \
	-- sh -c 'echo RAN; exit 7') >"$work/cmd.out" 2>"$work/cmd.err"
st=$?
check "no source (--source perf as nobody): the command runs" grep -qx RAN "$work/cmd.out"
check "... httop exits with its status 7 (got $st)" [ "$st" -eq 7 ]
check "... its JSON record: status, elapsed, user and system CPU time, what was not measured and why" \
	python3 - "$work/out/cmd.json" <<'EOF'
import json, sys
ls = [json.loads(l) for l in open(sys.argv[1])]
assert len(ls) == 1, ls
d = ls[0]
assert d["command"] == ["sh", "-c", "echo RAN; exit 7"], d["command"]
assert d["status"] == 7 and d["signal"] is None, d
assert d["source"] is None, d
assert isinstance(d["elapsed"], float) and 0.0 <= d["elapsed"] < 30.0, d
assert isinstance(d["user_cpu"], float) and d["user_cpu"] >= 0.0, d
assert isinstance(d["system_cpu"], float) and d["system_cpu"] >= 0.0, d
for k in ("neither", "t0_only", "t1_only", "both", "util", "ghz", "cpi"):
    assert k in d["not_measured"], d["not_measured"]
assert "paranoid" in d["reason"], d["reason"]
EOF
diag "$(cat "$work/cmd.err")"

(cd "$work/out" && as_nobody "$work/httop" --source perf -- sh -c 'echo RAN; exit 0') \
	>"$work/t.out" 2>"$work/t.err"
st=$?
check "text: the command runs, status 0 (got $st)" \
	sh -c "[ $st -eq 0 ] && grep -qx RAN '$work/t.out'"
# (the summary's lines wrapped at 80 columns: joined again)
check "... the summary gives its CPU time and says what was not measured and why" \
	sh -c "grep -q 'CPU time: user' '$work/t.err' && grep -q 'not measured' '$work/t.err' &&
	    tr -s '\n ' '  ' <'$work/t.err' | grep -q 'why: .*paranoid'"

(cd "$work/out" && as_nobody "$work/httop" -d 0.2 -- sh -c 'exit 3') \
	>"$work/p.out" 2>"$work/p.err"
st=$?
check "auto as nobody -- COMMAND: procstat, status 3 (got $st)" [ "$st" -eq 3 ]
check "... its summary names procstat and has the four shares' columns" \
	sh -c "grep -q 'source procstat' '$work/p.err' && grep -q 'neither%' '$work/p.err' &&
	    grep -q 'both%' '$work/p.err'"
exit $((tap_failed > 0))
