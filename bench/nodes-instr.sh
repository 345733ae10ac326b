#!/bin/sh
# nodes-instr.sh BUILD [NODES]: instructions per node line (callgrind) of
# httop --nodes over ONE srun-like stream (issue 37): NODES (256) nodes
# replayed by bench/replay-srun.py from compact recordings of the demo
# machine (as bench/nodes-scale.sh with VIA=srun), read by
# `httop --nodes 'r[001-NODES]' --job 1 --via srun -d 1 -b --format
# summary -n 25`, the count switched on after 12 s (the nodes' first
# lines, which build their machines, are left out): the steady state of
# nodes whose views are not shown, each line's head parsed and read.
#   line: cluster_io's instructions (srun's pieces put together, each
#         line parsed and read, its job interval placed) per line read;
#   read: node_line_read's (the parse and the read) per line;
#   first: node_line_read's per node's first line, which makes its
#         machine (a run of its own: each node sends that one line,
#         REPLAY_SECONDS=0.5, counted from the start; at 16,384 nodes
#         these lines are the time to the first full frame).
# User-space instructions: the kernel's copy out of the pipe is outside.
# How the stream's pieces fall into reads moves `line` by about 1 %.
# KEEP=FILE keeps the steady state's callgrind output.
# Last line: line=N read=N lines=N first=N
set -u
BUILD=$(cd "${1:?usage: nodes-instr.sh BUILD [NODES]}" && pwd)
n=${2:-256}
src=$(cd "$(dirname "$0")/.." && pwd)
httop=$BUILD/src/httop
command -v valgrind >/dev/null 2>&1 || { echo "valgrind is not installed" >&2; exit 77; }
tmp=$(mktemp -d) || exit 1
trap '[ -n "${KEEP:-}" ] && cp "$tmp/cg.out" "$KEEP"; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
mkdir -p "$tmp/compact"
k=0
for s in demo:0 demo:1 busy:0 one-per-core:0 idle:0 alternate:0 bursts:0 bursts:1; do
	HTTOP_CLOCK=virtual "$httop" --sim "${s%:*}" --seed "${s#*:}" \
	    --topology "$src/data/demo-skx.xml" --cpuid "$src/data/demo-skx.cpuid" \
	    -b --format json --compact -n 30 -d 1 >"$tmp/compact/rec-$k.jsonl" 2>/dev/null || exit 1
	k=$((k + 1))
done
# The first lines: one a node, then the step ends.
env HTTOP_HOSTLIST=builtin HTTOP_CLOCK= LANG=C.UTF-8 HTTOP_SRUN="$src/bench/replay-srun.py" \
    REPLAY_DIR="$tmp" REPLAY_SECONDS=0.5 valgrind --tool=callgrind \
    --callgrind-out-file="$tmp/first.out" "$httop" --nodes "r[001-$(printf %03d "$n")]" \
    --job 1 --via srun -d 1 -b --format summary -n 1 >/dev/null 2>"$tmp/vg1.err"
callgrind_annotate --inclusive=yes --tree=caller "$tmp/first.out" >"$tmp/first.txt" 2>/dev/null
f_rd=$(sed -n 's/^ *\([0-9,]*\) ([ 0-9.]*%)  \*  .*[:/]node_line_read \[.*/\1/p' "$tmp/first.txt" |
    head -n 1 | tr -d ,)
f_lines=$(sed -n 's/.*< .*cluster.c:out_line (\([0-9,]*\)x).*/\1/p' "$tmp/first.txt" | head -n 1 | tr -d ,)
if [ -z "$f_rd" ] || [ "${f_lines:-0}" -ne "$n" ]; then
	echo "nodes-instr: the first lines not measured (${f_lines:-no} lines of $n nodes)" >&2
	exit 1
fi
env HTTOP_HOSTLIST=builtin HTTOP_CLOCK= LANG=C.UTF-8 HTTOP_SRUN="$src/bench/replay-srun.py" \
    REPLAY_DIR="$tmp" valgrind --tool=callgrind --instr-atstart=no \
    --callgrind-out-file="$tmp/cg.out" "$httop" --nodes "r[001-$(printf %03d "$n")]" \
    --job 1 --via srun -d 1 -b --format summary -n 25 >/dev/null 2>"$tmp/vg.err" &
pid=$!
sleep 12
callgrind_control -i on "$pid" >/dev/null 2>&1
wait "$pid"
callgrind_annotate --inclusive=yes --tree=caller "$tmp/cg.out" >"$tmp/cg.txt" 2>/dev/null
# inclusive count of function F (its own line in the tree)
incl() {
	sed -n "s/^ *\([0-9,]*\) ([ 0-9.]*%)  \*  .*[:/]$1 \[.*/\1/p" "$tmp/cg.txt" | head -n 1 | tr -d ,
}
lines=$(sed -n 's/.*< .*cluster.c:out_line (\([0-9,]*\)x).*/\1/p' "$tmp/cg.txt" | head -n 1 | tr -d ,)
io=$(incl cluster_io)
rd=$(incl node_line_read)
if [ -z "$lines" ] || [ "${lines:-0}" -lt 100 ] || [ -z "$io" ] || [ -z "$rd" ]; then
	echo "nodes-instr: no steady state measured (lines ${lines:-none})" >&2
	exit 1
fi
echo "line=$((io / lines)) read=$((rd / lines)) lines=$lines first=$((f_rd / n))"
