#!/bin/sh
# nodes-scale.sh BUILD [NODES] [ROUNDS] [SECONDS]: the live view over many
# nodes at scale (issues 17, 29, 37): NODES (512) simulated nodes whose
# JSON streams are recorded first from httop --sim on the demo machine
# (36 cores, 72 CPUs) at -d D and replayed every D seconds, watched by
# `httop --nodes 'r[001-512]' --via 'bench/replay-node DIR %h' -d D` in a
# 160 x 50 tmux pane. D is the environment's D (1). Per round it measures:
#   first:    wall seconds from the viewer's exec to the first full frame
#             (the screen shows "512 nodes: 512 up" and a job interval of
#             all 512 nodes, polled every 20 ms);
#   httop:    the viewer's own CPU time (utime + stime, /proc/PID/stat) over
#             SECONDS (20, rounded up to a multiple of D: as many of the
#             nodes' lines in every window) of steady running, from
#             max(2, D) s after the first full frame, as % of one CPU;
#   mem:      the viewer's peak resident memory (VmHWM), MB;
#   replayer: the replayer's CPU time over the same window, % of one CPU,
#             apart from the viewer's (VIA=srun: bench/replay-srun.py, the
#             viewer's child; else bench/replay-nodes.py and the nodes'
#             `cat`s): it shares the machine, so a replayer near a whole
#             CPU is a limit of the bench, not of httop.
# Prints one line per round,
#   round R: nodes N -d D httop_cpu C % first_frame F s peak_rss M MB replayer_cpu P %
# ("never" for a frame that did not come in 30 s), and last the min /
# median / max of ROUNDS (3) of each.
# The lines are compact (--compact) when BUILD's httop asks its nodes for
# them, else full.
# TRACE=1: the screen's first 3 lines on standard error, with the time,
# each time they change until the first full frame.
# VIA=srun: the nodes come the way --via srun takes them, as ONE labelled
# stream (bench/replay-srun.py as srun: `httop --job 1 --nodes ... --via
# srun`, HTTOP_SRUN), not one pipe and one process per node; it replays
# every -d of the viewer's command (the nodes' -d).
set -u
build=${1:?usage: nodes-scale.sh BUILD [NODES] [ROUNDS] [SECONDS]}
n=${2:-512}
rounds=${3:-3}
secs=${4:-20}
d=${D:-1}
case $d in ''|*[!0-9]*|0) echo "nodes-scale.sh: D must be a whole number of seconds, 1 or more" >&2; exit 2 ;; esac
# a window of whole intervals: as many of the nodes' lines in each
secs=$(( (secs + d - 1) / d * d ))
settle=2
[ "$d" -gt 2 ] && settle=$d
src=$(cd "$(dirname "$0")/.." && pwd)
httop=$build/src/httop
tmp=$(mktemp -d) || exit 1
sock=httop-nodes-scale-$$
server=
cleanup() {
	tmux -L "$sock" kill-server >/dev/null 2>&1; rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$sock"
	[ -n "$server" ] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
# The viewer asks its nodes for compact lines (--compact) where its httop
# knows them: the same runs are recorded in both forms, the compact ones
# in $tmp/compact (replay-srun.py takes them when its command has
# --compact; the per-node replayer serves the form this httop asks for).
form=full
"$httop" --help 2>/dev/null | grep -q -- '--compact' && form=compact
mkdir -p "$tmp/compact"
k=0
for s in demo:0 demo:1 busy:0 one-per-core:0 idle:0 alternate:0 bursts:0 bursts:1; do
	HTTOP_CLOCK=virtual "$httop" --sim "${s%:*}" --seed "${s#*:}" \
	    --topology "$src/data/demo-skx.xml" --cpuid "$src/data/demo-skx.cpuid" \
	    -b --format json -n 30 -d "$d" >"$tmp/rec-$k.jsonl" 2>/dev/null || exit 1
	if [ "$form" = compact ]; then
		HTTOP_CLOCK=virtual "$httop" --sim "${s%:*}" --seed "${s#*:}" \
		    --topology "$src/data/demo-skx.xml" --cpuid "$src/data/demo-skx.cpuid" \
		    -b --format json --compact -n 30 -d "$d" >"$tmp/compact/rec-$k.jsonl" \
		    2>/dev/null || exit 1
	fi
	k=$((k + 1))
done
recs=$tmp
[ "$form" = compact ] && recs=$tmp/compact
names=$(i=1; while [ $i -le "$n" ]; do printf 'r%03d ' $i; i=$((i + 1)); done)
spec="r[001-$(printf %03d "$n")]"
via=${VIA:-cmd}
if [ "$via" = srun ]; then
	how="--job 1 --via srun"
	envs="HTTOP_SRUN=$src/bench/replay-srun.py REPLAY_DIR=$tmp REPLAY_STATS=$tmp/stats"
else
	how="--via '$src/bench/replay-node $recs %h'"
	envs=
fi
# ticks PID...: the processes' CPU time so far, utime + stime (fields 14
# and 15 of /proc/PID/stat, after the command's name in parentheses), in
# clock ticks; a process gone counts 0.
hz=$(getconf CLK_TCK 2>/dev/null || echo 100)
ticks() {
	for _p in "$@"; do
		sed 's/^.*) //' /proc/"$_p"/stat 2>/dev/null
	done | awk '{ t += $12 + $13 } END { printf "%d", t }'
}
# pct T0 T1 W0 W1: ticks over a wall window as % of one CPU.
pct() {
	echo "$1 $2 $3 $4" | awk -v hz="$hz" '{ printf "%.2f", ($2 - $1) / hz / ($4 - $3) * 100 }'
}
# replayers PID: the processes that stand in for the nodes: the viewer's
# children (srun's replayer; or the nodes' `cat`s) and the FIFOs' server.
replayers() {
	cat /proc/"$1"/task/*/children 2>/dev/null
	[ -n "$server" ] && echo "$server"
}
r=0
: >"$tmp/results"
while [ $r -lt "$rounds" ]; do
	r=$((r + 1))
	rm -f "$tmp/pid" "$tmp/t0"
	# Fresh nodes for each viewer, as each viewer starts its own: a
	# compact stream is read from its first line (its core_list), and
	# what one round's FIFOs hold would be the middle of a stream.
	if [ "$via" != srun ]; then
		for h in $names; do rm -f "$recs/$h"; done
		python3 "$src/bench/replay-nodes.py" "$recs" "$d" 100000 $names &
		server=$!
		sleep 1
	fi
	cat >"$tmp/run.sh" <<EOF2
#!/bin/sh
echo \$\$ >$tmp/pid
date +%s.%N >$tmp/t0
exec env HTTOP_HOSTLIST=builtin HTTOP_CLOCK= LANG=C.UTF-8 TERM=screen-256color $envs \
    $httop --nodes '$spec' $how -d $d 2>$tmp/err
EOF2
	chmod +x "$tmp/run.sh"
	tmux -L "$sock" -f /dev/null new-session -d -s t -x 160 -y 50 "$tmp/run.sh"
	tmux -L "$sock" set-option -g status off >/dev/null
	i=0
	while [ ! -s "$tmp/t0" ] && [ $i -lt 200 ]; do sleep 0.01; i=$((i + 1)); done
	pid=$(cat "$tmp/pid")
	first=
	i=0
	while [ $i -lt 1500 ]; do
		tmux -L "$sock" capture-pane -p -t t >"$tmp/pane" 2>/dev/null
		# TRACE=1: the screen's head on standard error as it changes
		if [ -n "${TRACE:-}" ] && ! head -n 3 "$tmp/pane" | cmp -s - "$tmp/pane.last"; then
			head -n 3 "$tmp/pane" >"$tmp/pane.last"
			echo "$(date +%s.%N) $(cat "$tmp/t0")" | awk '{ printf "%.2f s:\n", $1 - $2 }' >&2
			sed 's/^/  | /' "$tmp/pane.last" >&2
		fi
		if grep -q "$n nodes: $n up" "$tmp/pane" && grep -q "$n of $n nodes" "$tmp/pane"; then
			first=$(echo "$(date +%s.%N) $(cat "$tmp/t0")" | awk '{ printf "%.2f", $1 - $2 }')
			break
		fi
		sleep 0.02
		i=$((i + 1))
	done
	if [ -z "$first" ]; then
		# Why not: the screen's head and the viewer's last words.
		echo "round $r: never whole; the screen:"
		tmux -L "$sock" capture-pane -p -t t | head -n 14 | sed 's/^/  | /'
		tail -n 5 "$tmp/err" | sed 's/^/  stderr: /'
	fi
	sleep "$settle"
	reps=$(replayers "$pid")
	c0=$(ticks "$pid")
	p0=$(ticks $reps)
	w0=$(date +%s.%N)
	sleep "$secs"
	c1=$(ticks "$pid")
	p1=$(ticks $reps)
	w1=$(date +%s.%N)
	mem=$(awk '/^VmHWM/ { printf "%.1f", $2 / 1024 }' /proc/"$pid"/status)
	cpu=$(pct "$c0" "$c1" "$w0" "$w1")
	rcpu=$(pct "$p0" "$p1" "$w0" "$w1")
	tmux -L "$sock" send-keys -t t q
	sleep 1
	tmux -L "$sock" kill-server >/dev/null 2>&1; rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$sock"
	if [ -n "$server" ]; then
		kill "$server" 2>/dev/null
		wait "$server" 2>/dev/null
		server=
	fi
	# the replayer's own account: steps it could not write in time
	if [ -s "$tmp/stats" ]; then
		echo "round $r: replayer $(cat "$tmp/stats")"
		rm -f "$tmp/stats"
	fi
	echo "round $r: nodes $n -d $d httop_cpu $cpu % first_frame ${first:-never} s peak_rss $mem MB replayer_cpu $rcpu %"
	echo "${first:-999} $cpu $mem $rcpu" >>"$tmp/results"
done
stat() {   # stat COLUMN: min / median / max
	awk -v c="$1" '{ print $c }' "$tmp/results" | sort -n |
	    awk '{ v[NR] = $1 } END { printf "%s / %s / %s", v[1], v[int((NR + 1) / 2)], v[NR] }'
}
echo "nodes $n -d $d ($via, $form lines of $(sed -n 2p "$recs/rec-0.jsonl" | wc -c) bytes): httop cpu $(stat 2) % of one CPU; first full frame $(stat 1) s; peak memory $(stat 3) MB; replayer cpu $(stat 4) % (min / median / max of $rounds)"
