#!/bin/sh
# test_cli_options.sh: --help, --version, and every bad option value
# ending in exit status 2 with one message that names the option.
. "$HTTOP_SRCDIR/tests/lib.sh"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
plan 89

out=$("$HTTOP" --version); st=$?
check "--version exits 0" [ "$st" -eq 0 ]
check "--version prints 'httop 0.1.0' first (then copyright and licence: test_gnu.sh)" \
    [ "$(printf '%s\n' "$out" | head -n 1)" = "httop 0.1.0" ]

"$HTTOP" --help >help.out 2>&1; st=$?
check "--help exits 0" [ "$st" -eq 0 ]
check "--help starts with the usage line" grep -q '^Usage: httop \[options\]' help.out

# The same option set in --help and in the manual page.
grep -o -- '--[a-z][a-z0-9-]*' help.out | sort -u >help.opts
sed -n '/^\.SH OPTIONS/,/^\.SH [^O]/p' "$HTTOP_SRCDIR/man/httop.1" |
	grep -A1 '^\.TP' | grep -v '^\.TP' | sed 's/\\-/-/g' |
	grep -o -- '--[a-z][a-z0-9-]*' | sort -u >man.opts
# Every option the program accepts: a new one must be added here, to --help
# and to the manual page together.
for o in --batch --capid6 --cgroup --check --check-case --cpuid --cpus --delay --demo --die-map \
    --force --restore --format --help --host --interval --level --seconds \
    --iterations --job --msr-batch-path --msr-path --msr-safe-path --on-conflict --output --pid --record \
    --record-compress --replay \
    --seed --sim --source --sysfs-root --textfile --textfile-level --topology --verbose --version \
    --nodes --all-nodes --via --remote-httop --compact --acct-record --acct-merge --align; do
	echo "$o"
done | sort >want.opts
if cmp -s want.opts help.opts; then ok "--help lists exactly the known long options"
else not_ok "--help and the known option list differ"; diff want.opts help.opts | sed 's/^/# /'; fi
# --source's entry, made from the table of sources (src/source/kinds.c):
# the text it had when it was written by hand, byte for byte (bpf since
# issue 37).
cat >want.src <<'EOF'
      --source SRC       counter source: auto, msr, msr-safe, perf, bpf,
                         sched, procstat, sim or replay (default auto:
                         msr-safe, msr, perf, bpf, sched, then procstat)
EOF
grep -A2 -- '^      --source SRC' help.out >got.src
if cmp -s want.src got.src; then ok "--help: --source's entry from the table, as written before"
else not_ok "--help: --source's entry differs"; diff want.src got.src | sed 's/^/# /'; fi
LC_ALL=C "$HTTOP" --source bogus >/dev/null 2>src.err
check "--source bogus: the names, from the table" grep -qx \
    "httop: --source: unknown source 'bogus'; give auto, msr, msr-safe, perf, bpf, sched, procstat, sim or replay" src.err
if cmp -s help.opts man.opts; then ok "httop.1 OPTIONS documents the options --help lists"
else not_ok "httop.1 OPTIONS and --help differ"; diff help.opts man.opts | sed 's/^/# /'; fi

