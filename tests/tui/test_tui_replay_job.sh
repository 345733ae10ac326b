#!/bin/sh
# test_tui_replay_job.sh: a watched job's recording (trace 1.6) replayed
# in the live view shows the job as the live run did: the job line names
# it ("job pid N (taskset)"), the Cores view has the job's core only (CPU
# 1's), and j shows every core, saying so; q ends it, the terminal back.
# A live view recording a --pid job that ends (trial of session 32: its
# replay then narrowed to no core at all): the trace says where it ended
# (event job-ended), the batch replay ends the watch there as a live batch
# run does ("ended", the whole job), and the replayed view says, as the
# live one did, that nothing is left to watch.
. "$HTTOP_SRCDIR/tests/lib.sh"
. "$HTTOP_SRCDIR/tests/tui/tuilib.sh"
need taskset taskset
plan 9

export XDG_CONFIG_HOME="$tui_dir/config"
trace=$tui_dir/job.trace
"$HTTOP" --demo -b -d 0.3 --format json --record "$trace" -- taskset -c 1 sleep 1 \
    2>"$tui_dir/live.json"
pid=$(sed -n 's/^job kind="command" id="\([0-9]*\)".*/\1/p' "$trace")
diag "recorded the job pid $pid: $(grep -c '^job-cpus 1$' "$trace") samples with job-cpus 1"

tui_start 120 30 -- --replay "$trace" -d 0.1
check "the job line names the recorded job (pid $pid, taskset)" \
    wait_for "job pid $pid \\(taskset\\)" 15
wait_for 'end of replay' 15 >/dev/null
# the Cores view's rows start with the core's number ("   0 1,37  ...";
# with many cores, two columns without the CPUs)
rows() { cap | grep -cE '^ +[0-9]+ +([0-9]+,[0-9]+ |▕)'; }
check "the Cores view has the job's core only: CPU 1's ($(cap | grep -E '^ +[0-9]+ +([0-9]+,[0-9]+ |▕)' | cut -c1-12 | tr '\n' ';'))" \
    sh -c '[ "$1" -eq 1 ] && printf "%s\n" "$2" | grep -qE "^ +[0-9]+ 1,37 "' sh "$(rows)" "$(cap)"
keys j
check "j: every core, the job line says so" wait_for '\(all cores shown\)' 5
check "... more than one core row now ($(rows))" sh -c '[ "$1" -gt 1 ]' sh "$(rows)"
keys q
tui_wait_exit 10
check "q ends it, status 0 (status $tui_status)" [ "$tui_status" = 0 ]

sleep 1.5 &
bp=$!
tui_start 120 30 -- --demo -d 0.3 --pid "$bp" --record "$tui_dir/end.trace"
wait_for 'has ended; nothing left to watch' 15
sleep 0.7
keys q
tui_wait_exit 10
check "recorded live: the job's end is an event of the trace ($(grep -c '^event .*job-ended' "$tui_dir/end.trace"))" \
    grep -q "^event time=[0-9.e+-]* text=\"job-ended: pid $bp has ended\"$" "$tui_dir/end.trace"
"$HTTOP" --replay "$tui_dir/end.trace" -b --format text >"$tui_dir/end.txt" 2>&1
check "batch replay: the watch ends there, 'ended' ($(grep '; watched' "$tui_dir/end.txt"))" \
    grep -q "^ httop: job pid $bp: ended; watched for " "$tui_dir/end.txt"
tui_start 120 30 -- --replay "$tui_dir/end.trace" -d 0.1
check "the replayed view: nothing left to watch after the end, as live" \
    wait_for "job pid $bp  pid $bp has ended; nothing left to watch: all cores shown" 15
keys q
tui_wait_exit 10
check "q ends it, status 0 ($tui_status)" [ "$tui_status" = 0 ]
exit 0
