#!/bin/sh
# time-limit: 1800 (tests/tap-run; the default 600 s is short for its builds)
# test_dist.sh: make dist gives the same bytes at any time and leaves the
# source tree as it was (issue 23). A copy of the source tree (what a
# release holds) is configured in a build directory of its own; make dist
# runs twice, seconds apart and in another time zone, and the tarballs
# are compared byte for byte; every file of the source tree is the same
# after as before (make dist runs update-po: httop.pot and de.po must not
# change, so the tracked catalogue must be current). The tarball's
# members: name order, owner and group 0, one time for all; in a git
# work tree that time is the last commit's.
. "$HTTOP_SRCDIR/tests/lib.sh"
need git git
need xgettext gettext
need python3 python3
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
plan 8

src=$tmp/httop
copy_source_tree "$src" || { echo "Bail out! cannot copy the source tree"; exit 1; }
sums() { (cd "$src" && find . -path ./b -prune -o -type f -print | LC_ALL=C sort |
	xargs sha256sum) >"$1"; }
sums "$tmp/before"
mkdir "$src/b"
(cd "$src/b" && ../configure -q >/dev/null 2>"$tmp/conf.err")
st=$?
check "the copy configures (status $st)" [ "$st" -eq 0 ]
[ "$st" -eq 0 ] || { sed 's/^/# /' "$tmp/conf.err" | tail -n 10; exit 1; }

dist() { (cd "$src/b" && rm -f httop-*.tar.gz && make -s dist >"$tmp/dist.out" 2>&1 &&
	cp httop-*.tar.gz "$1"); }
dist "$tmp/one.tar.gz"; s1=$?
sleep 2
TZ=Asia/Kolkata dist "$tmp/two.tar.gz"; s2=$?
check "make dist works twice (status $s1, $s2)" sh -c '[ "$1" -eq 0 ] && [ "$2" -eq 0 ]' sh "$s1" "$s2"
check "the two tarballs are the same bytes" cmp -s "$tmp/one.tar.gz" "$tmp/two.tar.gz"
sums "$tmp/after"
changed=$(diff "$tmp/before" "$tmp/after" | sed -n 's/^> [0-9a-f]*  \.\///p' | tr '\n' ' ')
check "make dist left every file of the source tree as it was${changed:+ (changed: $changed)}" \
	[ -z "$changed" ]

tar tvzf "$tmp/one.tar.gz" >"$tmp/list" 2>/dev/null
# Name order: within each directory, its entries by name (byte order).
tar tzf "$tmp/one.tar.gz" >"$tmp/names"
check "each directory's members are in name order" python3 -c '
import sys
last = {}
for line in open(sys.argv[1]):
    p = line.rstrip("\n").rstrip("/")
    parent, _, base = p.rpartition("/")
    if parent in last and last[parent].encode() >= base.encode():
        sys.exit("%s after %s" % (p, last[parent]))
    last[parent] = base
' "$tmp/names"
check "every member is owned by 0/0" sh -c '! awk "\$2 != \"0/0\"" "$1" | grep -q .' sh "$tmp/list"
times=$(tar --full-time -tvzf "$tmp/one.tar.gz" | awk '{print $4, $5}' | sort -u | wc -l)
check "every member has one time ($times seen)" [ "$times" -eq 1 ]

# In a git work tree the time is the last commit's (a release's clone).
(cd "$src" && git init -q && git add -A . ':!b' &&
	GIT_COMMITTER_DATE=@1700000000 GIT_AUTHOR_DATE=@1700000000 \
	git -c user.name=t -c user.email=t@t commit -qm t) >/dev/null 2>&1
dist "$tmp/three.tar.gz"
got=$(TZ=UTC tar --full-time -tvzf "$tmp/three.tar.gz" | awk '{print $4 "T" $5}' | sort -u)
check "in a git work tree the members' time is the last commit's ($got)" \
	[ "$got" = "$(TZ=UTC date -d @1700000000 +%Y-%m-%dT%H:%M:%S)" ]
