#!/bin/sh
# test_readme.sh: README.md says what the program does.
# - the order --source auto tries the sources is the program's (its "no
#   counter source works here" message lists them as it tried them);
# - an install step (make install; man httop) and the packages in debian/
#   and packaging/;
# - how to use it on a real node: modprobe msr and root, the setcap
#   install, msr-safe;
# - Many nodes: each node needs httop (or --remote-httop), and the local
#   --via example, run as written, gives each node's line and the job's.
# - a VM without SMT: the synthetic siblings command, run as written (a
#   batch run of two intervals added), shows the four-way split: the four
#   shares as numbers adding up to 100% on the core of CPUs 0 and 1
#   (issue 35: the README did not say how to see the split there).
. "$HTTOP_SRCDIR/tests/lib.sh"
R=$HTTOP_SRCDIR/README.md
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
plan 8

readme=$(tr '\n' ' ' <"$R" | tr -s ' ')
said=$(printf '%s\n' "$readme" | sed -n 's/.*`--source auto` tries \([a-z, -]*\) in that order.*/\1/p')
# The program's order: the sources its message names, as it tried them.
# Every one must fail: a device path that does not exist for msr, no
# hardware events for perf (else skip), and a --topology of another
# machine, which sched and procstat refuse together ("sched, procstat: ...").
"$HTTOP" -b -n 1 -d 0.05 --source auto --msr-path "$tmp/none/%u" \
	--topology "$HTTOP_FIXTURES/hwloc/clx-6230-2s-20c-ht.x86.xml" >/dev/null 2>err
tried=$(sed -n 's/^httop: no counter source works here: //p' err | tr ';' '\n' |
	sed -n 's/^ *\([a-z][a-z, -]*\): .*/\1/p' | sed 's/^/, /' | tr -d '\n' | sed 's/^, //')
check "README: --source auto tries '$said', as the program does ('$tried')" \
	sh -c '[ -n "$1" ] && [ "$1" = "$2" ]' sh "$said" "$tried"
check "README: an install step after the build, then man httop" \
	sh -c 'printf "%s" "$1" | grep -q "make -C build install" && printf "%s" "$1" | grep -q "man httop"' \
	sh "$readme"
check "README: points to the packages in debian/ and packaging/" \
	sh -c 'printf "%s" "$1" | grep -q "debian/" && printf "%s" "$1" | grep -q "packaging/rpm/httop.spec" &&
	    printf "%s" "$1" | grep -q "packaging/spack/"' sh "$readme"
check "README: real use on a node: modprobe msr and root, setcap, msr-safe" \
	sh -c 'printf "%s" "$1" | grep -q "sudo modprobe msr" &&
	    printf "%s" "$1" | grep -q "setcap cap_sys_rawio+ep" && printf "%s" "$1" | grep -q "## Real use on a node"' \
	sh "$readme"
check "README, Many nodes: each node runs its own httop (or --remote-httop)" \
	sh -c 'printf "%s" "$1" | grep -q "Each node runs its own httop" && printf "%s" "$1" | grep -q -- "--remote-httop"' \
	sh "$readme"
# The local example as written, with this build's httop for the nodes and
# a batch run of one interval.
grep -m1 "^    httop --nodes 'n\[1-3\]' --via " "$R" |
	sed 's/^    httop /"$HTTOP" /; s/$/ --remote-httop "$HTTOP" -b --format summary -n 1 -d 0.3/' >ex.sh
HTTOP=$HTTOP timeout 60 sh ex.sh >ex.out 2>ex.err
diag "$(cat ex.sh)"
check "README, Many nodes: the local --via example runs: lines of n1, n2, n3 and the job" \
	test "$(awk '{ print $1 }' ex.out | sort -u | tr '\n' ' ')" = "job n1 n2 n3 "

# A VM without SMT: the README's command for declared siblings, as written.
sib=$(grep -m1 "^    lstopo-no-graphics --input " "$R" | sed 's/^    //')
check "README: a command that declares siblings with a synthetic topology ($sib)" \
	sh -c 'printf "%s" "$1" | grep -q -- "--topology sib.xml"' sh "$sib"
if ! command -v lstopo-no-graphics >/dev/null 2>&1; then
	skip "lstopo-no-graphics is not installed (Debian: hwloc)"
elif [ "$(getconf _NPROCESSORS_ONLN)" -lt 2 ]; then
	skip "one CPU online: no two CPUs to declare siblings"
else
	printf '%s -b -n 2 -d 0.3\n' "$sib" | sed 's/&& httop /\&\& "$HTTOP" /' >sib.sh
	diag "$(cat sib.sh)"
	HTTOP=$HTTOP timeout 60 sh sib.sh >sib.out 2>sib.err
	# The core row of CPUs 0 and 1, last interval: neither, t0 only, t1
	# only, both, each a number or procstat's bound lo-hi (never "-", as
	# without siblings), the lows adding up to 100% at most and the highs
	# to 100% at least.
	split=$(awk '$3 == "0,1" { r = $4 " " $5 " " $6 " " $7 } END { print r }' sib.out | tr -d '%')
	if awk -v r="$split" 'BEGIN { n = split(r, v, " "); lo = 0; hi = 0
	    for (i = 1; i <= 4; i++) {
		if (v[i] !~ /^[0-9]+\.[0-9](-[0-9]+\.[0-9])?$/) exit 1
		m = split(v[i], b, "-"); lo += b[1]; hi += b[m]
	    }
	    exit !(n == 4 && lo < 100.5 && hi > 99.5) }'; then
		ok "README, siblings: the four-way split on the core of CPUs 0 and 1 ($split)"
	else
		not_ok "README, siblings: the four-way split on the core of CPUs 0 and 1 ($split)"
		sed 's/^/# /' sib.out sib.err
	fi
fi
