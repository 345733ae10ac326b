#!/bin/sh
# test_tui_demo.sh: the live view of the demo machine (2 x 18 cores x 2
# threads, CPUs 0,36 on package 0 core 0) in a 160 x 50 tmux pane: the
# header, the tabs and legend, the cores view, and every key.
. "$HTTOP_SRCDIR/tests/lib.sh"
. "$HTTOP_SRCDIR/tests/tui/tuilib.sh"
plan 36

export XDG_CONFIG_HOME="$tui_dir/config"
tui_start 160 50 -- --demo -d 0.5
if ! wait_for ' 1 Cores ' 10; then
	not_ok "httop --demo shows its tabs in a 160 x 50 pane"
	show_screen
	cat "$tui_dir/stderr" | sed 's/^/# stderr: /'
	i=1; while [ $i -lt 36 ]; do skip "the screen did not come up"; i=$((i + 1)); done
	exit 0
fi
ok "httop --demo shows its tabs in a 160 x 50 pane"

# Header: host, brand and group, the counts, source, interval.
s=$(cap)
check "header names the host ($(uname -n))" sh -c 'printf "%s" "$1" | grep -q -- "$2"' sh "$s" "$(uname -n)"
check "header: 2 sockets, 36 cores, 72 threads" sh -c 'printf "%s" "$1" | grep -q "2 sockets, 36 cores, 72 threads"' sh "$s"
check "header: source sim" sh -c 'printf "%s" "$1" | grep -q "source sim"' sh "$s"
check "header: interval 0.5 s" sh -c 'printf "%s" "$1" | grep -q "interval 0.5 s"' sh "$s"
check "tabs: 1 Cores 2 Threads 3 Topology 4 Die grid" sh -c 'printf "%s" "$1" | grep -q " 1 Cores .* 2 Threads .* 3 Topology .* 4 Die grid "' sh "$s"
check "legend: both, t0 only, t1 only, neither" sh -c 'printf "%s" "$1" | grep "both" | grep "t0 only" | grep "t1 only" | grep -q "neither"' sh "$s"
check "cores view: core 0 (CPUs 0,36) and the last core of package 1 (35,71)" \
    sh -c 'printf "%s" "$1" | grep -q "0,36" && printf "%s" "$1" | grep -q "35,71"' sh "$s"

# Views by number and by Tab.
keys 2; check "2: the threads view (IPC column)" wait_for 'IPC' 5
keys 3; check "3: the topology view (the plan and the scale in use)" wait_for '[Ss]cale' 5
keys 4; check "4: the die grid view" wait_for 'Die grid' 5
keys 1; check "1: back to the cores view" wait_for '0,36' 5
keys Tab; check "Tab: cores -> threads" wait_for 'IPC' 5
keys Tab Tab Tab; check "Tab x3: threads -> topology -> die grid -> cores" wait_for '0,36' 5

# Help, by h and by ?: every key named; any key closes it.
# (The tab bar says "h help  q quit": wait for words only the help has.)
keys h
if wait_for 'sort' 5 && sleep 0.3 && s=$(cap) &&
    printf '%s' "$s" | grep -qi 'pause' && printf '%s' "$s" | grep -qi 'sort' &&
    printf '%s' "$s" | grep -qi 'window' && printf '%s' "$s" | grep -qi 'colou\{0,1\}r' &&
    printf '%s' "$s" | grep -qi 'interval' && printf '%s' "$s" | grep -qi 'job' &&
    printf '%s' "$s" | grep -qi 'settings\|httoprc' && printf '%s' "$s" | grep -q 'Tab'; then
	ok "h: help lists Tab, pause, sort, interval, window, colour, job, settings, quit"
else
	not_ok "h: help lists every key"; show_screen
fi
keys x; check "any key closes the help" wait_gone 'sort' 5
keys '?'; check "?: help too" wait_for 'sort' 5
keys Escape; wait_gone 'sort' 5

# p pauses and resumes.
keys p; check "p: PAUSED" wait_for 'PAUSED' 5
keys p; check "p again: running" wait_gone 'PAUSED' 5

# + and -: the 1-2-5 ladder (0.5 -> 0.2 -> 0.5 -> 1).
keys -; check "-: interval 0.2 s (the 1-2-5 ladder)" wait_for 'interval 0.2 s' 5
keys + +; check "+ +: interval 1 s" wait_for 'interval 1 s' 5

# a: last -> 10 s -> run -> last.
keys a; check "a: the 10 s average" wait_for '10 s average' 5
keys a; check "a: the whole run" wait_for 'figures run ' 5
keys a; check "a: the last interval" wait_for 'figures last ' 5

# c: colour off and on (256 colours under TERM=screen-256color).
n0=$(colour_escapes)
keys c; sleep 1.2; n1=$(colour_escapes)
keys c; sleep 1.2; n2=$(colour_escapes)
check "c: colours off ($n0 colour escapes -> $n1)" [ "$n0" -gt 0 -a "$n1" -eq 0 ]
check "c: colours on again ($n2)" [ "$n2" -gt 0 ]

# Sorting and scrolling in the threads view, paused so the figures hold.
keys 2; wait_for 'IPC' 5
keys p; wait_for 'PAUSED' 5; settle
s0=$(cap)
keys s; sleep 0.5; s1=$(cap)
check "s: next sort column changes the threads view" [ "$s1" != "$s0" ]
keys S; sleep 0.5; s2=$(cap)
check "S: reverse order changes it again" [ "$s2" != "$s1" ]
keys S; sleep 0.5
check "S twice: back to the first order" [ "$(cap)" = "$s1" ]
keys Down; sleep 0.5; d1=$(cap)
check "Down scrolls the 72 threads" [ "$d1" != "$s1" ]
keys Up; sleep 0.5
check "Up scrolls back" [ "$(cap)" = "$s1" ]
keys NPage; sleep 0.5; d2=$(cap)
check "PgDn scrolls a page" [ "$d2" != "$s1" -a "$d2" != "$d1" ]
keys PPage; sleep 0.5
check "PgUp scrolls back" [ "$(cap)" = "$s1" ]
keys End; sleep 0.5; d3=$(cap)
keys Home; sleep 0.5; d4=$(cap)
check "End and Home" [ "$d3" != "$s1" -a "$d4" = "$s1" ]
keys p; wait_gone 'PAUSED' 5

# q ends with status 0 and the terminal as it was.
keys q
if tui_wait_exit 10; then
	check "q: exit status 0 (got $tui_status)" [ "$tui_status" -eq 0 ]
else
	not_ok "q: httop did not exit"
fi
check "q: stty -g, alternate screen, cursor and mouse as before" tui_restored
