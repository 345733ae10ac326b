# lib.sh: TAP helpers for the shell tests. Source it; call plan N first.
: "${HTTOP_BUILDDIR:=$(pwd)}"
: "${HTTOP_SRCDIR:=$(cd "$(dirname "$0")/.." && pwd)}"
# The fixtures as make check unpacks them (tests/fixtures.mk).
: "${HTTOP_FIXTURES:=$HTTOP_BUILDDIR/tests/unpacked}"
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
# check_schema FILE...: one test: every line of the JSON Lines FILEs is
# valid against httop.schema.json (made in the build directory's top from
# data/httop.schema.in.json and the table of figures: tools/schema.c;
# tests/json_schema.py, no package needed); the first problems are printed
# as diagnostics.
check_schema() {
	if ! command -v python3 >/dev/null 2>&1; then
		skip "python3 is not installed"
		return
	fi
	if _cs=$(python3 "$HTTOP_SRCDIR/tests/json_schema.py" \
	    "$HTTOP_BUILDDIR/httop.schema.json" "$@" 2>&1); then
		ok "valid against httop.schema.json: $(printf '%s' "$_cs" | tail -n 1)"
	else
		printf '%s\n' "$_cs" | sed 's/^/# /'
		not_ok "not valid against httop.schema.json: $*"
	fi
}
# summary_node FILE: the node's nine figures in the summary of a command's
# run (httop -- COMMAND) in FILE, its rows of the two tables joined into
# one line: neither t0-only t1-only both util both/busy threads GHz CPI.
summary_node() {
	awk '$1 == "node" { for (i = 2; i <= NF; i++) printf "%s%s", (k++ ? " " : ""), $i }
	    END { if (k) print "" }' "$1"
}
# msg_join FILE: httop's messages on standard error in FILE, one a line:
# a message longer than 80 columns is wrapped, its continuation lines
# indented by two blanks (util/textwrap.h); joined to it again here.
msg_join() {
	awk 'NR > 1 && /^  [^ ]/ { sub(/^  /, " "); printf "%s", $0; next }
	    { if (NR > 1) print ""; printf "%s", $0 } END { if (NR) print "" }' "$1"
}
# skip_all REASON: the whole test cannot run (a tool is missing): say why in
# the TAP plan and exit 77 (tests/tap-run turns that into a SKIP).
skip_all() { echo "1..0 # SKIP $*"; exit 77; }
# need PROGRAM DEBIAN-PACKAGE [WHAT]: skip_all unless PROGRAM is installed.
need() {
	command -v "$1" >/dev/null 2>&1 ||
		skip_all "$1 is not installed (Debian: $2)${3:+; $3}"
}
# hup_ignored: true when this test started with SIGHUP ignored (run under
# nohup): an httop it starts keeps it ignored, as it should, so a case
# that ends httop by SIGHUP cannot run; it skips with that reason (see
# hup_skip_reason). Read from the shell's own SigIgn mask (bit 0: SIGHUP);
# call it before the test sets a trap of its own on HUP.
hup_ignored() {
	_ign=$(sed -n 's/^SigIgn:[[:space:]]*//p' "/proc/$$/status" 2>/dev/null)
	[ -n "$_ign" ] && [ $((0x$_ign & 1)) -eq 1 ]
}
hup_skip_reason="SIGHUP is ignored here (run under nohup): httop keeps it ignored, as it should"
# need_cpu1_hotplug: skip_all unless this test may take CPU 1 offline
# (root, CPU 1 online with an online switch, HTTOP_TEST_NO_HOTPLUG unset);
# sets ctl to that switch.
need_cpu1_hotplug() {
	[ "$(id -u)" = 0 ] || skip_all "needs root: taking a CPU offline"
	[ -z "${HTTOP_TEST_NO_HOTPLUG:-}" ] ||
		skip_all "HTTOP_TEST_NO_HOTPLUG is set: CPU 1 stays online (README)"
	ctl=/sys/devices/system/cpu/cpu1/online
	[ -e "$ctl" ] || skip_all "no CPU 1 that can go offline ($ctl missing)"
	[ "$(cat "$ctl")" = 1 ] || skip_all "CPU 1 is offline already"
}
# sched_siblings FILE: FILE declares CPUs 0 and 1 siblings (hwloc's
# synthetic "pack:1 core:1 pu:2"), for the scheduler and /proc/stat
# sources on a machine without SMT; skip_all when lstopo cannot write it.
sched_siblings() {
	lstopo-no-graphics --input "pack:1 core:1 pu:2" --of xml "$1" 2>/dev/null
	[ -s "$1" ] || skip_all "lstopo-no-graphics wrote no synthetic topology"
}
# sched_opens TOPOLOGY ERRFILE: true when the sched source opens on the
# CPUs TOPOLOGY declares; false when the kernel refuses it (ERRFILE says
# why: a reason to skip). Any other failure (an unknown source, a crash)
# is a bug: the test ends failed.
sched_opens() {
	"$HTTOP" --source sched --topology "$1" -b -n 1 -d 0.1 >/dev/null 2>"$2" && return 0
	grep -q 'perf_event_open' "$2" && return 1
	echo "1..1"
	echo "not ok 1 - the sched source: $(cat "$2")"
	exit 1
}
# procs_tagged VAR=VALUE: how many of this user's processes have VAR=VALUE
# in their environment: a test's own children, not a concurrent test's.
procs_tagged() {
	_n=0
	for _p in $(pgrep -u "$(id -u)" .); do
		tr '\0' '\n' 2>/dev/null <"/proc/$_p/environ" | grep -qxF -- "$1" && _n=$((_n + 1))
	done
	echo "$_n"
}

# copy_source_tree DEST: the source tree as a release tarball holds it, in
# DEST (created): no .git, autom4te.cache, distcheck's _build, nor any
# build directory (one with a config.status inside). A tree configured in
# place (./configure && make, the GNU way) is copied whole and then
# distcleaned, so that the copy is a source tree again. Files are made
# writable: distcheck's source tree is read-only.
copy_source_tree() {
	_dest=$1 _ex=
	mkdir -p "$_dest" || return 1
	for _d in "$HTTOP_SRCDIR"/* "$HTTOP_SRCDIR"/.[!.]*; do
		[ -e "$_d" ] || continue
		_b=${_d##*/}
		case $_b in
		.git|autom4te.cache|_build|*.tar.gz) continue ;;
		esac
		[ -d "$_d" ] && [ -f "$_d/config.status" ] && continue
		_ex="$_ex $_b"
	done
	(cd "$HTTOP_SRCDIR" && tar cf - $_ex) | (cd "$_dest" && tar xf -) || return 1
	chmod -R u+w "$_dest" || return 1
	if [ -f "$_dest/config.status" ]; then
		(cd "$_dest" && make -s distclean >/dev/null 2>&1) || return 1
		# distclean keeps what make check unpacked and the test logs of
		# a tree that ran its tests in place
		rm -rf "$_dest/tests/unpacked"
	fi
}
