#!/bin/sh
# test_replay_job.sh: a watched job's recording replays as the job
# (trace 1.6: the header's "job" line, each sample's "job-cpus").
#  1. httop --demo -- taskset -c 1 sleep 1 (runs as any user), recorded:
#     the trace names the command (kind, name, pid) and gives CPU 1 with
#     every sample after the first; the batch replay's JSON has the live
#     run's lines, "job" object, cores (CPU 1's core only) and figures,
#     the whole run last (window "run"); only the source and the die
#     layout (the simulator's CAPID6 is not recorded) differ; the text
#     replay ends with the job's whole run, its length the trace's; the
#     CSV's job column is the PID;
#  2. the same with the scheduler source (root: perf_event), where every
#     key but "source" is the live run's;
#  3. hostile job strings in a trace: JSON parses and holds them exactly,
#     the text output has no control byte;
#  4. bad job-cpus lines: a token that is no CPU, a range backwards, a CPU
#     the topology lacks, one outside a sample: status 1, one line naming
#     the line and the cause;
#  5. the job lines taken out (as an older httop's trace): the node's
#     replay, no "job" object.
. "$HTTOP_SRCDIR/tests/lib.sh"
need python3 python3
need taskset taskset
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
cd "$tmp" || exit 1
plan 22

# compare LIVE REPLAY IGNORED...: the two JSON Lines files line by line,
# keys IGNORED (at any depth) left out; prints the first differences
cat >compare.py <<'EOF'
import json, sys
live = [json.loads(l) for l in open(sys.argv[1])]
rep = [json.loads(l) for l in open(sys.argv[2])]
ign = set(sys.argv[3:])
def strip(v):
    if isinstance(v, dict):
        return {k: strip(x) for k, x in v.items() if k not in ign}
    if isinstance(v, list):
        return [strip(x) for x in v]
    return v
bad = []
if len(live) != len(rep):
    bad.append("%d live lines, %d replayed" % (len(live), len(rep)))
for i, (a, b) in enumerate(zip(live, rep)):
    if strip(a) != strip(b):
        ka = strip(a); kb = strip(b)
        diff = [k for k in set(ka) | set(kb) if ka.get(k) != kb.get(k)]
        bad.append("line %d: %s" % (i + 1, ",".join(sorted(diff))))
print("; ".join(bad[:4]) if bad else "same (%d lines)" % len(live))
sys.exit(1 if bad else 0)
EOF
# cores FILE: each line's cores, as CPU lists
cores() {
	python3 -c 'import json, sys
print(" ".join(str([c["cpus"] for c in json.loads(l)["cores"]]).replace(" ", "") for l in open(sys.argv[1])))' "$1"
}
layout="layout layout_basis layout_note cores_assumed tile"

# --- 1. the simulator, a command pinned to CPU 1 --------------------------
"$HTTOP" --demo -b -d 0.3 --format json --record d.trace -- taskset -c 1 sleep 1 2>d.live
st=$?
# (the same run's CSV, for its whole-run rows)
"$HTTOP" --demo -b -d 0.3 --format csv -- taskset -c 1 sleep 1 2>d.live.csv
pid=$(python3 -c 'import json, sys; print(json.loads(open(sys.argv[1]).readline())["job"]["pid"])' d.live)
check "demo job: status $st, the trace is 1.6 and names the command ($(grep '^job ' d.trace))" \
    sh -c '[ "$1" -eq 0 ] && [ "$(head -n 1 d.trace)" = "httop-trace 1.6" ] &&
	grep -qxF "job kind=\"command\" id=\"$2\" user=\"\" name=\"taskset\" cgroup=\"\" pid=\"$2\"" d.trace' \
    sh "$st" "$pid"
n=$(grep -c '^sample ' d.trace)
check "... each of its $n samples but the first has 'job-cpus 1'" \
    sh -c '[ "$(grep -c "^job-cpus 1$" d.trace)" -eq $(($1 - 1)) ] && [ "$1" -ge 3 ]' sh "$n"
"$HTTOP" --replay d.trace -b --format json >d.rep 2>d.err
st=$?
check "... replayed to JSON: status $st, nothing on standard error ($(head -c 200 d.err))" \
    sh -c '[ "$1" -eq 0 ] && [ ! -s d.err ]' sh "$st"
