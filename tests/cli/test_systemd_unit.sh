#!/bin/sh
# test_systemd_unit.sh: httop-textfile.service (data/httop-textfile.service.in,
# made with the configured bindir by make) is a valid unit, hardened:
#  - systemd-analyze verify accepts it (ExecStart pointed at this build's
#    httop, which verify wants to exist);
#  - systemd-analyze security --offline rates its exposure "OK" (<= 2.0);
#  - it keeps CAP_SYS_RAWIO and no other capability, no new privileges,
#    the msr devices and no other (DevicePolicy=closed), a read-only system
#    (ProtectSystem=strict) with one writable directory, the one --textfile
#    names;
#  - httop takes its ExecStart options: with --demo in place of --source
#    msr, one interval writes httop.prom into the given directory.
. "$HTTOP_SRCDIR/tests/lib.sh"
need systemd-analyze systemd
unit=$HTTOP_BUILDDIR/httop-textfile.service
[ -f "$unit" ] || skip_all "$unit was not made (configured --with-systemdsystemunitdir=no)"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
plan 10

# make writes the configured bindir into ExecStart (a later "make install
# prefix=..." may have remade it with another: any absolute .../bin/httop).
exec=$(sed -n 's/^ExecStart=//p' "$unit")
case $exec in
/*/bin/httop\ *) ok "ExecStart runs httop from a bindir (${exec%% *})" ;;
*) not_ok "ExecStart runs httop from a bindir (it is: $exec)" ;;
esac

sed "s|^ExecStart=[^ ]*|ExecStart=$HTTOP_BUILDDIR/src/httop|" "$unit" >"$tmp/httop-textfile.service"
out=$(cd "$tmp" && systemd-analyze verify --man=no ./httop-textfile.service 2>&1); st=$?
check "systemd-analyze verify accepts it${out:+: $out}" sh -c "[ $st -eq 0 ] && [ -z '$out' ]"

sec=$(cd "$tmp" && systemd-analyze security --offline=yes ./httop-textfile.service 2>&1)
level=$(printf '%s\n' "$sec" | sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\) .*/\1/p')
if [ -z "$level" ]; then
	skip "systemd-analyze security --offline is not supported here (systemd < 250)"
else
	diag "exposure level $level"
	check "systemd-analyze security rates its exposure OK ($level <= 2.0)" \
		awk -v l="$level" 'BEGIN { exit !(l <= 2.0) }'
fi

val() { sed -n "s/^$1=//p" "$unit"; }
check "CapabilityBoundingSet is CAP_SYS_RAWIO alone" [ "$(val CapabilityBoundingSet)" = CAP_SYS_RAWIO ]
check "no ambient capabilities, NoNewPrivileges=yes" \
	sh -c '[ -z "$1" ] && [ "$2" = yes ]' sh "$(val AmbientCapabilities)" "$(val NoNewPrivileges)"
check "DevicePolicy=closed, DeviceAllow only the msr devices" \
	sh -c '[ "$1" = closed ] && [ "$2" = "char-cpu/msr rw" ]' sh "$(val DevicePolicy)" "$(val DeviceAllow)"
dir=$(printf '%s\n' "$exec" | sed -n 's/.*--textfile \([^ ]*\).*/\1/p')
check "ProtectSystem=strict, the one writable directory is --textfile's ($dir)" \
	sh -c '[ "$1" = strict ] && [ "$2" = "-$3" ] && [ -n "$3" ]' sh \
	"$(val ProtectSystem)" "$(val ReadWritePaths)" "$dir"
check "no network (PrivateNetwork, RestrictAddressFamilies=none), a private /tmp" \
	sh -c '[ "$1" = yes ] && [ "$2" = none ] && [ "$3" = yes ]' sh \
	"$(val PrivateNetwork)" "$(val RestrictAddressFamilies)" "$(val PrivateTmp)"

# The options, with the demo machine in place of the msr devices.
mkdir "$tmp/prom"
args=$(printf '%s\n' "$exec" | sed "s|^[^ ]* ||; s|--source msr|--demo|; s|--textfile [^ ]*|--textfile $tmp/prom|")
# shellcheck disable=SC2086
"$HTTOP" $args -n 1 >"$tmp/out" 2>"$tmp/err"; st=$?
check "httop $args -n 1 exits 0" [ "$st" -eq 0 ]
[ "$st" -eq 0 ] || sed 's/^/# /' "$tmp/err"
check "... and writes httop.prom there" grep -q '^httop_' "$tmp/prom/httop.prom"
