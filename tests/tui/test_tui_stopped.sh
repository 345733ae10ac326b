#!/bin/sh
# test_tui_stopped.sh: a stopped counter on the screen. The real Stampede2
# trace (converted with httop-ppc2trace) replayed to its last interval,
# where Inst_Retired.Any stands still on all 96 CPUs: the Threads view has
# no CPI or IPC for them and its status says why; the status line flags the
# interval with the counter and the CPUs; the die grid shows the reason
# code of an absent CPI.
. "$HTTOP_SRCDIR/tests/lib.sh"
. "$HTTOP_SRCDIR/tests/tui/tuilib.sh"
plan 4

export XDG_CONFIG_HOME="$tui_dir/config"
ppc="$HTTOP_FIXTURES/real/stampede2-c591-803/c591-803.perfcounts.lua"
if [ ! -r "$ppc" ]; then
	i=0; while [ $i -lt 4 ]; do skip "no fixture $ppc"; i=$((i + 1)); done
	exit 0
fi
"$HTTOP_BUILDDIR/tools/httop-ppc2trace" --sockets 2 --smt 2 "$ppc" >"$tui_dir/s2.trace" ||
    { echo "Bail out! httop-ppc2trace failed"; exit 1; }

tui_start 160 50 -- --replay "$tui_dir/s2.trace"
wait_for ' 1 Cores ' 10 >/dev/null
keys 2 ']'
expect "Threads view at the end: CPU 0's status names the stopped counter" \
    '^ +0 +0 +0 +0.* - counter stopped: instructions retired' 10
expect "the status line flags the interval with the counter and its CPUs" \
    'invalid: counter stopped: instructions retired on CPUs 0-95' 5
# The die grid on CPI: f cycles the figure (both, util, GHz, CPI).
keys 4 f f f
expect "die grid, CPI: an absent figure with its reason code" '- stopped' 10
keys q
tui_wait_exit 5
check "q: exit status 0 (got $tui_status)" [ "$tui_status" = 0 ]
exit 0
