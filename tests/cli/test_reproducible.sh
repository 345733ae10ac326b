#!/bin/sh
# time-limit: 1800 (tests/tap-run; the default 600 s is short for its builds)
# test_reproducible.sh: the binaries depend on the sources, not on where
# they were built. One copy of the source tree (what a release tarball
# holds: the files of $HTTOP_SRCDIR without build directories) is unpacked
# in two directories of different names and depths, and each is built in a
# build directory of its own (../configure --disable-tests, default CFLAGS
# -g -O2). Then:
#  - src/httop and tools/httop-ppc2trace are identical in the two builds,
#    stripped and as built (configure's -ffile-prefix-map keeps the source
#    and build directories out of the debug information);
#  - neither binary names its source or build directory anywhere;
#  - the built httop still finds data/ from its build tree (src/sys/datadir.c,
#    through /proc/self/exe and the build tree's data link).
# Two builds of httop: a few minutes on two busy CPUs (run-suite's
# distcheck stage leaves it out, like the package builds).
. "$HTTOP_SRCDIR/tests/lib.sh"
need strip binutils
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
plan 7

copy_source_tree "$tmp/t/httop" || exit 1
(cd "$tmp/t" && tar cf ../src.tar httop) || exit 1

build() {
	mkdir -p "$1" && (cd "$1" && tar xf "$tmp/src.tar") &&
	    chmod -R u+w "$1/httop" && mkdir "$1/httop/b" &&
	    (cd "$1/httop/b" && ../configure -q --disable-tests >/dev/null &&
	    make -s -j2 >/dev/null) 2>"$1.err"
}
A=$tmp/a
B=$tmp/some/much/longer/directory/name
build "$A"; sa=$?
build "$B"; sb=$?
check "the source tree builds in $A (status $sa)" [ "$sa" -eq 0 ]
check "... and in $B (status $sb)" [ "$sb" -eq 0 ]
[ "$sa" -eq 0 ] || sed 's/^/# /' "$A.err" | tail -n 15
[ "$sb" -eq 0 ] || sed 's/^/# /' "$B.err" | tail -n 15

same=1
for p in src/httop tools/httop-ppc2trace; do
	cmp -s "$A/httop/b/$p" "$B/httop/b/$p" || { same=0; diag "$p differs as built"; }
done
check "src/httop and tools/httop-ppc2trace are identical as built" [ "$same" -eq 1 ]
same=1
for p in src/httop tools/httop-ppc2trace; do
	strip -o "$A.s" "$A/httop/b/$p" && strip -o "$B.s" "$B/httop/b/$p" &&
	    cmp -s "$A.s" "$B.s" || { same=0; diag "$p differs stripped"; }
done
check "... and stripped" [ "$same" -eq 1 ]

found=
for p in src/httop tools/httop-ppc2trace; do
	for d in "$A" "$B" "$tmp"; do
		grep -qaF "$d" "$A/httop/b/$p" "$B/httop/b/$p" && found="$found $p:$d"
	done
done
check "no binary names a source or build directory${found:+ ($found)}" [ -z "$found" ]

# Built with the default prefix, the binary's only data directory is
# /usr/local/share/httop; run from the build tree it still finds data/.
out=$(cd / && HTTOP_DEBUG_DATA=1 "$B/httop/b/src/httop" --demo -b -n 1 -d 0.05 2>&1 >/dev/null)
check "the build tree's httop finds demo-skx.xml in its build tree's data/" \
	sh -c 'printf "%s\n" "$1" | grep -qxF "httop: data file demo-skx.xml: $2/httop/b/data/demo-skx.xml (source tree)"' \
	sh "$out" "$B"
# A copy of the binary outside a build tree has no such fallback.
cp "$B/httop/b/src/httop" "$tmp/httop-copy"
out=$(cd / && HTTOP_DEBUG_DATA=1 "$tmp/httop-copy" --demo -b -n 1 -d 0.05 2>&1 >/dev/null)
check "a copy of it outside the build tree looks only in the installed directory" \
	sh -c '! printf "%s\n" "$1" | grep -q "source tree\|$2"' sh "$out" "$B"
