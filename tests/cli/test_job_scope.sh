#!/bin/sh
# test_job_scope.sh: a watched job's batch output names its aggregate the
# job's, as the live view keeps the node line and the job line apart: text
# "job:" (not "node:"), csv kind "job", summary's last column "job"; the
# node's own run says "node" in each. A command's intervals are the job's
# and its whole-run record is "run", so that the summary format tells it
# from the last interval (the same time).
. "$HTTOP_SRCDIR/tests/lib.sh"
need python3
tmp=$(mktemp -d) || exit 1
sleep 300 &
spid=$!
trap 'kill $spid 2>/dev/null; rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
plan 8

"$HTTOP" --demo --pid "$spid" -b -n 1 >pid.txt 2>err
check "--pid, text: the aggregate line is the job's ('job:'), none says 'node:'" \
	sh -c 'grep -q "^job: util " pid.txt && ! grep -q "^node:" pid.txt'
"$HTTOP" --demo -b -n 1 >node.txt 2>err
check "no job, text: 'node:'" grep -q "^node: util " node.txt
"$HTTOP" --demo --pid "$spid" -b -n 1 --format csv >pid.csv 2>err
check "--pid, csv: kinds job, package, core, thread (no node row)" \
	test "$(python3 -c '
import csv
print(",".join(sorted({r["kind"] for r in csv.DictReader(open("pid.csv"))})))')" = \
	"core,job,package,thread"
"$HTTOP" --demo -b -n 1 --format csv >node.csv 2>err
check "no job, csv: a node row" grep -q "^node," node.csv
"$HTTOP" --demo --pid "$spid" -b -n 2 -d 0.2 --format summary >pid.sum 2>err
check "--pid, summary: every line's tenth column, what its figures are of, is job" \
	test "$(awk '$4 == 1 { print $10 }' pid.sum | sort -u)" = job
"$HTTOP" --demo -b -n 1 --format summary >node.sum 2>err
check "no job, summary: node" test "$(awk '{ print $10 }' node.sum)" = node
"$HTTOP" --demo -d 0.2 -b --format summary -- sleep 0.5 2>cmd.sum >/dev/null
check "-- COMMAND, summary: the intervals are job, the last record run" \
	test "$(awk '{ print $10 }' cmd.sum | uniq | tr '\n' ' ')" = "job run "
check "... the run record's time is the last interval's: the column tells them apart" \
	test "$(tail -n 2 cmd.sum | awk '{ print $2 }' | uniq | wc -l)" -eq 1
