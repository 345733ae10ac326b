#!/bin/sh
# test_tui_bar_eighth.sh: a bar whose run ends 1/8 into a cell is not drawn
# with the bar's right edge glyph (U+258F, the left one-eighth block): a
# core at 1/8 of a cell read as an empty bar's edge ("▕▏  ▏"). The demo
# machine with a scenario of its own: core 0's two threads (CPUs 0 and 36)
# active together 0.4% of the time, every other CPU idle. Its both share
# over the Cores view's bar of W cells is 0.004 * 8W eighths, rounded: 1
# for W from 16 to 46 (at 80 columns W is 20: 0.64, at 120 about 30:
# 0.96). Drawn: the quarter block U+258E, then blanks, then the edge; each
# row has as many right edges as left ones (one pair per bar).
. "$HTTOP_SRCDIR/tests/lib.sh"
. "$HTTOP_SRCDIR/tests/tui/tuilib.sh"
plan 6
export XDG_CONFIG_HOME="$tui_dir/config"

scn=$tui_dir/eighth.scn
cat >"$scn" <<'EOF'
httop-scenario 1
# core 0: both threads active 0.4% of the time, together
cpus 0,36 duty duty=0.004 period=100ms
EOF

for w in 80 120; do
	tui_start "$w" 24 -- --sim "$scn" --topology "$HTTOP_SRCDIR/data/demo-skx.xml" \
	    --cpuid "$HTTOP_SRCDIR/data/demo-skx.cpuid" -d 0.5
	if ! wait_for '^package 0' 10 || ! wait_for '^ +0 ▕' 5; then
		not_ok "$w columns: the Cores view comes up"; show_screen
		skip "no screen"; skip "no screen"
		keys q; tui_wait_exit 5
		continue
	fi
	row=$(cap | grep -m1 '^ *0 ▕')
	check "$w columns: core 0's bar starts with the quarter block, then blanks ($row)" \
	    sh -c 'printf "%s\n" "$1" | grep -Eq "^ +0 ▕▎ +▏"' sh "$row"
	check "... no bar drawn as an empty bar's edge (▕▏) on the screen" \
	    sh -c '! printf "%s\n" "$1" | grep -qF "▕▏"' sh "$(cap)"
	bad=$(cap | grep -F '▕' | while IFS= read -r l; do
		a=$(printf '%s\n' "$l" | grep -oF '▕' | wc -l)
		b=$(printf '%s\n' "$l" | grep -oF '▏' | wc -l)
		[ "$a" -eq "$b" ] || printf '%s\n' "$l"
	done)
	check "... every bar row has one right edge per left edge${bad:+ (not: $bad)}" [ -z "$bad" ]
	keys q
	tui_wait_exit 5
done
