# lib.sh: TAP helpers for the shell tests. Source it; call plan N first.
: "${HTTOP_BUILDDIR:=$(pwd)}"
: "${HTTOP_SRCDIR:=$(cd "$(dirname "$0")/.." && pwd)}"
: "${HTTOP_FIXTURES:=$HTTOP_SRCDIR/../shared/fixtures}"
HTTOP="$HTTOP_BUILDDIR/src/httop"
tap_n=0
tap_failed=0
plan() { echo "1..$1"; }
ok() { tap_n=$((tap_n + 1)); echo "ok $tap_n - $*"; }
not_ok() { tap_n=$((tap_n + 1)); tap_failed=$((tap_failed + 1)); echo "not ok $tap_n - $*"; }
# check DESCRIPTION COMMAND...: ok if the command succeeds.
check() { d=$1; shift; if "$@"; then ok "$d"; else not_ok "$d"; fi; }
diag() { echo "# $*"; }
skip() { tap_n=$((tap_n + 1)); echo "ok $tap_n - # SKIP $*"; }
