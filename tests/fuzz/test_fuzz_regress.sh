#!/bin/sh
# test_fuzz_regress.sh: run the kept fuzz corpus and the regression inputs
# (fuzz/regress/, one per malformed-input class the fuzzer found) through
# the fuzz harnesses built with a plain main() (fuzz/standalone.c), in the
# plain and in the sanitizer build. A file X.expect beside an input holds
# text the input's error message must contain.
. "${HTTOP_SRCDIR:-.}/tests/lib.sh"

fuzz="$HTTOP_SRCDIR/fuzz"
# The inputs of target $1: its corpus and regression directories that
# exist (git keeps no empty directory).
dirs() {
	for d in "$fuzz/corpus/$1" "$fuzz/regress/$1"; do
		test -d "$d" && echo "$d"
	done
}
count() {
	# shellcheck disable=SC2046
	find $(dirs "$1") -maxdepth 1 -type f ! -name '*.expect' ! -name '.*' | wc -l
}
n=0
for t in trace tracez ppc diemap; do
	n=$((n + $(count $t)))
done
# One line per input, one per runner's exit status, and four sanity lines.
plan $((n + 8))

for t in trace tracez ppc diemap; do
	runner="$HTTOP_BUILDDIR/tests/fuzz/run_$t"
	# The runner prints "ok - FILE" lines itself; a crash stops it early,
	# so the count no longer matches the plan and the test fails.
	# shellcheck disable=SC2046
	"$runner" $(dirs $t)
	st=$?
	tap_n=$((tap_n + $(count $t)))
	check "run_$t exited 0 (status $st)" test "$st" -eq 0
done

check "the trace corpus is not empty" test -n "$(ls "$fuzz/corpus/trace")"
check "the gzip trace corpus holds gzip files" \
	sh -c 'for f in "$1"/*; do [ "$(head -c 2 "$f" | od -An -tx1 | tr -d " ")" = 1f8b ] && exit 0; done; exit 1' \
	sh "$fuzz/corpus/tracez"
check "every regression class has an expected message" sh -c '
	for f in "$1"/regress/*/*; do
		case $f in *.expect) continue ;; esac
		test -e "$f" || continue
		test -s "$f.expect" || { echo "# no $f.expect"; exit 1; }
	done' sh "$fuzz"
# Bytes, not du's blocks: hundreds of small files.
check "the kept corpus is small (under 512 KiB)" \
	test "$(find "$fuzz/corpus" -type f -exec cat {} + | wc -c)" -lt 524288
