#!/bin/sh
# test_nodes_clock.sh: a node's "unix_time" is a number the node sends;
# no loop of the viewer may run as long as it says (httop(1), SECURITY).
# A node e whose stamps lie (tests/nodes/hostile.py clock-W) gives its
# first line before the honest node g (started a second later):
#  - 1e300, 1.79e308, -1e300, its own then 1e300: the line is refused,
#    saying why, escaped; the node lost (also when it ends well after
#    its refused lines); the job goes on with g;
#  - 1e999 (a number out of range, read as none), 0 (a clock that stands
#    still), an hour after 1970 and on, going back 1000 s a line, jumping
#    1e9 s ahead: placed by when it came, in the job lines;
# either way httop ends after its -n intervals (a guard, timeout, kills
# it otherwise: once it walked billions of empty job intervals, deaf to
# signals, its nodes zombies), and its job lines have the time since
# the start (seconds, not 1.8e9) and a unix time of now. Then, running
# on (no -n) with e giving 3 lines of 1e300 and ending: e is reaped (no
# zombie), and SIGTERM ends httop, every node with it.
. "$HTTOP_SRCDIR/tests/lib.sh"
need python3 python3
need timeout timeout
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
plan 42

cat >via.sh <<EOF
#!/bin/sh
# via.sh HOST HTTOP ARGS...: g honest, a second late; e as hostile.py says
host=\$1
shift
case \$host in
g)
	sleep 1
	exec "\$@" --host g ;;
*)
	"\$@" --host "\$host" | head -n "\${ELINES:-1000}" |
	    python3 -u "$HTTOP_SRCDIR/tests/nodes/hostile.py" "clock-\$CLOCK" "\$host" ;;
esac
EOF
chmod +x via.sh
export NODES_RUN="$tmp"
# the nodes on the wall clock, as real ones (not make check's test clock)
export HTTOP_CLOCK=
# run W: nodes e (clock W) and g, 3 intervals of 0.5 s; W.out, W.err, W.st
run() {
	CLOCK=${1#w} timeout -s KILL 40 "$HTTOP" --nodes e,g --via "$tmp/via.sh %h" \
	    --remote-httop "$HTTOP" --demo -b -n 3 -d 0.5 --format summary >"$1.out" 2>"$1.err"
	echo $? >"$1.st"
}
# sane W FROM TO: W's job lines, at least 2: their time since the start is
# from 0 to 60 s, their unix time from FROM - 5 to TO + 5
sane() {
	awk -v from="$2" -v to="$3" '$1 == "job" { n++
	    if ($2 < 0 || $2 > 60 || $3 < from - 5 || $3 > to + 5) bad++ }
	    END { exit !(n >= 2 && bad == 0) }' "$1.out"
}
jobs_of() { awk '$1 == "job" { printf "%s %s; ", $2, $3 }' "$1.out"; }

for w in w1e300 w1.79e308 w-1e300 wlate1e300 w1e999 w0 wpast wback wahead; do
	from=$(date +%s)
	run "$w"
	to=$(date +%s)
	st=$(cat "$w.st")
	check "$w: httop ends after its 3 intervals (status $st, not killed by the guard)" \
	    [ "$st" -le 1 ]
	check "$w: job lines, their times sane ($(jobs_of "$w"))" sane "$w" "$from" "$to"
	case $w in
	w1e999 | w0 | wpast | wback | wahead)
		# placed by when its lines came: in a job line with g
		check "$w: e's lines read, not refused, in a job line with g ($(head -c 300 "$w.err"))" \
		    sh -c '[ "$(grep -c "^e " "$1.out")" -ge 2 ] && ! grep -q "not httop" "$1.err" &&
		    awk "\$1 == \"job\" && \$4 == 1 { n++ } END { exit !n }" "$1.out"' sh "$w" ;;
	*)
		check "$w: refused, e lost saying why ($(head -c 300 "$w.err"))" \
		    grep -qE "^httop: node e( lost)?: its output is not httop's JSON \(\"unix_time\" is " "$w.err" ;;
	esac
	check "$w: g's 3 lines read" [ "$(grep -c "^g " "$w.out")" -eq 3 ]
done

# 37-42: no end (-n), e giving 3 lines of 1e300 then ending.
CLOCK=1e300 ELINES=3 timeout -s KILL 60 "$HTTOP" --nodes e,g --via "$tmp/via.sh %h" \
    --remote-httop "$HTTOP" --demo -b -d 0.5 --format summary >term.out 2>term.err &
guard=$!
i=0
while [ "$(grep -c "^g " term.out)" -lt 3 ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
check "running on: g's lines read ($(grep -c "^g " term.out))" [ "$(grep -c "^g " term.out)" -ge 3 ]
hpid=$(pgrep -P "$guard" -x httop)
# no zombie child (one may be, for the moment between its end and SIGCHLD)
zombies() { ps -o stat= --ppid "$hpid" | grep -c '^Z'; }
i=0
while [ "$(zombies)" -gt 0 ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
check "no zombie node process ($(ps -o pid=,stat=,args= --ppid "$hpid" | tr '\n' ';'))" \
    [ "$(zombies)" -eq 0 ]
check "e refused, said why, escaped" \
    grep -qF "httop: node e: its output is not httop's JSON (\"unix_time\" is 1e+300, " term.err
kill -TERM "$hpid"
wait "$guard"
st=$?
check "SIGTERM ends it (status $st, not killed by the guard)" [ "$st" -ne 137 ]
i=0
while [ "$(procs_tagged "NODES_RUN=$tmp")" -gt 0 ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
check "nothing left running" [ "$(procs_tagged "NODES_RUN=$tmp")" -eq 0 ]
check "its job lines sane ($(jobs_of term | head -c 300))" sh -c \
    'awk "\$1 == \"job\" { n++; if (\$2 < 0 || \$2 > 100) bad++ } END { exit !(n >= 1 && bad == 0) }" term.out'
exit 0
