#!/bin/sh
# test_tui_bytes.sh: redraw only what changed. bench/term-bytes.sh runs the
# demo in a 160 x 50 pane and compares the bytes written per refresh in
# steady state with a full repaint: they must stay under a quarter of it.
. "$HTTOP_SRCDIR/tests/lib.sh"
. "$HTTOP_SRCDIR/tests/tui/tuilib.sh"
plan 3

out=$(sh "$HTTOP_SRCDIR/bench/term-bytes.sh" -x 160 -y 50 -d 0.5 -n 10 "$HTTOP" 2>&1)
st=$?
printf '%s\n' "$out" | sed 's/^/# /'
last=$(printf '%s\n' "$out" | tail -n 1)
per=$(printf '%s' "$last" | sed -n 's/.*per_refresh=\([0-9]*\).*/\1/p')
full=$(printf '%s' "$last" | sed -n 's/.*full=\([0-9]*\).*/\1/p')
ratio=$(printf '%s' "$last" | sed -n 's/.*ratio=\([0-9.]*\).*/\1/p')
check "the measurement ran (status $st)" [ "$st" -eq 0 -a -n "$ratio" ]
check "a full repaint of 160 x 50 is at least 4000 bytes (got ${full:-none})" [ "${full:-0}" -ge 4000 ]
check "steady state per refresh (${per:-?}) < 1/4 of a full repaint (ratio ${ratio:-?})" \
    awk -v r="${ratio:-1}" -v p="${per:-0}" 'BEGIN { exit !(p > 0 && r < 0.25) }'
