#!/bin/sh
# test_cli_signals.sh: how httop ends. SIGINT and SIGTERM end it with
# status 0, SIGHUP and SIGQUIT with 128 + signal number (129, 131); a
# signal wakes the wait between refreshes at once; a reader that goes away
# (httop -b | head) ends the run with status 0.
. "$HTTOP_SRCDIR/tests/lib.sh"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
plan 16
# Under nohup httop inherits SIGHUP ignored and keeps it so: the SIGHUP
# case would wait forever; it skips with the reason.
hup_ign=false
hup_ignored && hup_ign=true
# Real time throughout: these runs wait between refreshes as a user's do.
unset HTTOP_CLOCK

# end_by SIG WANT: start a run that waits an hour per refresh (the
# simulator in screen mode sleeps), signal it after 1 s; it must end with
# WANT. Not a timing (make check asserts no wall time): a signal that did
# not wake the wait would leave it there for the hour, and the test's time
# limit (tests/tap-run) would fail it by name.
end_by() {
	sig=$1; want=$2
	if [ "$sig" = HUP ] && $hup_ign; then
		skip "SIGHUP ends httop with status 129: $hup_skip_reason"
		skip "SIGHUP: nothing on stderr: $hup_skip_reason"
		return
	fi
	"$HTTOP" --demo -d 3600 >"$tmp/out" 2>"$tmp/err" &
	pid=$!
	sleep 1
	kill -s "$sig" "$pid"
	wait "$pid"; st=$?
	if [ "$st" -eq "$want" ]; then
		ok "SIG$sig ends httop with status $want"
	else
		not_ok "SIG$sig: status $st (want $want)"; sed 's/^/# /' "$tmp/err"
	fi
	check "SIG$sig: nothing on stderr" [ ! -s "$tmp/err" ]
}
end_by INT 0
end_by TERM 0
end_by HUP 129
end_by QUIT 131

# A fatal signal: the saved registers are written back (tested on the fake
# MSR device in test_fakemsr_signals.sh), then the default action kills it.
"$HTTOP" --demo -d 30 >/dev/null 2>&1 &
pid=$!
sleep 1
kill -s SEGV "$pid"
wait "$pid"; st=$?
check "SIGSEGV: httop dies by the signal (status $st, want 139)" [ "$st" -eq 139 ]

# The reader goes away after one line; httop must notice EPIPE and stop.
( "$HTTOP" --demo -b --format json; echo $? >"$tmp/st" ) 2>"$tmp/err" | head -n 1 >"$tmp/one"
check "httop -b | head -n 1: httop ends with status 0" [ "$(cat "$tmp/st")" = 0 ]
check "... without a message" [ ! -s "$tmp/err" ]
check_schema "$tmp/one"

# The same in the text format, whose interval is several stdio buffers
# (4 KiB) long: a write that fails inside the interval's last fprintf
# leaves nothing for the flush to write, and its EPIPE was lost (status 1,
# "Input/output error"). The reader is gone before httop starts (a FIFO
# opened read-write, then its read side closed), so each write fails;
# the demo cut to 1..36 cores puts the 4 KiB mark in every place of the
# interval, its last row included.
epipe_bad=; full_bad=
mkfifo "$tmp/fifo"
exec 4<>"$tmp/fifo" 5>"$tmp/fifo" 4<&-
for k in $(seq 0 35); do
	"$HTTOP" --demo -b -n 1 --cpus "0-$k" >&5 2>"$tmp/err"; st=$?
	[ "$st" -eq 0 ] && [ ! -s "$tmp/err" ] || epipe_bad="$epipe_bad 0-$k:$st"
	# A full disk is an error, and says which (not "Input/output error").
	LC_ALL=C "$HTTOP" --demo -b -n 1 --cpus "0-$k" >/dev/full 2>"$tmp/err"; st=$?
	[ "$st" -eq 1 ] && grep -q 'No space left on device' "$tmp/err" ||
	    full_bad="$full_bad 0-$k:$st:$(tr '\n' ' ' <"$tmp/err")"
done
exec 5>&-
check "text output, reader gone, --cpus 0-0 .. 0-35: status 0, no message${epipe_bad:+ (not:$epipe_bad)}" \
    [ -z "$epipe_bad" ]
check "text output into /dev/full: status 1, 'No space left on device'${full_bad:+ (not:$full_bad)}" \
    [ -z "$full_bad" ]

# Without -b the simulator runs in real time: two refreshes of 0.2 s.
start=$(date +%s%N 2>/dev/null)
"$HTTOP" --demo -d 0.2 -n 2 >"$tmp/out"
end=$(date +%s%N 2>/dev/null)
case $start in
*N|'') skip "date has no %N" ;;
*) check "screen mode sleeps between refreshes (>= 0.4 s)" [ $(( (end - start) / 1000000 )) -ge 400 ] ;;
esac

# Under nohup (SIGHUP ignored when httop starts) a hang-up must not end a
# recording: 6 refreshes of 0.25 s, SIGHUP after 0.5 s, all 6 still shown.
(
	trap '' HUP
	exec "$HTTOP" --demo -d 0.25 -n 6 >"$tmp/nohup" 2>"$tmp/err"
) &
pid=$!
sleep 0.5
kill -s HUP "$pid"
wait "$pid"; st=$?
check "SIGHUP ignored by the parent stays ignored (status $st, $(grep -c '^time ' "$tmp/nohup") of 6 intervals)" \
    sh -c '[ "$1" -eq 0 ] && [ "$(grep -c "^time " "$2")" -eq 6 ]' sh "$st" "$tmp/nohup"
