#!/bin/sh
# test_auto_line.sh: --source auto, where a source before the one it
# chooses does not work (no msr driver in a VM, no PMU for perf), says so
# on one short line: the source chosen and the names of the steps that did
# not work (it was one line of 326 characters on every run); -v gives each
# step's reason on that line instead.
. "$HTTOP_SRCDIR/tests/lib.sh"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
"$HTTOP" -b -n 1 -d 0.1 >"$tmp/out" 2>"$tmp/err"; st=$?
grep -q '^httop: --source auto:' "$tmp/err" ||
    skip_all "--source auto's first step works here (status $st): nothing to say"
plan 6
# (Beside it, the scheduler source may say what it could not follow:
# "httop: sched, T s: ...", an event of an interval, not of the choice.)
grep '^httop: --source auto:' "$tmp/err" >"$tmp/auto"
line=$(cat "$tmp/auto")
src=$(sed -n '1s/.*, source \([a-z-]*\),.*/\1/p' "$tmp/out")
check "exit status 0 (got $st)" [ "$st" -eq 0 ]
check "one line: $line" [ "$(wc -l <"$tmp/auto")" -eq 1 ]
check "short: ${#line} characters, at most 100" [ "${#line}" -le 100 ]
check "it names the source chosen ($src) and the steps before it, and -v" \
    grep -Eq "^httop: --source auto: using $src \\(([a-z-]+, )*[a-z-]+ did not work; -v says why\\)\$" "$tmp/auto"

"$HTTOP" -v -b -n 1 -d 0.1 >"$tmp/out" 2>"$tmp/err"; st=$?
grep '^httop: --source auto:' "$tmp/err" >"$tmp/auto"
check "-v: one line, the reasons, then 'using $src' (status $st)" \
    sh -c '[ "$(wc -l <"$1")" -eq 1 ] && grep -Eq "^httop: --source auto: [a-z-]+: .*; using $2\$" "$1"' \
    sh "$tmp/auto" "$src"
# Each step the short line named has its reason on the long one.
steps=$(printf '%s' "$line" | sed -n 's/.*using [a-z-]* (\(.*\) did not work.*/\1/p' | tr -d ',')
miss=
for s in $steps; do
	grep -Eq "(: |; )$s: " "$tmp/auto" || miss="$miss $s"
done
check "-v: a reason for each step the short line named ($steps)${miss:+; missing:$miss}" [ -z "$miss" ]
