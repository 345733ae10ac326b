#!/bin/sh
# test_tui_sched.sh: the live view with the scheduler source on the real
# kernel, as root: CPUs 0 and 1 declared siblings (hwloc's synthetic
# "pack:1 core:1 pu:2"); the header names the source and says what its
# figures mean, the core shows a split, the Topology view says what the
# source reads (no MSR), the Threads view's status of a counted CPU
# (counted by the scheduler, no CPI or GHz: not a warning) and no column
# of dashes, the core's row without them either, the die grid's titles are whole at 120 and 80
# columns, q ends it and restores the terminal; then httop with no option.
. "$HTTOP_SRCDIR/tests/lib.sh"
need lstopo-no-graphics hwloc "to write the topology that declares CPUs 0 and 1 siblings"
[ "$(id -u)" = 0 ] || skip_all "needs root: CPU-wide perf events (or perf_event_paranoid <= 0)"
. "$HTTOP_SRCDIR/tests/tui/tuilib.sh"
sib=$tui_dir/sib.xml
sched_siblings "$sib"
sched_opens "$sib" "$tui_dir/probe" ||
    skip_all "the sched source does not open here: $(cat "$tui_dir/probe")"
plan 20
export XDG_CONFIG_HOME="$tui_dir/config"

tui_start 160 40 -- --source sched --topology "$sib" -d 0.3
check "header: source sched" wait_for 'source sched' 10
check "header: what the figures mean" wait_for 'split by the scheduler: time a task ran on each' 5
# The split method is the scheduler's, not the counters' AnyThread "any".
check "header: split sched" wait_for 'split sched( |$)' 5
expect_gone "header: no 'split any'" 'split any'
# The core's row: its CPUs, four shares and thr, and no CPI or GHz after
# them (the source has none: not a column of dashes); the split is
# exact: no bound.
if wait_for ' 0,1 .* [0-9]+ +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]\.[0-9]{2} *$' 10; then
	ok "the core of CPUs 0,1 shows its split: $(cap | grep ' 0,1 ' | head -n 1)"
else
	not_ok "the core's split"; show_screen
fi
# The Topology view says what this source reads: the context switches,
# not a register (in words the bpf source's plan, the same, shares).
keys 3
expect "topology view: the plan reads the context switches" \
    'read  ref +ns the CPU ran a task other than idle, from its context switches'
expect "topology view: the threads' switches in time order for 'any'" \
    'read  any +ns any thread of the core ran a task, from its threads. context'
expect "topology view: the plan's split is sched" '^Plan +sched: scheduler: context switches'
if cap | grep -q 'MSR'; then
	not_ok "topology view: no MSR among what the sched source reads"; show_screen
else
	ok "topology view: no MSR among what the sched source reads"
fi
# No TSC and no reference-clock event here: the Scale fact says so, not
# "1 TSC ticks per count, measured".
expect "topology view: Scale not used, the counts are time" \
    '^Scale +not used: the source counts time, not reference-clock cycles'
expect_gone "topology view: no 'TSC ticks per count'" 'TSC ticks per count'
# The Threads view: a CPU the scheduler counted says so; the figures it
# cannot give (CPI, GHz, IPC, steal%) have no column, and are the source's,
# not the row's trouble.
keys 2
expect "threads view: a CPU's status: counted by the scheduler, no CPI, GHz" \
    '^ +[0-9]+ +[0-9]+ +[0-9]+ +[01] .* [0-9]+\.[0-9] counted by the scheduler; no CPI, GHz *$'
expect "threads view: util%, then the status: no column of dashes" 'util% +status *$'
# The die grid's titles whole at 120 and 80 columns: the view's, and the
# package's over a grid of one core (the grid is narrower than its title).
keys 4
for w in 120 80; do
	tm resize-window -t t -x "$w" -y 40
	expect "die grid, $w columns: the view's title whole" \
	    '^Die grid . logical: package / die / L3 group, cores in core-id order *$'
	expect "die grid, $w columns: the package's title whole" \
	    '^package 0: 1 core, one die/L3 group *$'
done
keys q
tui_wait_exit 5
if [ "$tui_status" = 0 ] && tui_restored; then
	ok "q: status 0, the terminal restored"
else
	not_ok "q: status '$tui_status', or the terminal not restored"
fi

# httop with no option: --source auto comes to bpf (where this httop was
# built with it and the kernel loads it) or sched where msr-safe, msr and
# perf do not work (a VM without a PMU, as the tests' machine).
tui_start 160 40 --
if wait_for 'source (msr|msr-safe|perf) ' 5; then
	skip "auto chose a counter source here"
	skip "auto chose a counter source here"
else
	check "no option: header: source bpf or sched, and what its figures mean" \
	    wait_for 'source (bpf|sched) .*meaning (split|utilisation) by the scheduler' 10
	keys q
	tui_wait_exit 5
	check "no option: q: status 0" [ "$tui_status" = 0 ]
fi
