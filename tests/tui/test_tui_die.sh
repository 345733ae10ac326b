#!/bin/sh
# test_tui_die.sh: the die grid view (key 4) in tmux panes of 100 x 30 and
# 200 x 60, read back as text.
#
# Where the cells are: the view lays a grid's cells `cs` columns apart
# (cell width + 1) and `rs` rows apart (cell rows + 1 blank), below the
# grid's title; a cell's first column is its mark, its text starts one to
# the right; "off", "MC" sit on the cell's middle line. Two 6-column grids
# side by side in 100 columns: (100 - 3) / 2 = 48 per grid, cells of
# (48 + 1) / 6 - 1 = 7, so cs 8, two text rows: rs 3. At 200 x 60 the
# cells have three rows (rs 4, "off" on the second) and are 15 wide
# (cs 16); the Xeon Phi grid of 8 columns gets 16-wide cells (cs 17).
#
# The skx-8168 fixture runs with a fake sysfs (tests/mksysfs.sh) whose
# CAPID6 leaves four of the 28 tiles off, differently per socket:
#   package 0: 0x0fafbeff, bits 8, 14, 20, 22 clear
#   package 1: 0x0bfdff7d, bits 1, 7, 17, 26 clear
# The shipped map puts bit b at (row, col) as
#   row 0:  0  4  9 14 19 24
#   row 1: MC  5 10 15 20 MC
#   row 2:  1  6 11 16 21 25
#   row 3:  2  7 12 17 22 26
#   row 4:  3  8 13 18 23 27
# so package 0 shows "off" at 8 -> (4,1), 14 -> (0,3), 20 -> (1,4),
# 22 -> (3,4); package 1 at 1 -> (2,0), 7 -> (3,1), 17 -> (3,3),
# 26 -> (3,5); both "MC" at (1,0) and (1,5).
#
# The Xeon Phi 7250 fixture lacks core ids 16, 17, 30, 31, 54, 55, 62, 63:
# tiles (core id / 2) 8, 15, 27, 31 of 38 are off; in rows of 8 tiles,
# (1,0), (1,7), (3,3), (3,7).
. "$HTTOP_SRCDIR/tests/lib.sh"
. "$HTTOP_SRCDIR/tests/tui/tuilib.sh"
plan 45

export XDG_CONFIG_HOME="$tui_dir/config"
F=$HTTOP_FIXTURES
skx=$F/hwloc/skx-8168-2s-24c-ht.v1.xml
knl=$F/hwloc/knl-7250-68c-4t-flat-quadrant.xml
sh "$HTTOP_SRCDIR/tests/mksysfs.sh" "$tui_dir/sys" 0x0fafbeff 0x0bfdff7d
sh "$HTTOP_SRCDIR/tests/mksysfs.sh" "$tui_dir/short" --short 0x0fafbeff 0x0bfdff7d

# cells WORD PKG NCOLS CS RS LAB: "row,col" of every cell of package
# PKG's grid that shows WORD (a whole word), sorted; a word off the cell
# pitch shows as "?dy,dx".
cells() {
	cap | LC_ALL=C awk -v w="$1" -v pkg="package $2:" -v ncols="$3" -v cs="$4" -v rs="$5" \
	    -v lab="$6" '
	{ line[NR] = $0 }
	END {
		for (y = 1; y <= NR; y++) {
			i = index(line[y], pkg)
			if (i > 0) { ty = y; x0 = i; break }
		}
		if (!ty)
			exit 1
		gw = ncols * cs - 1
		for (y = ty + 1; y <= NR; y++) {
			s = line[y]
			base = 0
			while ((i = index(s, w)) > 0) {
				x = base + i
				b = x > 1 ? substr(line[y], x - 1, 1) : " "
				a = substr(line[y], x + length(w), 1)
				if (b == " " && (a == " " || a == "") && x >= x0 && x < x0 + gw) {
					dx = x - x0 - 1
					dy = y - ty - 1 - lab
					if (dx % cs == 0 && dy % rs == 0)
						print dy / rs "," dx / cs
					else
						print "?" dy "," dx
				}
				s = substr(s, i + length(w))
				base = x + length(w) - 1
			}
		}
	}' | sort | tr '\n' ' ' | sed 's/ $//'
}

# below RE: the screen from the first line matching RE on
below() { cap | sed -n "/$1/,\$p"; }

# stop: q, and keep what httop wrote on stderr (sanitizer reports)
stop() {
	keys q
	tui_wait_exit 5
	cat "$tui_dir/stderr" >>"$tui_dir/stderr.all" 2>/dev/null
}

# start W H ARGS...: httop in a W x H pane, on the die grid view
start() {
	w=$1 h=$2
	shift 2
	tui_start "$w" "$h" -- "$@" -d 0.5
	wait_for ' 1 Cores ' 10 && keys 4 && wait_for 'Die grid (—|-) ' 5
}

# --- the demo machine without CAPID6: logical, two packages of 18 -------
# (--demo itself carries a CAPID6 and is physical: see below.)
demo_logical="--sim demo --topology $HTTOP_SRCDIR/data/demo-skx.xml --cpuid $HTTOP_SRCDIR/data/demo-skx.cpuid"
# shellcheck disable=SC2086
if start 100 30 $demo_logical; then
	ok "100 x 30 demo machine: key 4 shows the die grid"
