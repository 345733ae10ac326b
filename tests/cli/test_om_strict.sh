#!/bin/sh
# test_om_strict.sh: --format openmetrics passes a strict OpenMetrics
# parser (python3-prometheus-client's), beside promtool's backfill
# (test_promtool.sh) and om_check.py. With -n N one exposition: each family
# once (before, each interval repeated every family's TYPE and HELP inside
# one "# EOF" and the parser refused it: "Clashing name"), each series' N
# samples in time order, one "# EOF". Without -n a stream: one complete
# exposition per interval, each ending "# EOF", each taken alone.
. "$HTTOP_SRCDIR/tests/lib.sh"
STRICT="$HTTOP_SRCDIR/tests/cli/om_strict.py"
CHECK="$HTTOP_SRCDIR/tests/cli/om_check.py"
# The module may be in the system's python3 only (a python3 of pyenv or a
# virtual environment first in PATH does not see it).
PY=
for p in python3 /usr/bin/python3; do
	if command -v "$p" >/dev/null 2>&1 &&
	    "$p" -c 'import prometheus_client.openmetrics.parser' 2>/dev/null; then
		PY=$p
		break
	fi
done
[ -n "$PY" ] || skip_all "python3-prometheus-client is not installed (Debian: python3-prometheus-client)"
tmp=$(mktemp -d) || exit 1
sleep 60 &
spid=$!
trap 'kill $spid 2>/dev/null; wait $spid 2>/dev/null; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
cd "$tmp" || exit 1
export HTTOP_CLOCK=virtual
plan 19

"$HTTOP" --demo --seed 7 -b -n 3 --format openmetrics >n3.om 2>err; st=$?
check "-n 3 exits 0" [ "$st" -eq 0 ]
if "$PY" "$STRICT" n3.om >n3.out 2>&1; then ok "the strict parser takes -n 3: $(head -n 1 n3.out)"
else not_ok "the strict parser refuses -n 3: $(cat n3.out)"; fi
check "one exposition of 3 times, one # EOF, last" sh -c \
    'grep -q "^1: .* 3 times$" n3.out && [ "$(grep -c "^# EOF$" n3.om)" = 1 ] &&
     [ "$(tail -n 1 n3.om)" = "# EOF" ]'
