#!/bin/sh
# test_command.sh: httop [options] -- COMMAND on the simulator (this
# machine's topology, or the demo's where the figures must exist): the
# summary of the whole run on standard error or in -o FILE, the exit status
# of the command (its code, 128 + the signal that killed it, 127 and 126
# when it cannot be run), Ctrl-C to the process group, SIGTERM to httop
# alone passed on, the CPUs of the command's processes and of their
# descendants, the whole run as the last record of a batch format (and its
# figures the time-weighted mean of the intervals'), and the options that
# cannot go with a command.
. "$HTTOP_SRCDIR/tests/lib.sh"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
plan 59

DEMO="--topology $HTTOP_SRCDIR/data/demo-skx.xml --cpuid $HTTOP_SRCDIR/data/demo-skx.cpuid"

# --- sleep 2: exit 0, the summary -------------------------------------------
# shellcheck disable=SC2086
timeout 30 "$HTTOP" $DEMO --sim demo -- sleep 2 >out 2>err; st=$?
check "httop -- sleep 2: exit status 0 (got $st)" [ "$st" -eq 0 ]
check "... nothing on standard output" [ ! -s out ]
check "... the summary names the command and how it ended" \
	grep -Eq '^ httop: sleep 2 \(pid [0-9]+\): exit status 0 after ([2-9]|[1-2][0-9])\.[0-9][0-9] s$' err
# At least the 2 s the command ran; a loaded machine may add to that, so
# the upper bound is the 30 s guard only (make check asserts no wall time).
secs=$(sed -n 's/.*figures over \([0-9.]*\) s$/\1/p' err)
check "... its figures cover the run (2 s, got $secs)" \
	awk -v s="$secs" 'BEGIN { exit !(s >= 1.9 && s <= 30) }'
# The node's rows: four shares summing to 100, util, both/busy, threads,
# GHz, CPI as numbers.
if summary_node err | awk '{ n++; s = $1 + $2 + $3 + $4
	ok = NF == 9 && s > 99.5 && s < 100.5 && $5 > 0 && $5 <= 100 && $6 >= 0 && $6 <= 100 &&
	    $7 >= 1 && $7 <= 2 && $8 > 0 && $9 > 0 }
	END { exit !(n == 1 && ok) }'; then
	ok "... the node row: four shares summing to 100%, util, both/busy, threads, GHz, CPI"
else
	not_ok "... the node row: four shares summing to 100%, util, both/busy, threads, GHz, CPI"
	sed 's/^/# /' err
fi
# both/busy is both / (1 - neither), as the metrics computed it.
node=$(summary_node err)
check "... both/busy is the share of busy time with both threads (both / util)" \
	awk -v r="$node" 'BEGIN { split(r, v, " ")
	    exit !(v[5] > 0 && (v[6] - 100 * v[4] / v[5]) ^ 2 < 0.2 ^ 2) }'
check "... a row per package with a core of the command's" grep -Eq '^  package [0-9]+ ' err

# --- exit statuses ------------------------------------------------------------
timeout 30 "$HTTOP" --sim demo -- false >/dev/null 2>err; st=$?
check "httop -- false: exit status 1 (got $st)" [ "$st" -eq 1 ]
check "... summary: exit status 1" grep -q 'false (pid [0-9]*): exit status 1 after' err
timeout 30 "$HTTOP" --sim demo -- sh -c 'exit 3' >/dev/null 2>err; st=$?
check "httop -- sh -c 'exit 3': exit status 3 (got $st)" [ "$st" -eq 3 ]
check "... the command as typed, quoted" grep -q "sh -c 'exit 3' (pid" err
timeout 30 "$HTTOP" --sim demo -d 0.2 -- sh -c 'sleep 0.5; kill -9 $$' >/dev/null 2>err; st=$?
check "a command killed by SIGKILL: exit status 137 (got $st)" [ "$st" -eq 137 ]
check "... summary: killed by signal 9" grep -q 'killed by signal 9' err

# --- a command that cannot run: found out before anything is opened ---------
# Looked up as its exec will (execvp: the file, or each directory of PATH),
# before the source, -o FILE or --record are opened and before it is
# forked: one message, a shell's status, nothing made. A source that
# cannot open (--topology that does not exist) would otherwise run it
# without counters, and say so: that it does not shows the source was
# never opened.
# oneline FILE TEXT: FILE is that one line.
oneline() { [ "$(wc -l <"$1")" -eq 1 ] && [ "$(cat "$1")" = "$2" ]; }
timeout 30 "$HTTOP" --sim demo --record rec.trace -o out.txt -- ./no-such-command \
	>/dev/null 2>err; st=$?
