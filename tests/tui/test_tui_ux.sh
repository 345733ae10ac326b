#!/bin/sh
# test_tui_ux.sh: what a new user trips on in the live view (issue 26).
# - The Cores view's four shares of a core (both, t0, t1, neither, whole
#   percent) add up to 100 in every row (rounded together, not each alone:
#   99 or 101 before).
# - j without a watched job says so (it was silent).
# - -n 2 on a terminal leaves the last frame on the screen, as top does.
# - a watched process that ends is said once on the job line (it said
#   "(all cores shown)", "no CPUs left to watch" and "nothing left to
#   watch: all cores shown").
# - a pause does not restart the averaging window: after it, the window
#   still covers its length of intervals.
# - the Threads and Topology views say where they are when they scroll
#   ("rows 1-15 of 72", as the Cores view does).
# - the Cores view sorts (s: the next column shown, a figure highest first,
#   within each package; S reverses), its head marked.
# - the Nodes view: a lost node's next try always shows; the job's
#   "1 of 6 nodes missing:" is not broken; the sort column is marked, not
#   by colour alone; the status line offers only the keys that work there;
#   the help's s names it.
. "$HTTOP_SRCDIR/tests/lib.sh"
. "$HTTOP_SRCDIR/tests/tui/tuilib.sh"
plan 20

export XDG_CONFIG_HOME="$tui_dir/config"
mkdir -p "$XDG_CONFIG_HOME/httop"

# --- the four shares add up to 100 -------------------------------------------------
tui_start 120 45 -- --demo -d 0.3
if wait_for 'neither%' 10; then
	: >"$tui_dir/rows"
	for i in 1 2 3 4 5 6 7 8; do
		# The four numbers after the bar's right edge, in the rows of cores.
		cap | grep -E '^ +[0-9]+ [0-9]+,[0-9]+ ' | grep '▏' | sed 's/.*▏//' |
		    awk '$1 ~ /^[0-9]+$/ && $4 ~ /^[0-9]+$/ { print $1 + $2 + $3 + $4, $0 }' \
		    >>"$tui_dir/rows"
		sleep 0.35
	done
	bad=$(awk '$1 != 100' "$tui_dir/rows" | head -n 3)
	n=$(wc -l <"$tui_dir/rows")
	check "cores view, full rows: both+t0+t1+neither = 100 in each of $n rows (${bad:-all})" \
		sh -c '[ "$1" -ge 100 ] && [ -z "$2" ]' sh "$n" "$bad"
else
	not_ok "cores view, full rows: the shares' columns show"; show_screen
fi

# --- sorting the Cores view ---------------------------------------------------------
# pkg0 N: package 0's rows (the full layout, one core a row): the core id
# and the N-th figure after the bar (1 = both%), one row a line.
pkg0() {
	cap | sed -n '/^package 0,/,/^package 1,/p' | grep -E '^ +[0-9]+ [0-9]+,' |
	    sed 's/.*▏//; s/^/x /' >"$tui_dir/p0.fig"
	cap | sed -n '/^package 0,/,/^package 1,/p' | grep -E '^ +[0-9]+ [0-9]+,' |
	    awk '{ print $1 }' >"$tui_dir/p0.id"
	awk -v n="$1" '{ print $(n + 1) }' "$tui_dir/p0.fig" | paste -d ' ' "$tui_dir/p0.id" -
}
# in_order down|up: the second column of standard input never rises (down)
# or never falls (up); at least 10 rows.
in_order() {
	awk -v d="$1" 'NR > 1 && ((d == "down" && $2 + 0 > p + 0) || (d == "up" && $2 + 0 < p + 0)) {
	    bad = 1 } { p = $2; n++ } END { exit bad || n < 10 }'
}
keys p
wait_for 'paused' 5
keys s
if wait_for ' both%▼ ' 5; then
	if pkg0 1 | in_order down; then ok "s: package 0's rows by both%, highest first (head both%▼)"
	else not_ok "s: package 0's rows by both%, highest first"; pkg0 1 | sed 's/^/# /'; fi
	keys S
	wait_for ' both%▲ ' 5
	if pkg0 1 | in_order up; then ok "S: the order reversed (head both%▲)"
	else not_ok "S: the order reversed"; pkg0 1 | sed 's/^/# /'; fi
	keys s
	wait_for ' t0%▼ ' 5
	if pkg0 2 | in_order down; then ok "s again: by t0%, highest first"
	else not_ok "s again: by t0%, highest first"; pkg0 2 | sed 's/^/# /'; fi
	# t1, neither, thr, CPI, GHz, then the core id again.
	keys s s s s s s
	wait_gone '▼|▲' 5
	if pkg0 1 | awk '{ print $1, $1 }' | in_order up; then
		ok "after the last column: the core ids in order, no mark"
	else not_ok "after the last column: the core ids in order"; show_screen; fi
else
	not_ok "s: the head says both%▼"; show_screen
fi
keys p

# --- j without a job -----------------------------------------------------------
keys j
check "j without a watched job says so" wait_for 'j: no job is watched; start httop with' 5
keys q
tui_wait_exit 10

