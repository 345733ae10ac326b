#!/bin/sh
# test_tui_keys.sh: what the keys and the mouse do, on the demo machine (2
# x 18 cores x 2 threads; CPU 12 is package 0, core id 8, as lstopo and
# /proc/cpuinfo number it) at 160 x 50: the threads view's sort marks
# beside their heads, a figure sorting busiest first, a click on a head,
# the wheel; the +/- ladder through 1 s; an unknown key answered; F1 and
# F10; the status line's messages apart; the window's label steady once
# full; one core numbering in every view; the die grid's figure kept by w
# and the reason for an idle core's "-"; "1 core", not "1 cores".
. "$HTTOP_SRCDIR/tests/lib.sh"
. "$HTTOP_SRCDIR/tests/tui/tuilib.sh"
plan 27

export XDG_CONFIG_HOME="$tui_dir/config"
rc=$XDG_CONFIG_HOME/httop/httoprc
# Row N of the screen (1 = the top).
row() { cap | sed -n "${1}p"; }
# The threads view's head row and its first data rows.
head_row() { cap | grep -m1 -E '^ +CPU'; }
# util% of the first and the 20th data rows (the number after the bar's
# edge).
utils() { cap | sed -n '/^ *CPU/,$p' | sed -n '2p;21p' | sed 's/.*▏ *\([0-9.]*\).*/\1/'; }
# mouse EVENT X Y: an xterm mouse report (button code, 0-based column and
# row), as a terminal in mode 1000 sends it; a press of button 1 (0) is
# followed by its release (3), as a click is.
report() {
	printf '\033[M%b%b%b' "\\$(printf '%03o' $(($1 + 32)))" \
	    "\\$(printf '%03o' $(($2 + 33)))" "\\$(printf '%03o' $(($3 + 33)))"
}
mouse() {
	if [ "$1" -eq 0 ]; then
		keys -l "$(report 0 "$2" "$3")$(report 3 "$2" "$3")"
	else
		keys -l "$(report "$1" "$2" "$3")"
	fi
}

tui_start 160 50 -- --demo -d 1
if ! wait_for 'util [0-9]' 10; then
	not_ok "the demo comes up"; show_screen
	i=1; while [ $i -lt 27 ]; do skip "no screen"; i=$((i + 1)); done
	exit 0
fi
ok "the demo comes up"

# + and -: 1 -> 0.5 -> 0.2 -> 0.5 -> 1: the 1-2-5 ladder returns to 1 s.
keys -; check "-: interval 0.5 s" wait_for 'interval 0.5 s' 5
keys -; check "-: interval 0.2 s" wait_for 'interval 0.2 s' 5
keys +; check "+: interval 0.5 s" wait_for 'interval 0.5 s' 5
keys +; check "+: interval 1 s again" wait_for 'interval 1 s ' 5

# An unknown key is named, with where the keys are listed.
keys x
check "x: 'unknown key 'x': h lists the keys'" wait_for "unknown key 'x': h lists the keys" 5

# F1: the help; any key closes it.
keys F1; check "F1: the help" wait_for 'httop keys' 5
keys Escape; wait_gone 'httop keys' 5

# The threads view, paused so the figures hold.
keys 2 p
wait_for 'PAUSED' 5; settle 10
keys s
wait_for 'pkg▲' 5
check "s: the mark is beside 'pkg', a blank before it: '$(head_row | cut -c 1-20)'" \
    sh -c 'printf "%s" "$1" | grep -q "CPU  *pkg▲"' sh "$(head_row)"
keys s
wait_for 'core▲' 5
check "s: 'core▲' apart from 'pkg'" sh -c 'printf "%s" "$1" | grep -q "pkg  *core▲"' sh "$(head_row)"
# CPU 12's row: package 0, core 8 (the hardware's id, not the index 6).
keys Home; sleep 0.3
check "threads view: CPU 12 is package 0 core 8" \
    sh -c 'printf "%s\n" "$1" | grep -Eq "^ +12 +0 +8 +0"' sh "$(cap)"
keys s s
wait_for 'util%[▼▲]' 5
set -- $(utils)
check "s to util%: busiest first (util%▼; first row $1 > 20th $2)" \
    sh -c 'printf "%s" "$1" | grep -q "util%▼" && awk -v a="$2" -v b="$3" \
    "BEGIN { exit !(a ~ /^[0-9.]+\$/ && b ~ /^[0-9.]+\$/ && a + 0 > b + 0) }"' sh "$(head_row)" "$1" "$2"
keys S
wait_for 'util%▲' 5
set -- $(utils)
check "S: idle first (first row $1 < 20th $2)" \
    awk -v a="$1" -v b="$2" 'BEGIN { exit !(a ~ /^[0-9.]+$/ && b ~ /^[0-9.]+$/ && a + 0 < b + 0) }'