check "a command that does not exist: exit status 127 (got $st)" [ "$st" -eq 127 ]
check "... one line: 'cannot run ./no-such-command: No such file or directory'" \
	oneline err "httop: cannot run ./no-such-command: No such file or directory"
check "... neither --record's trace nor -o's file was made (nothing was opened)" \
	sh -c '[ ! -e rec.trace ] && [ ! -e out.txt ]'
timeout 30 "$HTTOP" -- ./no-such-command >/dev/null 2>err; st=$?
check "--source auto: 127 (got $st), and no source chosen (no 'using' note): one line" \
	oneline err "httop: cannot run ./no-such-command: No such file or directory"
mkdir -p nx bin dirs/hx
timeout 30 env PATH="$tmp/nx" "$HTTOP" --topology "$tmp/no.xml" --sim demo -- no-such-command \
	>/dev/null 2>err; st=$?
check "not in PATH: 127 (got $st), the source never opened (it would run it without counters)" \
	oneline err "httop: cannot run no-such-command: not found in PATH; give the command's path, or add its directory to PATH"
printf 'data\n' >notexec
timeout 30 "$HTTOP" --sim demo --record rec.trace -- ./notexec >/dev/null 2>err; st=$?
check "a file that is not executable: exit status 126 (got $st)" [ "$st" -eq 126 ]
check "... one line: 'cannot run ./notexec: Permission denied', no trace made" \
	sh -c 'oneline() { [ "$(wc -l <"$1")" -eq 1 ] && [ "$(cat "$1")" = "$2" ]; }
	    oneline err "httop: cannot run ./notexec: Permission denied" && [ ! -e rec.trace ]'
timeout 30 "$HTTOP" --sim demo -- "$tmp/dirs" >/dev/null 2>err; st=$?
check "a directory: 126 (got $st), 'Permission denied' (execve refuses one)" \
	oneline err "httop: cannot run $tmp/dirs: Permission denied"
# PATH as execvp walks it: a file it may not run, or a directory, is passed
# over for a later one; only such ones is 126; an empty entry is the
# current directory.
printf 'data\n' >nx/hx
printf '#!/bin/sh\necho "ran bin/hx $1"\n' >bin/hx
chmod 755 bin/hx
timeout 30 env PATH="$tmp/nx:$tmp/dirs:$tmp/bin:/usr/bin:/bin" "$HTTOP" --sim demo -- hx a \
	>out 2>err; st=$?
check "PATH: a file not executable and a directory passed over for a later one: it runs (status $st)" \
	sh -c '[ "$1" -eq 0 ] && [ "$(cat out)" = "ran bin/hx a" ]' sh "$st"
timeout 30 env PATH="$tmp/nx:$tmp/dirs" "$HTTOP" --sim demo -- hx >/dev/null 2>err; st=$?
check "PATH with only those: 126 (got $st), 'cannot run hx: Permission denied'" \
	oneline err "httop: cannot run hx: Permission denied"
cp bin/hx ./hx
timeout 30 env PATH="$tmp/nx/none::/usr/bin:/bin" "$HTTOP" --sim demo -- hx b \
	>out 2>err; st=$?
check "PATH's empty entry is the current directory: it runs (status $st)" \
	sh -c '[ "$1" -eq 0 ] && [ "$(cat out)" = "ran bin/hx b" ]' sh "$st"
rm -f hx
# No PATH: the C library's default search path is its own (it differs
# between them): the lookup leaves it to the exec, whose error is said as
# before.
timeout 30 env -u PATH "$HTTOP" --sim demo -- no-such-command-3ab >/dev/null 2>err; st=$?
check "no PATH: the exec's own error, 127 (got $st), 'No such file or directory'" \
	sh -c '[ "$1" -eq 127 ] && grep -q "cannot run no-such-command-3ab: No such file or directory" err &&
	    ! grep -q "figures over" err' sh "$st"

