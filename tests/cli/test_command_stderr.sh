#!/bin/sh
# test_command_stderr.sh: httop -- COMMAND exits with the command's status
# when standard error, where its summary (and, without -o, its intervals)
# go, cannot be written: closed (2>&-) or full (2>/dev/full). The message
# of that failure would go there too, so it cannot be said and is no
# failure of httop's. The data on -o - or -o FILE keeps its errors: a full
# disk there is status 1 where the command succeeded, said once with the
# errno of the write that failed (ENOSPC, not one an earlier call left).
# The same for a command run without a counter source, when this machine
# has none for --source msr.
. "$HTTOP_SRCDIR/tests/lib.sh"
[ -w /dev/full ] || skip_all "no /dev/full here"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
export HTTOP_CLOCK=virtual
plan 18

# The trial user's line.
timeout 30 "$HTTOP" --sim demo -b -- true >/dev/null 2>&-; st=$?
check "--sim demo -b -- true, standard error closed: the command's status 0 (got $st)" [ "$st" -eq 0 ]

# Every format, the summary alone (no -b) too, standard error closed and
# full; a command of several intervals (-d 0.05), so that the intervals
# fail as well as the summary.
for f in "" "-b" "--format json" "--format csv" "--format openmetrics"; do
	# shellcheck disable=SC2086 # $f: the options, split on purpose
	timeout 30 "$HTTOP" --sim demo -d 0.05 $f -- sleep 0.2 >out 2>&-; a=$?
	# shellcheck disable=SC2086
	timeout 30 "$HTTOP" --sim demo -d 0.05 $f -- sleep 0.2 >out 2>/dev/full; b=$?
	check "${f:-the summary}: standard error closed and full: status 0 (got $a, $b)" \
		[ "$a" -eq 0 ] && [ "$b" -eq 0 ]
done
timeout 30 "$HTTOP" --sim demo -b -- sh -c 'exit 3' >/dev/null 2>&-; st=$?
check "standard error closed, the command exits 3: status 3 (got $st)" [ "$st" -eq 3 ]

# -o -: the intervals on standard output, the data: a full disk is an error.
timeout 30 "$HTTOP" --sim demo -d 0.05 -b -o - -- sleep 0.2 >/dev/full 2>err; st=$?
check "-b -o -, standard output full: status 1 (got $st)" [ "$st" -eq 1 ]
check "... said once, with ENOSPC" test "$(grep -c . err)" = 1 -a \
	"$(cat err)" = "httop: writing the text output failed: No space left on device; check the disk or the program reading httop's output"
timeout 30 "$HTTOP" --sim demo -b --format json -o - -- true >/dev/full 2>err; st=$?
check "--format json -o - -- true (the whole run's record only), standard output full: status 1 (got $st)" \
	[ "$st" -eq 1 ]
# (the reader going away is a normal end; its status through a file)
st=$(timeout 30 sh -c '{ "$1" --sim demo -d 0.05 -b -o - -- sleep 0.2 2>/dev/null; echo $? >st; } | head -n 1 >/dev/null; cat st' sh "$HTTOP")
check "-b -o -, the reader goes away (EPIPE): status 0 (got $st)" [ "$st" = 0 ]

# -o FILE: the summary to a full disk.
timeout 30 "$HTTOP" --sim demo -o /dev/full -- true >out 2>err; st=$?
check "-o /dev/full -- true: status 1 (got $st)" [ "$st" -eq 1 ]
check "... said once, with the write's own errno" \
	test "$(cat err)" = "httop: writing the summary: No space left on device"
timeout 30 "$HTTOP" --sim demo -o /dev/full -- sh -c 'exit 4' >out 2>err; st=$?
check "-o /dev/full, the command exits 4: status 4 (got $st)" [ "$st" -eq 4 ]

# No counter source: the same rules (mode_command_bare.c).
timeout 30 "$HTTOP" --source msr -- true >out 2>err
if grep -q "without counters" err; then
	timeout 30 "$HTTOP" --source msr -- true >/dev/null 2>&-; a=$?
	timeout 30 "$HTTOP" --source msr -b --format json -- true >/dev/null 2>/dev/full; b=$?
	check "no source: standard error closed and full: status 0 (got $a, $b)" \
		[ "$a" -eq 0 ] && [ "$b" -eq 0 ]
	timeout 30 "$HTTOP" --source msr -o /dev/full -- true >out 2>err; st=$?
	check "no source, -o /dev/full: status 1 (got $st)" [ "$st" -eq 1 ]
	check "... said with ENOSPC" grep -qx "httop: writing the summary: No space left on device" err
	timeout 30 "$HTTOP" --source msr -b --format json -o - -- sh -c 'exit 5' >/dev/full 2>err; st=$?
	check "no source, -o - full, the command exits 5: status 5 (got $st)" [ "$st" -eq 5 ]
else
	for d in "closed and full" "-o /dev/full" "said" "exit 5"; do
		skip "no source: --source msr opens here ($d)"
	done
fi
