#!/bin/sh
# nodes-scale.sh BUILD [NODES] [ROUNDS] [SECONDS]: the live view over many
# nodes at scale (issue 17): NODES (512) simulated nodes whose JSON streams
# bench/replay-nodes.py replays (recorded first from httop --sim on the
# demo machine: 36 cores, 72 CPUs, about 53 KB a line), watched by
# `httop --nodes 'r[001-512]' --via 'bench/replay-node DIR %h' -d 1` in a
# 160 x 50 tmux pane. Per round it measures, of the viewer's process only:
#   first: wall seconds from its exec to the first full frame (the screen
#          shows "512 nodes: 512 up" and a job interval of all 512 nodes,
#          polled every 20 ms);
#   cpu:   its CPU time (/proc/PID/schedstat) over SECONDS (20) of steady
#          running after that, as % of one CPU (one refresh a second);
#   mem:   its peak resident memory (VmHWM), MB.
# Prints one line per round and the min / median of ROUNDS (3).
# The lines are compact (--compact) when BUILD's httop asks its nodes for
# them, else full.
# VIA=srun: the nodes come the way --via srun takes them, as ONE labelled
# stream (bench/replay-srun.py as srun: `httop --job 1 --nodes ... --via
# srun`, HTTOP_SRUN), not one pipe and one process per node.
set -u
build=${1:?usage: nodes-scale.sh BUILD [NODES] [ROUNDS] [SECONDS]}
n=${2:-512}
rounds=${3:-3}
secs=${4:-20}
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
	    -b --format json -n 30 -d 1 >"$tmp/rec-$k.jsonl" 2>/dev/null || exit 1
	if [ "$form" = compact ]; then
		HTTOP_CLOCK=virtual "$httop" --sim "${s%:*}" --seed "${s#*:}" \
		    --topology "$src/data/demo-skx.xml" --cpuid "$src/data/demo-skx.cpuid" \
		    -b --format json --compact -n 30 -d 1 >"$tmp/compact/rec-$k.jsonl" \
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
	envs="HTTOP_SRUN=$src/bench/replay-srun.py REPLAY_DIR=$tmp"
else
	how="--via '$src/bench/replay-node $recs %h'"
	envs=
fi
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
		python3 "$src/bench/replay-nodes.py" "$recs" 1 100000 $names &
		server=$!
		sleep 1
	fi
	cat >"$tmp/run.sh" <<EOF2
#!/bin/sh
echo \$\$ >$tmp/pid
date +%s.%N >$tmp/t0
exec env HTTOP_HOSTLIST=builtin HTTOP_CLOCK= LANG=C.UTF-8 TERM=screen-256color $envs \
    $httop --nodes '$spec' $how -d 1 2>$tmp/err
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
		if tmux -L "$sock" capture-pane -p -t t | grep -q "$n nodes: $n up" &&
		    tmux -L "$sock" capture-pane -p -t t | grep -q "$n of $n nodes"; then
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
	sleep 2
	c0=$(awk '{ print $1 }' /proc/"$pid"/schedstat)
	w0=$(date +%s.%N)
	sleep "$secs"
	c1=$(awk '{ print $1 }' /proc/"$pid"/schedstat)
	w1=$(date +%s.%N)
	mem=$(awk '/^VmHWM/ { printf "%.1f", $2 / 1024 }' /proc/"$pid"/status)
	cpu=$(echo "$c0 $c1 $w0 $w1" | awk '{ printf "%.2f", ($2 - $1) / 1e9 / ($4 - $3) * 100 }')
	tmux -L "$sock" send-keys -t t q
	sleep 1
	tmux -L "$sock" kill-server >/dev/null 2>&1; rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$sock"
	if [ -n "$server" ]; then
		kill "$server" 2>/dev/null
		wait "$server" 2>/dev/null
		server=
	fi
	echo "round $r: first full frame ${first:-never} s, cpu $cpu % of one CPU, peak memory $mem MB"
	echo "${first:-999} $cpu $mem" >>"$tmp/results"
done
stat() {   # stat COLUMN: min / median
	awk -v c="$1" '{ print $c }' "$tmp/results" | sort -n |
	    awk '{ v[NR] = $1 } END { printf "%s / %s", v[1], v[int((NR + 1) / 2)] }'
}
echo "nodes $n ($via, $form lines of $(sed -n 2p "$recs/rec-0.jsonl" | wc -c) bytes): first full frame $(stat 1) s; cpu $(stat 2) % of one CPU at -d 1; peak memory $(stat 3) MB (min / median of $rounds)"
