#!/bin/sh
# test_slurm.sh: --job against a real one-node Slurm on localhost, from
# Debian's packages (slurmctld, slurmd, munge), started here as root in the
# foreground with the test's own slurm.conf, munge key, state and spool
# directories and a private port pair; everything it starts is stopped at
# the end, also on failure. httop runs on this machine's topology with the
# simulator (--sim: the CPUs must be this machine's, where the jobs run).
#
# First with proctrack/linuxproc and task/affinity (works in a container or
# a VM without systemd): a job whose batch step runs `taskset -c 1 sleep`
# has CPU 1 as its CPUs; --job with none, one and two jobs; the job's
# cores in batch mode (JSON) and the live view; both end when the job is
# cancelled. Then, where slurmd comes up with them, proctrack/cgroup and
# task/cgroup: the cores httop writes are the job's cgroup cpuset.
. "$HTTOP_SRCDIR/tests/lib.sh"
. "$HTTOP_SRCDIR/tests/cli/promlib.sh"
NTESTS=39

. "$HTTOP_SRCDIR/tests/slurmlib.sh"
slurm_need

tmp=$(mktemp -d) || exit 1
# Everything this test started, stopped: jobs first, then the daemons.
cleanup() {
	slurm_cleanup
	[ -n "$tui_sock" ] && tui_kill
	[ -n "$tui_dir" ] && rm -rf "$tui_dir"
	cgroup_cleanup
	rm -rf "$tmp"
}
cgroup_cleanup() { :; }
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
cd "$tmp" || exit 1

slurm_node
plan $NTESTS
slurm_ports 2 30000
slurm_munge

# write_conf PROCTRACK TASKPLUGIN
write_conf() {
	{
		slurm_conf httoptest "$1" "$2"
		echo "AccountingStorageType=accounting_storage/none"
		if [ -n "$hooks" ]; then
			printf 'Prolog=%s\nEpilog=%s\n' "$tmp/prolog.sh" "$tmp/epilog.sh"
		fi
		slurm_conf_node
	} >slurm.conf
	cat >cgroup.conf <<EOF
CgroupPlugin=autodetect
ConstrainCores=yes
IgnoreSystemdOnFailure=yes
EOF
}
export SLURM_CONF="$tmp/slurm.conf"
start_slurm() { slurm_start; }
stop_slurm() { slurm_stop; }
# submit NAME COMMAND: a one-CPU batch job; its ID, once it runs.
submit() {
	id=$(sbatch --parsable -n 1 -J "$1" -o /dev/null --wrap "$2" 2>>log/sbatch.err) || return 1
	i=0
	while [ "$(squeue -h -j "$id" -o %T 2>/dev/null)" != RUNNING ] && [ $i -lt 100 ]; do
		sleep 0.1; i=$((i + 1))
	done
	# Its processes, once they run what was asked (not the shell).
	i=0
	while ! scontrol listpids "$id" 2>/dev/null | grep -q . && [ $i -lt 50 ]; do
		sleep 0.1; i=$((i + 1))
	done
	sleep 0.3
	echo "$id"
}
# The CPUs (sorted, comma-separated) of the cores in httop's JSON lines.
json_cpus() {
	python3 -c '
import json, sys
sets = set()
for line in open(sys.argv[1]):
    line = line.strip()
    if line:
        cpus = sorted(c for core in json.loads(line)["cores"] for c in core["cpus"])
        sets.add(",".join(map(str, cpus)))
print(" ".join(sorted(sets)))' "$1"
}
# The CPUs of core(s) holding the CPUs in a kernel list ("1", "0-3"): the
# sibling threads too, as httop shows whole cores.
core_cpus() {
	python3 -c '
import sys, glob
want = set()
for part in sys.argv[1].split(","):
    a, _, b = part.partition("-")
    want.update(range(int(a), int(b or a) + 1))
out = set()
for c in want:
    sib = open("/sys/devices/system/cpu/cpu%d/topology/thread_siblings_list" % c).read().strip()
    for part in sib.split(","):
        a, _, b = part.partition("-")
        out.update(range(int(a), int(b or a) + 1))
print(",".join(map(str, sorted(out))))' "$1"
}