# --- the Nodes view ------------------------------------------------------------------
# Five nodes up and one that ssh cannot reach, through the stand-in
# transport (tests/nodes/as-host.sh).
nodes_start() {
	tui_start "$1" "$2" HTTOP_CLOCK= HTTOP_HOSTLIST=builtin \
	    "NODES_LOADS=h1=busy h2=one-per-core h3=idle h4=busy h5=idle down=down" -- \
	    --nodes 'h[1-5],down' --via "env NODES_RUN=tui-ux-$$ $HTTOP_SRCDIR/tests/nodes/as-host.sh %h" \
	    --remote-httop "$HTTOP" -d 0.5
}
nodes_start 100 20
if wait_for '^down +lost ' 15 && wait_for '^h5 +up ' 10; then
	check "100 columns: a lost node's row ends with its next try (the reason gives way)" \
		wait_for '^down +lost +ssh: connect to host down .*; next try in [0-9]+ s *$' 5
	keys s
	check "s: by node name, its head marked (node▲)" wait_for '^node▲ ' 5
	keys s s
	check "s s: by util%, highest first (util%▼)" wait_for ' util%▼ ' 5
	keys h
	check "the help's s line names the Nodes view" wait_for 'Cores, Threads, Nodes view: sort' 5
	keys Escape
else
	not_ok "the Nodes view comes up with a lost node"; show_screen
fi
keys q
tui_wait_exit 15
nodes_start 160 40
if wait_for '^job .*1 of 6' 15 || wait_for 'nodes missing' 5; then
	check "160 columns: '1 of 6 nodes missing:' kept on one row (it broke after '1 of 6')" \
		wait_for '1 of 6 nodes missing: down' 5
	check "the status line offers the Nodes view's keys, not +- or a" \
		sh -c 'printf "%s\n" "$1" | tail -n 1 | grep -q "Enter node  sS sort  p pause  h help  q quit$" &&
		    ! printf "%s\n" "$1" | tail -n 1 | grep -q "+- interval"' sh "$(cap)"
else
	not_ok "the job line names the missing node"; show_screen
fi
keys q
tui_wait_exit 15

# --- where the Threads and Topology views are ----------------------------------------
tui_start 80 24 -- --demo -d 0.5
wait_for 'util [0-9]' 10
keys 2
check "Threads view at 80 x 24: 'rows 1-N of 72' on its last line" \
	wait_for '^rows 1-1[0-9] of 72: Up, Down, PgUp, PgDn' 5
keys End
check "... End: 'rows M-72 of 72'" wait_for '^rows [0-9]+-72 of 72: ' 5
keys 3
check "Topology view at 80 x 24: 'rows 1-N of M'" wait_for '^rows 1-1[0-9] of [3-9][0-9]: Up, Down' 5
keys PgDn
check "... PgDn moves it on" wait_for '^rows (1[5-9]|2[0-9])-[0-9]+ of [3-9][0-9]: ' 5
keys q
tui_wait_exit 10

# --- -n 2 leaves the last frame ------------------------------------------------------
tui_start 100 30 -- --demo -n 2 -d 0.3
tui_wait_exit 10
check "-n 2: httop ends with status 0 (got $tui_status)" [ "$tui_status" = 0 ]
check "... and its last frame stays on the terminal (the node line, the cores)" \
	sh -c 'printf "%s\n" "$1" | grep -q "^node  .*both" && printf "%s\n" "$1" | grep -q "^package 0, 18 cores"' \
	sh "$(cap)"

# --- a watched process ends: said once ------------------------------------------------
sleep 3 &
sp=$!
tui_start 160 40 -- --demo -d 0.3 --pid "$sp"
if wait_for "pid $sp has ended" 15; then
	jl=$(cap | grep -m1 "^job ")
	check "the job line says the end once: 'job pid N  pid N has ended; nothing left to watch: all cores shown'" \
		[ "$jl" = "job pid $sp  pid $sp has ended; nothing left to watch: all cores shown" ]
else
	not_ok "the job line says the process ended"; show_screen
fi
keys q
tui_wait_exit 10

# --- a pause keeps the averaging window --------------------------------------------------
printf 'window = window\navg_seconds = 2\n' >"$XDG_CONFIG_HOME/httop/httoprc"
tui_start 160 40 -- --demo -d 0.25
if wait_for '2 s average' 10 && wait_gone 'so far' 10; then
	keys p
	sleep 2.5
	keys p
	# The intervals after the pause: the window stays full (before, it
	# started again: "2 s average (0.3 s so far)").
	: >"$tui_dir/after"
	for i in 1 2 3 4 5 6; do
		sleep 0.2
		cap | grep -m1 'figures ' >>"$tui_dir/after"
	done
	check "after a pause of 2.5 s, the 2 s window stays full (no 'so far')" \
		sh -c '! grep -q "so far" "$1"' sh "$tui_dir/after"
else
	not_ok "the 2 s window fills"; show_screen
fi
keys q
tui_wait_exit 10
