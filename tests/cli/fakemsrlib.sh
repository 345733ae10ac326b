# fakemsrlib.sh: sourced by the test_fakemsr_*.sh tests. Mounts the
# FUSE fake MSR device (tests/fakemsr) in a temporary directory, talks to
# it through its ctl file, and always unmounts on exit. Not a test itself.
. "$HTTOP_SRCDIR/tests/lib.sh"

FAKEMSR="$HTTOP_BUILDDIR/tests/fakemsr/fakemsr"
SKX_XML="$HTTOP_FIXTURES/hwloc/skx-6140-2s-18c-ht.x86.xml"
SKX_CPUID="$HTTOP_FIXTURES/cpuid/skx-6154-2s-18c-ht.cpuid.txt"
SPR_XML="$HTTOP_FIXTURES/hwloc/spr-max9460-2s-40c-ht.x86.xml"
SPR_CPUID="$HTTOP_FIXTURES/cpuid/spr-w9-3475x-1s-36c-ht.cpuid.txt"

# What the device needs; without it the test cannot run at all and says
# why (skip_all: exit 77), before its plan.
[ -x "$FAKEMSR" ] || skip_all "the fake MSR device was not built: configure found no fuse3" \
    "(Debian: libfuse3-dev fuse3)"
[ -c /dev/fuse ] || skip_all "no /dev/fuse here: FUSE is not available (a container without it?)"
if [ "$(id -u)" -ne 0 ]; then
	command -v fusermount3 >/dev/null 2>&1 ||
		skip_all "fusermount3 is not installed (Debian: fuse3): a user cannot mount the fake MSR device"
	{ [ -r /dev/fuse ] && [ -w /dev/fuse ]; } ||
		skip_all "not root, and /dev/fuse is not open to this user: the fake MSR device cannot be mounted"
fi
need jq jq
mnt=
work=$(mktemp -d "${TMPDIR:-/tmp}/httop-fakemsr.XXXXXX") || exit 1
bg_pid=

fake_unmount() {
	if [ -n "$mnt" ]; then
		fusermount3 -u "$mnt" 2>/dev/null || umount -l "$mnt" 2>/dev/null
		rmdir "$mnt" 2>/dev/null
		mnt=
	fi
}

fake_cleanup() {
	if [ -n "$bg_pid" ]; then
		kill -KILL "$bg_pid" 2>/dev/null
		wait "$bg_pid" 2>/dev/null
		bg_pid=
	fi
	fake_unmount
	rm -rf "$work"
}
trap fake_cleanup EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

# fake_mount XML CPUID [fakemsr options]: mount, or end the test as a
# failure. Without --foreground fakemsr returns once the mount is ready.
fake_mount() {
	xml=$1 cpuid=$2
	shift 2
	mnt=$(mktemp -d "${TMPDIR:-/tmp}/httop-mnt.XXXXXX") || exit 1
	if ! "$FAKEMSR" "$mnt" --topology "$xml" --cpuid "$cpuid" "$@" 2>"$work/fakemsr.err" ||
	    [ ! -e "$mnt/ctl" ]; then
		echo "Bail out! cannot mount the fake MSR device on $mnt (needs root and /dev/fuse):" \
		    "$(cat "$work/fakemsr.err")"
		rmdir "$mnt" 2>/dev/null
		mnt=
		exit 1
	fi
}

# ctl COMMAND...: send one command, print the answer.
ctl() {
	printf '%s\n' "$*" >"$mnt/ctl" && cat "$mnt/ctl"
}

# httop_msr XML CPUID [options]: the real binary on the fake device.
httop_msr() {
	xml=$1 cpuid=$2
	shift 2
	"$HTTOP" --source msr --msr-path "$mnt/%u/msr" --topology "$xml" --cpuid "$cpuid" "$@"
}

# wait_log PATTERN: wait up to 20 s for a write matching PATTERN in the log.
wait_log() {
	i=0
	while [ $i -lt 200 ]; do
		ctl log | grep -q -- "$1" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# log_cpus MSR VALUE: the CPUs the log shows written with exactly VALUE.
log_cpus() {
	ctl log | awk -v m="$1" -v v="$2" '$2 == m && $3 == v { print $1 }' | sort -n | uniq
}

# seq_list FIRST LAST: the numbers, one a line (no seq(1) needed).
seq_list() {
	i=$1
	while [ "$i" -le "$2" ]; do
		echo "$i"
		i=$((i + 1))
	done
}

# truth_file NCORES FILE: each core's cumulative true split as fractions,
# "core neither t0only t1only both" per line.
truth_file() {
	c=0
	: >"$2"
	while [ $c -lt "$1" ]; do
		echo "$c $(ctl truth $c)" >>"$2"
		c=$((c + 1))
	done
	awk '{ s = $2 + $3 + $4 + $5; if (s > 0) printf "%d %.9f %.9f %.9f %.9f\n",
	    $1, $2 / s, $3 / s, $4 / s, $5 / s }' "$2" >"$2.frac" && mv "$2.frac" "$2"
}

# split_vs_truth JSON TRUTH TOL: every valid core of every interval within
# TOL of the truth; prints "checked N worst W" and fails on any miss.
split_vs_truth() {
	jq -r '.cores | to_entries[] | select(.value.valid) |
	    "\(.key) \(.value.neither) \(.value.t0_only) \(.value.t1_only) \(.value.both)"' "$1" |
	awk -v tol="$3" 'NR == FNR { t[$1] = $2 " " $3 " " $4 " " $5; next }
	    {
		split(t[$1], e, " ")
		for (k = 1; k <= 4; k++) {
			d = $(k + 1) - e[k]; if (d < 0) d = -d
			if (d > worst) worst = d
			if (d > tol) { printf "# core %d share %d: %s, truth %s\n", $1, k, $(k + 1), e[k]; bad++ }
		}
		n++
	    }
	    END { printf "checked %d worst %.6f\n", n, worst; exit bad > 0 }' "$2" -
}