write_conf proctrack/linuxproc task/affinity
if ! start_slurm; then
	not_ok "slurmctld and slurmd (linuxproc) come up: the node is idle"
	sed 's/^/# /' log/slurmd.out log/slurmctld.out 2>/dev/null | tail -20
	i=1; while [ $i -lt $NTESTS ]; do skip "Slurm did not start"; i=$((i + 1)); done
	exit 0
fi
ok "slurmctld and slurmd (linuxproc, task/affinity) come up: node $node is idle"

# --job alone, no job: status 1, and it says so.
timeout 30 "$HTTOP" --sim idle --job -b -n 1 >none.out 2>none.err; st=$?
check "--job alone with no job: exit status 1 (got $st)" [ "$st" -eq 1 ]
check "... saying no Slurm job has a process here" grep -q 'no Slurm job has a process' none.err

j1=$(submit pinned "exec taskset -c 1 sleep 60")
check "a job pinned to CPU 1 runs (job $j1)" [ -n "$j1" ]
want=$(core_cpus 1)

# Its cores in batch mode: the same in every interval, CPU 1's core only.
timeout 30 "$HTTOP" --sim busy --job "$j1" --format json -n 2 -d 0.3 >one.json 2>one.err; st=$?
check "--job $j1 --format json -n 2: exit status 0 (got $st)" [ "$st" -eq 0 ]
got=$(json_cpus one.json)
check "... every interval writes the job's core ($want), got '$got'" [ "$got" = "$want" ]
# --job alone: the only job.
timeout 30 "$HTTOP" --sim busy --job --format json -n 1 >alone.json 2>alone.err; st=$?
got=$(json_cpus alone.json)
check "--job alone, one job: its core ($want), got '$got' (exit $st)" \
	[ "$st" -eq 0 ] && [ "$got" = "$want" ]

# Two jobs: the list, and a line saying to choose.
j2=$(submit "second job" "sleep 60")
timeout 60 "$HTTOP" --sim idle --job -b -n 1 >two.out 2>two.err; st=$?
check "--job alone, two jobs ($j1, $j2): exit status 2 (got $st)" [ "$st" -eq 2 ]
check "... lists job $j1 (root, pinned)" grep -Eq "^$j1 +root +pinned\$" two.out
check "... lists job $j2 (root, second job)" grep -Eq "^$j2 +root +second job\$" two.out
check "... and says to choose with --job ID" grep -q '2 jobs run on this node.*--job ID' two.err
scancel "$j2"

timeout 30 "$HTTOP" --sim idle --job 999999 -b -n 1 >bad.out 2>bad.err; st=$?
check "--job 999999 (no such job): exit status 1 (got $st)" [ "$st" -eq 1 ]
check "... with Slurm's reason" grep -q 'Invalid job id' bad.err

# --job ID --all-nodes: the job's nodes from Slurm (here the one), httop
# started on each by srun --jobid=ID --overlap, watching the job's CPUs
# there; the summary's node line and job line per interval.
timeout 60 "$HTTOP" --job "$j1" --all-nodes --remote-httop "$HTTOP" --sim busy \
    --format summary -n 2 -d 0.5 >all.out 2>all.err; st=$?
check "--job $j1 --all-nodes (srun): exit status 0 (got $st: $(tail -1 all.err))" [ "$st" -eq 0 ]
check "... per interval a line of node $node and one of the job: $(awk '{ printf "%s ", $1 }' all.out)" \
    [ "$(awk '$1 == "'"$node"'" || $1 == "job" { printf "%s ", $1 }' all.out)" = "$node job $node job " ]
check "... both job lines valid, util 100.0 (the busy load on the job's core)" \
    awk '$1 == "job" && $4 == 1 && $5 == "100.0" { n++ } END { exit !(n == 2) }' all.out

