#!/bin/sh
# test_slurm_acct.sh: a job's httop summary in Slurm's accounting, against
# a real Slurm 22.05 with a real slurmdbd over a real MariaDB, all started
# here as root with their own configuration, data and sockets on private
# ports of 127.0.0.1 (Debian: slurm-wlm slurmdbd mariadb-server munge),
# and all stopped at the end, also on failure.
#
# The prolog and epilog (contrib/slurm) watch a job (httop on the
# simulator); once it has ended, sacct -j ID -o AdminComment holds the
# node's compact record (httop1), whose figures are the whole-job JSON
# record's, and `httop --job ID` prints them per node and for the job.
# Four epilogs' stores racing on one job (httop-acct, as a multi-node
# job's nodes do) keep all four records; a job whose epilog stored
# nothing, and an AdminComment that is not httop's (hostile), are said.
. "$HTTOP_SRCDIR/tests/lib.sh"
NTESTS=23

. "$HTTOP_SRCDIR/tests/slurmlib.sh"
slurm_need slurmdbd sacct sacctmgr mariadbd mariadb-install-db

tmp=$(mktemp -d) || exit 1
# Everything this test started, stopped: jobs first, then the daemons
# (slurmd and slurmctld, slurmdbd, MariaDB, munged: the reverse order).
cleanup() {
	slurm_cleanup
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
cd "$tmp" || exit 1

slurm_node
plan $NTESTS

# Four free ports: slurmctld, slurmd, slurmdbd, MariaDB.
slurm_ports 4 20000
dbdport=$((port + 2))
dbport=$((port + 3))

# What a daemon that did not come up said.
said() { tail -n 6 "$@" 2>/dev/null | sed 's/^/# /'; }
# wait_for SECONDS COMMAND...: until the command succeeds, for at most
# SECONDS (of the clock: a Slurm client may take seconds to fail).
wait_for() {
	_end=$(($(date +%s) + $1)); shift
	while ! "$@" >/dev/null 2>&1; do
		[ "$(date +%s)" -ge $_end ] && return 1
		sleep 0.2
	done
}
# skip_rest REASON: the tests left skipped, then exit.
skip_rest() {
	while [ "$tap_n" -lt $NTESTS ]; do skip "$1"; done
	exit 0
}

mkdir jobs
slurm_munge
wait_for 5 test -S munge/sock

# MariaDB: a data directory of its own, root without a password on
# 127.0.0.1 only, its socket here.
mariadb-install-db --no-defaults --datadir="$tmp/db" --user=root \
	--auth-root-authentication-method=normal --skip-test-db >log/install-db.out 2>&1
mariadbd --no-defaults --user=root --datadir="$tmp/db" --socket="$tmp/db.sock" \
	--port=$dbport --bind-address=127.0.0.1 --pid-file="$tmp/db.pid" \
	--log-error="$tmp/log/mariadb.log" --skip-log-bin --innodb-buffer-pool-size=16M \
	--skip-name-resolve >log/mariadbd.out 2>&1 &
dbpid=$!
pids="$dbpid $pids"
if wait_for 60 mariadb --no-defaults --socket="$tmp/db.sock" -uroot -e 'select 1'; then
	ok "MariaDB comes up (port $dbport, its own data directory)"
else
	not_ok "MariaDB comes up"; said log/mariadb.log log/install-db.out
	skip_rest "MariaDB did not start"
fi
# slurmd sees 127.0.0.1 as localhost: root@localhost is allowed there.
mariadb --no-defaults --socket="$tmp/db.sock" -uroot -e \
	"CREATE USER IF NOT EXISTS 'root'@'127.0.0.1'; GRANT ALL ON *.* TO 'root'@'127.0.0.1';" \
	>>log/mariadbd.out 2>&1

{
	slurm_conf httopacct proctrack/linuxproc task/affinity
	cat <<EOF2
AccountingStorageType=accounting_storage/slurmdbd
AccountingStorageHost=localhost
AccountingStoragePort=$dbdport
AccountingStoragePass=$tmp/munge/sock
Prolog=$tmp/prolog.sh
Epilog=$tmp/epilog.sh
EOF2
	slurm_conf_node
} >slurm.conf
# slurmdbd reads slurmdbd.conf beside slurm.conf; it holds the database's
# password (none here) and must be the SlurmUser's, mode 600.
cat >slurmdbd.conf <<EOF2
AuthType=auth/munge
AuthInfo=socket=$tmp/munge/sock
DbdHost=localhost
DbdPort=$dbdport
SlurmUser=root
LogFile=$tmp/log/slurmdbd.log
PidFile=$tmp/slurmdbd.pid
StorageType=accounting_storage/mysql
StorageHost=127.0.0.1
StoragePort=$dbport
StorageUser=root
StorageLoc=httop_acct
EOF2
chmod 600 slurmdbd.conf
export SLURM_CONF="$tmp/slurm.conf"

slurmdbd -D >log/slurmdbd.out 2>&1 &
dbdpid=$!
pids="$dbdpid $pids"
if wait_for 60 timeout 10 sacctmgr -n list cluster; then
	ok "slurmdbd comes up over MariaDB (port $dbdport)"
else
	not_ok "slurmdbd comes up over MariaDB"; said log/slurmdbd.log log/slurmdbd.out
	skip_rest "slurmdbd did not start"
fi
timeout 30 sacctmgr -i add cluster httopacct >log/sacctmgr.out 2>&1
check "the cluster is registered (sacctmgr -i add cluster)" \
	sh -c 'timeout 10 sacctmgr -n -P list cluster format=cluster | grep -qx httopacct'

# The prolog and epilog as slurmd runs them, with httop's settings; the
# epilog stores nothing while $tmp/noacct exists; while $tmp/sched exists
# the prolog's httop reads the scheduler's record (the job's own CPU
# seconds).
slurm_hooks "[ -e '$tmp/noacct' ] && export HTTOP_ACCT=0
[ -e '$tmp/sched' ] && export HTTOP_ARGS='--source sched'"

slurmctld -D -f "$SLURM_CONF" >log/slurmctld.out 2>&1 &
pids="$! $pids"
slurmd -D -f "$SLURM_CONF" >log/slurmd.out 2>&1 &
pids="$! $pids"
idle() { [ "$(sinfo -h -n "$node" -o %t 2>/dev/null)" = idle ]; }
if wait_for 30 idle; then
	ok "slurmctld (accounting in slurmdbd) and slurmd come up: node $node is idle"
else
	not_ok "slurmctld and slurmd come up"; said log/slurmctld.log log/slurmd.log
	skip_rest "Slurm did not start"
fi

# run NAME COMMAND: a one-CPU batch job, run to its end; its ID.
run() {
	id=$(sbatch --parsable -n 1 -J "$1" -o /dev/null --wrap "$2" 2>>log/sbatch.err) || return 1
	ended_job "$id"
	echo "$id"
}
gone() { [ -z "$(squeue -h -j "$1" 2>/dev/null)" ]; }
ended_job() { wait_for 60 gone "$1"; }
# The AdminComment in Slurm's accounting (slurmctld sends it to slurmdbd
# when the job ends).
comment() { timeout 10 sacct -n -X -P -j "$1" -o AdminComment 2>/dev/null | head -n 1; }
has_comment() { [ -n "$(comment "$1")" ]; }

j1=$(run acct "exec taskset -c 1 sleep 4")
check "a job with the prolog and epilog ran and ended (job $j1)" [ -n "$j1" ]
wait_for 20 has_comment "$j1"
comment "$j1" >j1.comment
check "sacct -j $j1 -o AdminComment: one httop1 record of node $node: $(cat j1.comment)" \
	grep -Eq "^httop1;$node:c=[0-9]+,s=[0-9.]+,[^;]*,src=sim\$" j1.comment
# The epilog stores the record apart (in a session of its own): it
# returns without waiting for slurmdbd to show the record back (seconds).
# Its time is printed; the guard is not a timing (make check asserts no
# wall time), only that nothing waited for the store's confirmations.
epilog=$(awk -v j="$j1" '$1 == j { printf "%.3f", $3 - $2 }' epilog.times 2>/dev/null)
diag "the epilog of job $j1 (its record stored in the accounting) took ${epilog:-?} s"
check "... the epilog did not wait for the store (${epilog:-?} s)" \
	awk -v t="${epilog:-99}" 'BEGIN { exit !(t < 10) }'
[ -s j1.comment ] || sed 's/^/# /' "jobs/job-$j1.jsonl.err" | sort | uniq -c | head
# The record's figures are the whole-job JSON record's, rounded as the
# form says (percent: 2 decimals, GHz, CPI, threads: 3).
check "... its figures are those of httop's whole-job record (jobs/job-$j1.jsonl)" python3 -c '
import json, sys
last = json.loads(open(sys.argv[1]).read().splitlines()[-1])
assert last["window"] == "run", last["window"]
n = last["node"]
rec = dict(kv.split("=") for kv in open(sys.argv[2]).read().strip().split(";")[1].split(":", 1)[1].split(","))
assert int(rec["c"]) == n["ncores"], (rec["c"], n["ncores"])
assert abs(float(rec["s"]) - last["interval"]) <= 0.05, (rec["s"], last["interval"])
assert abs(float(rec["u"]) - n["util"] * 100) <= 0.005, (rec["u"], n["util"])
for k, j in (("ghz", "ghz"), ("cpi", "cpi"), ("at", "active_threads")):
    assert abs(float(rec[k]) - n[j]) <= 0.0005, (k, rec[k], n[j])
for k, j in (("n", "neither"), ("t0", "t0_only"), ("t1", "t1_only"), ("b", "both"), ("bb", "both_of_busy")):
    if n[j] is None:
        assert rec[k].startswith("-"), (k, rec[k])
    else:
        assert abs(float(rec[k]) - n[j] * 100) <= 0.005, (k, rec[k], n[j])
# The simulator does not tell the tasks of the job apart: no CPU seconds of it.
assert rec["cpu"] == "-no-job" and last["job"]["cpu_s"] is None, (rec["cpu"], last["job"])
' "jobs/job-$j1.jsonl" j1.comment
check "... and the epilog still wrote its line (no python): $(grep "job $j1 " jobs.log)" \
	grep -Eq "^httop: job $j1 \(root\) on $node: [0-9]+ cores? over [0-9.]+ s; util 100\.0%;.*; CPI [0-9.]+\$" \
	jobs.log

# httop --job ID: the job has ended; its record read back with sacct.
timeout 60 "$HTTOP" --job "$j1" >j1.out 2>j1.err; st=$?
sed 's/^/# /' j1.out
check "httop --job $j1 (ended): exit status 0 (got $st: $(cat j1.err))" [ "$st" -eq 0 ]
check "... a line of node $node and one of the job, figures equal to the record's" python3 -c '
import json, sys
last = json.loads(open(sys.argv[1]).read().splitlines()[-1])
n = last["node"]
rows = {l.split()[0]: l.split() for l in open(sys.argv[2]) if l.split() and l.split()[0] in (sys.argv[3], "job")}
assert set(rows) == {sys.argv[3], "job"}, rows
for r in rows.values():
    # NODE CORES SECONDS NEITHER T0ONLY T1ONLY BOTH UTIL BOTH/BUSY GHZ CPI THREADS JOB-CPU SOURCE
    assert int(r[1]) == n["ncores"], r
    assert abs(float(r[2]) - last["interval"]) <= 0.051, r
    assert abs(float(r[7]) - n["util"] * 100) <= 0.051, r
    assert abs(float(r[9]) - n["ghz"]) <= 0.0051 and abs(float(r[10]) - n["cpi"]) <= 0.0051, r
    assert abs(float(r[11]) - n["active_threads"]) <= 0.0051, r
    assert r[12] == "-" and r[13] == "sim", r
assert rows["job"][1:] == rows[sys.argv[3]][1:], rows
' "jobs/job-$j1.jsonl" j1.out "$node"

# Under --source sched the record's cpu= is the job's own CPU seconds on
# the node (the whole run's cpu_s): a job that burns CPU 1 for 2 s counts
# what its own shell counts for its children (times), within the start of
# httop's watch and steal; httop --job reads it back for the node and the
# job.
if "$HTTOP" --source sched -b -n 1 -d 0.1 >/dev/null 2>sched.err; then
	: >sched
	j5=$(run burn "exec taskset -c 1 sh -c 'timeout 2 sh -c \"while :; do :; done\"; times >$tmp/j5.times'")
	rm -f sched
	wait_for 20 has_comment "$j5"
	comment "$j5" >j5.comment
	timeout 60 "$HTTOP" --job "$j5" >j5.out 2>j5.err
	sed 's/^/# /' j5.out
	check "job $j5 under --source sched: cpu= is its whole run's cpu_s, near its own CPU time: $(cat j5.comment)" python3 -c '
import json, sys
last = json.loads(open(sys.argv[1]).read().splitlines()[-1])
rec = dict(kv.split("=") for kv in open(sys.argv[2]).read().strip().split(";")[1].split(":", 1)[1].split(","))
job = last["job"]
cpu_s = job["cpu_s"]
assert last["window"] == "run", last["job"]
# times: its children'"'"'s user and system time on the second line ("0m1.93s 0m0.01s").
own = sum(int(m) * 60 + float(x.rstrip("s")) for m, x in (f.split("m") for f in open(sys.argv[3]).read().split("\n")[1].split()))
assert own > 0.2 and rec["src"] == "sched", (own, rec)
if isinstance(cpu_s, (int, float)):
    assert rec["cpu"] == "%.2f" % cpu_s, (rec["cpu"], cpu_s)
    assert abs(cpu_s - own) <= 0.3 + 0.1 * own, (cpu_s, own)
else:
    # Records lost under load: a bound (httop(1) FIGURES), written lo-hi,
    # which holds the job'"'"'s own time.
    lo, hi = job["cpu_s_lo"], job["cpu_s_hi"]
    assert cpu_s is None and lo <= hi, job
    assert rec["cpu"] == "%.2f-%.2f" % (lo, hi), (rec["cpu"], lo, hi)
    assert lo - 0.3 - 0.1 * own <= own <= hi + 0.3 + 0.1 * own, (lo, hi, own)
' "jobs/job-$j5.jsonl" j5.comment j5.times
	check "... httop --job $j5 reads it back: the node's and the job's JOB-CPU are the record's" \
	    awk -v n="$node" -v c="$(sed -n 's/.*,cpu=\([0-9.-]*\),.*/\1/p' j5.comment)" '
	    ($1 == n || $1 == "job") && $13 == c && c != "" { k++ } END { exit !(k == 2) }' j5.out
else
	skip "--source sched is not available here: $(tail -n 1 sched.err)"
	skip "--source sched is not available here"
fi

# A job whose epilog stored nothing: httop says so.
: >noacct
j2=$(run quiet "sleep 1")
rm -f noacct
sleep 2
timeout 60 "$HTTOP" --job "$j2" >j2.out 2>j2.err; st=$?
check "httop --job $j2 (ended, no record): exit status 1 (got $st)" [ "$st" -eq 1 ]
check "... saying Slurm's accounting holds no httop record: $(cat j2.err)" \
	grep -q "job $j2 (COMPLETED, not running): Slurm's accounting holds no httop record" j2.err

# Four nodes' epilogs at once (httop-acct, as on a 4-node job's nodes:
# here four records of other host names), on one job: all four kept.
: >noacct
j3=$(run race "sleep 1")
rm -f noacct
for k in 1 2 3 4; do
	sed "s/\"host\":\"[^\"]*\"/\"host\":\"n0$k\"/" "jobs/job-$j1.jsonl" >"race$k.jsonl"
done
racers=
for k in 1 2 3 4; do
	HTTOP="$HTTOP" "$HTTOP_SRCDIR/contrib/slurm/httop-acct" "$j3" "race$k.jsonl" \
	    2>"race$k.err" &
	racers="$racers $!"
done
st=0
for p in $racers; do wait "$p" || st=1; done
check "four httop-acct racing on job $j3: all exit 0 ($(cat race*.err | tail -n 2))" [ "$st" -eq 0 ]
nodes_of() { comment "$1" | tr ';' '\n' | sed -n 's/:.*//p' | sort | tr '\n' ' '; }
check "... sacct: the AdminComment holds the four nodes' records: $(nodes_of "$j3")" \
	[ "$(nodes_of "$j3")" = "n01 n02 n03 n04 " ]
timeout 60 "$HTTOP" --job "$j3" >j3.out 2>j3.err; st=$?
sed 's/^/# /' j3.out
check "... httop --job $j3: four node lines and the job's, its cores the sum, no CPU time (the nodes' is absent)" \
	awk -v c="$(awk '$1 == "'"$node"'" { print $2 }' j1.out)" '
	$1 ~ /^n0[1-4]$/ { n++ }
	$1 == "job" { job = ($2 == 4 * c && $13 == "-") }
	END { exit !(n == 4 && job) }' j3.out

# An AdminComment that is not httop's (set while the job ran, in the
# accounting once it ended): httop-acct leaves it, httop --job says so,
# escaped.
: >noacct
j4=$(sbatch --parsable -n 1 -J hostile -o /dev/null --wrap "sleep 60" 2>>log/sbatch.err)
running() { [ "$(squeue -h -j "$1" -o %T 2>/dev/null)" = RUNNING ]; }
wait_for 20 running "$j4"
scontrol update JobId="$j4" AdminComment="$(printf 'httop1;n\033]0;owned\007:c=1,s=1')" \
	>>log/sbatch.err 2>&1
scancel "$j4"
ended_job "$j4"
rm -f noacct
is_hostile() { comment "$j4" | grep -q 'owned'; }
wait_for 20 is_hostile
HTTOP="$HTTOP" HTTOP_ACCT_TRIES=2 "$HTTOP_SRCDIR/contrib/slurm/httop-acct" "$j4" \
    "jobs/job-$j1.jsonl" 2>j4.acct; st=$?
left_alone() { [ "$st" -eq 1 ] && grep -q "left as it is" j4.acct && is_hostile; }
check "httop-acct on a job whose AdminComment is not httop's: exit 1 ($st), left as it is" \
	left_alone
timeout 60 "$HTTOP" --job "$j4" >j4.out 2>j4.err; st=$?
check "httop --job $j4 (a hostile AdminComment): exit 1 ($st), not httop's record" \
	sh -c '[ "$1" -eq 1 ] && grep -q "is not httop.s record (byte 7" j4.err' sh "$st"
check "... nothing of it reaches the terminal unescaped (no ESC, no BEL)" \
	sh -c '! grep -q "$(printf "\033")\|$(printf "\007")" j4.out j4.err'

# No such job, in slurmctld or in the accounting.
timeout 60 "$HTTOP" --job 999999 >none.out 2>none.err; st=$?
check "httop --job 999999: exit 1 ($st): $(cat none.err)" \
	sh -c '[ "$1" -eq 1 ] && grep -q "Invalid job id.*accounting (sacct) has no such job" none.err' \
	sh "$st"

# Stopped: every daemon this test started is gone.
scancel --quiet --user=root >/dev/null 2>&1
for p in $pids; do kill "$p" 2>/dev/null; done
left=
for p in $pids; do
	i=0; while kill -0 "$p" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	kill -0 "$p" 2>/dev/null && left="$left $p"
done
check "every daemon it started has ended (MariaDB $dbpid, slurmdbd $dbdpid, ...):$left" [ -z "$left" ]
pids=
exit 0
