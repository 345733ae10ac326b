#!/bin/sh
# test_cli_die.sh: where each core sits, in the JSON batch output.
#
# The Skylake-SP fixture (Xeon Platinum 8168, 2 x 24 cores; core ids per
# package 0-5, 8-13, 16-21, 24-29) with a fake sysfs holding CAPID6 for
# two sockets, 24 of 28 tiles each, in different patterns:
#   package 0: 0x0fafbeff = all 28 bits but 8, 14, 20, 22
#   package 1: 0x0bfdff7d = all 28 bits but 1, 7, 17, 26
# The shipped map (data/dies/skx-xcc.map) puts the bits in a 5 x 6 grid,
# down each column, passing over the memory controllers at (1,0), (1,5):
#   row 0:  0  4  9 14 19 24
#   row 1: MC  5 10 15 20 MC
#   row 2:  1  6 11 16 21 25
#   row 3:  2  7 12 17 22 26
#   row 4:  3  8 13 18 23 27
# The k-th set bit is CHA k, and by the default rule the k-th core of a
# package by core id sits at CHA k. Worked out by hand:
#   package 0, core 0  (k 0):  bit 0            -> row 0 col 0, cha 0
#   package 0, core 8  (k 6):  bit 6            -> row 2 col 1, cha 6
#   package 0, core 13 (k 11): bits 0-7, 9-12   -> bit 12, row 3 col 2, cha 11
#   package 0, core 29 (k 23): bit 27           -> row 4 col 5, cha 23
#   package 1, core 1  (k 1):  bit 2 (1 is off) -> row 3 col 0, cha 1
#   package 1, core 8  (k 6):  0,2,3,4,5,6,8    -> bit 8, row 4 col 1, cha 6
#   package 1, core 29 (k 23): bit 27           -> row 4 col 5, cha 23
# The same CAPID6 given with --capid6 on the recorded topology (no
# sysfs), and by a scenario's capid6 line, gives the same places; with it a
# capid6-numbered --die-map works on a machine httop does not run on.
# The demo carries its own CAPID6 (made up: data/README.md), so --demo
# shows the physical grid a Skylake-SP user sees as root:
#   package 0 0x0adb56dd: core 0 at bit 0 (0,0) cha 0; core 27 (k 17) at
#   bit 27 (4,5) cha 17; package 1 0x076dabb6: core 0 at bit 1 (2,0) cha 0.
# Then: a malformed --die-map and a missing one are usage errors (status 2)
# with one line on stderr naming the file.
. "$HTTOP_SRCDIR/tests/lib.sh"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
N=22
plan $N

if ! command -v jq >/dev/null 2>&1; then
	i=0; while [ $i -lt $N ]; do skip "jq is not installed"; i=$((i + 1)); done
	exit 0
fi

skx=$HTTOP_FIXTURES/hwloc/skx-8168-2s-24c-ht.v1.xml
sh "$HTTOP_SRCDIR/tests/mksysfs.sh" "$tmp/sys" 0x0fafbeff 0x0bfdff7d

"$HTTOP" --sim demo --topology "$skx" --sysfs-root "$tmp/sys" -b --format json -n 2 \
    >"$tmp/j" 2>"$tmp/err"; st=$?
check "skx-8168 with CAPID6: exit 0, 2 lines (status $st)" \
    [ "$st" -eq 0 -a "$(wc -l <"$tmp/j")" -eq 2 ]
[ -s "$tmp/err" ] && sed 's/^/# stderr: /' "$tmp/err"

# jq -e FILTER: true on every line
all() { jq -e "$1" "$tmp/j" | grep -qv '^true$' && return 1; jq -e "$1" "$tmp/j" >/dev/null; }

check "layout physical, basis capid6, cores placed by the default rule" \
    all '.layout == "physical" and .layout_basis == "capid6" and .cores_assumed == true'
check "48 cores, each with a tile: row, col, id and cha" \
    all '(.cores | length) == 48 and all(.cores[]; .tile.row != null and .tile.col != null and
        .tile.id != null and .tile.cha != null)'
