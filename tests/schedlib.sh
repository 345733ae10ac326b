# schedlib.sh: what the tests of the scheduler's record on the real kernel
# share (tests/cli/test_job_split.sh, test_job_counters.sh,
# tests/tui/test_tui_job_cores.sh, test_tui_job_split.sh): CPUs 0 and 1
# declared siblings with a topology file, and loads pinned to them,
# started and reaped. Source it after tests/lib.sh (or a file that sources
# it). Not a test itself.

# sched_setup DIR ROOTWHY: skip_all unless this test can follow the
# scheduler on CPUs 0 and 1 declared siblings: taskset and lstopo-no-graphics
# installed, root (ROOTWHY: what needs it), CPUs 0 and 1 online, DIR/sib.xml
# written (its path in $sib) and the sched source opening on it (else
# DIR/probe says why). Call it before plan.
sched_setup() {
	need taskset taskset
	need lstopo-no-graphics hwloc "to write the topology that declares CPUs 0 and 1 siblings"
	[ "$(id -u)" = 0 ] || skip_all "needs root: $2"
	_online=$(cat /sys/devices/system/cpu/online 2>/dev/null)
	case $_online in
	0-[1-9]*) ;;
	*) skip_all "CPUs 0 and 1 are not both online ($_online)" ;;
	esac
	sib=$1/sib.xml
	sched_siblings "$sib"
	sched_opens "$sib" "$1/probe" ||
		skip_all "the sched source does not open here: $(cat "$1/probe")"
}

# The loads running, their PIDs; stop_loads ends and reaps them.
loads=
# load_busy CPU [SECONDS]: a busy loop pinned to CPU, in the background,
# ended after SECONDS when given (so that a test killed leaves nothing
# behind for long); its PID in $load.
load_busy() {
	if [ -n "${2:-}" ]; then
		timeout "$2" taskset -c "$1" sh -c 'while :; do :; done' &
	else
		taskset -c "$1" sh -c 'while :; do :; done' &
	fi
	load=$!
	loads="$loads $load"
}
# load_half SECONDS: CPU 1 busy the first 10 ms of every 20
# (tests/cli/sched_load.py), for SECONDS; its PID in $load.
load_half() {
	python3 "$HTTOP_SRCDIR/tests/cli/sched_load.py" 1 half "$1" >/dev/null &
	load=$!
	loads="$loads $load"
}
# load_add PID: a load the test started itself, ended with the others.
load_add() {
	loads="$loads $1"
}
# stop_loads: end every load (a load under timeout ends its whole process
# group) and reap it.
stop_loads() {
	for _p in $loads; do kill "$_p" 2>/dev/null; done
	for _p in $loads; do wait "$_p" 2>/dev/null; done
	loads=
}
