#!/bin/sh
# test_privileged.sh: a privileged install gives nothing away (httop(1),
# SECURITY). Two copies of httop, one with file capabilities (setcap
# cap_sys_rawio+ep) and one set-user-ID root, are run by an unprivileged
# user this test creates:
#  - with HWLOC_PLUGINS_PATH naming a plugin that leaves a marker file when
#    it is loaded: no marker (the environment is cleared to an allowlist
#    before any library starts); a plain copy run the same way does leave
#    it, so the check means something;
#  - with root-only files named on the command line (--cpuid, --topology,
#    --die-map, --sim, --replay, and a --sysfs-root whose PCI config is a
#    symbolic link to a root-only file): httop refuses each, no byte of
#    them is printed, and the message names the file; -o naming a
#    root-only file is refused (opened after privilege is given up);
#  - the set-user-ID copy's command runs with the user's own user, group
#    and supplementary groups, none of root's: privilege.c switches with
#    setresuid and no setgroups (rpmlint's missing-call-to-setgroups-
#    before-setuid), because exec kept the user's groups (test_packaging.sh).
# Needs root, useradd, runuser, setcap and a C compiler; skips otherwise.
. "${HTTOP_SRCDIR:-.}/tests/lib.sh"

[ "$(id -u)" = 0 ] || skip_all "needs root (to create a user and install set-ID copies)"
for t in useradd userdel runuser setcap getcap cc; do
	command -v "$t" >/dev/null 2>&1 || skip_all "$t is not installed"
done

work=$(mktemp -d /tmp/httop-priv.XXXXXX) || exit 1
user=httopt$$
cleanup() {
	userdel "$user" >/dev/null 2>&1
	rm -rf "$work"
}
trap cleanup EXIT
chmod 755 "$work"
if ! useradd -M -N -r -s /bin/sh -d "$work" "$user" 2>"$work/useradd.err"; then
	skip_all "useradd failed: $(cat "$work/useradd.err")"
fi

# What the user may read: the binaries and a fixture machine.
xml=$work/skx.xml cpuid=$work/skx.cpuid
cp "$HTTOP_FIXTURES/hwloc/skx-6140-2s-18c-ht.x86.xml" "$xml"
cp "$HTTOP_FIXTURES/cpuid/skx-6154-2s-18c-ht.cpuid.txt" "$cpuid"
for v in plain caps setuid; do cp "$HTTOP" "$work/httop-$v"; done
chmod 755 "$work"/httop-*
if ! setcap cap_sys_rawio+ep "$work/httop-caps" 2>"$work/setcap.err"; then
	skip_all "setcap failed here: $(cat "$work/setcap.err")"
fi
chown root:root "$work/httop-setuid" && chmod 4755 "$work/httop-setuid"
chmod 644 "$xml" "$cpuid"

plan 22

# The plugin: hwloc dlopens every hwloc_*.so in HWLOC_PLUGINS_PATH; its
# constructor runs at once, whatever hwloc makes of it.
mkdir -p "$work/plug" && cat >"$work/plug/m.c" <<'EOF'
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
__attribute__((constructor)) static void
mark(void)
{
	const char *p = getenv("HTTOP_TEST_MARKER");
	int fd = p != NULL ? open(p, O_WRONLY | O_CREAT, 0666) : -1;

	if (fd >= 0)
		close(fd);
}
EOF
cc -shared -fPIC -o "$work/plug/hwloc_marker.so" "$work/plug/m.c" || exit 1
chmod -R a+rX "$work/plug"
mkdir -m 1777 "$work/marks"

# as_user VARIANT ARGS...: the copy run by the user, in batch mode.
as_user() {
	v=$1
	shift
	runuser -u "$user" -- env HWLOC_PLUGINS_PATH="$work/plug" \
	    HTTOP_TEST_MARKER="$work/marks/$v" HTTOP_CLOCK=virtual \
	    "$work/httop-$v" "$@" -b -n 1 --format summary
}

# The control: hwloc itself (lstopo, as the user) loads the plugin, so the
# marker proves a load; httop loads none of hwloc's plugins in any case
# (httop(1), --topology), privileged or not.
if command -v lstopo-no-graphics >/dev/null 2>&1; then
	runuser -u "$user" -- env HWLOC_PLUGINS_PATH="$work/plug" \
	    HTTOP_TEST_MARKER="$work/marks/lstopo" lstopo-no-graphics --of xml /dev/null 2>/dev/null
	check "control: hwloc (lstopo) loads the user's plugin (the marker appears)" \
	    [ -e "$work/marks/lstopo" ]
else
	skip "control: lstopo-no-graphics is not installed (Debian: hwloc)"
