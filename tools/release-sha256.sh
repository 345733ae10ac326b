#!/bin/sh
# release-sha256.sh [COMMIT]: make the release tarball of COMMIT (default
# HEAD) from a fresh clone of this repository, print its sha256, and put
# that sha256 in packaging/spack/httop/package.py's version line of this
# work tree. make dist gives the same bytes at any time and for any user
# (Makefile.am dist-hook, configure.ac am__tar); the same autoconf,
# automake and gettext are needed (Debian 12: 2.71, 1.16.5, 0.21), since
# the tarball holds what they generate.
# A release: commit everything, run this, commit the recipe alone (the
# recipe is not in the tarball, so that commit leaves the tarball as it is).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
commit=${1:-HEAD}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git -C "$top" rev-parse --verify -q "$commit^{commit}" >/dev/null ||
	{ echo "release-sha256.sh: $commit is not a commit here" >&2; exit 2; }
git clone -q "$top" "$tmp/httop"
git -C "$tmp/httop" checkout -q "$(git -C "$top" rev-parse "$commit^{commit}")"
(cd "$tmp/httop" && autoreconf -fi >/dev/null 2>&1 && ./configure -q >/dev/null &&
	make -s dist >/dev/null) ||
	{ echo "release-sha256.sh: make dist failed in $tmp/httop" >&2; exit 1; }
tarball=$(ls "$tmp"/httop/httop-*.tar.gz)
sum=$(sha256sum "$tarball" | cut -d' ' -f1)
v=$(basename "$tarball" .tar.gz); v=${v#httop-}
echo "$sum  httop-$v.tar.gz"
recipe=$top/packaging/spack/httop/package.py
sed -i "s/^\(    version(\"$v\", sha256=\"\)[0-9a-f]*\(\")\)/\1$sum\2/" "$recipe"
grep -q "sha256=\"$sum\"" "$recipe" ||
	{ echo "release-sha256.sh: no version(\"$v\", ...) line in $recipe" >&2; exit 1; }
