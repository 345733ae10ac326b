#!/bin/sh
# test_acct_record.sh: --acct-record without Slurm: a command's whole run
# recorded as JSON lines (what the prolog's httop writes) turned into the
# compact record of Slurm's accounting, merged with another node's; a
# file without a whole run and a comment that is not httop's refused.
. "$HTTOP_SRCDIR/tests/lib.sh"
need python3 python3
plan 9
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

"$HTTOP" --sim busy --host n07 --format json -b -d 0.2 -o run.jsonl -- sleep 0.5 \
    >/dev/null 2>run.err
"$HTTOP" --acct-record run.jsonl >rec.out 2>rec.err; st=$?
check "--acct-record: exit 0 ($st: $(cat rec.err)), one line: $(cat rec.out)" \
	sh -c '[ "$1" -eq 0 ] && [ "$(wc -l <rec.out)" -eq 1 ]' sh "$st"
check "... httop1, node n07, the whole run's figures" python3 -c '
import json, sys
last = json.loads(open("run.jsonl").read().splitlines()[-1])
assert last["window"] == "run"
n = last["node"]
text = open("rec.out").read().strip()
head, node = text.split(";")
assert head == "httop1", head
name, fields = node.split(":", 1)
assert name == "n07", name
f = dict(kv.split("=") for kv in fields.split(","))
assert int(f["c"]) == n["ncores"] and abs(float(f["s"]) - last["interval"]) <= 0.05, f
assert abs(float(f["u"]) - 100 * n["util"]) <= 0.005 and abs(float(f["cpi"]) - n["cpi"]) <= 0.0005, f
# The own CPU seconds of the job: the simulator does not tell its tasks apart.
assert last["job"]["cpu_s"] is None and n["absent"]["cpu_s"] == "no-job", last["job"]
assert f["cpu"] == "-no-job" and f["src"] == "sim", f
'
"$HTTOP" --acct-record run.jsonl --acct-merge "httop1;n01:c=2,s=1.0,u=50.00" >m.out 2>m.err
check "--acct-merge: n01's record kept, n07's added: $(cut -c1-60 m.out)..." \
	grep -q "^httop1;n01:c=2,s=1.0,n=-,t0=-,t1=-,b=-,u=50.00,bb=-,ghz=-,cpi=-,at=-,cpu=-;n07:c=" m.out
"$HTTOP" --acct-record run.jsonl --acct-merge "JS1:abc" >o.out 2>o.err; st=$?
check "--acct-merge of another tool's text: exit 1 ($st), left as it is, nothing written" \
	sh -c '[ "$1" -eq 1 ] && grep -q "left as it is" o.err && [ ! -s o.out ]' sh "$st"
head -n 1 run.jsonl >first.jsonl
"$HTTOP" --acct-record first.jsonl >f.out 2>f.err; st=$?
check "a record without the whole run: exit 1 ($st), saying so" \
	sh -c '[ "$1" -eq 1 ] && grep -q "no whole-job line" f.err' sh "$st"
"$HTTOP" --acct-record missing.jsonl >x.out 2>x.err; st=$?
check "a missing file: exit 1 ($st): $(cat x.err)" \
	sh -c '[ "$1" -eq 1 ] && grep -q "missing.jsonl" x.err' sh "$st"
# Not a regular file (/dev/zero, a FIFO nobody writes): refused at once,
# nothing read (before, /dev/zero was read into memory until killed).
for f in /dev/zero fifo; do
	[ "$f" = fifo ] && mkfifo fifo
	timeout 20 "$HTTOP" --acct-record "$f" >z.out 2>z.err; st=$?
	check "--acct-record $f: exit 1 ($st), not a regular file" \
		sh -c '[ "$1" -eq 1 ] && grep -q "not a regular file" z.err && [ ! -s z.out ]' sh "$st"
done
# A long record (a job of days): only its tail is read, the whole-job line
# found there. 80 MB of interval lines, then the run's last line.
python3 -c '
import sys
line = open(sys.argv[1]).readline()
with open("big.jsonl", "w") as f:
    filler = "{\"window\":\"interval\",\"pad\":\"" + "x" * 1000 + "\"}\n"
    for i in range(80 * 1024):
        f.write(filler)
    f.write(open(sys.argv[2]).read().splitlines()[-1] + "\n")
' run.jsonl run.jsonl
"$HTTOP" --acct-record big.jsonl >big.out 2>big.err; st=$?
check "a record of 80 MB: exit 0 ($st), the same compact line as the short one's" \
	sh -c '[ "$1" -eq 0 ] && cmp -s big.out rec.out' sh "$st"