fi
as_user plain --sim busy --topology "$xml" --cpuid "$cpuid" >"$work/out.plain" 2>&1
check "a plain httop does not load it either (it loads no hwloc plugin)" \
    [ ! -e "$work/marks/plain" ]
for v in caps setuid; do
	as_user "$v" --sim busy --topology "$xml" --cpuid "$cpuid" >"$work/out.$v" 2>&1
	st=$?
	check "$v: runs as the user on the fixture machine (status $st)" [ "$st" -eq 0 ]
	check "$v: the user's hwloc plugin is not loaded (no marker)" [ ! -e "$work/marks/$v" ]
done

# --- Root-only files. -----------------------------------------------------
secret=$work/secret
mkdir "$secret" && chmod 755 "$secret"
tok=SECRETTOKEN$$
for f in cpuid topo.xml die.map scn trace config; do
	printf '%s line one\n%s line two\n' "$tok" "$tok" >"$secret/$f"
	chmod 600 "$secret/$f"
done
# A sysfs root a user may make: the PCU's config is a link to a root-only file.
sh "$HTTOP_SRCDIR/tests/mksysfs.sh" "$work/sys" 0x0 0x0 >/dev/null
for d in "$work"/sys/bus/pci/devices/*1e.3; do
	rm -f "$d/config" && ln -s "$secret/config" "$d/config"
done
chmod -R a+rX "$work/sys"

# refuses VARIANT DESC ARGS...: status non-zero (or a note), no token printed.
refuses() {
	v=$1 desc=$2
	shift 2
	as_user "$v" "$@" >"$work/o" 2>&1
	if grep -q "$tok" "$work/o"; then
		not_ok "$v $desc: no byte of the root-only file is printed"
		sed 's/^/# /' "$work/o" | head -5
	else
		ok "$v $desc: no byte of the root-only file is printed"
	fi
}
for v in caps setuid; do
	refuses "$v" "--cpuid" --sim busy --topology "$xml" --cpuid "$secret/cpuid"
	refuses "$v" "--topology" --sim busy --topology "$secret/topo.xml" --cpuid "$cpuid"
	refuses "$v" "--die-map" --sim busy --topology "$xml" --cpuid "$cpuid" \
	    --die-map "$secret/die.map"
	refuses "$v" "--sim FILE" --sim "$secret/scn" --topology "$xml" --cpuid "$cpuid"
	refuses "$v" "--replay" --replay "$secret/trace"
	refuses "$v" "--sysfs-root (config a link to a root-only file)" --sim busy \
	    --topology "$xml" --cpuid "$cpuid" --sysfs-root "$work/sys"
done
# -o FILE is opened once privilege is given up: a root-only file is not
# the user's to overwrite, and stays as it was (not even emptied).
for v in caps setuid; do
	as_user "$v" --sim busy --topology "$xml" --cpuid "$cpuid" -o "$secret/trace" \
	    >"$work/o" 2>&1; st=$?
	check "$v -o a root-only file: refused (status $st, Permission denied), the file intact" \
	    sh -c '[ "$1" -eq 1 ] && grep -q "Permission denied" "$2" &&
	    [ "$(grep -c "$3" "$4")" -eq 2 ]' sh "$st" "$work/o" "$tok" "$secret/trace"
done
# The message names the file and the cause (as the user would see it).
as_user setuid --sim busy --topology "$xml" --cpuid "$secret/cpuid" >"$work/o" 2>&1
check "setuid --cpuid: the message names the file and 'Permission denied'" \
    grep -q "$secret/cpuid.*Permission denied\|Permission denied.*$secret/cpuid" "$work/o"
# The set-user-ID copy gives up root for the user with setresuid alone:
# the command it runs has the user's IDs and supplementary groups, as the
# same command run by the user directly, and no 0 among them.
runuser -u "$user" -- sh -c 'grep -E "^(Uid|Gid|Groups):" /proc/self/status' >"$work/ids.user"
(cd "$work/marks" && runuser -u "$user" -- "$work/httop-setuid" --sim busy --topology "$xml" \
    --cpuid "$cpuid" -o "$work/marks/sum" -- \
    sh -c 'grep -E "^(Uid|Gid|Groups):" /proc/self/status' >"$work/ids.cmd" 2>/dev/null)
check "setuid: the command's Uid, Gid and Groups are the user's ($(tr '\t\n' '  ' <"$work/ids.cmd"))" \
    sh -c 'cmp -s "$1" "$2" && [ -s "$1" ] && ! grep -qE "[[:space:]]0([[:space:]]|$)" "$1"' \
    sh "$work/ids.cmd" "$work/ids.user"
exit 0