why=$(python3 compare.py d.live d.rep source $layout)
check "... every line the live run's but the source and die layout: $why" \
    sh -c 'python3 compare.py "$@" >/dev/null' sh d.live d.rep source $layout
rc=$(cores d.rep) lc=$(cores d.live)
check "... the job's core only in every line, as live ($rc)" \
    sh -c '[ "$1" = "$2" ] && [ -n "$1" ] && [ -z "$(echo "$1" | tr " " "\n" | grep -vxF "[[1,37]]")" ]' \
    sh "$rc" "$lc"
check "... the last line is the whole run, with the job" python3 -c 'import json, sys
d = json.loads(open("d.rep").readlines()[-1])
sys.exit(not (d.get("window") == "run" and d["job"]["name"] == "taskset"))'
"$HTTOP" --replay d.trace -b --format text >d.txt 2>&1
# from the first sample to the last, by the trace's clock
secs=$(awk '/^sample /{for(i=2;i<=NF;i++) if ($i ~ /^time=/) { t=substr($i,6); if (!n++) t0=t }}
    END {printf "%.2f", t - t0}' d.trace)
check "... text: the job's whole run, first sample to last (${secs} s): $(grep '; watched' d.txt)" \
    grep -qF "httop: job pid $pid (taskset): its recording ends; watched for $secs s" d.txt
"$HTTOP" --replay d.trace -b --format csv >d.csv 2>&1
check "... CSV: the whole run's row is kind run, as httop -- COMMAND wrote it ($(grep -c '^run,' d.csv) run rows)" \
    sh -c '[ "$(grep -c "^run," d.csv)" -eq 1 ] && [ "$(grep -c "^run," d.live.csv)" -eq 1 ]'
check "... CSV: the job column is the PID in every row" sh -c '
	awk -F, "NR == 1 { for (i = 1; i <= NF; i++) if (\$i == \"job\") c = i; next }
	    { n++; if (\$c != \"$1\") bad++ } END { exit !(c && n > 0 && !bad) }" d.csv' sh "$pid"

# --- 2. the scheduler source (root) ---------------------------------------
# (the command's status is httop's: timeout's 124)
"$HTTOP" --source sched -b -d 0.3 --format json --record s.trace -- taskset -c 1 \
    sh -c 'timeout 1 sh -c "while :; do :; done"' 2>s.live
if head -n 1 s.live | grep -q '"source":"sched"'; then
	"$HTTOP" --replay s.trace -b --format json >s.rep 2>s.err
	why=$(python3 compare.py s.live s.rep source)
	check "sched job: the replay is the live run but for the source: $why" \
	    sh -c 'python3 compare.py "$@" >/dev/null' sh s.live s.rep source
	rc=$(cores s.rep)
	check "... narrowed to CPU 1's core ($(echo "$rc" | cut -c1-60))" \
	    sh -c '[ -n "$1" ] && [ -z "$(echo "$1" | tr " " "\n" | grep -vxF "[[1]]")" ]' sh "$rc"
else
	skip "the sched source does not open here ($(head -c 150 s.live))"
	skip "the sched source does not open here"
fi

# --- 3. hostile strings ----------------------------------------------------
esc=$(printf '\033')
python3 - d.trace h.trace <<'EOF'
import sys
t = open(sys.argv[1]).read().split("\n")
t = [l for l in t if not l.startswith("job ")]
t.insert(3, 'job kind="slurm" id="77\\x1b[2J" user="\\"quoted\\"" name="caf\\xc3\\xa9\\ttab" cgroup="" pid=""')
open(sys.argv[2], "w").write("\n".join(t))
EOF
"$HTTOP" --replay h.trace -b --format json >h.json 2>h.err
check "hostile job strings: JSON holds them exactly ($(head -c 200 h.err))" python3 -c 'import json, sys
d = json.loads(open("h.json").readline())["job"]
sys.exit(not (d["id"] == "77\x1b[2J" and d["user"] == "\"quoted\"" and d["kind"] == "slurm"))'
"$HTTOP" --replay h.trace -b --format text >h.txt 2>&1
check "... the text output has no escape byte, the id escaped ($(grep -m1 '^job 77' h.txt | cut -c1-40))" \
    sh -c '! grep -q "$1" h.txt && grep -qF "job 77\\x1b[2J" h.txt' sh "$esc"
# (the trial's: csv wrote the id raw, text the kind)
sed 's/^job kind="slurm"/job kind="sl\\x1b[5nurm"/' h.trace >h2.trace
"$HTTOP" --replay h2.trace -b --format csv >h.csv 2>&1
"$HTTOP" --replay h2.trace -b --format text >h2.txt 2>&1
check "... csv and text: no escape byte, the id and kind escaped ($(grep -m1 -o 'job 77[^:]*' h2.txt))" \
    sh -c '! grep -q "$1" h.csv h2.txt && grep -qF ",77\\x1b[2J," h.csv &&
	grep -qF "(sl\\x1b[5nurm)" h2.txt' sh "$esc"

# a reader that goes away (head): status 0, the whole run not forced on it
bad=
for f in json csv summary openmetrics text; do
	{ "$HTTOP" --replay d.trace -b --format "$f" 2>"p.$f.err"; echo $? >"p.$f.st"; } | head -n 1 >/dev/null
	[ "$(cat "p.$f.st")" = 0 ] && [ ! -s "p.$f.err" ] || bad="$bad $f($(cat "p.$f.st"): $(head -c 80 "p.$f.err"))"
done
check "a reader that goes away after a line: status 0 in every format (wrong:${bad:- none})" [ -z "$bad" ]

# --- 4. bad job-cpus lines -------------------------------------------------
# bad NAME SED-SCRIPT WANT: status 1 and the one line WANT (a pattern)
bad() {
	sed "$2" d.trace >"$1.trace"
	"$HTTOP" --replay "$1.trace" -b --format json >"$1.out" 2>"$1.err"
	st=$?
	check "$1: status 1, one line: $(head -c 200 "$1.err")" sh -c \
	    '[ "$1" -eq 1 ] && [ "$(wc -l <"$2")" -eq 1 ] && grep -qE "$3" "$2"' sh "$st" "$1.err" "$3"
}
bad notcpu '0,/^job-cpus 1$/s//job-cpus x/' "notcpu\\.trace:[0-9]+: 'job-cpus' line: \"x\" is not a CPU or a range of CPUs"
bad backwards '0,/^job-cpus 1$/s//job-cpus 3-1/' "'job-cpus' line: \"3-1\" is not a CPU or a range"
bad beyond '0,/^job-cpus 1$/s//job-cpus 70-7000/' "'job-cpus' line: CPU 7000, the topology has [0-9]+ CPUs"
bad empty '0,/^job-cpus 1$/s//job-cpus 1,,1/' "'job-cpus' line: \"\" is not a CPU or a range"
bad outside '0,/^sample /s//job-cpus 1\nsample /' "'job-cpus' line outside an interval"

# --- the manual's example (httop-trace(5), EXAMPLE) replays as it says -----
sed -n '/^\.SH EXAMPLE/,/^\.fi/p' "$HTTOP_SRCDIR/man/httop-trace.5" | sed '1,/^\.nf/d; /^\.fi/d' |
    sed 's/\\-/-/g' >ex.trace
"$HTTOP" --replay ex.trace -b --format json >ex.json 2>ex.err
check "httop-trace(5)'s example: job 4242 named, its core, neither 0.4 t0 0.3 t1 0.1 both 0.2 ($(head -c 100 ex.err))" \
    python3 -c 'import json, sys
L = [json.loads(l) for l in open("ex.json")]
ok = len(L) == 1 and all(d["job"]["pid"] == "4242" and [c["cpus"] for c in d["cores"]] == [[0, 1]] and
    [d["node"][k] for k in ("neither", "t0_only", "t1_only", "both")] == [0.4, 0.3, 0.1, 0.2] for d in L)
sys.exit(not ok)'

# --- 5. as an older httop's trace ------------------------------------------
grep -v '^job' d.trace >o.trace
"$HTTOP" --replay o.trace -b --format json >o.json 2>o.err
check "without the job lines: the node's replay, no job object, every core ($(head -c 100 o.err))" \
    python3 -c 'import json, sys
L = [json.loads(l) for l in open("o.json")]
sys.exit(not (L and all("job" not in d and len(d["cores"]) > 1 for d in L)))'
exit 0
