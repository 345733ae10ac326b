#!/bin/sh
# test_command_priv.sh: what a privileged httop hands on to the programs it
# runs (httop(1), SECURITY). A set-user-ID root copy and a file-capability
# copy (cap_sys_rawio+ep), run by an unprivileged user this test creates:
#  - httop -- COMMAND runs the command as that user, with no capability and
#    no_new_privs, with the user's whole environment (PATH, a variable of
#    theirs) although httop scrubbed its own;
#  - --job runs scontrol from the fixed directories only: a scontrol first
#    in the user's PATH, or named by HTTOP_SCONTROL, is never run (its
#    marker file does not appear; run by root without privilege gained,
#    HTTOP_SCONTROL is used, so the check means something).
# And root running a plain httop: the command keeps root's capabilities
# (httop gives its own up after the command is forked).
# Needs root, useradd, runuser and setcap; skips otherwise.
. "${HTTOP_SRCDIR:-.}/tests/lib.sh"

[ "$(id -u)" = 0 ] || skip_all "needs root (to create a user and install set-ID copies)"
for t in useradd userdel runuser setcap; do
	command -v "$t" >/dev/null 2>&1 || skip_all "$t is not installed"
done

work=$(mktemp -d /tmp/httop-cmdpriv.XXXXXX) || exit 1
user=httopc$$
cleanup() {
	userdel "$user" >/dev/null 2>&1
	rm -rf "$work"
}
trap cleanup EXIT
chmod 755 "$work"
if ! useradd -M -N -r -s /bin/sh -d "$work" "$user" 2>"$work/useradd.err"; then
	skip_all "useradd failed: $(cat "$work/useradd.err")"
fi
uid=$(id -u "$user")
for v in caps setuid; do cp "$HTTOP" "$work/httop-$v"; done
chmod 755 "$work"/httop-*
if ! setcap cap_sys_rawio+ep "$work/httop-caps" 2>"$work/setcap.err"; then
	skip_all "setcap failed here: $(cat "$work/setcap.err")"
fi
chown root:root "$work/httop-setuid" && chmod 4755 "$work/httop-setuid"

plan 11

# The user's own tools: "mytool" on their PATH, a scontrol that leaves a
# marker if it is ever run.
mkdir -p "$work/bin" && mkdir -m 1777 "$work/marks"
printf '#!/bin/sh\necho mytool-ran\n' >"$work/bin/mytool"
printf '#!/bin/sh\ntouch "%s/marks/scontrol.$(id -u)"\necho "PID JOBID"\n' "$work" \
	>"$work/bin/scontrol"
chmod 755 "$work/bin/mytool" "$work/bin/scontrol"

probe='grep -E "^(Uid|CapEff|NoNewPrivs):" /proc/self/status; echo "var=$HTTOP_TEST_VAR"; mytool'
for v in setuid caps; do
	runuser -u "$user" -- env PATH="$work/bin:/usr/bin:/bin" HTTOP_TEST_VAR=kept \
	    "$work/httop-$v" --sim busy -- sh -c "$probe" >"$work/out.$v" 2>"$work/err.$v"
	st=$?
	check "$v: httop -- COMMAND as the user: exit status 0 (got $st)" [ "$st" -eq 0 ]
	check "$v: the command runs as the user (uid $uid, all four ids)" \
		grep -Eq "^Uid:[[:space:]]+$uid[[:space:]]+$uid[[:space:]]+$uid[[:space:]]+$uid\$" \
		"$work/out.$v"
	check "$v: ... with no capability and no_new_privs" \
		sh -c "grep -q '^CapEff:[[:space:]]*0*\$' '$work/out.$v' &&
		    grep -q '^NoNewPrivs:[[:space:]]*1' '$work/out.$v'"
	check "$v: ... with the user's environment (their variable, their PATH)" \
		sh -c "grep -qx var=kept '$work/out.$v' && grep -qx mytool-ran '$work/out.$v'"
done

# --job: never the user's scontrol.
for v in setuid; do
	runuser -u "$user" -- env PATH="$work/bin:/usr/bin:/bin" \
	    HTTOP_SCONTROL="$work/bin/scontrol" "$work/httop-$v" --sim busy --job 1 -b -n 1 \
	    >/dev/null 2>"$work/jerr.$v"
	check "$v --job: neither the user's PATH nor HTTOP_SCONTROL chose scontrol (no marker)" \
		[ ! -e "$work/marks/scontrol.$uid" ]
done
HTTOP_SCONTROL="$work/bin/scontrol" "$HTTOP" --sim busy --job 1 -b -n 1 >/dev/null 2>&1
check "control: root without gained privilege uses HTTOP_SCONTROL (the marker appears)" \
	[ -e "$work/marks/scontrol.0" ]

# Root running a plain httop: the command keeps root's capabilities.
"$HTTOP" --sim busy -- sh -c "$probe" >"$work/out.root" 2>"$work/err.root"
check "root: the command keeps root's capabilities and has no no_new_privs" \
	sh -c "! grep -q '^CapEff:[[:space:]]*0*\$' '$work/out.root' &&
	    grep -q '^NoNewPrivs:[[:space:]]*0' '$work/out.root'"
exit 0