else
	not_ok "100 x 30 demo machine: key 4 shows the die grid"; show_screen
fi
check "demo machine without CAPID6: the layout is logical" wait_for 'Die grid — logical' 3
check "--demo: both packages' grids" wait_for 'package 0: .*package 1: ' 3
cnt=$(below 'package 0:' | grep -Eo '(^| )c[0-9]+( |$)' | wc -l)
check "--demo 100 x 30: all 36 core ids on screen ($cnt)" [ "$cnt" -eq 36 ]
cnt=$(below 'package 0:' | grep -Eo '(^| )([0-9]+(-[0-9]+)?%|- [a-z-]+)( |$)' | wc -l)
check "--demo 100 x 30: a value for each of the 36 ($cnt)" [ "$cnt" -eq 36 ]
check "the figure starts as both threads active, 0% to 100%" \
    wait_for 'f: both threads active +0% .* 100%' 3
keys f; check "f: utilisation" wait_for 'f: utilisation  ' 3
keys f; check "f: GHz, with the scale's ends in GHz" wait_for 'f: GHz  [0-9]\.[0-9][0-9] .* [0-9]\.[0-9][0-9]' 3
keys f; check "f: CPI" wait_for 'f: CPI  [0-9]+\.[0-9][0-9] ' 3
keys f; check "f: back to both threads active" wait_for 'f: both threads active' 3
keys F; check "F: back to CPI" wait_for 'f: CPI' 3
keys f
keys p; wait_for PAUSED 5; settle 10
s0=$(cap); keys End NPage; sleep 0.6
check "everything fits 100 x 30: End and PgDn change nothing" [ "$(cap)" = "$s0" ]
stop

# shellcheck disable=SC2086
if start 200 60 $demo_logical; then
	cnt=$(below 'package 0:' | grep -Eo 'cpu [0-9]+,[0-9]+' | wc -l)
	check "--demo 200 x 60: bigger cells name each core's CPUs ($cnt of 36)" [ "$cnt" -eq 36 ]
	check "--demo 200 x 60: core 0 of package 0 is CPUs 0,36" wait_for 'cpu 0,36 ' 3
else
	not_ok "200 x 60 --demo: the die grid comes up"; show_screen; skip "no screen"
fi
stop

# --- --demo: its made-up CAPID6 gives the physical grid, labelled so ------
if start 160 50 --demo; then
	check "--demo: physical, and the basis says the CAPID6 is made up" \
	    wait_for "Die grid — physical: the demo's CAPID6 \\(made up for it, not read from a chip\\)" 3
	check "--demo: 18 of 28 tiles per package, with the CAPID6 values" \
	    wait_for 'package 0: 18 of 28 tiles, CAPID6 0x0adb56dd .*package 1: 18 of 28 tiles, CAPID6 0x076dabb6' 3
else
	not_ok "160 x 50 --demo: the die grid comes up"; show_screen; skip "no screen"
fi
stop

# --- skx-8168 with CAPID6: physical ------------------------------------
# check_tiles SIZE CS RS LAB
check_tiles() {
	p0=$(cells off 0 6 "$2" "$3" "$4") p1=$(cells off 1 6 "$2" "$3" "$4")
	check "$1: package 0 off at 0,3 1,4 3,4 4,1 ($p0)" [ "$p0" = "0,3 1,4 3,4 4,1" ]
	check "$1: package 1 off at 2,0 3,1 3,3 3,5 ($p1)" [ "$p1" = "2,0 3,1 3,3 3,5" ]
	m0=$(cells MC 0 6 "$2" "$3" "$4") m1=$(cells MC 1 6 "$2" "$3" "$4")
	check "$1: MC at 1,0 and 1,5 in both ($m0 / $m1)" [ "$m0" = "1,0 1,5" -a "$m1" = "1,0 1,5" ]
}

if start 100 30 --sim demo --topology "$skx" --sysfs-root "$tui_dir/sys"; then
	ok "100 x 30 skx-8168 + CAPID6: the die grid"
else
	not_ok "100 x 30 skx-8168 + CAPID6: the die grid"; show_screen
fi
check "skx-8168: physical, from CAPID6" wait_for 'Die grid — physical: CAPID6' 3
check "skx-8168: each grid's title gives its CAPID6" \
    wait_for 'package 0: 24 of 28 tiles.*0x0fafbeff.*package 1: 24 of 28 tiles.*0x0bfdff7d' 3
check "skx-8168: says the cores are placed by the default rule" \
    wait_for 'cores placed by the default rule' 3
check_tiles "100 x 30" 8 3 0
cnt=$(below 'package 0:' | grep -Eo '(^| )c[0-9]+( |$)' | wc -l)
check "100 x 30: all 48 core ids ($cnt)" [ "$cnt" -eq 48 ]
keys f; check "skx-8168: f changes the figure" wait_for 'f: utilisation' 3
stop

