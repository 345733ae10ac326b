#!/bin/sh
# test_tap_run.sh: tests/tap-run, make check's LOG_COMPILER. A test that
# sleeps forever, with children in its process group, one in a session of
# its own (setsid: a daemon) and one that ignores SIGTERM, fails by name
# at its time limit ("# time-limit: 2"), and none of its processes is left;
# HTTOP_TEST_TIME_LIMIT and HTTOP_TEST_TIME_FACTOR set the limit of a test
# that names none; a skip (77) is status 0; any other status, 124 of a test
# that ends by itself included, is the test's own. A test started under
# nohup starts with SIGHUP ignored (timeout(1) alone would reset it), one
# started without it with SIGHUP at its default. A tap-run inside a test
# (as here) is ended with it.
. "$HTTOP_SRCDIR/tests/lib.sh"
need timeout coreutils
need setsid util-linux
tmp=$(mktemp -d) || exit 1
tag="HTTOP_TAPRUN_TEST=$$"
trap 'rm -rf "$tmp"' EXIT
plan 18
TAPRUN="$HTTOP_SRCDIR/tests/tap-run"

cat >"$tmp/hang.sh" <<'EOT'
#!/bin/sh
# time-limit: 2
echo 1..1
sleep 3000 &
setsid sleep 3000 &
sh -c 'trap "" TERM; sleep 3000' &
sleep 3000
EOT
sed '/time-limit/d' "$tmp/hang.sh" >"$tmp/hang_nolimit.sh"
# A test that runs tap-run itself on a test with a longer limit: the
# outer limit ends both (the inner test's processes carry both marks).
sed 's/time-limit: 2/time-limit: 600/' "$tmp/hang.sh" >"$tmp/hang_long.sh"
cat >"$tmp/nest.sh" <<EOT
#!/bin/sh
# time-limit: 2
sh "$TAPRUN" "$tmp/hang_long.sh"
EOT
# A test that ends leaving a daemon behind (another session, reparented
# to init: out of reach of its process group), and one whose child ends
# by itself a moment after it.
cat >"$tmp/leave.sh" <<'EOT'
#!/bin/sh
echo 1..1
setsid sleep 3000 </dev/null >/dev/null 2>&1 &
echo ok 1
EOT
cat >"$tmp/linger.sh" <<'EOT'
#!/bin/sh
echo 1..1
setsid sleep 2 </dev/null >/dev/null 2>&1 &
echo ok 1
EOT
printf '#!/bin/sh\necho "1..0 # SKIP not here"\nexit 77\n' >"$tmp/skip.sh"
printf '#!/bin/sh\necho 1..1\necho ok 1\nexit 3\n' >"$tmp/three.sh"
printf '#!/bin/sh\necho 1..1\necho ok 1\nexit 124\n' >"$tmp/own124.sh"
cat >"$tmp/hup.sh" <<EOT
#!/bin/sh
. "$HTTOP_SRCDIR/tests/lib.sh"
echo 1..1
if hup_ignored; then echo "ok 1 - SIGHUP ignored"; else echo "ok 1 - SIGHUP default"; fi
EOT
chmod +x "$tmp"/*.sh

# taprun NAME [VAR=VALUE...]: tap-run on $tmp/NAME.sh, output in
# $tmp/NAME.out, status in $st.
taprun() {
	_n=$1; shift
	env HTTOP_TEST_TIME_FACTOR=1 "$tag" "$@" sh "$TAPRUN" "$tmp/$_n.sh" >"$tmp/$_n.out" 2>&1
	st=$?
}

taprun hang
sed 's/^/# /' "$tmp/hang.out"
check "a test that hangs ends with status 124 (got $st)" [ "$st" -eq 124 ]
check "... and says so by name: Bail out! timed out after 2 s: .../hang.sh" \
    grep -qxF "Bail out! timed out after 2 s: $tmp/hang.sh" "$tmp/hang.out"
left=$(procs_tagged "$tag")
check "... none of its processes is left (the setsid one and the one ignoring SIGTERM included): $left left" \
    [ "$left" -eq 0 ]
[ "$left" -eq 0 ] || ps -eo pid,pgid,args | grep 'sleep 3000' | grep -v grep | sed 's/^/# /'

taprun hang_nolimit HTTOP_TEST_TIME_LIMIT=1 HTTOP_TEST_TIME_FACTOR=2
check "HTTOP_TEST_TIME_LIMIT=1 x HTTOP_TEST_TIME_FACTOR=2: timed out after 2 s (status $st)" \
    sh -c '[ "$1" -eq 124 ] && grep -q "^Bail out! timed out after 2 s: " "$2"' sh "$st" "$tmp/hang_nolimit.out"
left=$(procs_tagged "$tag")
check "... none of its processes is left: $left left" [ "$left" -eq 0 ]

taprun nest
check "a test running tap-run on a hanging test times out itself (status $st)" \
    sh -c '[ "$1" -eq 124 ] && grep -q "^Bail out! timed out after 2 s: .*nest.sh" "$2"' sh "$st" "$tmp/nest.out"
left=$(procs_tagged "$tag")
check "... none of the inner test's processes is left: $left left" [ "$left" -eq 0 ]
[ "$left" -eq 0 ] || ps -eo pid,pgid,args | grep 'sleep 3000' | grep -v grep | sed 's/^/# /'

taprun leave
sed 's/^/# /' "$tmp/leave.out"
check "a test that leaves a process running fails (status $st)" [ "$st" -eq 1 ]
check "... by name, the process named: Bail out! processes left running by .../leave.sh (ended now): PID S sleep 3000" \
    grep -q "^Bail out! processes left running by $tmp/leave.sh (ended now): *[0-9][0-9]* [A-Za-z+]* sleep 3000" "$tmp/leave.out"
left=$(procs_tagged "$tag")
check "... and it is ended: $left left" [ "$left" -eq 0 ]
taprun linger
check "a child that ends by itself 2 s after its test is no failure (status $st)" [ "$st" -eq 0 ]
taprun skip
check "a skip (exit 77) is status 0 (got $st)" [ "$st" -eq 0 ]
check "... with its plan" grep -qxF "1..0 # SKIP not here" "$tmp/skip.out"
taprun three
check "a test's own status is kept (3, got $st)" [ "$st" -eq 3 ]
taprun own124
check "a test that exits 124 by itself keeps it (got $st)" [ "$st" -eq 124 ]
check "... and is not said to have timed out" sh -c '! grep -q "^Bail out!" "$1"' sh "$tmp/own124.out"

# SIGHUP: as tap-run was given it.
(trap '' HUP; HTTOP_TEST_TIME_FACTOR=1 exec sh "$TAPRUN" "$tmp/hup.sh") >"$tmp/hup.out" 2>&1
check "started with SIGHUP ignored (nohup): the test has it ignored ($(sed -n 's/^ok 1 - //p' "$tmp/hup.out"))" \
    grep -qx "ok 1 - SIGHUP ignored" "$tmp/hup.out"
if hup_ignored; then
	skip "started with SIGHUP at its default: $hup_skip_reason"
else
	taprun hup
	check "started with SIGHUP at its default: the test has it so ($(sed -n 's/^ok 1 - //p' "$tmp/hup.out"))" \
	    grep -qx "ok 1 - SIGHUP default" "$tmp/hup.out"
fi
exit 0
