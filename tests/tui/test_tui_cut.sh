#!/bin/sh
# test_tui_cut.sh: text is cut at word or field boundaries, with a mark,
# never mid-word or mid-figure (httop(1) says so), at the sizes a user
# tries: the die grid's title at 80 and 120 columns (it ended "... from a
# chip) an"); its one-line cells at 40 x 10 (ids and % dropped unevenly:
# "0 77", "3 0%", "13%"); the too-small message at 39 x 10 (it broke
# "(now 39 x" / "10)"); the header at 100 columns (it broke "36 cores," /
# "72 threads"); the Threads view's status at 80 columns ("the...");
# the Nodes view at 40 x 10 (its both/busy% head cut to "both/b", the
# values under it cut too).
. "$HTTOP_SRCDIR/tests/lib.sh"
. "$HTTOP_SRCDIR/tests/tui/tuilib.sh"
plan 10
export XDG_CONFIG_HOME="$tui_dir/config"

# die_title W H: the die grid's title line at W x H, in $title.
die_title() {
	tui_start "$1" "$2" -- --demo -d 0.5
	wait_for 'util [0-9]' 10
	keys 4
	wait_for '^Die grid' 5
	title=$(cap | grep -m1 '^Die grid')
	keys q
	tui_wait_exit 10
}
die_title 80 24
t80=$title
check "die grid title at 80 columns: whole or cut at a word with a mark ($t80)" \
	sh -c 'printf "%s\n" "$1" | grep -Eq "(…|tiles\)\")$" && ! printf "%s\n" "$1" | grep -q " an$"' sh "$t80"
die_title 120 40
t120=$title
check "die grid title at 120 columns: whole or cut at a word with a mark ($t120)" \
	sh -c 'printf "%s\n" "$1" | grep -Eq "(…|tiles\)\")$"' sh "$t120"

# The die grid at 40 x 10: the smallest cells, the core's id over its
# value, the same form in each (they showed values alone).
tui_start 40 10 -- --demo -d 0.5
wait_for 'both' 10
keys 4
wait_for '^package 0' 5
# The first interval's figures (the first frame has none yet).
wait_for 'package 0.*' 5 && wait_gone 'no previous sample' 10
sleep 0.3
cells=$(cap | sed -n '/^package 0/{n;p;}')
[ -n "$cells" ] || show_screen
check "die cells at 40 x 10: every cell names its core, or what the tile is ($cells)" \
	sh -c '[ -n "$1" ] && for w in $1; do case $w in off|MC|IO|LLC) ;; c[0-9]*) ;; *) exit 1 ;; esac; done' \
	sh "$cells"
keys Down
wait_for 'rows 2-[0-9]+ of' 5
vals=$(cap | sed -n '/^ c[0-9]/{n;p;}' | head -n 1)
check "... under each id its value, the same form in each, no bare number ($vals)" \
	sh -c '[ -n "$1" ] && for w in $1; do case $w in -) ;; *%) ;; *) exit 1 ;; esac; done' \
	sh "$vals"
keys q
tui_wait_exit 10

# Too small: the sizes stay whole.
tui_start 39 10 -- --demo
wait_for 'needs at least' 10
check "39 x 10: '(now 39 x 10)' whole on a line, no line ending in ' x'" \
	sh -c 'printf "%s\n" "$1" | grep -q "(now 39 x 10)" && ! printf "%s\n" "$1" | grep -q " x$"' sh "$(cap)"
keys q
tui_wait_exit 10

# The header at 100 columns.
tui_start 100 40 -- --demo -d 0.5
wait_for 'util [0-9]' 10
check "100 x 40: '2 sockets, 36 cores, 72 threads' on one row, no row ends 'cores,'" \
	sh -c 'printf "%s\n" "$1" | grep -q "2 sockets, 36 cores, 72 threads" &&
	    ! printf "%s\n" "$1" | grep -q "cores,$"' sh "$(cap)"
keys q
tui_wait_exit 10

# The Threads view's status at 80 columns: the reason's code where its
# words do not fit, never "the...".
tui_start 80 40 -- --demo -d 0.5
wait_for 'util [0-9]' 10
keys 2
wait_for 'status' 5
wait_for 'never-active' 5
s=$(cap)
check "Threads view at 80 columns: no status cut to 'the…'" \
	sh -c '! printf "%s\n" "$1" | grep -Eq "the(…|\.\.\.)$"' sh "$s"
check "... an idle thread's status is its reason's code, never-active" \
	sh -c 'printf "%s\n" "$1" | grep -Eq "^ +[0-9]+ +[01] +[0-9]+ +[01].* never-active$"' sh "$s"
keys q
tui_wait_exit 10

# The Nodes view at 40 x 10, the smallest size httop draws: a column
# shows whole or not at all (its head was cut to "both/b" and the values
# under it to their first digits).
via="env NODES_RUN=tui-cut-$$ $HTTOP_SRCDIR/tests/nodes/as-host.sh %h"
tui_start 40 10 HTTOP_CLOCK= HTTOP_HOSTLIST=builtin "NODES_LOADS=h1=busy h2=busy" -- \
    --nodes 'h[1-2]' --via "$via" --remote-httop "$HTTOP" -d 0.5
# (both nodes' figures: each node's first line comes in its own time)
wait_for '^h2 +up .*[0-9]' 15
wait_for '^h1 +up .*[0-9]' 15
s=$(cap)
heads=$(printf '%s\n' "$s" | grep -m1 '^node ')
check "Nodes view at 40 x 10: every head whole ($heads)" \
    sh -c '[ -n "$1" ] && for w in $1; do case $w in node|state|split|"(both|t0|t1)"|util%|both/busy%|thr|GHz|CPI) ;; *) exit 1 ;; esac; done' \
    sh "$heads"
# As many figures after h1's bar as heads after "state" (the bar's head
# may be left out where it does not fit).
row=$(printf '%s\n' "$s" | grep -m1 '^h1 ')
check "... and under them h1's figures, one whole value a head ($row)" \
    sh -c 'nh=$(printf "%s\n" "$1" | sed "s/.*state//; s/split (both|t0|t1)//" | wc -w)
	nv=$(printf "%s\n" "$2" | sed "s/.*[]▏]//" | wc -w)
	[ "$nh" -ge 1 ] && [ "$nh" = "$nv" ] &&
	    printf "%s\n" "$2" | sed "s/.*[]▏]//" | grep -Eq "^( +([0-9]+\.[0-9]+|-))+ *$"' \
    sh "$heads" "$row"
keys q
tui_wait_exit 10
