#!/bin/sh
# readme-sample.sh: the sample screen in README.md, made by the real
# program. Runs `httop --demo --host node01` in a detached 160 x 50 tmux
# pane (LANG=C.UTF-8, TERM=screen-256color, no settings file), pauses it
# on its first frame with figures, and takes the top of the screen: the
# header, the cores view's heads, package 0's line and its first five
# cores. The demo's seed is fixed and the test clock (HTTOP_CLOCK=virtual)
# steps its simulator by exactly the interval, so the first figures are the
# same in every run; the check masks them all the same, so that a slow
# machine that shows the second interval before the pause still passes.
#
#   tools/readme-sample.sh [HTTOP]            write the sample into README.md,
#                                             between its readme-sample marks
#   tools/readme-sample.sh --print [HTTOP]    print it
#   tools/readme-sample.sh --check [HTTOP]    exit 1 unless README.md's sample
#                                             is the program's, figures aside
#                                             (numbers and bars masked)
#
# HTTOP defaults to build/src/httop. Needs tmux (exit 77 without).
set -u
mode=write
case ${1:-} in --print | --check) mode=${1#--}; shift ;; esac
here=$(cd "$(dirname "$0")/.." && pwd)
HTTOP=${1:-$here/build/src/httop}
readme=$here/README.md
begin='<!-- readme-sample: made by tools/readme-sample.sh; do not edit by hand -->'
end='<!-- readme-sample end -->'
command -v tmux >/dev/null 2>&1 || { echo "$0: tmux is not installed" >&2; exit 77; }
[ -x "$HTTOP" ] || { echo "$0: no httop at $HTTOP (build it, or give its path)" >&2; exit 2; }
HTTOP=$(cd "$(dirname "$HTTOP")" && pwd)/$(basename "$HTTOP")

sock=httop-sample-$$
dir=$(mktemp -d) || exit 1
trap 'tmux -L "$sock" kill-server >/dev/null 2>&1; rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$sock"; rm -rf "$dir"' EXIT
trap 'exit 1' INT TERM HUP
tm() { tmux -L "$sock" "$@"; }
cap() { tm capture-pane -p -t s 2>/dev/null; }
# until RE: poll the screen (10 s at most).
until_screen() {
	n=0
	until cap | grep -Eq -- "$1"; do
		n=$((n + 1))
		if [ $n -gt 200 ]; then
			echo "$0: the screen did not show '$1'; it shows:" >&2
			cap >&2
			exit 1
		fi
		sleep 0.05
	done
}

cat >"$dir/run.sh" <<EOF2
#!/bin/sh
export XDG_CONFIG_HOME='$dir/config' LANG=C.UTF-8 LC_ALL= TERM=screen-256color HTTOP_CLOCK=virtual
'$HTTOP' --demo --host node01 -d 1
echo \$? >'$dir/status'
EOF2
chmod +x "$dir/run.sh"
tm -f /dev/null new-session -d -s s -x 160 -y 50 "$dir/run.sh"
tm set-option -g status off >/dev/null
tm resize-window -t s -x 160 -y 50 >/dev/null 2>&1
until_screen 'figures last (0\.9[0-9]|1|1\.0[0-9]) s'
tm send-keys -t s p
until_screen 'PAUSED'
sleep 0.3
# The header and heads up to the fifth core of package 0; the PAUSED mark
# and the pause's note are not part of the sample.
sample=$(cap | sed 's/  PAUSED//; s/ *$//' | awk '/^package 1/ { exit } { print } /^ +4 / { exit }')
tm send-keys -t s q
n=0; while [ ! -f "$dir/status" ] && [ $n -lt 100 ]; do sleep 0.05; n=$((n + 1)); done

# mask: the figures and bars of a sample, so two runs compare equal.
mask() { sed -E 's/▕[^▏]*▏/[bar]/g; s/[0-9]+(\.[0-9]+)?(-[0-9]+(\.[0-9]+)?)?/N/g; s/ +/ /g'; }
block() { printf '%s\n```\n%s\n...\n```\n%s\n' "$begin" "$sample" "$end"; }

case $mode in
print)
	printf '%s\n' "$sample"
	;;
check)
	# Between the marks: the fence, the sample, "...", the fence.
	have=$(awk -v b="$begin" -v e="$end" '$0 == e { on = 0 } on { print } $0 == b { on = 1 }' \
	    "$readme" | sed '1d;$d' | sed '$d')
	if [ -z "$have" ]; then
		echo "README.md has no sample between the marks '$begin' and '$end'" >&2
		exit 1
	fi
	if [ "$(printf '%s\n' "$have" | mask)" != "$(printf '%s\n' "$sample" | mask)" ]; then
		echo "README.md's sample is not what httop shows now; run tools/readme-sample.sh" >&2
		printf '%s\n' "$have" | mask >"$dir/have"
		printf '%s\n' "$sample" | mask >"$dir/want"
		diff -u "$dir/have" "$dir/want" >&2
		exit 1
	fi
	;;
write)
	grep -qx -- "$begin" "$readme" && grep -qx -- "$end" "$readme" || {
		echo "$0: README.md has no line '$begin' and '$end' to write between" >&2
		exit 1
	}
	block >"$dir/block"
	awk -v b="$begin" -v e="$end" -v f="$dir/block" '
	    $0 == b { while ((getline l < f) > 0) print l; skip = 1; next }
	    skip && $0 == e { skip = 0; next }
	    !skip { print }' "$readme" >"$dir/readme" && cat "$dir/readme" >"$readme"
	;;
esac
