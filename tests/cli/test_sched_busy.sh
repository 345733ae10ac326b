#!/bin/sh
# test_sched_busy.sh: the scheduler source under the load of issue 35: a
# busy loop on CPU 0, a load busy 10 ms of every 20 on CPU 1, and three
# nice busy loops on each CPU beside them, so that both CPUs are near 100%
# and httop's own threads compete with busy loops. Before, the drain
# thread (normal priority, woken at half a ring) was kept off the CPUs
# long enough for other work's switches to fill the rings, and a read
# falling between a switch-out record and the next task's own record made
# an interval invalid ("records lost") with no word on standard error.
# Over 10 intervals: every invalid interval says why on standard error
# (always judged), and no record is lost (judged only where the machine's
# own switch rate stayed modest: other work's floods, millions of
# switches a second, overrun any ring: then skipped, with the rate).
. "$HTTOP_SRCDIR/tests/lib.sh"
need python3 python3
[ "$(id -u)" = 0 ] || skip_all "needs root: CPU-wide perf events (or perf_event_paranoid <= 0)"
online=$(cat /sys/devices/system/cpu/online 2>/dev/null)
case $online in 0-[1-9]*) ;; *) skip_all "CPUs 0 and 1 are not both online ($online)" ;; esac
dir=$(mktemp -d) || exit 1
loads=
trap 'for p in $loads; do kill "$p" 2>/dev/null; done; rm -rf "$dir"' EXIT
trap 'exit 1' INT TERM HUP
sched_siblings "$dir/sib.xml"
sched_opens "$dir/sib.xml" "$dir/probe" || skip_all "the sched source does not open here: $(cat "$dir/probe")"
plan 3

N=10
T=$((N + 3))
timeout "$T" taskset -c 0 sh -c 'while :; do :; done' & loads="$loads $!"
python3 "$HTTOP_SRCDIR/tests/cli/sched_load.py" 1 half "$T" >/dev/null & loads="$loads $!"
for i in 1 2 3; do
	for c in 0 1; do
		timeout "$T" nice -n 5 taskset -c "$c" sh -c 'while :; do :; done' & loads="$loads $!"
	done
done
# The machine's switches a second (/proc/stat ctxt, every 0.2 s): the
# highest, to tell a flood of other work from this load.
touch "$dir/sampling"
python3 - "$dir/sampling" >"$dir/rate" <<'PY' & smp=$!
import os, sys, time
def ctxt():
    for l in open("/proc/stat"):
        if l.startswith("ctxt "):
            return int(l.split()[1])
hi, p, pt = 0.0, ctxt(), time.monotonic()
while os.path.exists(sys.argv[1]):
    time.sleep(0.2)
    c, t = ctxt(), time.monotonic()
    hi = max(hi, (c - p) / (t - pt))
    p, pt = c, t
print(int(hi))
PY
sleep 0.5
HTTOP_PHASE_TIMES=1 "$HTTOP" --source sched -b --format json -d 1 -n "$N" >"$dir/out.json" 2>"$dir/err"
st=$?
rm -f "$dir/sampling"
wait "$smp"
for p in $loads; do kill "$p" 2>/dev/null; done
wait 2>/dev/null
loads=
rate=$(cat "$dir/rate")
check "exit status 0, $N intervals (got $st)" sh -c '[ "$1" -eq 0 ] && [ "$(wc -l <"$2")" -eq "$3" ]' \
    sh "$st" "$dir/out.json" "$N"
r=$(python3 - "$dir/out.json" "$dir/err" <<'PY'
import json, re, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
err = open(sys.argv[2]).read()
said = {round(float(t), 3) for t in re.findall(r"^httop: sched, ([0-9.]+) s: ", err, re.M)}
bad = [l for l in lines if not l["valid"]]
unsaid = [l["time"] for l in bad if round(l["time"], 3) not in said]
print("%d of %d intervals invalid, %d without a word on standard error%s" %
      (len(bad), len(lines), len(unsaid), (": at " + ", ".join("%.3f s" % t for t in unsaid))
       if unsaid else ""))
sys.exit(1 if unsaid else 0)
PY
) && ok "every invalid interval says why: $r" || not_ok "every invalid interval says why: $r"
lost=$(sed -n 's/.*source stats: records=[0-9]* drains=[0-9]* lost=\([0-9]*\).*/\1/p' "$dir/err")
stats=$(sed -n 's/.*source stats: //p' "$dir/err")
if [ "${lost:-x}" = 0 ]; then
	ok "no record lost ($stats; the machine's switches: up to $rate/s)"
elif [ "${rate:-0}" -gt 50000 ]; then
	skip "records lost under a flood of other work's switches (up to $rate/s, where this load makes a few thousand): $stats"
else
	not_ok "records lost at a modest switch rate (up to $rate/s): $stats; $(grep -m1 'lost' "$dir/err")"
fi