# --via srun is ONE job step for all the job's nodes (however many): while
# httop runs, squeue lists one step of the job besides its batch step, and
# slurmd launched one; SIGTERM ends httop and the step. (No sacct here: the
# test's Slurm keeps no accounting.)
launched() { grep -c "launch task StepId=$j1\.[0-9]" log/slurmd.log; }
steps() { squeue -h -s -j "$j1" -o %i 2>/dev/null | grep -c "^$j1\.[0-9]"; }
l0=$(launched)
# The files exist before httop starts: the wait below reads them at once
# (a redirection not yet made would end the wait, and the signal would
# reach httop before it handles one). The nodes' httop keeps real time
# (not the suite's virtual clock, which srun passes on): two lines a second.
: >step.jsonl
: >step.err
env -u HTTOP_CLOCK "$HTTOP" --job "$j1" --all-nodes --remote-httop "$HTTOP" --sim busy -b \
    -d 0.5 >step.jsonl 2>step.err &
spid=$!
i=0; while [ "$(wc -l <step.jsonl)" -lt 2 ] && [ $i -lt 150 ]; do sleep 0.2; i=$((i + 1)); done
nsteps=$(steps)
nlines=$(wc -l <step.jsonl)
kill -TERM "$spid"; wait "$spid"; st=$?
i=0; while [ "$(steps)" -gt 0 ] && [ $i -lt 50 ]; do sleep 0.2; i=$((i + 1)); done
check "--via srun: one step while it runs (squeue: $nsteps; lines: $nlines; $(tail -n 1 step.err))" \
    [ "$nsteps" -eq 1 -a "$nlines" -ge 2 ]
check "... slurmd launched one step for it ($(($(launched) - l0)))" [ "$(($(launched) - l0))" -eq 1 ]
check "... SIGTERM: exit 0 ($st), and the step ended (squeue: $(steps))" \
    [ "$st" -eq 0 -a "$(steps)" -eq 0 ]

# Until the job ends: the batch run and the live view, the job cancelled
# meanwhile.
timeout 60 "$HTTOP" --sim busy --job "$j1" --format json -d 0.3 >end.json 2>end.err &
bpid=$!
tui_ok=
if command -v tmux >/dev/null 2>&1; then
	. "$HTTOP_SRCDIR/tests/tui/tuilib.sh"
	trap cleanup EXIT
	# No settings file of the user's (a view, a sort, all cores shown).
	export XDG_CONFIG_HOME="$tmp/config"
	tui_start 160 40 SLURM_CONF="$SLURM_CONF" -- --sim busy -d 0.3 --job "$j1"
	if wait_for " 1 Cores " 15; then tui_ok=1; fi
fi
if [ -n "$tui_ok" ]; then
	expect "live view: the header names the job ($j1, root, pinned, elapsed)" \
		"job $j1 \\(root, pinned, 0:00:[0-9][0-9]\\)" 10
	# The cores view's rows: "CORE CPUS  <bar>": one, CPU 1's.
	rows=$(cap | grep -E '^ *[0-9]+ +[0-9][0-9,-]* +.*[0-9]+\.[0-9]' | grep -Ev '^ *package')
	n=$(printf '%s\n' "$rows" | grep -c .)
	if [ "$n" -eq 1 ] && printf '%s' "$rows" | grep -Eq "^ *[0-9]+ +$want "; then
		ok "live view: the job's core ($want) alone"
	else
		not_ok "live view: the job's core ($want) alone ($n rows)"; show_screen
	fi
else
	skip "tmux is not installed (the live view)"
	skip "tmux is not installed (the live view)"
fi
# --all-nodes until it is stopped (its step on the node is one of the
# job's processes, so the node's httop does not see the job end): started
# last, ended by a signal after the job; the whole job comes last.
timeout 5 "$HTTOP" --job "$j1" --all-nodes --remote-httop "$HTTOP" --sim busy \
    --format summary -d 0.3 >allend.out 2>allend.err &
