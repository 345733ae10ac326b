#!/bin/sh
# test_soak.sh: a long run keeps flat memory and descriptors. The
# simulator (virtual clock: batch mode does not sleep) runs 100,000
# intervals of the demo scenario on a real 16-CPU machine (nhm-ep-x5550:
# 2 x 4 cores x 2 threads) with every core, every figure and the JSON
# output computed; awk reads the output through a FIFO and, at 10%, 20%,
# ..., 90% of the run, samples httop's VmRSS and VmHWM (/proc/PID/status)
# and its open descriptors (/proc/PID/fd). httop waits on the pipe while
# awk samples, so each sample sits within a pipe buffer (~10 intervals) of
# its mark.
#
# Flat means: the same number of descriptors at every mark, and VmRSS and
# VmHWM at the later marks within 64 KiB of the first (10%) mark. After
# the warm-up nothing should allocate per refresh (HACKING.md); 64 KiB is
# 16 pages of slack for stdio and libc touching a page late, and it is
# what a leak of 1 byte per interval would exceed over the 90,000 intervals
# between the first and the last mark (the smallest malloc chunk is 32).
#
# The sanitizer build runs 10x slower: it does 20,000 intervals, where
# its leak checker at exit catches any allocation not freed.
. "${HTTOP_SRCDIR:-.}/tests/lib.sh"

plan 5

XML="$HTTOP_FIXTURES/hwloc/nhm-ep-x5550-2s-4c-ht.x86.xml"
CPUID="$HTTOP_FIXTURES/cpuid/nhm-ep-e5520-1cpu.cpuid.txt"
n=100000
if grep -q '^SAN_CFLAGS = .*-fsanitize' "$HTTOP_BUILDDIR/Makefile" 2>/dev/null; then
	n=20000
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/httop-soak.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
mkfifo "$work/fifo" || exit 1

( exec "$HTTOP" -b -n "$n" --sim demo --seed 7 --topology "$XML" --cpuid "$CPUID" \
    --format json >"$work/fifo" 2>"$work/err" ) &
pid=$!
awk -v pid="$pid" -v n="$n" -v keep="$work/kept.json" '
	function sample(   line, f, k, rss, hwm, nfd, cmd) {
		f = "/proc/" pid "/status"
		while ((getline line < f) > 0) {
			split(line, k, /[ \t]+/)
			if (k[1] == "VmRSS:") rss = k[2]
			if (k[1] == "VmHWM:") hwm = k[2]
		}
		close(f)
		cmd = "ls /proc/" pid "/fd | wc -l"
		cmd | getline nfd
		close(cmd)
		printf "%d %d %d %d\n", NR, rss, hwm, nfd
	}
	NR % (n / 10) == 0 && NR < n { sample() }
	NR % (n / 10) == 1 { print >keep }
	END { printf "lines %d\n", NR }
' <"$work/fifo" >"$work/samples"
wait "$pid"
st=$?
sed 's/^/# /' "$work/samples"
sed 's/^/# stderr: /' "$work/err"

check "exit 0 after $n intervals" eval 'test "$st" -eq 0 && grep -qx "lines $n" "$work/samples"'
check "9 samples taken" test "$(grep -c -v lines "$work/samples")" -eq 9
check "the same number of open descriptors at every mark" \
    test "$(awk '!/lines/ { print $4 }' "$work/samples" | sort -u | wc -l)" -eq 1
check "VmRSS and VmHWM within 64 KiB of the 10% mark at every later mark" \
    awk '/lines/ { next }
	NR == 1 { r = $2; h = $3; next }
	$2 > r + 64 || $3 > h + 64 { bad = 1; printf "# at %d: VmRSS %d (first %d), VmHWM %d (first %d) KiB\n", $1, $2, r, $3, h }
	END { exit bad }' "$work/samples"
# One line in every tenth of the run, against the schema.
check_schema "$work/kept.json"
exit 0
