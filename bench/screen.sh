#!/bin/sh
# screen.sh: time from start to the first frame, and peak RSS, of httop's
# live view on the fake device (or of htop), in a 200 x 60 tmux pane.
#
#   bench/screen.sh BUILD "MACHINE|htop ..." [DELAY] [ROUNDS]
#
# The machines are started in turns, ROUNDS (default 3) times over, so a
# machine busy with other work slows them alike; per machine the min and
# the median are printed, and the ratio to the first machine of the list
# taken round by round (min and median). The pane notes the time just
# before it execs the program; the script polls the screen (tmux
# capture-pane, about every 10 ms, so a figure is up to ~15 ms late) until
# the frame is there: httop's tabs (' 1 Cores ', drawn with the first
# figures) or htop's 'Tasks:'. Peak RSS: VmHWM of the process 3 s after its
# first frame in the first round. httop runs with -d DELAY (default 1) on a
# device whose clock advances DELAY per refresh (--step).
#
# Also the time to the first figures (httop's first frame shows "-" until
# its first interval has passed).
#
# One line per machine: NAME first_ms=MIN/MED figures_ms=MIN/MED rss_kb=N
#   first_vs_FIRST=MIN/MED
set -u
BUILD=$(cd "$1" && pwd) LIST=$2 D=${3:-1} R=${4:-3}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d) || exit 1
. "$here/lib.sh"
trap 'tm_stop; fake_umount; rm -rf "$work"' EXIT
trap 'exit 1' INT TERM HUP
command -v tmux >/dev/null 2>&1 || { echo "tmux is not installed" >&2; exit 77; }

# poll RE WHAT: until the screen matches RE (about every 10 ms, 10 s at
# most), then the time in t1; or stop, saying WHAT did not come.
poll() {
	n=0
	until cap | grep -q -- "$1"; do
		n=$((n + 1))
		if [ $n -gt 1000 ]; then
			echo "$2 did not come; the screen shows:" >&2
			cap >&2
			exit 1
		fi
		sleep 0.01
	done
	t1=$(date +%s.%N)
}

# one NAME ROUND: start NAME once; "NAME ROUND first_ms figures_ms rss" to $work/runs.
one() {
	if [ "$1" = htop ]; then
		command -v htop >/dev/null 2>&1 || { echo "htop is not installed" >&2; return 77; }
		cmd="htop -d $(calc "$D * 10")" mark='Tasks:' fig=
	else
		fake_mount "$1" --scenario demo --step "$D" || exit 1
		cmd="$HTTOP $(msr_args "$1") -d $D" mark=' 1 Cores ' fig='^node .* util [0-9]'
	fi
	pane_start 200 60 "$cmd" || exit 1
	pane_go
	poll "$mark" "the screen"
	t0=$(cat "$work/pane.t0")
	first=$(calc "($t1 - $t0) * 1000")
	# httop's first frame shows every figure as "-" until the first
	# interval has passed (calibration, then a quarter of -d): the time
	# to the first figures, for the record (htop: the same frame).
	[ -n "$fig" ] && poll "$fig" "the first figures"
	figs=$(calc "($t1 - $t0) * 1000")
	rss=-
	if [ "$2" -eq 0 ]; then
		sleep 3
		rss=$(awk '/^VmHWM:/ { print $2 }' "/proc/$(cat "$work/pane.pid")/status")
	fi
	tm send-keys -t b q
	pane_wait_done 10
	tm_stop
	[ "$1" = htop ] || fake_umount
	echo "$1 $2 $first $figs $rss" >>"$work/runs"
}

: >"$work/runs"
i=0
while [ $i -lt "$R" ]; do
	# turn the order every round: no machine always comes first
	if [ $((i % 2)) -eq 0 ]; then order=$LIST; else order=$(printf '%s\n' $LIST | tac); fi
	for m in $order; do
		one "$m" "$i" || [ $? -eq 77 ]
	done
	i=$((i + 1))
done
sed 's/^/# run: /' "$work/runs" >&2
ref=$(printf '%s\n' $LIST | head -n 1)
for m in $LIST; do
	grep -q "^$m " "$work/runs" || continue
	awk -v m="$m" -v ref="$ref" '
	function mm(a, n,   i, j, t) {
		for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
			t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
		return sprintf("%.0f/%.0f", a[1], (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2)
	}
	function mm2(a, n,   i, j, t) {
		for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
			t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
		return sprintf("%.2f/%.2f", a[1], (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2)
	}
	$1 == ref { r[$2] = $3 }
	$1 == m { n++; f[n] = $3; g[n] = $4; rd[n] = $2; if ($5 != "-") rss = $5 }
	END {
		for (i = 1; i <= n; i++) q[i] = f[i] / r[rd[i]]
		l1 = mm(f, n); l2 = mm(g, n); l3 = mm2(q, n)
		printf "%s first_ms=%s figures_ms=%s rss_kb=%s first_vs_%s=%s\n", m, l1, l2, rss, ref, l3
	}' "$work/runs"
done
