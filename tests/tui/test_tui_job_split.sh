#!/bin/sh
# test_tui_job_split.sh: the live view of a watched job's own figures
# (issue 33), as root on the real kernel, CPUs 0 and 1 declared siblings:
# with --source sched and --pid, the Threads view has the job% column
# (job_util) with a share on CPU 0, where the job runs pinned, and the
# header's job line has the job's own split of its cores (what "shared"
# means said) and CPU seconds after the CPUs' figures; without a job the
# column is not there (it would be dashes only).
. "$HTTOP_SRCDIR/tests/lib.sh"
. "$HTTOP_SRCDIR/tests/schedlib.sh"
. "$HTTOP_SRCDIR/tests/tui/tuilib.sh"
trap 'stop_loads; tui_kill; rm -rf "$tui_dir"' EXIT
sched_setup "$tui_dir" "CPU-wide perf events (or perf_event_paranoid <= 0)"
plan 6
export XDG_CONFIG_HOME="$tui_dir/config"

load_busy 0 30; job=$load
tui_start 200 40 -- --source sched --topology "$sib" -d 0.3 --pid "$job"
check "header: source sched" wait_for 'source sched' 10
if wait_for 'its own tasks: both [0-9.]+% alone [0-9.]+% shared [0-9.]+%' 10 &&
    cap | tr '\n' ' ' | grep -Eq '\(shared: a sibling +ran +another +task\)'; then
	ok "header: the job's own split, 'shared' said in words"
else
	not_ok "header: the job's own split, 'shared' said in words"; show_screen
fi
check "header: the job's own CPU seconds" wait_for 'its CPU [0-9]+\.[0-9]{2}(-[0-9]+\.[0-9]{2})? s' 10
keys 2
check "threads view: the job% column after util% (no CPI, GHz or steal%: the source has none)" \
    wait_for 'util% +job%( +[^ ]+)* +status' 10
# CPU 0's row: its job% (the number right-aligned under the column's
# head; a figure added since may follow it) a share above 0: the job runs
# there.
job0() {
	cap | python3 -c '
import sys
rows = sys.stdin.buffer.read().decode("utf-8", "replace").split("\n")
head = [r for r in rows if "job%" in r][0]
end = head.index("job%") + 4
row = [r for r in rows if r.split()[:4] == ["0", "0", "0", "0"]][0]
print(row[:end].split()[-1])' 2>/dev/null
}
i=0
while [ $i -lt 20 ]; do
	v=$(job0)
	python3 -c 'import sys; sys.exit(not 0 < float(sys.argv[1]) <= 100)' "$v" 2>/dev/null && break
	sleep 0.3
	i=$((i + 1))
done
if [ $i -lt 20 ]; then
	ok "threads view: CPU 0's job% is a share: $v"
else
	not_ok "threads view: CPU 0's job% is a share: '$v'"; show_screen
fi
keys q
tui_wait_exit 10
stop_loads
tui_start 160 40 -- --source sched --topology "$sib" -d 0.3
wait_for 'source sched' 10
keys 2
wait_for 'util% +status' 10
expect_gone "without a job: no job% column" 'job%'
keys q
tui_wait_exit 10
