#!/bin/sh
# test_complexity.sh: no function in src/ has a cyclomatic complexity
# above 25 (pmccabe's first figure, where a switch counts once: a long
# switch of cases is one decision, not the thing that makes code hard).
. "${HTTOP_SRCDIR:-.}/tests/lib.sh"
if ! command -v pmccabe >/dev/null 2>&1; then
	skip_all "pmccabe is not installed (Debian package pmccabe)"
fi
plan 1
over=$(cd "$HTTOP_SRCDIR" && find src -name '*.c' | sort | xargs pmccabe 2>/dev/null |
    awk '$1 > 25')
if [ -z "$over" ]; then
	ok "no function in src/ above McCabe 25"
else
	not_ok "no function in src/ above McCabe 25"
	printf '%s\n' "$over" | sed 's/^/# /'
fi
exit 0
