#!/bin/sh
# test_tui_topo_brand.sh: httop --topology FILE.xml (no --cpuid) names the
# CPU in the header's first line as the file has it (hwloc's CPUModel info,
# blanks squeezed): an hwloc 2 file with a padded brand (Nehalem X5550),
# one with trailing blanks (EPYC 9654), an hwloc 1.x file (Platinum 8168)
# and the demo machine's file.
. "$HTTOP_SRCDIR/tests/lib.sh"
. "$HTTOP_SRCDIR/tests/tui/tuilib.sh"
F=$HTTOP_FIXTURES
[ -f "$F/hwloc/nhm-ep-x5550-2s-4c-ht.x86.xml" ] || skip_all "fixtures not unpacked (make check unpacks them)"
plan 4
export XDG_CONFIG_HOME="$tui_dir/config"

for xml in "$F/hwloc/nhm-ep-x5550-2s-4c-ht.x86.xml" "$F/hwloc/zen4-epyc9654-2s-96c-smt.x86.xml" \
    "$F/hwloc/skx-8168-2s-24c-ht.v1.xml" "$HTTOP_SRCDIR/data/demo-skx.xml"; do
	brand=$(sed -n 's/.*name="CPUModel" value="\([^"]*\)".*/\1/p' "$xml" | head -n 1 |
	    tr -s ' ' | sed 's/^ //; s/ $//')
	name=$(basename "$xml")
	tui_start 160 30 -- --sim demo --topology "$xml" -d 0.5
	wait_for 'quit' 10
	head1=$(cap | head -n 1)
	check "$name: the header names '$brand' (got '$head1')" \
	    sh -c '[ -n "$2" ] && printf "%s\n" "$1" | grep -qF -- "  $2  "' sh "$head1" "$brand"
	keys q
	tui_wait_exit 5
done