# bad ARGS... PATTERN: exit 2, one line on stderr, naming the option.
bad() {
	pat=$1; shift
	"$HTTOP" "$@" >bad.out 2>bad.err; st=$?
	if [ "$st" -eq 2 ] && [ "$(wc -l <bad.err)" -eq 1 ] && grep -q -- "$pat" bad.err &&
	    [ ! -s bad.out ]; then
		ok "httop $* -> exit 2, message names $pat"
	else
		not_ok "httop $* -> exit $st, stderr: $(cat bad.err)"
	fi
}
# --acct-merge goes with --acct-record, which goes alone.
bad "goes with --acct-record" --acct-merge 'httop1'
bad "drop the options of a run" --acct-record r.jsonl --job 12
bad "-d/--delay" -d 0.01
bad "-d/--delay" -d 0
bad "-d/--delay" -d -1
bad "-d/--delay" --delay abc
bad "-d/--delay" -d 1e9
bad "-d/--delay" -d nan
bad "-n/--iterations" -n 0
bad "^httop: -n/--iterations: '-3' is not a whole number of intervals from 1 to 1000000000000; give e.g. -n 10, or leave -n out to run until stopped$" -n -3
bad "^httop: -n/--iterations: '2x' is not a whole number of intervals from 1 to 1000000000000; give e.g. -n 10, or leave -n out to run until stopped$" --iterations 2x
bad "--format" -b --format xml
bad "--source" --source bogus
bad "--on-conflict" --on-conflict ignore
bad "--textfile" --textfile ''
bad "--textfile" --demo -b -n 1 --textfile /nonexistent/dir
bad "--host" --host ''
bad "--host" --host 'two words'
bad "--host" --host 0123456789012345678901234567890123456789012345678901234567890123
bad "--on-conflict" --on-conflict
bad "--msr-safe-path" --msr-safe-path /dev/cpu/msr_safe
bad "--msr-batch-path" --msr-batch-path ''
bad "--msr-path" --msr-path /dev/cpu/msr
bad "--msr-path" --msr-path '/dev/cpu/%u/%u/msr'
bad "--msr-path" --msr-path '/dev/cpu/%d/msr'
bad "--seed" --seed -1
bad "--seed" --seed 18446744073709551616
bad "--cpus" --cpus 3-1
bad "--cpus" --cpus 'a,b'
bad "--cpus" --demo --cpus 4096
bad "--sim" --sim ''
# An empty file name is a usage error that says what to give, as for
# --record, -o and --die-map; these three were "cannot open the trace :
# No such file or directory" (status 1), and --cpus '' said no fix.
bad "^httop: --replay: empty file name; give the trace file --record wrote" --replay ''
# "-" is standard output for -o, but a replay cannot read a pipe: said so
# (it was "cannot open the trace -: No such file or directory", status 1).
bad "^httop: --replay -: a trace is replayed from a file; to replay standard input in batch mode give --replay /dev/stdin -b" --replay -
bad "^httop: --topology: empty path; give an hwloc XML file" --source procstat --topology=
bad "^httop: --cpuid: empty file name; give a libcpuid raw dump" --sim busy --cpuid ''
bad "^httop: --cpus: empty CPU list; give CPUs in the kernel's list syntax, such as 0-3,8" \
    --demo --cpus ''
bad "--replay" --replay x.trace --source msr
bad "--replay" --source msr --replay x.trace
bad "--demo" --demo --source msr
bad "--demo" --demo --topology x.xml
bad "--source replay" --source replay
bad "--replay" --replay x.trace --cpuid x.txt
# This machine's processes say nothing of a recorded machine's cores.
bad "--pid watches processes running on this machine now; it cannot go with --replay" \
    --replay x.trace --pid 1
bad "--cgroup watches processes running on this machine now" --replay x.trace --cgroup /
# "--" with nothing after it is a command forgotten, not a live view.
bad "-- ends the options and names a command to run: give the command after it" --
bad "--delay" --delay
bad "--bogus" --bogus
bad "-x" -x
bad "unexpected argument" --demo extra
# A value given to an option that takes none is named as such, not as an
# unknown option with a garbage letter; a bad range is quoted whole.
bad "^httop: --force=1: this option takes no value" --force=1
bad "^httop: --batch=yes: this option takes no value" --demo --batch=yes
bad "^httop: --cpus: CPU list '5-3': the range '5-3' runs backwards; give the lower CPU first" --cpus 5-3
# Messages that say what is wrong: a number too large is not "not a
# number"; a CPU the machine lacks is not a "malformed" list.
bad "^httop: -n/--iterations: 9223372036854775807 is too large: at most 1000000000000" \
    --demo -b -n 9223372036854775807
bad "^httop: --seed: 18446744073709551616 is too large" --seed 18446744073709551616
bad "^httop: --pid: 99999999 is larger than any process ID" --pid 99999999
bad "^httop: --cpus: CPU 99999999 is not in this machine, which has CPUs 0-71" \
    --demo -b -n 1 --cpus 99999999
bad "^httop: --cpus: CPU 72 is not in this machine, which has CPUs 0-71" \
    --demo -b -n 1 --cpus 0-3,72-80
