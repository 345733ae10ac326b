# slurmlib.sh: sourced by tests/cli/test_slurm.sh and test_slurm_acct.sh
# (after tests/lib.sh, in their own temporary directory $tmp, where they
# are): a real Slurm on this machine, started as root in the foreground
# with the test's own configuration, munge key, sockets, state, spool and
# free ports; every daemon's PID goes into $pids, which the test's cleanup
# (slurm_cleanup) ends. Not a test itself.

pids=
ctld=
sd=

# slurm_need [MORE...]: the programs every Slurm test needs, and root;
# else the test is skipped (exit 77) saying what is missing.
slurm_need() {
	for p in slurmctld slurmd munged scontrol sbatch scancel sinfo taskset python3 "$@"; do
		need "$p" "slurm-wlm slurmdbd mariadb-server munge python3 util-linux"
	done
	[ "$(id -u)" = 0 ] || skip_all "slurmd and munged must run as root here"
}

# slurm_node: $node (this machine as Slurm names it), $hw (its CPUs,
# sockets, cores and threads as slurmd -C sees them), $ncpu; the test is
# skipped where slurmd cannot describe it or it has one CPU (the tests pin
# a job to CPU 1).
slurm_node() {
	node=$(hostname -s 2>/dev/null || hostname)
	hw=$(slurmd -C 2>/dev/null | head -n 1 | tr ' ' '\n' |
		grep -E '^(CPUs|Boards|SocketsPerBoard|CoresPerSocket|ThreadsPerCore)=' | tr '\n' ' ')
	ncpu=$(printf '%s' "$hw" | sed -n 's/.*CPUs=\([0-9]*\).*/\1/p')
	[ -n "$ncpu" ] || skip_all "slurmd -C does not describe this machine"
	[ "$ncpu" -ge 2 ] || skip_all "the test pins a job to CPU 1: this machine has one CPU"
}

# slurm_ports N BASE: $port, the first of N consecutive ports that no
# socket uses (/proc/net/tcp*, listening or connected), from BASE + a
# share of the test's PID, so that two tests started together take
# different ones; below 32768, where the kernel takes no port for an
# outgoing connection (ip_local_port_range starts there: a port picked
# free above it was once taken by a connection before slurmdbd bound it).
slurm_used() {
	cat /proc/net/tcp /proc/net/tcp6 2>/dev/null | awk 'NR > 1 { print $2 }' |
		sed 's/.*://' | tr 'a-f' 'A-F'
}
slurm_busy_port() {
	_q=0
	while [ $_q -lt "$2" ]; do
		slurm_used | grep -qx "$(printf '%04X' $(($1 + _q)))" && return 0
		_q=$((_q + 1))
	done
	return 1
}
slurm_ports() {
	port=$(($2 + ($$ % ((32768 - $2) / $1 - 1)) * $1))
	while slurm_busy_port $port "$1"; do port=$((port + $1)); done
}

# slurm_munge: munged with a key of its own, its socket $tmp/munge/sock.
slurm_munge() {
	mkdir -p "$tmp/munge" "$tmp/state" "$tmp/spool" "$tmp/log" && chmod 755 "$tmp/munge"
	dd if=/dev/urandom of="$tmp/munge/munge.key" bs=1024 count=1 2>/dev/null &&
		chmod 400 "$tmp/munge/munge.key"
	munged -F -f --key-file="$tmp/munge/munge.key" --socket="$tmp/munge/sock" \
		--pid-file="$tmp/munge/pid" --log-file="$tmp/log/munged.log" \
		--seed-file="$tmp/munge/seed" >"$tmp/log/munged.out" 2>&1 &
	pids="$! $pids"
	_i=0
	while [ ! -S "$tmp/munge/sock" ] && [ $_i -lt 50 ]; do sleep 0.1; _i=$((_i + 1)); done
}