# --- the command's standard streams and environment ---------------------------
HTTOP_TEST_VAR=kept timeout 30 "$HTTOP" --sim demo -- sh -c 'echo "out $HTTOP_TEST_VAR"; read l; echo "in $l"' \
	>out 2>err <<EOF
typed
EOF
check "the command has httop's standard output, input and environment" \
	[ "$(cat out)" = "out kept
in typed" ]

# --- Ctrl-C: SIGINT to the process group; SIGTERM to httop alone -------------
# pgsig SECONDS SIGNAL WHOM HTTOP-ARGS...: httop in a process group of its
# own (as a shell's foreground job), the signal after SECONDS to the group
# (WHOM=group) or to httop alone (WHOM=httop); status in pg.status.
pgsig() {
	python3 - "$@" <<'EOF'
import os, signal, subprocess, sys, time
# A shell's Ctrl-C reaches a foreground job with SIGINT at its default;
# a suite started in the background (`cmd &`, nohup) inherits it ignored.
signal.signal(signal.SIGINT, signal.SIG_DFL)
delay, sig, whom, argv = float(sys.argv[1]), getattr(signal, sys.argv[2]), sys.argv[3], sys.argv[4:]
with open("pg.out", "w") as out, open("pg.err", "w") as err:
    p = subprocess.Popen(argv, stdout=out, stderr=err, start_new_session=True)
    time.sleep(delay)
    if whom == "group":
        os.killpg(p.pid, sig)
    else:
        os.kill(p.pid, sig)
    try:
        rc = p.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        rc = "timeout"
open("pg.status", "w").write("%s\n" % rc)
EOF
}
if command -v python3 >/dev/null 2>&1; then
	pgsig 1.5 SIGINT group "$HTTOP" --sim demo -d 0.3 -- sleep 30
	st=$(cat pg.status)
	check "Ctrl-C (SIGINT to the group): httop exits 130, the command's status (got $st)" \
		[ "$st" = 130 ]
	check "... after the summary: killed by signal 2" grep -q 'sleep 30 (pid [0-9]*): killed by signal 2' pg.err
	secs=$(sed -n 's/.*figures over \([0-9.]*\) s$/\1/p' pg.err)
	# (at least the 1.5 s before the signal; at most pgsig's 20 s guard:
	# a loaded machine may add to the sleep, and make check asserts no
	# wall time)
	check "... over the 1.5 s it ran (got $secs)" awk -v s="$secs" 'BEGIN { exit !(s >= 1.2 && s <= 21.5) }'
	# A command that ignores SIGINT goes on: httop waits for it.
	pgsig 1 SIGINT group "$HTTOP" --sim demo -d 0.3 -- sh -c 'trap "" INT; sleep 2; exit 4'
	st=$(cat pg.status)
	check "a command that ignores Ctrl-C runs on; httop waits and exits 4 (got $st)" [ "$st" = 4 ]
	pgsig 1 SIGTERM httop "$HTTOP" --sim demo -d 0.3 -- sleep 30
	st=$(cat pg.status)
	check "SIGTERM to httop alone is passed on: exit 143 (got $st)" [ "$st" = 143 ]
	check "... summary: killed by signal 15" grep -q 'killed by signal 15' pg.err
else
	i=0; while [ $i -lt 6 ]; do skip "python3 is not installed"; i=$((i + 1)); done
fi

# --- the CPUs the command's processes may run on -------------------------------
ncpu=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
if command -v taskset >/dev/null 2>&1 && [ "$ncpu" -ge 2 ]; then
	timeout 30 "$HTTOP" --sim busy -d 0.3 --format json -o iv.json -- taskset -c 1 sleep 1.2 \
		>/dev/null 2>err; st=$?
	check "-- taskset -c 1 sleep 1.2 --format json -o FILE: exit 0 (got $st)" [ "$st" -eq 0 ]
	check "... no summary on standard error (it is the file's last record)" \
		sh -c '! grep -q "figures over" err' 
	cpus=$(python3 -c '
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
print(" ".join(sorted({",".join(str(c) for k in r["cores"] for c in k["cpus"]) for r in recs})))
' iv.json 2>/dev/null)
	want=$(cat /sys/devices/system/cpu/cpu1/topology/thread_siblings_list 2>/dev/null | tr - ,)
	check "... every record has CPU 1's core ($want) alone (got '$cpus')" [ "$cpus" = "$want" ]
	# Descendants: httop on CPU 0, the command's child pins itself to 1.
	timeout 30 taskset -c 0 "$HTTOP" --sim busy -d 0.3 -- \
		sh -c 'taskset -c 1 sleep 1.2 & wait' >/dev/null 2>err; st=$?
	check "a descendant on CPU 1 of a command on CPU 0: exit 0 (got $st)" [ "$st" -eq 0 ]
	check "... the summary counts both CPUs" grep -q "the command's CPUs 0-1 (2 cores)" err
	timeout 30 taskset -c 1 "$HTTOP" --sim busy -- true >/dev/null 2>err; st=$?
	check "a command that ends at once ran on the CPUs it inherited (httop's: 1)" \
		grep -q "the command's CPUs 1 (1 core)" err
else
	i=0; while [ $i -lt 6 ]; do skip "needs taskset and two CPUs"; i=$((i + 1)); done
fi

# --- the job a command is, in json and openmetrics ---------------------------
# kind "command", its name the argv[0] as given (a quote, a backslash, an
# escape and UTF-8 in it, escaped and read back the same), its id and pid
# its PID as with --pid, in every record and the whole run's; valid
# against the schema.
nm=$(printf './r"q\\b\033[1m\303\251')
cp bin/hx "$nm"
timeout 30 "$HTTOP" --sim demo -d 0.25 --format json -o named.json -- "$nm" x >/dev/null 2>err; st=$?
check "json: the job is kind command, named by its argv[0] (escaped, read back whole), id and pid its PID (status $st)" \
	python3 -c '
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
assert len(recs) >= 2 and recs[-1].get("window") == "run", len(recs)
jobs = {json.dumps(r["job"], sort_keys=True) for r in recs
        for r["job"] in [{k: r["job"][k] for k in ("kind", "id", "name", "pid", "user", "cgroup")}]}
assert len(jobs) == 1, jobs
j = json.loads(jobs.pop())
assert j["kind"] == "command" and j["name"] == sys.argv[2], j
assert j["pid"] == j["id"] and j["pid"].isdigit() and j["user"] is None and j["cgroup"] is None, j
' named.json "$nm"
check_schema named.json
timeout 30 "$HTTOP" --sim demo -d 0.25 --format openmetrics -o named.om -- sleep 0.5 >/dev/null 2>err
check "openmetrics: httop_job_info{jobid=PID,kind=\"command\",name=\"sleep\",pid=PID} in every exposition" \
	sh -c 'n=$(grep -c "^httop_job_info{host=\"[^\"]*\",\(window=\"run\",\)\{0,1\}jobid=\"\([0-9]*\)\",kind=\"command\",name=\"sleep\",pid=\"\2\"} 1 " named.om)
	    [ "$n" -ge 2 ] && [ "$n" -eq "$(grep -c "^httop_job_info" named.om)" ]'
rm -f "$nm"

# --- the whole run as the last record, the mean of the intervals ------------
# shellcheck disable=SC2086
timeout 30 "$HTTOP" $DEMO --sim demo -d 0.25 --format json -o run.json -- sleep 1.6 2>err; st=$?
check "--format json -o run.json -- sleep 1.6: exit 0 (got $st)" [ "$st" -eq 0 ]
# Every core of the command is in every interval (the demo: CPUs 0-1 are
# cores of each package), so the whole run's node share is the mean of the
# intervals' weighted by their length (the TSC ticks of each).
if python3 - run.json <<'EOF'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
iv, whole = recs[:-1], recs[-1]
assert len(iv) >= 6, len(iv)
t = sum(r["interval"] for r in iv)
assert abs(whole["interval"] - t) < 1e-3, (whole["interval"], t)
for k in ("neither", "t0_only", "t1_only", "both", "util"):
    mean = sum(r["node"][k] * r["interval"] for r in iv) / t
    assert abs(whole["node"][k] - mean) < 1e-4, (k, whole["node"][k], mean)
b = whole["node"]
assert abs(b["both_of_busy"] - b["both"] / (1 - b["neither"])) < 1e-9
EOF
then ok "... the last record is the whole run: its shares the time-weighted mean of the intervals'"
else not_ok "... the last record is the whole run: its shares the time-weighted mean of the intervals'"
fi
check "... no summary text in the JSON file, none on standard error" \
	sh -c '! grep -q "figures over" run.json && ! grep -q "figures over" err'
# -b (text): the intervals, then the summary, in -o FILE. (When the first
# interval ends depends on how long httop took to start, a wall-clock time:
# only that there are intervals is checked.)
timeout 30 "$HTTOP" --sim demo -d 0.3 -b -o run.txt -- sleep 0.8 >out 2>err; st=$?
check "-b -o run.txt: the text intervals and then the summary there (exit $st)" \
	sh -c 'grep -q "^time [0-9.]* s (Unix time [0-9.]*), interval [0-9.]* s" run.txt && tail -n 20 run.txt | grep -q "figures over" && ! grep -q "figures over" err && [ ! -s out ]'
timeout 30 "$HTTOP" --sim demo -o run2.txt -- true 2>err; st=$?
check "-o run2.txt: only the summary there" sh -c 'grep -q "true (pid" run2.txt && ! grep -q "^time" run2.txt'
timeout 30 "$HTTOP" --sim demo -o "$tmp/no/such/dir/f" -- true 2>err; st=$?
check "-o in a directory that does not exist: exit 1, named (got $st)" \
	sh -c "[ $st -eq 1 ] && grep -q -- '-o .*no/such/dir' err"

# --- what cannot go with a command ------------------------------------------------
bad() {
	d=$1; shift
	timeout 10 "$HTTOP" "$@" >/dev/null 2>err; st=$?
	if [ "$st" -eq 2 ] && grep -q "$d" err; then ok "$* : exit 2, '$d'"
	else not_ok "$* : exit 2, '$d' (got $st)"; sed 's/^/# /' err; fi
}
bad "lasts as long as the command" --sim demo -n 3 -- true
bad "watches the command's own processes" --sim demo --pid 1 -- true
bad "watches the command's own processes" --sim demo --job 12 -- true
bad "cannot go with --replay" --replay x.trace -- true
bad "output: empty file name" --sim demo -o "" -- true
bad "unexpected argument 'true'" --sim demo true
bad "drop --pid and --cgroup" --job 5 --pid 1 --sim demo
bad "is not a Slurm job ID" --job=12x --sim demo
# "--host --": the value of --host, not the end of the options (and then
# refused: a host name does not begin with '-', httop(1) SECURITY).
timeout 10 "$HTTOP" --sim demo -n 1 -b --host -- >out 2>err; st=$?
check "--host --: the value of --host, refused as a host name, no command (exit $st)" \
	sh -c "[ $st -eq 2 ] && grep -q \"^httop: --host: '--' is not a host name\" err && [ ! -s out ]"

# Where the command's own CPU seconds come from, in the summary's words:
# the scheduler's record with sched, counted in the kernel with bpf (it
# said "the scheduler's record" with bpf too, which reads no record).
for src in sched bpf; do
	"$HTTOP" --source "$src" -- sh -c 'i=0; while [ $i -lt 200000 ]; do i=$((i + 1)); done' \
	    >out 2>err; st=$?
	if [ "$st" -ne 0 ] || ! grep -q "source $src;" err; then
		skip "--source $src does not run here: $(head -c 200 err)"
	elif [ "$src" = sched ]; then
		# exact, or a bound where records were lost (CI under load):
		# "CPU 0.41-0.52 s on its cores (the scheduler's record; a bound"
		check "sched: the command's CPU on its cores from the scheduler's record ($(grep -m1 'on its cores' err))" \
		    grep -Eq "CPU [0-9.]+(-[0-9.]+)? s on its cores \(the scheduler's record(\)|;)" err
	else
		check "bpf: the command's CPU on its cores counted in the kernel, no record" \
		    sh -c 'grep -q "CPU [0-9.]* s on its cores (counted in the kernel at each switch)" err &&
			! grep -q "record" err'
	fi
done
# Where no source tells the command's tasks apart (procstat), the summary
# names every source that would: bpf too (it named sched, msr and perf).
"$HTTOP" --source procstat -- sh -c 'i=0; while [ $i -lt 200000 ]; do i=$((i + 1)); done' \
    >out 2>err
check "procstat: 'not measured' names --source sched or bpf ($(grep -A1 'not measured' err | tr -s ' ' | tr '\n' ' '))" \
    sh -c 'tr -s " \n" "  " <err | grep -q "not measured: .*(--source sched or bpf, or msr or perf as root)"'