# A click on the GHz head sorts by it, highest first; again: reversed.
hr=$(cap | grep -n -m1 -E '^ +CPU' | cut -d: -f1)
gx=$(head_row | awk '{ i = index($0, " GHz"); print i + 1 }')
mouse 0 "$gx" $((hr - 1))
check "a click on 'GHz' sorts by it, highest first" wait_for 'GHz▼' 5
mouse 0 "$gx" $((hr - 1))
check "a second click: lowest first" wait_for 'GHz▲' 5
# The wheel scrolls three rows (by CPU: a click on its head).
mouse 0 3 $((hr - 1))
wait_for 'CPU▲' 5
keys Home; sleep 0.3
first=$(cap | sed -n '/^ *CPU/,$p' | sed -n 2p | awk '{ print $1 }')
mouse 65 20 20
sleep 0.5
now=$(cap | sed -n '/^ *CPU/,$p' | sed -n 2p | awk '{ print $1 }')
check "the wheel scrolls 3 rows (CPU $first -> $now)" [ "$now" = 3 -a "$first" = 0 ]
mouse 64 20 20
sleep 0.5
now=$(cap | sed -n '/^ *CPU/,$p' | sed -n 2p | awk '{ print $1 }')
check "... and back ($now)" [ "$now" = 0 ]
# A click on a tab switches to its view.
tabs=$(cap | grep -n -m1 '^ 1 Cores' | cut -d: -f1)
tx=$(cap | sed -n "${tabs}p" | awk '{ print index($0, "3 Topology") }')
mouse 0 "$tx" $((tabs - 1))
check "a click on '3 Topology' shows it" wait_for 'Facts in use' 5
# The topology view names core 8 by its id too.
check "topology view: '8: 12,48'" wait_for ' 8: 12,48 ' 5
keys p; wait_gone PAUSED 5

# The die grid: f to GHz; an idle core's "-" has its reason; w keeps f.
keys 4 f f
check "die grid: f f shows GHz" wait_for 'f: GHz' 5
check "... and why some cores show '-' (never-active)" wait_for 'never-active' 5
keys w
n=0; while [ ! -s "$rc" ] && [ $n -lt 50 ]; do sleep 0.1; n=$((n + 1)); done
check "w: httoprc has die_figure = ghz" grep -q '^die_figure = ghz$' "$rc"
keys F10
if tui_wait_exit 10; then
	check "F10 quits, status 0 (got $tui_status)" [ "$tui_status" -eq 0 ]
else
	not_ok "F10 quits"
fi
tui_start 160 50 -- --demo -d 0.5
check "the next start: the die grid by GHz" wait_for 'f: GHz' 10
keys q; tui_wait_exit 5
rm -f "$rc"

# A 2 s window at -d 0.25: once full it reads "2 s average", never
# "(... so far)" again.
mkdir -p "$XDG_CONFIG_HOME/httop"
printf 'window = 2s\n' >"$rc"
tui_start 160 50 -- --demo -d 0.25
wait_for '2 s average' 10
sleep 3
far=0 n=0
while [ $n -lt 20 ]; do
	cap | grep -q 'so far' && far=$((far + 1))
	sleep 0.13
	n=$((n + 1))
done
check "a full 2 s window: no '(so far)' in 20 looks ($far had it)" [ "$far" -eq 0 ]
keys q; tui_wait_exit 5
rm -f "$rc"

# The status line: "end of replay" and the pause, apart.
trace=$tui_dir/demo.trace
"$HTTOP" --demo -b -n 3 -d 0.2 --record "$trace" >/dev/null 2>&1
tui_start 160 50 -- --replay "$trace" -d 0.2
if wait_for 'end of replay: q quits' 10; then
	keys p
	check "status: 'end of replay: q quits │ paused: p resumes'" \
	    wait_for 'end of replay: q quits │ paused: p resumes' 5
else
	not_ok "status: the replay ends"; show_screen
fi
keys q; tui_wait_exit 5

# A job on one core: "package 1, 1 core", never "1 cores".
if command -v taskset >/dev/null 2>&1; then
	taskset -c 1 sleep 30 &
	job=$!
	tui_start 160 50 -- --demo -d 0.5 --pid "$job"
	check "a job on one core: 'package 1, 1 core'" wait_for 'package 1, 1 core ' 10
	check "... and no '1 cores' anywhere" sh -c '! printf "%s" "$1" | grep -q " 1 cores"' sh "$(cap)"
	keys q; tui_wait_exit 5
	kill "$job" 2>/dev/null
else
	skip "no taskset"; skip "no taskset"
fi
