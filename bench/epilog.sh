#!/bin/sh
# epilog.sh BUILD [ROUNDS]: how long contrib/slurm's epilog takes once the
# job is over (issue 34: under a second), and how far the end of the
# record's whole job lies from the moment the epilog signalled httop.
# Without Slurm: the prolog and epilog run as slurmd would run them
# (SLURM_JOB_ID set), on a stand-in for `httop --job ID` (a wrapper that
# watches a sleeping process with --pid instead), on the simulator with
# 30 s intervals, storing nothing in an accounting database
# (HTTOP_ACCT=0: that is slurmdbd's time, not httop's). Each round: the
# prolog, 1 s of the job, then the epilog timed (date +%s%N around it).
# The last line: "epilog_ms_min=.. epilog_ms_median=.. end_lag_ms_median=..
# rounds=N" (end_lag: the record's end, its last sample's unix_time, after
# the epilog's start). A wall time, so not in the CI gate (a busy machine
# would fail it); make bench prints it against the target.
set -u
BUILD=$(cd "${1:?usage: $0 BUILD [ROUNDS]}" && pwd)
rounds=${2:-5}
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/.." && pwd)
work=$(mktemp -d) || exit 1
job=
trap '[ -n "$job" ] && kill "$job" 2>/dev/null; rm -rf "$work"' EXIT
trap 'exit 1' INT TERM HUP

export HTTOP="$work/httop" HTTOP_ARGS='--sim busy' HTTOP_INTERVAL=30
export HTTOP_JOB_DIR="$work/jobs" HTTOP_JOB_LOG="$work/jobs.log" HTTOP_ACCT=0 HTTOP_JOB_KEEP=1
export SLURM_JOB_ID=4242
unset HTTOP_CLOCK

now_ms() { echo $(($(date +%s%N) / 1000000)); }
: >"$work/times"
r=0
while [ $r -lt "$rounds" ]; do
	r=$((r + 1))
	sleep 600 &
	job=$!
	cat >"$HTTOP" <<EOF
#!/bin/sh
# httop --job $SLURM_JOB_ID as the prolog runs it, watching process $job.
a=
for x in "\$@"; do
	case \$x in --job) x=--pid ;; $SLURM_JOB_ID) x=$job ;; esac
	a="\$a \$x"
done
# shellcheck disable=SC2086
exec '$BUILD/src/httop' \$a
EOF
	chmod 755 "$HTTOP"
	sh "$src/contrib/slurm/httop-prolog"
	sleep 1
	t0=$(now_ms)
	sh "$src/contrib/slurm/httop-epilog" >/dev/null
	t1=$(now_ms)
	kill "$job" 2>/dev/null
	job=
	rec=$HTTOP_JOB_DIR/job-$SLURM_JOB_ID.jsonl
	lag=$(python3 -c '
import json, sys
try:
    last = json.loads(open(sys.argv[1]).read().splitlines()[-1])
    assert last.get("window") == "run"
    print(int(round(last["unix_time"] * 1000 - float(sys.argv[2]))))
except Exception:
    print("none")' "$rec" "$t0" 2>/dev/null)
	echo "$((t1 - t0)) $lag" >>"$work/times"
	echo "round $r: epilog $((t1 - t0)) ms, the record's end $lag ms after its start"
	rm -f "$rec" "$rec.err"
done
python3 -c '
import statistics, sys
rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
ms = [int(a) for a, _ in rows]
lag = [int(b) for _, b in rows if b != "none"]
print("epilog_ms_min=%d epilog_ms_median=%d end_lag_ms_median=%s rounds=%d" % (
    min(ms), statistics.median(ms), ("%d" % statistics.median(lag)) if lag else "none", len(rows)))
' "$work/times"
