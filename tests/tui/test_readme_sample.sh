#!/bin/sh
# test_readme_sample.sh: README.md's sample screen is what httop shows:
# tools/readme-sample.sh --check runs the demo in a 160 x 50 tmux pane and
# compares its top with the sample between README.md's marks, numbers and
# bars masked (the check must pass on a slow machine that shows the second
# interval before the pause). A label, a column or a view that changes
# without the sample being made again fails here.
. "$HTTOP_SRCDIR/tests/lib.sh"
. "$HTTOP_SRCDIR/tests/tui/tuilib.sh"
plan 3

out=$(sh "$HTTOP_SRCDIR/tools/readme-sample.sh" --check "$HTTOP" 2>&1)
st=$?
printf '%s\n' "$out" | sed 's/^/# /'
check "README.md's sample is the program's screen (tools/readme-sample.sh --check: $st)" \
    [ "$st" -eq 0 ]
# The check would see a change: a sample with another label fails it.
work=$(mktemp -d) || exit 1
mkdir -p "$work/tools"
cp "$HTTOP_SRCDIR/tools/readme-sample.sh" "$work/tools/"
sed 's/split (both|t0|t1)/split (t0|t1|both)/' "$HTTOP_SRCDIR/README.md" >"$work/README.md"
sh "$work/tools/readme-sample.sh" --check "$HTTOP" >/dev/null 2>&1
check "... and a sample with a label changed does not pass" [ $? -eq 1 ]
check "the README names the four views" \
    grep -q 'four views (the cores, below; the threads; the topology' "$HTTOP_SRCDIR/README.md"
rm -rf "$work"
