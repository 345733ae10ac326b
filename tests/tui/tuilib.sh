# tuilib.sh: drive the real httop in a detached tmux pane. Source it after
# tests/lib.sh. Every test gets a private tmux server (tmux -L) that is
# killed on exit, and polls the screen instead of sleeping.
#
#   tui_start W H [VAR=VALUE...] -- [httop options...]
#       a W x H pane running httop with those variables set; the pane
#       records `stty -g` before and after, httop's PID and exit status,
#       and its standard error, in $tui_dir.
#   cap / cape        the screen as text / with attributes (escapes)
#   wait_for RE [S]   poll until the screen matches the extended regex RE
#   wait_gone RE [S]  ... until it no longer does
#   keys K...         tmux send-keys
#   tui_wait_exit [S] until httop has exited; its status in $tui_status
#   tui_stop          kill the pane's server

need tmux tmux

# One server per start: a new one on the socket of a server that is still
# shutting down can fail.
tui_base=httop-test-$$
tui_n=0
tui_sock=$tui_base-$tui_n
tui_dir=$(mktemp -d) || exit 1
tui_status=
tui_quitting=
tui_pid=
trap 'tui_kill; rm -rf "$tui_dir"' EXIT
trap 'exit 1' INT TERM HUP

tm() { tmux -L "$tui_sock" "$@"; }
# The server and its socket: tmux may leave the socket file behind in
# /tmp/tmux-UID (thousands over the suite's runs).
#
# An httop asked to quit (q, Ctrl-C, F10) may still be ending: in the
# sanitizer build LeakSanitizer stops it with ptrace at exit, and the
# SIGCONT of a terminal's hang-up arriving then discards the stop and
# leaves both waiting forever (its tracer in waitpid, httop spinning in
# sched_yield; seen once in CI). So its end is awaited first.
tui_kill() {
	if [ -n "$tui_quitting" ] && [ -n "$tui_pid" ]; then
		_n=$((100 * ${HTTOP_TEST_TIME_FACTOR:-1}))
		while [ ! -f "$tui_dir/status" ] && kill -0 "$tui_pid" 2>/dev/null &&
		    [ $_n -gt 0 ]; do
			sleep 0.1
			_n=$((_n - 1))
		done
	fi
	tui_quitting=
	tm kill-server >/dev/null 2>&1
	rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$tui_sock"
}

# Quote one word for sh.
q() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }

tui_start() {
	w=$1 h=$2
	shift 2
	vars="LANG=C.UTF-8 LC_ALL= TERM=screen-256color"
	while [ $# -gt 0 ] && [ "$1" != "--" ]; do
		vars="$vars $(q "$1")"
		shift
	done
	[ "$1" = "--" ] && shift
	args=
	for a in "$@"; do args="$args $(q "$a")"; done
	rm -f "$tui_dir/stty.before" "$tui_dir/stty.after" "$tui_dir/pid" "$tui_dir/status" \
	    "$tui_dir/stderr"
	cat >"$tui_dir/run.sh" <<EOF
#!/bin/sh
# The pane: the terminal's settings before and after httop, its PID and status.
cd $(q "$tui_dir") || exit 1
# Ctrl-C reaches the whole foreground group: this shell must survive it
# (a caught signal, unlike an ignored one, is reset for httop).
trap 'echo INT >>signals' INT
stty -g >stty.before
sh -c 'echo \$\$ >pid.tmp && mv pid.tmp pid && exec "\$@"' sh env $vars $(q "$HTTOP") $args 2>stderr
echo \$? >status.tmp
stty -g >stty.after
mv status.tmp status
exec sleep 3600
EOF
	chmod +x "$tui_dir/run.sh"
	tui_kill
	tui_n=$((tui_n + 1))
	tui_sock=$tui_base-$tui_n
	# -f /dev/null: no user configuration; no status bar, so the pane
	# is the whole W x H window.
	tm -f /dev/null new-session -d -s t -x "$w" -y "$h" "$tui_dir/run.sh" &&
	    tm set-option -g status off >/dev/null &&
	    tm resize-window -t t -x "$w" -y "$h" >/dev/null 2>&1
	i=0
	while [ ! -s "$tui_dir/pid" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
	tui_pid=$(cat "$tui_dir/pid" 2>/dev/null)
}

cap() { tm capture-pane -p -t t 2>/dev/null; }
cape() { tm capture-pane -p -e -t t 2>/dev/null; }
keys() {
	for _k in "$@"; do
		case $_k in q|C-c|F10) tui_quitting=1 ;; esac
	done
	tm send-keys -t t "$@"
}

# wait_for RE [SECONDS]: 0 once the screen matches, 1 after the timeout.
wait_for() {
	n=$(( ${2:-10} * 10 ))
	while [ $n -gt 0 ]; do
		if cap | grep -Eq -- "$1"; then return 0; fi
		sleep 0.1
		n=$((n - 1))
	done
	return 1
}

wait_gone() {
	n=$(( ${2:-10} * 10 ))
	while [ $n -gt 0 ]; do
		if ! cap | grep -Eq -- "$1"; then return 0; fi
		sleep 0.1
		n=$((n - 1))
	done
	return 1
}

# Wait until the screen stops changing (two equal captures 0.3 s apart).
settle() {
	n=${1:-30}
	prev=
	while [ $n -gt 0 ]; do
		cur=$(cap)
		[ -n "$prev" ] && [ "$cur" = "$prev" ] && return 0
		prev=$cur
		sleep 0.3
		n=$((n - 1))
	done
	return 1
}

tui_wait_exit() {
	n=$(( ${1:-10} * 10 ))
	while [ ! -f "$tui_dir/status" ] && [ $n -gt 0 ]; do sleep 0.1; n=$((n - 1)); done
	tui_status=$(cat "$tui_dir/status" 2>/dev/null)
	[ -n "$tui_status" ]
}

# The pane's terminal is as it was: same stty -g, out of the alternate
# screen, cursor visible, no mouse reporting.
tui_restored() {
	[ -s "$tui_dir/stty.before" ] && cmp -s "$tui_dir/stty.before" "$tui_dir/stty.after" &&
	    [ "$(tm display-message -p -t t '#{alternate_on}#{cursor_flag}#{mouse_any_flag}')" = "010" ]
}

tui_stop() { tui_kill; }

# For failures: the screen, as TAP comments.
show_screen() { cap | sed 's/^/# | /'; }

# Non-ASCII bytes in the screen text (UTF-8 glyphs).
non_ascii() { cap | LC_ALL=C tr -d '\000-\177' | wc -c | tr -d ' '; }

# Colour escapes (SGR 30-37, 40-47, 90-107, 38;5/48;5...) in the screen
# with attributes; bold, reverse and the default colours (39, 49) do not
# count.
colour_escapes() {
	cape | LC_ALL=C grep -o "$(printf '\033')\[[0-9;:]*m" | tr -d '\033[m' | tr ';:' '\n\n' |
	    awk '($1 >= 30 && $1 <= 48 && $1 != 39) || ($1 >= 90 && $1 <= 107) { n++ }
	    END { print n + 0 }'
}

# expect DESC RE [SECONDS]: one TAP line, ok when the screen comes to
# match RE; on failure the screen follows as comments.
expect() {
	if wait_for "$2" "${3:-10}"; then ok "$1"; else not_ok "$1"; show_screen; fi
}
expect_gone() {
	if wait_gone "$2" "${3:-10}"; then ok "$1"; else not_ok "$1"; show_screen; fi
}
