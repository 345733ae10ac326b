#!/bin/sh
# test_tui_auto.sh: with --source auto, where the sources before the one it
# chose did not work, the live view's Topology view (key 3) says, beside the
# source, that --source auto chose it and why each one before it did not
# work (standard error, under the screen, names them only).
. "$HTTOP_SRCDIR/tests/lib.sh"
. "$HTTOP_SRCDIR/tests/tui/tuilib.sh"
"$HTTOP" -b -n 1 -d 0.1 >"$tui_dir/out" 2>"$tui_dir/err"
grep -q '^httop: --source auto:' "$tui_dir/err" ||
    skip_all "--source auto's first step works here: nothing to say"
# The first step that did not work (named on the short line).
first=$(sed -n 's/^httop: --source auto: using [a-z-]* (\([a-z-]*\).*/\1/p' "$tui_dir/err")
[ -n "$first" ] || first=$(sed -n 's/^httop: --source auto: \([a-z-]*\): .*/\1/p' "$tui_dir/err")
plan 3

export XDG_CONFIG_HOME="$tui_dir/config"
tui_start 160 50 -- -d 0.3
check "header: a source" wait_for 'source [a-z]' 10
keys 3
expect "topology view: chosen by --source auto" 'chosen by --source auto, as the sources before it'
expect "topology view: $first's reason" "^ +$first: [a-zA-Z/]"
keys q
tui_wait_exit 10
exit $((tap_failed > 0))