# A CPU that was offline when the topology was read has no known core
# (hwloc's fsroot fixture: CPUs 0-3 and 21-23 offline). Named alone it
# is a usage error; beside a CPU with a core it is left out. (It was a
# crash: "no core" taken as a core's index.)
if tar xjf "$HTTOP_FIXTURES/hwloc/hsw-ep-e5-2680v3-2s-12c-noht-offline.fsroot.tar.bz2" &&
    [ -d offline-cpu0-node0 ]; then
	bad "^httop: --cpus: CPU 1 was offline when the topology was read, so its core is not known" \
	    --sim busy --topology offline-cpu0-node0 -b -n 1 --cpus 1-3
	"$HTTOP" --sim busy --topology offline-cpu0-node0 -b -n 1 -d 0.1 --format json --cpus 0,4 \
	    >off.out 2>off.err; st=$?
	check "--cpus 0,4 with CPU 0 offline at start: exit 0, only CPU 4's core read" \
	    test "$st $(grep -o '"cpus":\[[0-9,]*\]' off.out | sort -u | tr '\n' ' ')" = '0 "cpus":[4] '
else
	skip "the offline fsroot fixture did not unpack"
	skip "the offline fsroot fixture did not unpack"
fi

# -h and -V as every GNU tool: the same as --help and --version.
"$HTTOP" -h >h.out 2>&1; st=$?
check "-h exits 0 and prints what --help prints" sh -c "[ $st -eq 0 ] && cmp -s h.out help.out"
check "-V prints what --version prints" [ "$("$HTTOP" -V)" = "$out" ]
check "--help shows -h and -V" sh -c "grep -q '^  -h, --help' help.out && grep -q '^  -V, --version' help.out"
# --topology takes a file or a directory, as the manual says.
check "--help says --topology takes a directory too" \
    sh -c "sed -n '/--topology/,/--cpuid/p' help.out | grep -q 'directory'"
# --format is for batch output: it implies -b, and --help says so.
check "--help says --format implies -b" \
    sh -c "sed -n '/--format/,/--textfile/p' help.out | grep -q 'implies -b'"
# On a terminal (script(1) gives one), --format json writes JSON lines, not
# the live view.
if command -v script >/dev/null 2>&1 && command -v python3 >/dev/null 2>&1; then
	TERM=xterm script -qec "'$HTTOP' --demo --format json -n 2 -d 0.05" /dev/null \
	    </dev/null >tty.out 2>&1
	check "--format json on a terminal writes two JSON lines" python3 -c '
import json, sys
lines = [l.strip() for l in open("tty.out", encoding="utf-8", errors="replace") if l.strip()]
assert len(lines) == 2, lines[:3]
for l in lines:
    json.loads(l)
'
else
	skip "script(1) or python3 is not installed"
fi

# A good value just inside each limit is accepted (the demo runs).
# runs ARGS...: httop succeeds (output discarded).
runs() { "$HTTOP" "$@" >/dev/null; }
check "-d 0.05 is accepted" runs --demo -b -n 1 -d 0.05 --format csv
check "--seed 18446744073709551615 is accepted" runs --demo -b -n 1 --seed 18446744073709551615
check "--cpus 0 is accepted on the demo" runs --demo -b -n 1 --cpus 0
check "--on-conflict exit is accepted" runs --demo -b -n 1 --on-conflict exit
# --cgroup: a cgroup v1 cpuset directory (faked) is a job as a v2 one is;
# a path found nowhere names every place looked at.
mkdir -p v1job && echo 4-7 >v1job/cpuset.cpus && echo 4-5 >v1job/cpuset.effective_cpus
check "--cgroup takes a v1 cpuset directory" runs --demo -b -n 1 --cgroup "$tmp/v1job"
# (status 1, as a --pid that does not exist: the job is not there)
"$HTTOP" --demo -b -n 1 --cgroup no/such/job >/dev/null 2>cg.err
check "a --cgroup found nowhere names where it was looked for" grep -q \
    "^httop: --cgroup no/such/job: no such cgroup: looked for /sys/fs/cgroup/no/such/job, /sys/fs/cgroup/unified/no/such/job" cg.err
mkdir -p notcg
"$HTTOP" --demo -b -n 1 --cgroup "$tmp/notcg" >/dev/null 2>cg.err
check "a directory that is no cgroup is named as such" grep -q \
    "notcg is neither a cgroup v2 directory (no cgroup.controllers) nor a v1 cpuset" cg.err