check "package 0: CHAs 0..23, each once" \
    all '[.cores[] | select(.package == 0) | .tile.cha] | sort == [range(24)]'
check "package 1: CHAs 0..23, each once" \
    all '[.cores[] | select(.package == 1) | .tile.cha] | sort == [range(24)]'
check "every tile inside the 5 x 6 grid, never on a memory controller" \
    all 'all(.cores[]; .tile.row < 5 and .tile.col < 6 and
        ((.tile.row == 1 and (.tile.col == 0 or .tile.col == 5)) | not))'
check "package 0: no core on the disabled bits 8, 14, 20, 22" \
    all '[.cores[] | select(.package == 0) | .tile.id] - [8, 14, 20, 22] | length == 24'
check "package 1: no core on the disabled bits 1, 7, 17, 26" \
    all '[.cores[] | select(.package == 1) | .tile.id] - [1, 7, 17, 26] | length == 24'
check "no two cores of a package on one tile" \
    all '[.cores[] | [.package, .tile.row, .tile.col]] | unique | length == 48'

# place P CORE -> "row col id cha" of the first line
place() {
	head -n 1 "$tmp/j" | jq -r --argjson p "$1" --argjson c "$2" \
	    '.cores[] | select(.package == $p and .core == $c) | .tile |
	    "\(.row) \(.col) \(.id) \(.cha)"'
}
check "package 0: core 0 at row 0 col 0, bit 0, cha 0; core 8 at 2,1 bit 6 cha 6" \
    [ "$(place 0 0)" = "0 0 0 0" -a "$(place 0 8)" = "2 1 6 6" ]
check "package 0: core 13 at 3,2 bit 12 cha 11; core 29 at 4,5 bit 27 cha 23" \
    [ "$(place 0 13)" = "3 2 12 11" -a "$(place 0 29)" = "4 5 27 23" ]
check "package 1: core 1 at 3,0 bit 2 cha 1; core 8 at 4,1 bit 8 cha 6; core 29 at 4,5" \
    [ "$(place 1 1)" = "3 0 2 1" -a "$(place 1 8)" = "4 1 8 6" -a "$(place 1 29)" = "4 5 27 23" ]

first_places() { head -n 1 "$1" | jq -c '[.cores[] | [.package, .core, .tile.row, .tile.col, .tile.id, .tile.cha]]'; }
first_places "$tmp/j" >"$tmp/places.sysfs"
"$HTTOP" --sim demo --topology "$skx" --capid6 0x0fafbeff,0x0bfdff7d -b --format json -n 1 \
    >"$tmp/j2" 2>"$tmp/err"; st=$?
check "--capid6 on the recorded topology: physical, the same places as sysfs (status $st)" \
    sh -c '[ "$1" -eq 0 ] && jq -e ".layout == \"physical\" and .layout_basis == \"capid6\"" "$2" >/dev/null &&
        [ "$(head -n 1 "$2" | jq -c "[.cores[] | [.package, .core, .tile.row, .tile.col, .tile.id, .tile.cha]]")" = "$(cat "$3")" ]' \
    sh "$st" "$tmp/j2" "$tmp/places.sysfs"
printf 'httop-scenario 1\ncapid6 0fafbeff,0bfdff7d\ndefault busy\n' >"$tmp/c.scn"
"$HTTOP" --sim "$tmp/c.scn" --topology "$skx" -b --format json -n 1 >"$tmp/j3" 2>"$tmp/err"
check "a scenario's capid6 line: the same places" \
    [ "$(first_places "$tmp/j3")" = "$(cat "$tmp/places.sysfs")" ]
"$HTTOP" --sim demo --topology "$skx" --capid6 0x0fafbeff,0x0bfdff7d -b --format json -n 1 \
    --die-map "$HTTOP_SRCDIR/data/dies/skx-xcc.map" >"$tmp/j4" 2>"$tmp/err"; st=$?
