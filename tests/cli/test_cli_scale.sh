#!/bin/sh
# test_cli_scale.sh: the reference-clock scale is spoken of only where the
# split rests on it. On Xeon Phi (KNL) and AMD Zen the plan reads no
# reference-clock event: no note about calibrating it (the Topology view
# says "not used"). On the Skylake-SP demo it is measured and agrees with
# the table: no note either. With a plan that uses it but cannot measure
# it, the note says which value is used.
. "$HTTOP_SRCDIR/tests/lib.sh"
plan 4
F=$HTTOP_FIXTURES
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

run() {
	"$HTTOP" --sim busy "$@" -b -n 1 --format summary >/dev/null 2>"$tmp/err"
}
run --topology "$F/hwloc/knl-7250-68c-4t-flat-quadrant.xml"
check "KNL: no reference-clock note ($(head -c 120 "$tmp/err"))" \
    sh -c '! grep -q "reference-clock" "$1"' sh "$tmp/err"
run --topology "$F/hwloc/zen2-epyc7742-2s-64c-smt.xml" \
    --cpuid "$F/cpuid/zen2-epyc7742-2s-64c-smt.cpuid.txt"
check "Zen 2: no reference-clock note ($(head -c 120 "$tmp/err"))" \
    sh -c '! grep -q "reference-clock" "$1"' sh "$tmp/err"
"$HTTOP" --demo -b -n 1 --format summary >/dev/null 2>"$tmp/err"
check "Skylake-SP demo: measured as the table says, no note" \
    sh -c '! grep -q "reference-clock" "$1"' sh "$tmp/err"
# Sapphire Rapids: ONE_THREAD_ACTIVE needs the scale, and no event measures it.
run --topology "$F/hwloc/spr-max9460-2s-40c-ht.x86.xml" \
    --cpuid "$F/cpuid/spr-w9-3475x-1s-36c-ht.cpuid.txt"
check "Sapphire Rapids: the note says the table value is used" \
    grep -q "reference-clock scale: .*table value" "$tmp/err"
exit 0
