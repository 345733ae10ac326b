#!/bin/sh
# test_fixtures.sh: the test fixtures are in the tree and accounted for
# (tests/fixtures/PROVENANCE.md, tests/fixtures.mk):
#  - every file under tests/fixtures/{hwloc,cpuid,real} is named in
#    PROVENANCE.md and in FIXTURE_FILES (so the tarball carries it and
#    make check unpacks it);
#  - every unpacked file has the SHA-256 PROVENANCE.md gives (a copied file
#    is still the verbatim copy it claims to be);
#  - the fixtures stay under 4 MiB in the tree;
#  - nothing in the build, the tests, the benchmarks or the fuzz corpus
#    points outside the tree for them (no path to a fixtures directory
#    beside the checkout, which only the developers' machines have).
. "$HTTOP_SRCDIR/tests/lib.sh"
need sha256sum coreutils
plan 5

S=$HTTOP_SRCDIR
F=$S/tests/fixtures
prov=$F/PROVENANCE.md
mk=$S/tests/fixtures.mk

files=$(cd "$F" && find hwloc cpuid real -type f | sort)
bad=
for f in $files; do
	grep -qF "${f##*/}" "$prov" || bad="$bad $f"
done
check "PROVENANCE.md names every fixture${bad:+ (missing:$bad)}" [ -z "$bad" ]

bad=
for f in $files; do
	grep -qF "tests/fixtures/$f" "$mk" || bad="$bad $f"
done
check "tests/fixtures.mk lists every fixture in FIXTURE_FILES${bad:+ (missing:$bad)}" [ -z "$bad" ]

# The sums, for the unpacked names (PROVENANCE's last block).
sed -n '/^## SHA-256/,$p' "$prov" | grep -E '^[0-9a-f]{64}  ' >"${TMPDIR:-/tmp}/fixsums.$$"
n=$(wc -l <"${TMPDIR:-/tmp}/fixsums.$$")
out=$(cd "$HTTOP_FIXTURES" && sha256sum -c "${TMPDIR:-/tmp}/fixsums.$$" 2>&1 | grep -v ': OK$')
rm -f "${TMPDIR:-/tmp}/fixsums.$$"
nf=$(echo "$files" | wc -l)
check "all $nf unpacked fixtures have the SHA-256 PROVENANCE.md gives ($n sums)${out:+: $out}" \
	sh -c "[ -z '$out' ] && [ '$n' -eq '$nf' ]"

kb=$(du -sk "$F" | cut -f1)
diag "tests/fixtures: $kb KiB"
check "tests/fixtures is under 4 MiB ($kb KiB)" [ "$kb" -lt 4096 ]

# (the pattern is put together here so that this file does not name it)
outside="shar""ed/fixtures"
hits=$(cd "$S" && grep -rlI "$outside" configure.ac Makefile.am tests bench fuzz \
    src tools data .ci 2>/dev/null)
check "no file of the build, tests, benchmarks or fuzz corpus names a fixtures directory outside the tree${hits:+ ($hits)}" \
	[ -z "$hits" ]
