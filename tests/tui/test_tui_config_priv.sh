#!/bin/sh
# test_tui_config_priv.sh: a privileged httop's settings file (httop(1),
# PRIVILEGE; issue 35, 7). Run by an unprivileged user this test creates,
# a set-user-ID root copy and a file-capability copy (cap_sys_rawio+ep)
# neither read through a settings file that is a symbolic link (the
# status line says why; the view it names is not taken) nor replace it
# with key w (the link and the file it names stay as they were). A plain
# copy run the same way does follow the link, so the check means
# something. The settings are read after httop has given its privilege
# up, when its effective user is the real one: what decides is that the
# exec gave it privilege (AT_SECURE), not its IDs of the moment.
# Needs root, useradd, runuser, setcap and tmux; skips otherwise.
. "$HTTOP_SRCDIR/tests/lib.sh"
[ "$(id -u)" = 0 ] || skip_all "needs root (to create a user and install set-ID copies)"
for t in useradd userdel runuser setcap; do
	command -v "$t" >/dev/null 2>&1 || skip_all "$t is not installed"
done
. "$HTTOP_SRCDIR/tests/tui/tuilib.sh"

work=$(mktemp -d /tmp/httop-cfgpriv.XXXXXX) || exit 1
user=httopf$$
cleanup() {
	tui_kill
	rm -rf "$tui_dir"
	userdel "$user" >/dev/null 2>&1
	rm -rf "$work"
}
trap cleanup EXIT
chmod 755 "$work"
if ! useradd -M -N -r -s /bin/sh -d "$work" "$user" 2>"$work/useradd.err"; then
	skip_all "useradd failed: $(cat "$work/useradd.err")"
fi
for v in plain caps setuid; do cp "$HTTOP" "$work/httop-$v"; done
chmod 755 "$work"/httop-*
if ! setcap cap_sys_rawio+ep "$work/httop-caps" 2>"$work/setcap.err"; then
	skip_all "setcap failed here: $(cat "$work/setcap.err")"
fi
chown root:root "$work/httop-setuid" && chmod 4755 "$work/httop-setuid"
# A machine the user may read (a set-ID httop reads no build tree's data).
xml=$work/skx.xml cpuid=$work/skx.cpuid
cp "$HTTOP_FIXTURES/hwloc/skx-6140-2s-18c-ht.x86.xml" "$xml"
cp "$HTTOP_FIXTURES/cpuid/skx-6154-2s-18c-ht.cpuid.txt" "$cpuid"
chmod 644 "$xml" "$cpuid"

plan 10

# The user's settings: httoprc a link to a file of theirs that asks for the
# Threads view.
cfg=$work/cfg
real=$cfg/real
rc=$cfg/httop/httoprc
printf 'view = threads\n' >"$work/want"
# The pane runs this in httop's place: the copy named by VARIANT, as the user.
cat >"$work/as-user.sh" <<EOS
#!/bin/sh
exec runuser -u $user -- env XDG_CONFIG_HOME=$cfg "$work/httop-\$VARIANT" "\$@"
EOS
chmod 755 "$work/as-user.sh"
HTTOP=$work/as-user.sh
fresh() {
	rm -rf "$cfg"
	mkdir -p "$cfg/httop"
	cp "$work/want" "$real"
	ln -s "$real" "$rc"
	chown -R "$user" "$cfg"
	chown -h "$user" "$rc"
}
start() {
	fresh
	tui_start 160 50 "VARIANT=$1" -- --sim busy --topology "$xml" --cpuid "$cpuid" -d 0.5
	wait_for ' 1 Cores ' 10
}

# The control: a plain copy follows the link (the Threads view, its IPC
# column).
start plain
expect "plain: the settings file through its link is read (the Threads view)" 'IPC' 10
keys q; tui_wait_exit 5

for v in setuid caps; do
	start "$v"
	expect "$v: the status line says the link is not followed" \
	    'httoprc is a symbolic link' 10
	if cap | grep -q 'IPC'; then
		not_ok "$v: the settings behind the link are not taken (Cores view)"; show_screen
	else
		ok "$v: the settings behind the link are not taken (Cores view)"
	fi
	keys w
	expect "$v: w is refused: not writing a symbolic link" 'not writing .*httoprc' 5
	check "$v: httoprc is still the link, its file unchanged" \
	    sh -c '[ -L "$1" ] && cmp -s "$2" "$3"' sh "$rc" "$real" "$work/want"
	keys q; tui_wait_exit 5
done
# (The plain copy's w, which replaces the link with the file, is the
# behaviour of an unprivileged httop and tested nowhere else: one more.)
start plain
keys w
wait_for 'settings written' 5
check "plain: w replaces the link with a file of the user's" \
    sh -c '[ -f "$1" ] && [ ! -L "$1" ]' sh "$rc"
keys q; tui_wait_exit 5