# slurm_conf CLUSTER PROCTRACK TASKPLUGIN: slurm.conf's lines both tests
# share (the controller and node on this machine, at $port and $port + 1,
# munge, the test's directories) to standard output; the test adds its
# accounting, hooks, node and partition.
slurm_conf() {
	cat <<EOF
ClusterName=$1
SlurmctldHost=localhost
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$tmp/munge/sock
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd.log
ProctrackType=$2
TaskPlugin=$3
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MailProg=/bin/true
ReturnToService=2
SchedulerType=sched/builtin
EOF
}
# The node and its partition (after the test's own lines).
slurm_conf_node() {
	cat <<EOF
NodeName=$node NodeHostname=$(hostname) $hw RealMemory=100 State=UNKNOWN
PartitionName=test Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
}

# slurm_hooks [EXTRA]: $tmp/prolog.sh and $tmp/epilog.sh, as slurmd runs
# them: contrib/slurm's prolog and epilog with httop's settings (the
# simulator, 0.3 s intervals, records kept in $tmp/jobs) and the shell
# line EXTRA (more settings); each appends "JOBID START END" (date
# +%s.%N, its own start and end) to $tmp/prolog.times or epilog.times.
slurm_hooks() {
	mkdir -p "$tmp/jobs"
	for _h in prolog epilog; do
		cat >"$tmp/$_h.sh" <<EOF
#!/bin/sh
export SLURM_CONF='$SLURM_CONF' HTTOP='$HTTOP' HTTOP_ARGS='--sim busy' HTTOP_INTERVAL=0.3
export HTTOP_JOB_DIR='$tmp/jobs' HTTOP_JOB_LOG='$tmp/jobs.log' HTTOP_JOB_KEEP=1
$1
t0=\$(date +%s.%N)
'$HTTOP_SRCDIR/contrib/slurm/httop-$_h' "\$@"
st=\$?
echo "\$SLURM_JOB_ID \$t0 \$(date +%s.%N)" >>'$tmp/$_h.times'
exit \$st
EOF
		chmod 755 "$tmp/$_h.sh"
	done
}

# slurm_start: slurmctld and slurmd with $SLURM_CONF ($ctld, $sd); 0 once
# the node is idle, 1 if slurmd ended or the node is not idle in 30 s.
slurm_start() {
	rm -rf "$tmp"/state/* "$tmp"/spool/*
	slurmctld -D -f "$SLURM_CONF" >>"$tmp/log/slurmctld.out" 2>&1 &
	ctld=$!
	slurmd -D -f "$SLURM_CONF" >>"$tmp/log/slurmd.out" 2>&1 &
	sd=$!
	pids="$ctld $sd $pids"
	_i=0
	while [ $_i -lt 150 ]; do
		kill -0 "$sd" 2>/dev/null || return 1
		[ "$(sinfo -h -n "$node" -o %t 2>/dev/null)" = idle ] && return 0
		sleep 0.2; _i=$((_i + 1))
	done
	return 1
}

# slurm_end PID...: each ended (SIGTERM, then SIGKILL after 10 s); 0
# when none was left to kill.
slurm_end() {
	_left=0
	for _p in "$@"; do kill "$_p" 2>/dev/null; done
	for _p in "$@"; do
		_i=0
		while kill -0 "$_p" 2>/dev/null && [ $_i -lt 100 ]; do sleep 0.1; _i=$((_i + 1)); done
		kill -9 "$_p" 2>/dev/null && _left=1
	done
	return $_left
}

# slurm_stop: the jobs, then slurmctld and slurmd (a restart follows).
slurm_stop() {
	scancel --quiet --user=root >/dev/null 2>&1
	# shellcheck disable=SC2086 # none when not started
	slurm_end $ctld $sd
}

# slurm_cleanup: everything started, the jobs first, then the daemons
# (in the reverse order of their start), then what a prolog started that
# no epilog stopped (its process group).
slurm_cleanup() {
	[ -n "$SLURM_CONF" ] && [ -n "$pids" ] && scancel --quiet --user=root >/dev/null 2>&1
	# shellcheck disable=SC2086 # PIDs
	slurm_end $pids
	pids=
	for _f in "$tmp"/jobs/*.pid; do
		[ -f "$_f" ] && kill -s TERM -- "-$(cat "$_f")" 2>/dev/null
	done
}
