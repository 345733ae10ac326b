#!/bin/sh
# test_tui_job_cores.sh: the Cores view of a watched job's own split
# (issue 33), as root on the real kernel, CPUs 0 and 1 declared siblings:
# with --source sched and --pid of a loop pinned to CPU 0 beside a
# stranger's loop pinned to CPU 1, each core's row has jboth% jalone%
# jshared% jnone% (whole percent that add up to 100; shared above 0: the
# job ran while its sibling ran the stranger) in 80 columns, after the
# core's both% util% thr (no CPI or GHz: the source has none), and the
# legend says what shared means. Where the figures cannot be (the demo's
# counters: no job's tasks told apart) the view says why once, and has
# no job columns.
. "$HTTOP_SRCDIR/tests/lib.sh"
. "$HTTOP_SRCDIR/tests/schedlib.sh"
. "$HTTOP_SRCDIR/tests/tui/tuilib.sh"
trap 'stop_loads; tui_kill; rm -rf "$tui_dir"' EXIT
sched_setup "$tui_dir" "CPU-wide perf events (or perf_event_paranoid <= 0)"
plan 8
export XDG_CONFIG_HOME="$tui_dir/config"

load_busy 0 60; job=$load
load_busy 1 60
tui_start 80 24 -- --source sched --topology "$sib" -d 0.3 --pid "$job"
expect "80 columns: the job's columns after the core's" \
    'both% +util% +thr +jboth% +jalone% +jshared% +jnone%$'
# Core 0's row: its last four numbers, the job's split.
row0() { cap | grep -E '^ +0 ' | head -n 1 | awk '{print $(NF-3), $(NF-2), $(NF-1), $NF}'; }
i=0
while [ $i -lt 30 ]; do
	r=$(row0)
	python3 -c '
import sys
v = [int(x) for x in sys.argv[1:]]
sys.exit(not (len(v) == 4 and sum(v) == 100 and v[2] > 0))' $r 2>/dev/null && break
	sleep 0.3
	i=$((i + 1))
done
if [ $i -lt 30 ]; then
	ok "core 0: jboth jalone jshared jnone whole percent adding up to 100, shared above 0: $r"
else
	not_ok "core 0: the job's split adding up to 100, shared above 0: '$r'"; show_screen
fi
legend=$(cap | tail -n 5 | tr -s ' \n' '  ')
case $legend in
*"jshared% one did while the sibling ran another task (shared: the SMT interference)"*)
	ok "the legend says what shared means" ;;
*)
	not_ok "the legend says what shared means: $legend"; show_screen ;;
esac
check "the rows stay within 80 columns" sh -c \
    '[ "$(printf "%s\n" "$1" | awk "length > 80" | wc -l)" = 0 ]' sh "$(cap)"
keys s s s s
expect "s goes through the job's columns too (sorted by jboth%)" 'jboth%[▼v]' 5
keys q
tui_wait_exit 10
stop_loads
# No job's tasks told apart (the demo's counters): why, once; no column.
sleep 60 &
job=$!; load_add "$job"
tui_start 80 24 -- --demo -d 0.3 --pid "$job"
expect "no split of the job's own: why, said once" \
    "job's own split: +none here: no job's tasks told apart"
check "... once, not per row" sh -c \
    '[ "$(printf "%s\n" "$1" | grep -c "none here")" = 1 ]' sh "$(cap)"
expect_gone "... and no job column" 'jboth%'
keys q
tui_wait_exit 10
stop_loads
