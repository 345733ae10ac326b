#!/bin/sh
# as-host.sh HOST HTTOP [ARGS...]: a stand-in for ssh or srun in the tests
# (httop --via 'tests/nodes/as-host.sh %h'): it runs the httop that follows
# here, as HOST (--host), on the demo machine, with HOST's simulated load
# from $NODES_LOADS ("h1=busy h2=one-per-core h3=idle"), as a node of a
# cluster would. Some loads stand for nodes that fail:
#   down     says what ssh says of a refused connection, exits 255
#   garbage  writes lines that are not JSON
#   crash    gives two intervals, then fails (exit 3)
#   short    busy, one interval, then ends well (exit 0)
#   skew     one thread a core, on a clock an hour ahead (its unix_time
#            moved on by 3600 s: a node without NTP)
#   evil-M   busy, its lines changed by hostile.py M (a node that lies)
#   pad      busy, each line padded with blanks to a multiple of 1024
#            bytes (srun --label cuts lines into pieces of 1024 bytes)
#   old      an httop older than --compact and --align: with either,
#            says what such an httop says of the first unknown option and
#            exits 2; else busy
#   old-align an httop that knows --compact but not --align (the release
#            before it): with --align, the same; else busy
# With NODES_FULL set, the node writes full lines even when asked for
# compact ones (--compact dropped): the same figures, in the other form.
# Each start is logged (HOST and the time) to $NODES_LOG when it is set.
host=$1
shift
age=$(printf '%s\n' $NODES_LOADS | sed -n "s/^$host=//p")
if [ -n "$NODES_FULL" ] || [ "$age" = old ] || [ "$age" = old-align ]; then
	prog=$1
	shift
	unknown=
	for a in "$@"; do
		shift
		case $a in
		--compact)
			# known from old-align on; NODES_FULL: dropped
			if [ "$age" = old-align ]; then
				set -- "$@" "$a"
			elif [ "$age" = old ] && [ -z "$unknown" ]; then
				unknown=$a
			fi ;;
		--align)
			case $age in old | old-align) [ -z "$unknown" ] && unknown=$a ;; esac
			set -- "$@" "$a" ;;
		*)
			set -- "$@" "$a" ;;
		esac
	done
	if [ -n "$unknown" ]; then
		echo "httop: unknown option '$unknown'; see httop --help" >&2
		exit 2
	fi
	set -- "$prog" "$@"
fi
# Under the fake srun the task's httop names its node itself, as httop's
# one step makes it (--host "$SLURMD_NODENAME"): not named here, so that
# the tests see that it does. (Test hosts' names have no blanks.)
if [ -n "$SLURMD_NODENAME" ]; then as=; else as="--host $host"; fi
[ -n "$NODES_LOG" ] && echo "$host $(date +%s.%N)" >>"$NODES_LOG"
load=$(printf '%s\n' $NODES_LOADS | sed -n "s/^$host=//p")
data=$(dirname "$0")/../../data
case $load in
old | old-align)
	load=busy ;;
esac
case $load in
down)
	echo "ssh: connect to host $host port 22: Connection refused" >&2
	exit 255 ;;
garbage)
	for i in 1 2 3 4 5; do echo "this is not JSON"; sleep 0.1; done
	sleep 30
	exit 0 ;;
crash)
	"$@" $as --sim busy --topology "$data/demo-skx.xml" \
	    --cpuid "$data/demo-skx.cpuid" -n 2
	echo "$host: the node went away" >&2
	exit 3 ;;
short)
	exec "$@" $as --sim busy --topology "$data/demo-skx.xml" \
	    --cpuid "$data/demo-skx.cpuid" -n 1 ;;
skew)
	"$@" $as --sim one-per-core --topology "$data/demo-skx.xml" \
	    --cpuid "$data/demo-skx.cpuid" | python3 -uc '
import re, sys
for l in sys.stdin:
    sys.stdout.write(re.sub(r"\"unix_time\":([0-9.]+)",
        lambda m: "\"unix_time\":%.6f" % (float(m.group(1)) + 3600), l))'
	exit ;;
pad)
	"$@" $as --sim busy --topology "$data/demo-skx.xml" \
	    --cpuid "$data/demo-skx.cpuid" | python3 -uc '
import sys
for l in sys.stdin:
    l = l.rstrip("\n")
    sys.stdout.write(l + " " * (-len(l) % 1024) + "\n")'
	exit ;;
evil-*)
	"$@" $as --sim busy --topology "$data/demo-skx.xml" \
	    --cpuid "$data/demo-skx.cpuid" | python3 -u "$(dirname "$0")/hostile.py" "${load#evil-}" "$host"
	exit ;;
esac
exec "$@" $as --sim "${load:-demo}" --topology "$data/demo-skx.xml" \
    --cpuid "$data/demo-skx.cpuid"
