#!/bin/sh
# test_tui_job_package.sh: a watched job's package lines are the job's. A
# sleep pinned with taskset to CPU 1 (on the demo machine thread 0 of core
# 0 of package 1: CPUs 1,37); paused, the Cores view's line for package 1
# reads "package 1, 1 core" with the job's core's figures; j (all cores)
# shows the same interval's whole package, 18 cores, with other figures.
. "$HTTOP_SRCDIR/tests/lib.sh"
. "$HTTOP_SRCDIR/tests/tui/tuilib.sh"
plan 4

export XDG_CONFIG_HOME="$tui_dir/config"
if ! command -v taskset >/dev/null 2>&1; then
	i=0; while [ $i -lt 4 ]; do skip "no taskset"; i=$((i + 1)); done
	exit 0
fi
taskset -c 1 sleep 60 &
job=$!
trap 'kill "$job" 2>/dev/null; tui_kill; rm -rf "$tui_dir"' EXIT

tui_start 160 50 -- --demo -d 0.5 --pid "$job"
if ! wait_for 'package 1, ' 10; then
	not_ok "--pid $job: the package line comes up"; show_screen
	i=1; while [ $i -lt 4 ]; do skip "no screen"; i=$((i + 1)); done
	exit 0
fi
ok "--pid $job: the package line comes up"
# Two intervals in, then hold the frame.
sleep 1.2
keys p
wait_for 'PAUSED' 5 >/dev/null
job_line=$(cap | grep -o 'package 1, [0-9]* cores\{0,1\} .*')
keys j
# The header and the package line are written in one frame, but a capture
# can fall between them on a loaded machine: wait for the line itself.
wait_for 'all cores shown' 5 >/dev/null
wait_for 'package 1, [0-9]+ cores ' 5 >/dev/null
all_line=$(cap | grep -o 'package 1, [0-9]* cores\{0,1\} .*')
diag "job: $job_line"
diag "all: $all_line"
check "the job's package line: 'package 1, 1 core' (one of its cores, singular)" \
    eval 'printf "%s" "$job_line" | grep -q "^package 1, 1 core "'
check "all cores: 'package 1, 18 cores'" \
    eval 'printf "%s" "$all_line" | grep -q "^package 1, 18 cores "'
# The same paused interval: only the set of cores differs, so the figures
# after the count must differ too (they were the whole package's before).
figs() { printf '%s' "$1" | sed 's/^package 1, [0-9]* cores\{0,1\} //'; }
check "the job's figures are not the whole package's" \
    test -n "$(figs "$job_line")" -a "$(figs "$job_line")" != "$(figs "$all_line")"
keys q
tui_wait_exit 5
exit 0
