#!/bin/sh
# nodes-targets.sh BUILD [ROUNDS] [SECONDS]: issue 37's targets for many
# nodes over ONE srun-like stream, measured by bench/nodes-scale.sh with
# VIA=srun (bench/replay-srun.py standing in for srun), ROUNDS (3) rounds
# of SECONDS (20) of steady running each, and printed with met / not met:
#   4,096 nodes at -d 1:  the viewer's CPU at most 4 % of one CPU;
#   16,384 nodes at -d 4: its CPU at most 5 % of one CPU, its first full
#                         frame within 10 s, its peak resident memory
#                         within 256 MB.
# A target is met when the median of the rounds is; each figure is
# printed as min / median / max over the rounds, after every round's own
# line (nodes-scale.sh's: nodes, -d, httop's CPU %, first full frame s,
# peak RSS MB, the replayer's CPU %). The CPU is the viewer's own
# (utime + stime); the replayer's is printed apart, with the steps it
# could not write in time (its reader, whose full pipe blocks it, or
# itself too slow): a round with late steps is said to be one. Wall
# time and CPU shares depend on what else runs: on a shared machine,
# rerun on a quiet one before reading a "not met" as httop's.
set -u
build=${1:?usage: nodes-targets.sh BUILD [ROUNDS] [SECONDS]}
rounds=${2:-3}
secs=${3:-20}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

# run N D: nodes-scale.sh's lines, kept in $tmp/N-D and shown indented
run() {
	D=$2 VIA=srun sh "$here/nodes-scale.sh" "$build" "$1" "$rounds" "$secs" >"$tmp/$1-$2" 2>&1
	grep '^round ' "$tmp/$1-$2" | sed 's/^/  /'
}
# col N D FIELD: "min / median / max" of a field of the rounds' lines
# (httop_cpu, first_frame, peak_rss, replayer_cpu); 999 for a round
# without it (a first frame that never came)
col() {
	sed -n "s/^round [0-9]*: nodes .* $3 \([0-9.]*\) .*/\1/p;s/^round [0-9]*: nodes .* $3 never .*/999/p" \
	    "$tmp/$1-$2" | sort -n |
	    awk '{ v[NR] = $1 } END { if (NR == 0) print "none"; else
		printf "%s / %s / %s", v[1], v[int((NR + 1) / 2)], v[NR] }'
}
# verdict "MIN / MEDIAN / MAX" LIMIT: met when the median is at most LIMIT
verdict() {
	echo "$1" | awk -v l="$2" '{ if ($1 == "none") print "not measured";
		else print ($3 <= l ? "met" : "NOT met") }'
}
# late N D: the rounds whose replayer had steps late
late() {
	n=$(grep -c '^round [0-9]*: replayer steps=[0-9]* late=[1-9]' "$tmp/$1-$2")
	[ "$n" -gt 0 ] && echo " ($n of $rounds rounds with replayer steps late: the stream fell behind)"
}
row() {   # row N D FIELD WHAT LIMIT UNIT
	v=$(col "$1" "$2" "$3")
	printf '%-24s %-22s %24s %s   target %s %s: %s%s\n' "$1 nodes at -d $2:" "$4" "$v" "$6" \
	    "$5" "$6" "$(verdict "$v" "$5")" "$(late "$1" "$2")"
}

echo "Many nodes over one srun stream (issue 37): bench/nodes-scale.sh with VIA=srun," \
    "$rounds rounds of $secs s; load average $(cut -d' ' -f1-3 /proc/loadavg) at the start"
run 4096 1
run 16384 4
echo "min / median / max over the rounds; a target is met when the median is:"
row 4096 1 httop_cpu "httop's CPU" 4 %
row 16384 4 httop_cpu "httop's CPU" 5 %
row 16384 4 first_frame "first full frame" 10 s
row 16384 4 peak_rss "peak memory (VmHWM)" 256 MB
printf '%-24s %-22s %24s %s\n' "4096 nodes at -d 1:" "replayer's CPU" "$(col 4096 1 replayer_cpu)" \
    "% (not httop's)"
printf '%-24s %-22s %24s %s\n' "16384 nodes at -d 4:" "replayer's CPU" "$(col 16384 4 replayer_cpu)" \
    "% (not httop's)"
echo "load average $(cut -d' ' -f1-3 /proc/loadavg) at the end; the first frame is from the" \
    "viewer's exec, each node's first line sent at once (a real node's comes -d after its start)"