apid=$!
sleep 1.5
scancel "$j1"
wait "$bpid"; st=$?
check "batch --job $j1 ends when the job is cancelled: exit status 0 (got $st)" [ "$st" -eq 0 ]
check "... saying 'job $j1 has ended'" grep -q "httop: job $j1 has ended" end.err
got=$(json_cpus end.json)
check "... every interval wrote the job's core ($want), got '$got'" [ "$got" = "$want" ]
if [ -n "$tui_ok" ]; then
	expect "live view: 'job $j1 has ended'" "job $j1 has ended" 10
	keys q; tui_wait_exit 5
else
	skip "tmux is not installed (the live view)"
fi
wait "$apid"
check "--all-nodes: when it ends, the whole job's line last (whole run, util 100.0)" sh -c \
    '[ "$(tail -n 1 allend.out | awk "{ print \$1, \$5 }")" = "job 100.0" ] &&
     [ "$(grep -c "  whole run" allend.out)" = 1 ] && tail -n 1 allend.out | grep -q "  whole run\$"'
tail -n 3 allend.out | sed 's/^/# /'
# The whole job, written when it ended: the last JSON line, window "run".
check "... and then the whole job (window run, the job's core)" python3 -c '
import json, sys
last = json.loads(open(sys.argv[1]).read().splitlines()[-1])
assert last.get("window") == "run" and last["job"]["id"] == sys.argv[2], last.get("window")
assert last["job"]["kind"] == "slurm" and last["job"]["user"] == "root" and last["node"]["ncores"] == 1
' end.json "$j1"
stop_slurm

