#!/bin/sh
# screen.sh: time from start to the first frame, and peak RSS, of httop's
# live view on the fake device (or of htop), in a 200 x 60 tmux pane.
#
#   bench/screen.sh BUILD MACHINE|htop [DELAY]
#
# The pane notes the time just before it execs the program; the script
# polls the screen (tmux capture-pane, about every 10 ms, so the figure is
# up to ~15 ms late) until the frame is there: httop's tabs (' 1 Cores ',
# drawn with the first figures) or htop's 'Tasks:'. Three starts, the
# median. Peak RSS: VmHWM of the process 3 s after its first frame (a few
# refreshes in). httop runs with -d DELAY (default 1) on a device whose
# clock advances DELAY per refresh (--step).
#
# Also the time to the first figures (httop's first frame shows "-" until
# its first interval has passed).
#
# Last line: first_ms=N figures_ms=N rss_kb=N
set -u
BUILD=$(cd "$1" && pwd) NAME=$2 D=${3:-1}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d) || exit 1
. "$here/lib.sh"
trap 'tm_stop; fake_umount; rm -rf "$work"' EXIT
trap 'exit 1' INT TERM HUP
command -v tmux >/dev/null 2>&1 || { echo "tmux is not installed" >&2; exit 77; }

if [ "$NAME" = htop ]; then
	command -v htop >/dev/null 2>&1 || { echo "htop is not installed" >&2; exit 77; }
	cmd="htop -d $(calc "$D * 10")" mark='Tasks:'
else
	fake_mount "$NAME" --scenario demo --step "$D" || exit 1
	cmd="$HTTOP $(msr_args "$NAME") -d $D" mark=' 1 Cores ' fig='^node .* util [0-9]'
fi

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

firsts= figs= rss=0
for i in 1 2 3; do
	pane_start 200 60 "$cmd" || exit 1
	pane_go
	poll "$mark" "the screen"
	t0=$(cat "$work/pane.t0")
	firsts="$firsts $(calc "($t1 - $t0) * 1000")"
	# httop's first frame shows every figure as "-" until the first
	# interval has passed (calibration, then a quarter of -d): the time
	# to the first figures, for the record (htop: the same frame).
	[ "$NAME" = htop ] || poll "$fig" "the first figures"
	figs="$figs $(calc "($t1 - $t0) * 1000")"
	if [ $i -eq 1 ]; then
		sleep 3
		rss=$(awk '/^VmHWM:/ { print $2 }' "/proc/$(cat "$work/pane.pid")/status")
	fi
	tm send-keys -t b q
	pane_wait_done 10
done
first=$(printf '%s\n' $firsts | sort -n | sed -n 2p)
figures=$(printf '%s\n' $figs | sort -n | sed -n 2p)
printf 'first_ms=%.0f figures_ms=%.0f rss_kb=%s (starts: %s ms; figures: %s ms)\n' \
    "$first" "$figures" "$rss" "$(echo $firsts)" "$(echo $figs)"
