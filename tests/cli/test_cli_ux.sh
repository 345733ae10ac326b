#!/bin/sh
# test_cli_ux.sh: what a new user trips on at the command line.
# - --sim with neither a built-in name nor a file is a usage error (2).
# - --help says what --sim and --demo simulate: --sim a load on this
#   machine, --demo the demo machine (it said "(default demo)" of --sim).
# - -p PID is --pid PID (as htop, top and perf take it).
# - a compressed --topology is said to be compressed (gzip, xz), not
#   "holds a NUL byte".
# - csv has a host column (--host's name, or the node's) on every row.
. "$HTTOP_SRCDIR/tests/lib.sh"
need python3
need jq
need gzip
need xz
tmp=$(mktemp -d) || exit 1
sleep 300 &
spid=$!
trap 'kill $spid 2>/dev/null; rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
plan 8

"$HTTOP" --sim no-such -b -n 1 >out 2>err; st=$?
check "--sim no-such: status 2, a usage error (got $st)" [ "$st" -eq 2 ]
check "... the message names the value and the built-in names" \
	grep -q "^httop: --sim: no built-in scenario and no file named no-such: give a built-in name (idle, busy, one-per-core, both, alternate, bursts, demo) or a scenario file; --sim chooses the load, --demo the demo machine$" err

"$HTTOP" --help >help.txt
check "--help: --sim simulates this machine running a load; --demo is the demo machine" \
	sh -c 'tr -s " \n" "  " <help.txt >help.one &&
	    grep -q -- "--sim SCENARIO simulate this machine (or --topology.s) running a load" help.one &&
	    grep -q -- "the machine stays this one: --demo is the demo machine" help.one &&
	    grep -q -- "--demo simulate the demo machine" help.one && ! grep -q "default demo)" help.one'

"$HTTOP" --demo -p "$spid" -b -n 1 >p.txt 2>err; st=$?
"$HTTOP" --demo --pid "$spid" -b -n 1 >pid.txt 2>/dev/null
check "-p PID: status 0 (got $st), the job's line as with --pid" \
	sh -c '[ "$1" -eq 0 ] && grep -q "^job: util" p.txt && [ "$(sed -n 3p p.txt)" = "$(sed -n 3p pid.txt)" ]' \
	sh "$st"

gzip -c "$HTTOP_SRCDIR/data/demo-skx.xml" >t.xml.gz
xz -c "$HTTOP_SRCDIR/data/demo-skx.xml" >t.xml.xz
"$HTTOP" --sim demo --topology t.xml.gz -b -n 1 >out 2>err.gz; st=$?
check "--topology FILE.gz: status 1, said to be gzip-compressed, how to undo it" \
	sh -c '[ "$1" -eq 1 ] && grep -q "the topology t.xml.gz is compressed (gzip): .*(gunzip t.xml.gz)" err.gz' \
	sh "$st"
"$HTTOP" --sim demo --topology t.xml.xz -b -n 1 >out 2>err.xz
check "--topology FILE.xz: said to be xz-compressed" grep -q "is compressed (xz): .*(unxz t.xml.xz)" err.xz

# (a host name holds no comma or quote: --host refuses them, httop(1) SECURITY)
"$HTTOP" --demo --host 'n1.x-y_z' -b -n 2 -d 0.2 --format csv >h.csv 2>err
check "csv: a host column, --host's name on every row" \
	python3 -c '
import csv, sys
rows = list(csv.DictReader(open("h.csv")))
sys.exit(not (len(rows) > 10 and all(r["host"] == "n1.x-y_z" for r in rows)))'
"$HTTOP" --demo -b -n 1 --format csv >n.csv 2>err
check "csv: without --host, the node's name, as json's host" \
	test "$(python3 -c '
import csv
print(",".join(sorted({r["host"] for r in csv.DictReader(open("n.csv"))})))')" = \
	"$("$HTTOP" --demo -b -n 1 --format json | jq -r .host)"
