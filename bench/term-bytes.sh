#!/bin/sh
# term-bytes.sh: how many bytes httop writes to the terminal per refresh in
# steady state, against a full repaint of the same screen. Runs
# `httop --demo` in a detached tmux pane of W x H, records everything it
# writes (tmux pipe-pane), and prints both figures and their ratio.
#
#   bench/term-bytes.sh [-x W] [-y H] [-d DELAY] [-n REFRESHES] [HTTOP]
#   bench/term-bytes.sh [-x W] [-y H] [-d DELAY] [-n REFRESHES] -c COMMAND
#       [-m MARKER] [-P PAUSEKEY]
#
# -c runs the shell command line COMMAND in the pane instead of
# `HTTOP --demo -d DELAY` (another source, or htop; DELAY must be its
# refresh interval); -m is the extended regex its screen shows once it is
# up (default ' 1 Cores ', httop's tabs); -P the key that pauses it
# (default p; htop's is Z).
#
# Steady state: the bytes written over REFRESHES refreshes after a 3 s
# warm-up, divided by the number of refreshes (see the window below). Full
# repaint: httop paused, then Ctrl-L (repaint everything), the bytes that
# follow; if Ctrl-L writes nothing, a resize to W-1 and back, the bytes of
# the second repaint. The last line is machine-readable:
#   per_refresh=N full=N ratio=R
set -u
W=160 H=50 D=1 N=10 CMD= MARK=' 1 Cores ' PAUSE=p
while getopts x:y:d:n:c:m:P: o; do
	case $o in
	x) W=$OPTARG ;; y) H=$OPTARG ;; d) D=$OPTARG ;; n) N=$OPTARG ;;
	c) CMD=$OPTARG ;; m) MARK=$OPTARG ;; P) PAUSE=$OPTARG ;;
	*) echo "usage: $0 [-x W] [-y H] [-d DELAY] [-n REFRESHES] [-c COMMAND [-m MARKER] [-P KEY]] [HTTOP]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
here=$(cd "$(dirname "$0")/.." && pwd)
HTTOP=${1:-${HTTOP_BUILDDIR:-$here}/src/httop}
command -v tmux >/dev/null 2>&1 || { echo "$0: tmux is not installed" >&2; exit 77; }
if [ -z "$CMD" ]; then
	[ -x "$HTTOP" ] || { echo "$0: no httop at $HTTOP (give its path)" >&2; exit 2; }
	HTTOP=$(cd "$(dirname "$HTTOP")" && pwd)/$(basename "$HTTOP")
	CMD="'$HTTOP' --demo -d '$D'"
fi

sock=httop-bytes-$$
dir=$(mktemp -d) || exit 1
trap 'tmux -L "$sock" kill-server >/dev/null 2>&1; rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$sock"; rm -rf "$dir"' EXIT
trap 'exit 1' INT TERM HUP
tm() { tmux -L "$sock" "$@"; }
size() { wc -c <"$dir/out" | tr -d ' '; }
now() { date +%s.%N; }
calc() { awk "BEGIN { print ($1) }"; }
# until_quiet: wait until the recording stops growing for 0.3 s.
until_quiet() {
	a=$(size); sleep 0.3; b=$(size)
	while [ "$a" != "$b" ]; do a=$b; sleep 0.3; b=$(size); done
}

# The pane waits for `go` so the recording starts before httop's first byte.
cat >"$dir/run.sh" <<EOF2
#!/bin/sh
cd '$dir' || exit 1
while [ ! -f go ]; do sleep 0.05; done
export XDG_CONFIG_HOME='$dir/config' LANG=C.UTF-8 TERM=screen-256color
exec $CMD
EOF2
chmod +x "$dir/run.sh"
: >"$dir/out"
tm -f /dev/null new-session -d -s b -x "$W" -y "$H" "$dir/run.sh"
tm set-option -g status off >/dev/null
tm resize-window -t b -x "$W" -y "$H" >/dev/null 2>&1
tm pipe-pane -o -t b "cat >>'$dir/out'"
touch "$dir/go"

# Warm-up: the screen is up (its tabs), then 3 s more.
n=0
until tm capture-pane -p -t b 2>/dev/null | grep -Eq -- "$MARK"; do
	n=$((n + 1))
	if [ $n -gt 100 ]; then
		echo "$0: httop's screen did not come up; it shows:" >&2
		tm capture-pane -p -t b >&2
		exit 1
	fi
	sleep 0.1
done
sleep 3
# Count whole refreshes, not seconds (a window of N x DELAY seconds holds
# N or N+1 of them, a 10% error at N = 10): bursts.py sums the bytes of N
# complete bursts of output, one per refresh.
m=$(python3 "$here/bench/bursts.py" "$dir/out" "$N" "$D")
refreshes=$(printf '%s' "$m" | sed -n 's/.*refreshes=\([0-9]*\).*/\1/p')
bytes=$(printf '%s' "$m" | sed -n 's/.*bytes=\([0-9]*\).*/\1/p')
if [ "${refreshes:-0}" -lt 1 ]; then
	echo "$0: no refresh seen in the steady state (nothing changed?): $m" >&2
	refreshes=1 bytes=0
fi
per=$(calc "$bytes / $refreshes")

# Full repaint, paused so no refresh mixes in.
tm send-keys -t b "$PAUSE"
until_quiet
f0=$(size)
tm send-keys -t b C-l
sleep 0.5; until_quiet
full=$(( $(size) - f0 ))
how="Ctrl-L"
if [ "$full" -lt 1000 ]; then
	tm resize-window -t b -x $((W - 1)) -y "$H"; sleep 0.5; until_quiet
	f0=$(size)
	tm resize-window -t b -x "$W" -y "$H"; sleep 0.5; until_quiet
	full=$(( $(size) - f0 ))
	how="resize"
fi
tm send-keys -t b q

ratio=$(calc "$full > 0 ? $per / $full : 1")
printf 'terminal %sx%s, %s, %s refreshes measured\n' "$W" "$H" "$CMD" \
    "$(printf '%.1f' "$refreshes")"
printf 'steady state: %.0f bytes per refresh\n' "$per"
printf 'full repaint (%s): %d bytes\n' "$how" "$full"
printf 'per_refresh=%.0f full=%d ratio=%.3f\n' "$per" "$full" "$ratio"