check "each family's TYPE once" sh -c \
    '[ "$(grep "^# TYPE " n3.om | sort | uniq -d | wc -l)" = 0 ] &&
     [ "$(grep -c "^# TYPE httop_core_share_ratio " n3.om)" = 1 ]'
check "each series' samples consecutive, timestamps increasing" "$PY" -c '
import sys
last, seen, prev = {}, set(), None
for line in open(sys.argv[1]):
    if line.startswith("#"):
        continue
    key, t = line.rsplit(" ", 2)[0], float(line.split()[-1])
    assert key == prev or key not in seen, ("split", key)
    assert t > last.get(key, 0), ("order", key)
    seen.add(key); last[key] = t; prev = key
' n3.om
check "om_check takes it: 3 intervals" sh -c \
    '[ "$("$1" "$2" openmetrics n3.om | grep -c "^exposition")" = 3 ]' sh "$PY" "$CHECK"
# The one exposition is held in memory up to a bound (64 MiB; the test
# hook HTTOP_TEST_OM_HOLD makes it 300 kB here, one and a half intervals of the
# demo): past it what is held is written with its "# EOF" and a new one
# begins, said once; every interval is in one of them, no empty one.
HTTOP_TEST_OM_HOLD=300000 "$HTTOP" --demo --seed 7 -b -n 6 --format openmetrics >hold.om 2>hold.err; st=$?
"$PY" "$STRICT" hold.om >hold.out 2>&1; pst=$?
check "held past its bound: exit $st, the strict parser takes each part ($(head -n 1 hold.out))" \
    sh -c '[ "$1" -eq 0 ] && [ "$2" -eq 0 ]' sh "$st" "$pst"
check "... 3 parts of 2 intervals: their times 6 in all, none empty" sh -c \
    '[ "$(grep -c "^[0-9]*: .* 2 times$" hold.out)" = 3 ] &&
     [ "$(awk "/^[0-9]*: / { n += \$(NF - 1) } END { print n }" hold.out)" = 6 ] &&
     ! grep -q "^[0-9]*: .* 0 times$" hold.out'
check "... said once on standard error: $(cat hold.err)" sh -c \
    '[ "$(grep -c "outgrew the .* MiB httop holds in memory" hold.err)" = 1 ]'
# A watched job's families and a procstat run's (no counters) the same way.
"$HTTOP" --demo --seed 3 -b -n 2 --pid "$spid" --format openmetrics >job.om 2>>err
check "the strict parser takes a watched job's -n 2" "$PY" "$STRICT" job.om
"$HTTOP" --source procstat -b -n 2 -d 0.2 --format openmetrics >ps.om 2>>err
check "the strict parser takes procstat's -n 2" "$PY" "$STRICT" ps.om
# A stream: a job's run without -n, the whole job's record at the end.
sleep 1.2 &
wpid=$!
env -u HTTOP_CLOCK "$HTTOP" --demo --seed 3 -b -d 0.3 --pid "$wpid" --format openmetrics >st.om 2>>err
wait "$wpid"
"$PY" "$STRICT" st.om >st.out 2>&1; st=$?
check "the strict parser takes each exposition of a stream ($(head -n 1 st.out))" [ "$st" -eq 0 ]
check "a stream: one exposition per interval (at least 4 with the whole job's), one time each" \
    sh -c '[ "$(grep -c "^[0-9]*: .* 1 times$" st.out)" -ge 4 ] &&
      [ "$(grep -c "^# EOF$" st.om)" = "$(grep -c "^[0-9]*: " st.out)" ]'
# -n N ended early by a signal: one exposition of the intervals so far.
env -u HTTOP_CLOCK "$HTTOP" --demo -b -n 1000 -d 0.2 --level node --format openmetrics \
    >int.om 2>>err &
ipid=$!
sleep 1.2
kill -INT "$ipid"
wait "$ipid"
st=$?
"$PY" "$STRICT" int.om >int.out 2>&1
check "-n 1000 ended by SIGINT ($st): one exposition of the intervals so far ($(tail -n 1 int.out))" \
    sh -c '[ "$1" -eq 0 ] && grep -q "^1: .* [2-9][0-9]* times$" int.out &&
      [ "$(grep -c "^# EOF$" int.om)" = 1 ]' sh "$st"
# A command's run (its end known, as with -n N) to -o FILE: one exposition,
# its intervals and the whole run's record (window="run"), one "# EOF" at
# the end; before, one per interval, and the parser stopped at the first.
env -u HTTOP_CLOCK "$HTTOP" --demo --seed 3 -b -d 0.3 --format openmetrics -o cmd.om \
    -- sleep 1.2 2>>err
"$PY" "$STRICT" cmd.om >cmd.out 2>&1; st=$?
check "a command's run, -o FILE: the strict parser takes it ($(tail -n 1 cmd.out))" sh -c \
    '[ "$1" -eq 0 ] && grep -q "^expositions 1 " cmd.out && grep -q "^1: .* [4-9] times$" cmd.out &&
      [ "$(grep -c "^# EOF$" cmd.om)" = 1 ] && [ "$(tail -n 1 cmd.om)" = "# EOF" ] &&
      grep -q "window=\"run\"" cmd.om' sh "$st"
# ... and when a signal stops httop: the command is ended, the exposition
# of what was measured written whole.
env -u HTTOP_CLOCK "$HTTOP" --demo --seed 3 -b -d 0.2 --level node --format openmetrics \
    -o sig.om -- sleep 30 2>>err &
ipid=$!
sleep 1.2
kill -TERM "$ipid"
wait "$ipid"
st=$?
"$PY" "$STRICT" sig.om >sig.out 2>&1
check "a command's run stopped by SIGTERM ($st): one exposition, one # EOF, last ($(tail -n 1 sig.out))" \
    sh -c 'grep -q "^expositions 1 " sig.out && grep -q "^1: .* [2-9][0-9]* times$" sig.out &&
      [ "$(grep -c "^# EOF$" sig.om)" = 1 ] && [ "$(tail -n 1 sig.om)" = "# EOF" ]'
# The job's own counters say where they come from as the source does:
# sched's record, bpf's counting in the kernel (no record, none lost; it
# said "from the scheduler's record" under bpf too). Read by the parser.
for src in sched bpf; do
	env -u HTTOP_CLOCK "$HTTOP" --source "$src" -b -d 0.2 --level node --format openmetrics \
	    -o "job-$src.om" -- sleep 0.5 2>"job-$src.err"
	if ! grep -q "^httop_job_cpu_seconds_total" "job-$src.om" 2>/dev/null; then
		skip "--source $src does not run here: $(head -c 200 "job-$src.err")"
		continue
	fi
	"$PY" - "job-$src.om" "$src" >"help-$src.out" 2>&1 <<'PYEOF'
import sys
from prometheus_client.openmetrics.parser import text_string_to_metric_families
from prometheus_client.samples import Timestamp
# as om_strict.py: Debian 12's parser compares seconds and nanoseconds apart
Timestamp.__gt__ = lambda a, b: (a.sec, a.nsec) > (b.sec, b.nsec)
Timestamp.__lt__ = lambda a, b: (a.sec, a.nsec) < (b.sec, b.nsec)
doc = {f.name: f.documentation for f in
       text_string_to_metric_families(open(sys.argv[1], encoding="utf-8").read())}
want = {"sched": "from the scheduler's record.",
        "bpf": "counted in the kernel at each context switch (--source bpf)."}[sys.argv[2]]
for name in ("httop_job_core_state_seconds", "httop_job_cpu_seconds"):
    print(name, doc[name])
    assert doc[name].endswith(want), name
unc = doc["httop_job_cpu_uncovered_seconds"]
assert ("records lost" in unc) == (sys.argv[2] == "sched"), unc
assert sys.argv[2] == "sched" or all("record" not in doc[n] for n in doc if n.startswith("httop_job_c"))
PYEOF
	st=$?
	check "$src: the job's counters' HELP says where they come from" [ "$st" -eq 0 ]
	[ "$st" -eq 0 ] || sed "s/^/# /" "help-$src.out"
done
# The old form, three intervals inside one "# EOF", is what the parser
# refuses: the test would catch it back.
grep -v '^# EOF$' st.om >old.om
echo '# EOF' >>old.om
check "the parser refuses repeated families inside one # EOF" sh -c \
    '! "$1" "$2" old.om | grep -q "^expositions"' sh "$PY" "$STRICT"
exit 0