check "--die-map (capid6-numbered) with --topology and --capid6: basis map, same places ($st)" \
    sh -c '[ "$1" -eq 0 ] && jq -e ".layout_basis == \"map\"" "$2" >/dev/null' sh "$st" "$tmp/j4"
"$HTTOP" --sim demo --topology "$skx" -b -n 1 --die-map "$HTTOP_SRCDIR/data/dies/skx-xcc.map" \
    >/dev/null 2>"$tmp/e"
check "without --capid6 the message asks for it, not for root" \
    sh -c 'grep -q "give the machine.s CAPID6 with --capid6" "$1" && ! grep -q "as root," "$1"' \
    sh "$tmp/e"

"$HTTOP" --demo -b --format json -n 2 >"$tmp/j" 2>"$tmp/err"; st=$?
check "--demo: layout physical from its own CAPID6, every core placed (status $st)" \
    sh -c '[ "$1" -eq 0 ] && jq -e ".layout == \"physical\" and .layout_basis == \"capid6\" and
        .cores_assumed == true and all(.cores[]; .tile != null)" "$2" | grep -qv false' sh "$st" "$tmp/j"
check "--demo: package 0 core 0 at 0,0 bit 0 cha 0; core 27 at 4,5 bit 27 cha 17" \
    [ "$(place 0 0)" = "0 0 0 0" -a "$(place 0 27)" = "4 5 27 17" ]
n1=$(head -n 1 "$tmp/j" | jq '[.cores[] | select(.package == 1)] | length')
check "--demo: package 1 core 0 at 2,0 bit 1 cha 0; its 18 cores on 18 tiles ($n1)" \
    [ "$(place 1 0)" = "2 0 1 0" -a "$n1" -eq 18 ]

# A malformed map: status 2, one line on stderr naming FILE:LINE, nothing
# on stdout. Every bad-*.map of the map tests; an empty file and one with
# no numbering line are wrong as a whole, not at a line: FILE alone.
bad_ok=0 bad_n=0 bad_list=
for m in "$HTTOP_SRCDIR"/tests/data/diemap/bad-*.map; do
	[ -f "$m" ] || continue
	bad_n=$((bad_n + 1))
	"$HTTOP" --demo -b --format json -n 1 --die-map "$m" >"$tmp/o" 2>"$tmp/e"; st=$?
	name=$(basename "$m")
	case $name in
	bad-empty.map | bad-no-numbering.map) where="$name: " ;;
	*) where="$name:[0-9][0-9]*: " ;;
	esac
	if [ "$st" -eq 2 ] && [ "$(wc -l <"$tmp/e")" -eq 1 ] && [ ! -s "$tmp/o" ] &&
	    grep -q "$where" "$tmp/e"; then
		bad_ok=$((bad_ok + 1))
	else
		bad_list="$bad_list $name(status $st: $(head -c 200 "$tmp/e"))"
	fi
done
check "every malformed map: status 2, one stderr line naming FILE:LINE ($bad_ok of $bad_n)$bad_list" \
    [ "$bad_n" -gt 0 -a "$bad_ok" -eq "$bad_n" ]

# bad-keyword.map: "colour red" on line 7.
"$HTTOP" --demo -b -n 1 --die-map "$HTTOP_SRCDIR/tests/data/diemap/bad-keyword.map" \
    >/dev/null 2>"$tmp/e"
check "bad-keyword.map: the message names line 7 ($(cat "$tmp/e"))" \
    grep -q 'bad-keyword\.map:7:' "$tmp/e"

"$HTTOP" --demo -b -n 1 --die-map "$tmp/no-such.map" >"$tmp/o" 2>"$tmp/e"; st=$?
check "a missing --die-map: status 2 ($st), one stderr line naming the file" \
    sh -c '[ "$1" -eq 2 ] && [ "$(wc -l <"$2")" -eq 1 ] && grep -q "no-such\.map" "$2"' \
    sh "$st" "$tmp/e"
