#!/bin/sh
# time-limit: 1200 (tests/tap-run: one build of httop)
# test_bpf_off.sh: the build without the bpf source's tools (issue 37: "the
# build still succeeds, without it, where its build tools are missing
# (configure says so)"). A copy of the source tree (copy_source_tree) is
# configured as on a machine without clang (ac_cv_path_CLANG= : autoconf's
# cached answer "not found" for every clang name) and httop alone is built:
#  1. configure succeeds and says why the bpf source is not built, naming
#     the missing tool and its Debian package;
#  2. httop builds;
#  3. --source bpf refuses in one line of standard error, exit 1, naming
#     the same cause and the source that gives the same figures;
#  4. --source auto goes on without it on this machine (sched as root,
#     procstat as a user: whatever it chose, it is not bpf).
# One build: a minute or two on two busy CPUs (run-suite's distcheck stage
# leaves it out, like test_reproducible).
. "$HTTOP_SRCDIR/tests/lib.sh"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
plan 6

copy_source_tree "$tmp/httop" || exit 1
mkdir "$tmp/httop/b" || exit 1
cd "$tmp/httop/b" || exit 1
../configure --disable-tests ac_cv_path_CLANG= >"$tmp/conf.out" 2>"$tmp/conf.err"
st=$?
check "configure without clang succeeds (status $st)" [ "$st" -eq 0 ]
[ "$st" -eq 0 ] || { sed 's/^/# /' "$tmp/conf.err" | tail -n 15; exit 1; }
line=$(grep 'whether to build the bpf source' "$tmp/conf.out")
check "configure says why: $line" \
	[ "$line" = "checking whether to build the bpf source (--source bpf)... no: clang is missing (Debian: clang)" ]
make -s -j2 src/httop >"$tmp/make.out" 2>&1
st=$?
check "httop builds without the bpf source (status $st)" [ "$st" -eq 0 ]
[ "$st" -eq 0 ] || { sed 's/^/# /' "$tmp/make.out" | tail -n 15; exit 1; }

src/httop --source bpf -b -n 1 -d 0.1 >"$tmp/out" 2>"$tmp/err"
st=$?
lines=$(wc -l <"$tmp/err")
msg=$(cat "$tmp/err")
check "--source bpf: exit 1 ($st), one line ($lines)" sh -c '[ "$1" -eq 1 ] && [ "$2" -eq 1 ]' sh "$st" "$lines"
case $msg in
*"built without the bpf source: clang is missing (Debian: clang)"*"--source sched gives the same figures"*)
	ok "--source bpf names the cause, the fix and the other source: $msg" ;;
*) not_ok "--source bpf's message: $msg" ;;
esac
src/httop -b -n 1 -d 0.1 --format json >"$tmp/auto.json" 2>"$tmp/auto.err"
st=$?
chose=$(sed -n 's/.*"source":"\([a-z-]*\)".*/\1/p' "$tmp/auto.json" | head -n 1)
check "--source auto runs without the bpf source (status $st, chose ${chose:-nothing})" \
	[ "$st" -eq 0 ] && [ -n "$chose" ] && [ "$chose" != bpf ]
[ "$st" -eq 0 ] || sed 's/^/# /' "$tmp/auto.err"