# contrib/slurm: the prolog starts httop on the job (here on the
# simulator), the epilog prints one seff-like line once the job is over,
# its figures those of the record's last line (this machine's cores may
# have one thread: then no split, "-"). The interval is 30 s, far longer
# than the job: the epilog's SIGTERM makes httop read the last, partial
# interval at once and write the whole job, so the record's window is the
# job's (within 0.5 s of the times the job's own script took) and the
# epilog does not wait for an interval.
# Slurm runs them with its own environment: wrappers set httop's
# (tests/slurmlib.sh) and note their own start and end.
slurm_hooks "export HTTOP_INTERVAL=30"
hooks=1 write_conf proctrack/linuxproc task/affinity
if start_slurm; then
	j4=$(submit seffed "exec taskset -c 1 sh -c 'date +%s.%N >$tmp/j4.start; sleep 3; date +%s.%N >$tmp/j4.end'")
	i=0
	while [ -n "$(squeue -h -j "$j4" 2>/dev/null)" ] && [ $i -lt 600 ]; do
		sleep 0.1; i=$((i + 1))
	done
	i=0
	while ! grep -q "job $j4 " jobs.log 2>/dev/null && [ $i -lt 600 ]; do
		sleep 0.1; i=$((i + 1))
	done
	line=$(grep "job $j4 " jobs.log 2>/dev/null)
	[ -n "$line" ] || { ls -la jobs; cat jobs/*.err; grep -i prolog slurm.conf;
	    tail -n 8 log/slurmd.log; tail -n 8 log/slurmctld.log; } 2>&1 |
	    sed "s/^/# /"
	check "the epilog printed a line for the finished job $j4: $line" sh -c \
	    'printf "%s\n" "$1" | grep -Eq "^httop: job $2 \(root\) on [^ ]+: 1 core over [0-9.]+ s; util 100\.0%; neither $3 t0 only $3 t1 only $3 both $3; both/busy $3; threads [0-9.]+; ($4|-) GHz; CPI $4\$"' \
	    sh "$line" "$j4" '([0-9.]+%|-)' '[0-9.]+'
	check "... from httop's record, whose last line is the whole job" python3 -c '
import json, sys
lines = open(sys.argv[1]).read().splitlines()
last = json.loads(lines[-1])
assert len(lines) >= 2 and last.get("window") == "run" and last["job"]["id"] == sys.argv[2]
n = last["node"]
assert ("util %.1f%%;" % (n["util"] * 100)) in sys.argv[3], sys.argv[3]
assert sys.argv[3].endswith("; CPI %.2f" % n["cpi"]), sys.argv[3]
assert ("threads %.2f;" % n["active_threads"]) in sys.argv[3], sys.argv[3]
' "jobs/job-$j4.jsonl" "$j4" "$line"
	# The whole job's window: from its first sample to the epilog's
	# signal, against the job's own start and end.
	window=$(python3 -c '
import json, sys
last = json.loads(open(sys.argv[1]).read().splitlines()[-1])
t1 = last["unix_time"]
t0 = t1 - last["interval"]
print("%.3f %.3f" % (t0 - float(open(sys.argv[2]).read()), t1 - float(open(sys.argv[3]).read())))
' "jobs/job-$j4.jsonl" j4.start j4.end 2>&1)
	check "... its window is the job's within 0.5 s (start, end: $window s from the job's own)" \
	    python3 -c 'import sys; assert all(abs(float(x)) <= 0.5 for x in sys.argv[1].split())' \
	    "$window"
	epilog=$(awk -v j="$j4" '$1 == j { printf "%.3f", $3 - $2 }' epilog.times 2>/dev/null)
	diag "the epilog of job $j4 took ${epilog:-?} s"
	# Not a timing (make check asserts no wall time): the epilog that
	# waited for httop's next interval took 30 s.
	check "... and the epilog did not wait for an interval (${epilog:-?} s of 30)" \
	    awk -v t="${epilog:-99}" 'BEGIN { exit !(t < 10) }'
	# (httop's own command line, with this test's record: httop-acct,
	# which the epilog runs after its line, names the record too, and
	# another run of the suite beside this one has a job of the same ID)
	check "... and the prolog's httop has ended" sh -c \
	    '! pgrep -f -- "--job $1 --format json .*-o $2/jobs/job-$1\\.jsonl" >/dev/null' sh "$j4" "$tmp"
	stop_slurm
else
	for i in 1 2 3 4 5; do skip "Slurm did not start with the prolog and epilog"; done
fi
hooks=

# proctrack/cgroup and task/cgroup, where this machine lets slurmd use
# them: the job's CPUs are its cgroup's cpuset.
# What slurmd makes (v1: HIERARCHY/slurm_NODE, v2: system.slice/
# slurmstepd.scope) is removed at the end, when it was not there before.
slurm_cgroups() { ls -d /sys/fs/cgroup/*/slurm* /sys/fs/cgroup/system.slice/*slurmstepd.scope \
	2>/dev/null; }
made=$(slurm_cgroups)
cgroup_cleanup() {
	for d in $(slurm_cgroups); do
		case " $(echo $made) " in *" $d "*) continue ;; esac
		find "$d" -depth -type d -exec rmdir {} \; 2>/dev/null
	done
}
write_conf proctrack/cgroup task/cgroup,task/affinity
if ! start_slurm; then
	i=0; while [ $i -lt 7 ]; do
		skip "slurmd does not come up with proctrack/cgroup here"; i=$((i + 1)); done
	exit 0
fi
ok "slurmd comes up with proctrack/cgroup and task/cgroup"
j3=$(submit cg "sleep 60")
cpuset=
for f in $(find /sys/fs/cgroup -path "*job_$j3/cpuset.effective_cpus" 2>/dev/null) \
    $(find /sys/fs/cgroup -path "*job_$j3/cpuset.cpus.effective" 2>/dev/null); do
	cpuset=$(cat "$f"); break
done
if [ -z "$cpuset" ]; then
	i=0; while [ $i -lt 6 ]; do
		skip "job $j3 has no cpuset cgroup here (task/cgroup made none)"; i=$((i + 1)); done
	exit 0
fi
want=$(core_cpus "$cpuset")
timeout 30 "$HTTOP" --sim busy --job "$j3" --format json -n 1 >cg.json 2>cg.err; st=$?
got=$(json_cpus cg.json)
check "--job $j3 (cgroup cpuset $cpuset): its cores ($want), got '$got' (exit $st)" \
	[ "$st" -eq 0 ] && [ "$got" = "$want" ]
# The whole node's textfile at level core: each of the job's cores
# carries its Slurm job (httop_core_slurm_job_info), no other core does.
mkdir tfj
timeout 30 "$HTTOP" --sim busy --textfile "$tmp/tfj" --textfile-level core --format summary \
    -b -n 1 >/dev/null 2>tfj.err
check "textfile (level core): the job's cores ($want) carry jobid $j3, no other core" python3 -c '
import re, sys, glob
want = set(int(c) for c in sys.argv[2].split(","))
cores = set()
for c in want:
    pkg = open("/sys/devices/system/cpu/cpu%d/topology/physical_package_id" % c).read().strip()
    core = open("/sys/devices/system/cpu/cpu%d/topology/core_id" % c).read().strip()
    cores.add((pkg, core))
got = set()
for l in open(sys.argv[1]):
    m = re.match(r"^httop_core_slurm_job_info\{host=\"[^\"]*\",package=\"(\d+)\",core=\"(\d+)\",jobid=\"([^\"]*)\"\} 1$", l)
    if m:
        assert m.group(3) == sys.argv[3], l
        got.add((m.group(1), m.group(2)))
assert got == cores, (got, cores)
' tfj/httop.prom "$want" "$j3"
# The Grafana dashboard's job row (contrib/grafana) from that node daemon
# alone (no second httop per job): a real node exporter and Prometheus
# scrape its textfile while the job runs; every panel answers numbers for
# job $j3 (tests/cli/promlib.sh, dash_check.py). On this machine's cores
# of one thread the shares fall back to the utilisation ("busy (no split)").
if command -v prometheus >/dev/null 2>&1 && [ -x "$PROM_EXPORTER" ] &&
    command -v curl >/dev/null 2>&1; then
	# (in real time, as a node daemon runs: the suite's virtual clock
	# would make the counters' rates per second of Prometheus's clock
	# a multiple of the simulated machine's)
	mkdir tfd
	env -u HTTOP_CLOCK "$HTTOP" --sim busy -b -d 0.5 --textfile "$tmp/tfd" \
	    --textfile-level core --format summary >tfd.out 2>tfd.err &
	pids="$pids $!"
	prom_start "$tmp/tfd"
	prom_wait "httop_core_slurm_job_info{jobid=\"$j3\"}" 8
	dash_check --var host=.* --var job="$j3" Job:numbers >dash.job 2>&1; st=$?
	sed 's/^/# /' dash.job
	check "dashboard, Slurm job $j3: every panel of the job row answers numbers" [ "$st" -eq 0 ]
	# Its frequency is the simulated machine's (the job's core runs busy
	# at the gauges' frequency): within 2% of the gauges' mean.
	f=$(sed -n 's/^ok Frequency while active (job) (panel 10): 1 series, //p' dash.job)
	g=$(curl -sf --get "$API/query" --data-urlencode \
	    "query=avg(avg_over_time(httop_core_frequency_hertz{core=\"0\"}[1m]))" |
	    python3 -c 'import json, sys; print(json.load(sys.stdin)["data"]["result"][0]["value"][1])')
	check "... its frequency ($f Hz) is the gauges' ($g Hz) within 2%" python3 -c '
import sys
f, g = float(sys.argv[1]), float(sys.argv[2])
assert abs(f - g) <= 0.02 * g, (f, g)' "${f:-0}" "${g:-1}"
else
	i=0; while [ $i -lt 2 ]; do
		skip "prometheus, prometheus-node-exporter or curl is not installed (Debian: prometheus, prometheus-node-exporter, curl)"
		i=$((i + 1)); done
fi
timeout 60 "$HTTOP" --sim busy --job "$j3" --format summary -d 0.3 >cgend.out 2>cgend.err &
bpid=$!
sleep 1
scancel "$j3"
wait "$bpid"; st=$?
check "batch --job $j3 ends when the job and its cgroup go: exit status 0 (got $st)" [ "$st" -eq 0 ]
check "... saying 'job $j3 has ended'" grep -q "httop: job $j3 has ended" cgend.err
stop_slurm
exit 0
