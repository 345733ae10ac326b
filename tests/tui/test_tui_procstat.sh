#!/bin/sh
# test_tui_procstat.sh: the live view with --source procstat in a 160 x 40
# tmux pane: the header names the source and says what its figures mean
# (the plan's meaning: the kernel's idle accounting, no CPI or GHz), the
# Topology view says what it reads (/proc/stat, no MSR), the Threads view
# gives each counted CPU its steal share (steal%), no column of CPI or
# GHz, and the status of one: counted in ticks, no CPI or GHz
# (not the warning "the source counts no instructions or cycles", which
# every row showed), "ticks" where the words do not fit, and q ends it with
# status 0.
. "$HTTOP_SRCDIR/tests/lib.sh"
. "$HTTOP_SRCDIR/tests/tui/tuilib.sh"
[ -r /proc/stat ] || skip_all "no /proc/stat"
plan 11

export XDG_CONFIG_HOME="$tui_dir/config"
tui_start 160 40 -- --source procstat -d 0.3
check "header: source procstat" wait_for 'source procstat' 10
check "header: what its figures mean (meaning, idle accounting)" \
	wait_for 'meaning procstat: utilisation = 1 - \(idle \+ iowait \+ steal\) / time, kernel.s idle' 5
check "header: no CPI, GHz" wait_for 'no CPI, GHz' 5
# The Topology view says what this source reads: /proc/stat, no register.
keys 3
expect "topology view: the plan reads busy time from /proc/stat" \
    'read  ref +busy time from /proc/stat: the time less the CPU.s idle, iowait'
if cap | grep -q 'MSR'; then
	not_ok "topology view: no MSR among what the procstat source reads"; show_screen
else
	ok "topology view: no MSR among what the procstat source reads"
fi
# The Threads view: a CPU the kernel counted is counted, in ticks; the
# figures it cannot give (CPI, GHz, IPC) have no column, and are the
# source's, said in its status, not a warning (the warning's colour, 214,
# is not on its row).
keys 2
expect "threads view: a CPU's status: counted in ticks, no CPI, GHz" \
    '^ +[0-9]+ +[0-9]+ +[0-9]+ +0 .* [0-9]+\.[0-9] +[0-9]+\.[0-9] counted in ticks \(/proc/stat\); no CPI, GHz *$'
expect "threads view: util%, the steal column (steal%), a share for each CPU /proc/stat counts, the status" \
    'util% +steal% +status *$'
expect_gone "threads view: no row says 'the source counts no instructions or cycles'" \
    'the source counts no instructions'
row=$(cape | grep 'counted in ticks' | head -n 1)
if [ -n "$row" ] && ! printf '%s' "$row" | grep -q '38;5;214'; then
	ok "threads view: the status is not in the warning's colour"
else
	not_ok "threads view: the status is not in the warning's colour: $(printf '%s' "$row" | cat -v)"
fi
tm resize-window -t t -x 110 -y 40
expect "threads view, 110 columns: the status's code, ticks" \
    '^ +[0-9]+ +[0-9]+ +[0-9]+ +0 .* [0-9]+\.[0-9] +[0-9]+\.[0-9] ticks *$'
keys q
tui_wait_exit 10
check "q: exit status 0 (got $tui_status)" [ "$tui_status" = 0 ]
exit $((tap_failed > 0))
