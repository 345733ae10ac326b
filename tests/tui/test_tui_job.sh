#!/bin/sh
# test_tui_job.sh: watching a job. A sleep pinned with taskset to CPU 1:
# on the demo machine CPU 1 is thread 0 of core 0 of package 1 (CPUs
# 1,37), so the job's view shows that core alone; j shows all cores (0,36
# among them) and back; when the sleep ends the status says so. A PID that
# does not exist is an error naming it. --cgroup with this test's own
# cgroup (v2, or v1's cpuset).
. "$HTTOP_SRCDIR/tests/lib.sh"
. "$HTTOP_SRCDIR/tests/tui/tuilib.sh"
plan 12

export XDG_CONFIG_HOME="$tui_dir/config"
if ! command -v taskset >/dev/null 2>&1; then
	i=0; while [ $i -lt 12 ]; do skip "no taskset"; i=$((i + 1)); done
	exit 0
fi
taskset -c 1 sleep 60 &
job=$!

tui_start 160 50 -- --demo -d 0.5 --pid "$job"
if ! wait_for ' 1 Cores ' 10; then
	not_ok "--pid $job: the screen comes up"; show_screen; sed 's/^/# stderr: /' "$tui_dir/stderr"
	kill "$job"
	i=1; while [ $i -lt 12 ]; do skip "no screen"; i=$((i + 1)); done
	exit 0
fi
ok "--pid $job: the screen comes up"
expect "header: job pid $job" "job pid $job"
expect "header: the share of the job's busy core time with both threads" 'of busy core time'
s=$(cap)
if printf '%s' "$s" | grep -q '1,37' && ! printf '%s' "$s" | grep -q '0,36'; then
	ok "the job's view: its core (1,37), not core 0 (0,36)"
else
	not_ok "the job's view: its core (1,37), not core 0 (0,36)"; show_screen
fi
keys j
expect "j: all cores (0,36 shown)" '0,36' 5
expect "j: the header says all cores are shown" 'all cores shown' 5
keys j
expect_gone "j again: the job's cores only" '0,36' 5

kill "$job"
expect "the sleep ends: 'pid $job has ended'" "pid $job has ended" 10
keys q
tui_wait_exit 5
check "q: exit status 0 (got $tui_status)" [ "$tui_status" = 0 ]

# A PID that does not exist: an error naming it, before any screen.
tui_start 160 50 -- --demo --pid 4194303
tui_wait_exit 10
check "--pid 4194303 (no such process): exit status 1 (got $tui_status)" [ "$tui_status" = 1 ]
check "... with a message naming --pid 4194303" grep -q -- '--pid 4194303' "$tui_dir/stderr"

# --cgroup: this test's own cgroup, as /proc/self/cgroup names it: the
# "0::" line on cgroup v2, the "cpuset" line on v1 or a hybrid host
# (which httop looks up under the cpuset hierarchy).
cg=
if [ -f /sys/fs/cgroup/cgroup.controllers ]; then
	cg=$(sed -n 's/^0:://p' /proc/self/cgroup 2>/dev/null)
else
	cg=$(sed -n 's/^[0-9]*:\([^:]*,\)\{0,1\}cpuset\(,[^:]*\)\{0,1\}://p' /proc/self/cgroup 2>/dev/null)
fi
if [ -n "$cg" ]; then
	tui_start 160 50 -- --demo -d 0.5 --cgroup "$cg"
	expect "--cgroup $cg: the job line names the cgroup" "job .*$cg" 10
	keys q; tui_wait_exit 5
else
	skip "no cgroup v2, and no v1 cpuset, here"
fi
