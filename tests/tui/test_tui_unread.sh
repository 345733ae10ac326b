#!/bin/sh
# test_tui_unread.sh: the columns of the Cores and Threads views by width
# and by what the source can give. The demo (the simulator's counters: every figure
# real) keeps CPI and GHz at every width: full rows at 140 columns
# (both% t0% t1% neither% thr CPI GHz status), medium at 100, 80 and 60
# (both% util% thr CPI GHz), compact at 50 (both% GHz), and no "not
# shown" line; its Threads view has CPI, nomCPI, GHz, netGHz, IPC and
# GIPS, and no steal% (only procstat reads steal time). A source without counters (procstat; sched as well where
# root and the kernel allow it), CPUs 0 and 1 declared siblings: CPI and
# GHz, always absent there, are in no row format, the package line and
# the column heads, at any width: full at 140 and 100 (both% t0% t1%
# neither% thr status), medium at 80, 60 and 50 (both% util% thr),
# compact at 40 (both% util%: util% kept, not a GHz of dashes); a line
# at the foot says which figures and why ("not shown: CPI, GHz (the
# source counts no instructions or cycles)"); in the Threads view util%
# is the last figure before the status (steal% with procstat), which says
# the row is counted by the source, no CPI or GHz; the header's node line
# has no "- GHz" or "CPI -" (the demo's has both figures).
. "$HTTOP_SRCDIR/tests/lib.sh"
need lstopo-no-graphics hwloc "to write the topology that declares CPUs 0 and 1 siblings"
. "$HTTOP_SRCDIR/tests/tui/tuilib.sh"
[ -r /proc/stat ] || skip_all "no /proc/stat"
sib=$tui_dir/sib.xml
sched_siblings "$sib"
# Whether the sched source opens here (asked before the plan: a failure
# other than the kernel's refusal ends the test).
if [ "$(id -u)" != 0 ]; then
	sched_why="needs root: CPU-wide perf events"
elif ! sched_opens "$sib" "$tui_dir/probe"; then
	sched_why="the sched source does not open here: $(cat "$tui_dir/probe")"
else
	sched_why=
fi
plan 37
export XDG_CONFIG_HOME="$tui_dir/config"

# heads W RE DESC: at W columns the column heads' row ends as RE says.
heads() {
	tm resize-window -t t -x "$1" -y "$height"
	expect "$desc, $1 columns: $3" "^core .*$2\$" 10
}
# The column heads and the package lines name neither CPI nor GHz.
no_counts() {
	if cap | grep -E '^(core|package) ' | grep -Eq 'CPI|GHz'; then
		not_ok "$desc, $1 columns: no CPI or GHz in the heads or the package line"
		show_screen
	else
		ok "$desc, $1 columns: no CPI or GHz in the heads or the package line"
	fi
}
# The foot says what is not shown and why, the words wrapped as they fit.
said() {
	if cap | tr -s ' \n' '  ' |
	    grep -q 'not shown: CPI, GHz (the source counts no instructions or cycles)'; then
		ok "$desc, $1 columns: the foot says CPI and GHz are not shown, and why"
	else
		not_ok "$desc, $1 columns: the foot says CPI and GHz are not shown, and why"
		show_screen
	fi
}

# The demo: 2 x 18 cores, one column of rows in 50 lines at every width.
desc=demo height=50
tui_start 140 50 -- --demo -d 0.3
wait_for 'source sim' 10
expect "demo: the header's node line has GHz and CPI" '[0-9]\.[0-9]{2} GHz +CPI [0-9]'
heads 140 'both% +t0% +t1% +neither% +thr +CPI +GHz status' "full rows, CPI and GHz"
for w in 100 80 60; do
	heads "$w" 'both% +util% +thr +CPI +GHz' "medium rows, CPI and GHz"
done
heads 50 'both% +GHz' "compact rows: both% and GHz"
expect_gone "demo: no 'not shown' line" 'not shown'
tm resize-window -t t -x 160 -y 50
keys 2
expect "demo, Threads view: every counter figure, no steal%" \
    'util% +CPI +nomCPI +GHz +netGHz +IPC +GIPS +status *$'
keys 1
keys q
tui_wait_exit 10
check "demo: q: status 0 (got $tui_status)" [ "$tui_status" = 0 ]

# A source without counters: one core of CPUs 0 and 1. unread_source NAME
# ALSO ALSO_RE OPTION...: ALSO (ALSO_RE) the Threads view's columns
# between util% and the status.
unread_source() {
	desc=$1 height=16 also=$2 also_re=$3
	shift 3
	tui_start 140 16 -- "$@" --topology "$sib" -d 0.3
	wait_for "source $desc" 10
	wait_for 'node ' 10
	expect_gone "$desc: the header's node line has no '- GHz' or 'CPI -'" '(^| )- GHz|CPI -( |$)'
	heads 140 'both% +t0% +t1% +neither% +thr status' "full rows, no CPI or GHz"
	no_counts 140
	said 140
	heads 100 'both% +t0% +t1% +neither% +thr status' "full rows now fit"
	for w in 80 60; do
		heads "$w" 'both% +util% +thr' "medium rows, no CPI or GHz"
	done
	no_counts 60
	said 60
	heads 40 'both% +util%' "compact rows keep util%"
	no_counts 40
	tm resize-window -t t -x 160 -y 16
	keys 2
	expect "$desc, Threads view: util%$also, then the status" "util% +${also_re}status *\$"
	expect "$desc, Threads view: the status says no CPI, GHz" 'no CPI, GHz *$'
	keys q
	tui_wait_exit 10
	check "$desc: q: status 0 (got $tui_status)" [ "$tui_status" = 0 ]
}
unread_source procstat " and steal%" "steal% +" --source procstat

if [ -n "$sched_why" ]; then
	for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14; do skip "sched: $sched_why"; done
else
	unread_source sched "" "" --source sched
fi
exit $((tap_failed > 0))