if start 200 60 --sim demo --topology "$skx" --sysfs-root "$tui_dir/sys"; then
	check_tiles "200 x 60" 16 4 1
	check "200 x 60: the CHA in each cell (core 29 at CHA 23)" wait_for 'c29 cha 23 ' 3
else
	not_ok "200 x 60 skx-8168: the die grid comes up"; show_screen
	skip "no screen"; skip "no screen"; skip "no screen"
fi
stop

# --- the same, CAPID6 unreadable (not root): logical, and why ---------
if start 100 30 --sim demo --topology "$skx" --sysfs-root "$tui_dir/short"; then
	check "short config: the note says the physical view needs root" wait_for 'needs root' 3
	# (not $n: wait_for uses it)
	noff=$(below 'package 0:' | grep -cw 'off')
	if wait_for 'Die grid — logical' 3 && [ "$noff" -eq 0 ]; then
		ok "short config: a logical grid, no tile off"
	else
		not_ok "short config: a logical grid, no tile off ($noff)"; show_screen
	fi
else
	not_ok "short config: the die grid comes up"; show_screen; skip "no screen"
fi
stop

# --- Xeon Phi 7250: tiles in number order -------------------------------
# heat_bound_tile0: tile 0's first line on a 256-colour background, "?".
heat_bound_tile0() { cape | grep -q '48;5;[0-9]*m?0,1 '; }

if start 200 60 --sim demo --topology "$knl"; then
	check "KNL: logical, Xeon Phi tiles" wait_for 'Die grid — logical: Xeon Phi tiles' 3
	check "KNL: the title lists the disabled tiles" \
	    wait_for 'package 0: 34 of 38 tiles enabled; off: 8 15 27 31' 3
	k=$(cells off 0 8 17 4 1)
	check "KNL: off at 1,0 1,7 3,3 3,7 ($k)" [ "$k" = "1,0 1,7 3,3 3,7" ]
	check "KNL: a tile shows both its cores (tile 0: cores 0,1)" wait_for '0,1  ' 3
	check "KNL: no split, so the figure starts at utilisation" wait_for 'f: utilisation' 3
	# A core's utilisation is a bound here (no AnyThread): lo-hi with a
	# "?", coloured by the low end, and the legend says so.
	check "KNL: the legend says bounds are coloured by their low end" \
	    wait_for '100%  \? a bound: coloured by its low end' 3
	check "KNL: tile 0 is a bound with a ? and a heat background" heat_bound_tile0
	keys f f f
	check "KNL: f cycles utilisation, GHz, CPI and back, never both" wait_for 'f: utilisation' 3
else
	not_ok "KNL: the die grid comes up"; show_screen
	i=0; while [ $i -lt 7 ]; do skip "no screen"; i=$((i + 1)); done
fi
stop

# --- no colour: the heat is a glyph ------------------------------------
# shellcheck disable=SC2086
tui_start 100 30 NO_COLOR=1 LANG=C LC_ALL=C -- $demo_logical -d 0.5
if wait_for ' 1 Cores ' 10 && keys 4 && wait_for 'Die grid - logical' 5; then
	cnt=$(below 'package 0:' | grep -Eo '[.:+#]c[0-9]+' | wc -l)
	check "NO_COLOR, LANG=C: every core's cell starts with its ASCII shade ($cnt of 36)" \
	    [ "$cnt" -eq 36 ]
else
	not_ok "NO_COLOR: the die grid comes up"; show_screen
fi
stop

# --- the smallest screen -------------------------------------------------
tui_start 40 10 -- --sim demo --topology "$skx" --sysfs-root "$tui_dir/sys" -d 0.5
wait_for ' 1 Cores' 10; keys 4; sleep 1
# The smallest cells keep the cores' ids, each over its value (they
# showed values alone: "77%   0%   11%", no core named).
expect "40 x 10: the cells name their cores (c0 ...)" '^ c[0-9]+ +c[0-9]+ +' 3
keys Down
ids_over_values() {
	cap | awk '/^ c[0-9]+ +c[0-9]+/ && !seen { seen = 1; getline v; good = v ~ /^ [0-9]+% +[0-9]+% / }
	    END { exit !(seen && good) }'
}
if wait_for 'rows 2-[0-9]+ of ' 3 && ids_over_values; then
	ok "... one row down, each id over its value (NN%)"
else
	not_ok "... one row down, each id over its value (NN%)"; show_screen
fi
keys NPage NPage End; sleep 0.6
expect "40 x 10: the view still draws (and scrolls)" 'rows [0-9]+-[0-9]+ of ' 3
keys q
if tui_wait_exit 5; then
	check "40 x 10: q exits 0 (got $tui_status)" [ "$tui_status" -eq 0 ]
else
	not_ok "40 x 10: httop did not exit"; show_screen
fi
cat "$tui_dir/stderr" >>"$tui_dir/stderr.all" 2>/dev/null
if grep -Eq 'runtime error|Sanitizer|ERROR:' "$tui_dir/stderr.all" 2>/dev/null; then
	not_ok "no sanitizer report on stderr in any run"
	sed 's/^/# stderr: /' "$tui_dir/stderr.all" | head -20
else
	ok "no sanitizer report on stderr in any run"
fi
