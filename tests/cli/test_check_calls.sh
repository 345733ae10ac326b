#!/bin/sh
# test_check_calls.sh: no test passes check() a condition of two tests
# joined by && or || on its own line: the shell splits it there, so check
# judges only the first and runs the second after, its result lost (four
# such lines had hidden half their checks). Two conditions go through
# sh -c '...' or a helper, as the others do.
. "$HTTOP_SRCDIR/tests/lib.sh"
echo "1..1"
src=$HTTOP_SRCDIR
bad=$(grep -nE '^[[:space:]]*check "[^"]*" \[[^]]*\] *(&&|\|\|)' "$src"/tests/*/*.sh "$src"/tests/*.sh 2>/dev/null)
[ -z "$bad" ] || printf '%s\n' "$bad" | sed 's/^/# /'
check "every check() condition is one command" [ -z "$bad" ]