"$HTTOP" --source msr --msr-path "$tmp/nonexistent/%u/msr" -b -n 1 2>/dev/null; st=$?
check "--msr-path with one %u is not a usage error (exit $st)" [ "$st" -ne 2 ]

# A bad --textfile is a usage error found before the job, the command or
# any source is opened (httop(1), EXIT STATUS 2: nothing was touched).
# Before, the source came first: msr's failure (status 1) hid it, --source
# auto loaded its choice and said so, then status 2.
"$HTTOP" --source msr --msr-path "$tmp/nonexistent/%u/msr" --textfile "$tmp/nodir" -b -n 1 \
    >/dev/null 2>tf.err; st=$?
check "--textfile missing, a source that would fail: status 2 ($st), the textfile's message alone" \
    sh -c '[ "$1" -eq 2 ] && [ "$(wc -l <tf.err)" = 1 ] &&
      grep -q "^httop: --textfile: cannot open the directory .*nodir" tf.err' sh "$st"
"$HTTOP" --textfile "$tmp/nodir" -b -n 1 -d 0.1 -v >/dev/null 2>auto.err; st=$?
check "--textfile missing, --source auto: status 2 ($st), no source tried or chosen" \
    sh -c '[ "$1" -eq 2 ] && ! grep -q "source auto" auto.err' sh "$st"
"$HTTOP" --demo --textfile "$tmp/nodir" -b -- touch "$tmp/ran" >/dev/null 2>&1; st=$?
check "--textfile missing with a command: status 2 ($st), the command not run" \
    sh -c '[ "$1" -eq 2 ] && [ ! -e "$2" ]' sh "$st" "$tmp/ran"
# Without privilege a directory the user cannot write to is found as early.
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1 && id nobody >/dev/null 2>&1; then
	mkdir -p rootdir && chmod 755 rootdir "$tmp"
	setpriv --reuid=nobody --regid="$(id -gn nobody)" --clear-groups -- "$HTTOP" --source msr \
	    --msr-path "$tmp/nonexistent/%u/msr" --textfile "$tmp/rootdir" -b -n 1 \
	    >/dev/null 2>ro.err; st=$?
	check "--textfile not writable, nobody: status 2 ($st) before the source: $(cat ro.err)" \
	    sh -c '[ "$1" -eq 2 ] && [ "$(wc -l <ro.err)" = 1 ] &&
	      grep -q "^httop: --textfile: cannot create a file in .*rootdir" ro.err' sh "$st"
else
	skip "needs root, setpriv and a user nobody"
fi

# --align goes where live counters are read in batch mode (or a command's
# run): a usage error with a replay, --check, many nodes (they ask their
# nodes for it) and the live view, each naming why.
"$HTTOP" --replay "$HTTOP_SRCDIR/tests/data/trace/good.trace" -b --align >/dev/null 2>al.err; st=$?
check "--align with --replay: status 2 ($st): $(cat al.err)" \
    sh -c '[ "$1" -eq 2 ] && grep -q "^httop: --align paces the reading of live counters" al.err' sh "$st"
"$HTTOP" --check --demo --align >/dev/null 2>al.err; st=$?
check "--align with --check: status 2 ($st)" \
    sh -c '[ "$1" -eq 2 ] && grep -q "^httop: --align paces the reading of live counters" al.err' sh "$st"
"$HTTOP" --nodes h1 --align -b -n 1 >/dev/null 2>al.err; st=$?
check "--align with --nodes: status 2 ($st): $(cat al.err)" \
    sh -c '[ "$1" -eq 2 ] && grep -q "^httop: --align: many nodes ask their nodes for it themselves" al.err' sh "$st"
if command -v script >/dev/null 2>&1; then
	TERM=xterm script -qec "'$HTTOP' --demo --align -n 1" /dev/null >al.tty 2>&1; st=$?
	check "--align on a terminal without -b: status 2 ($st), says to add -b" \
	    sh -c '[ "$1" -eq 2 ] && grep -q "add -b, or drop --align" al.tty' sh "$st"
else
	skip "script (bsdutils) is not installed"
fi
exit 0
