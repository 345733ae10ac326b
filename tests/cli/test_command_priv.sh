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
#    HTTOP_SCONTROL is used, so the check means something);
#  - a command that cannot run is found out before anything opens, with
#    the user's rights: 126 for what only root may reach or run, a PATH
#    directory the user cannot search passed over.
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

plan 18

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

# A command that cannot run is found out before anything is opened, with
# the user's rights, not the privilege httop holds then: behind a
# directory only root may search it is "Permission denied" (126), never
# root's "No such file" (127); a file only root may run is 126 at once
# (no --record trace: the source never opened); such a directory in PATH
# is passed over for the user's own tool.
mkdir -m 700 "$work/secret"
printf '#!/bin/sh\necho root-only\n' >"$work/rootonly"
chmod 700 "$work/rootonly"
for v in setuid caps; do
	runuser -u "$user" -- env PATH="$work/bin:/usr/bin:/bin" "$work/httop-$v" --sim busy \
	    --record "$work/marks/rec.$v" -- "$work/secret/nothing" >/dev/null 2>"$work/lerr.$v"
	st=$?
	check "$v: a command behind a directory the user cannot search: 126 (got $st), 'Permission denied', one line, no trace" \
		sh -c '[ "$1" -eq 126 ] && [ "$(cat "$2")" = "httop: cannot run $3/secret/nothing: Permission denied" ] &&
		    [ ! -e "$3/marks/rec.$4" ]' sh "$st" "$work/lerr.$v" "$work" "$v"
	runuser -u "$user" -- env PATH="$work/bin:/usr/bin:/bin" "$work/httop-$v" --sim busy \
	    --record "$work/marks/rec.$v" -- "$work/rootonly" >/dev/null 2>"$work/lerr.$v"
	st=$?
	check "$v: a file only root may run: 126 (got $st) at once, no trace" \
		sh -c '[ "$1" -eq 126 ] && [ "$(cat "$2")" = "httop: cannot run $3/rootonly: Permission denied" ] &&
		    [ ! -e "$3/marks/rec.$4" ]' sh "$st" "$work/lerr.$v" "$work" "$v"
	runuser -u "$user" -- env PATH="$work/secret:$work/bin:/usr/bin:/bin" "$work/httop-$v" \
	    --sim busy -- mytool >"$work/lout.$v" 2>"$work/lerr.$v"
	st=$?
	check "$v: a PATH directory the user cannot search is passed over: mytool runs (status $st)" \
		sh -c '[ "$1" -eq 0 ] && grep -qx mytool-ran "$2"' sh "$st" "$work/lout.$v"
done

# A user of their own with CAP_DAC_OVERRIDE (ambient: a plain httop
# gains nothing) may run the file only root may: access(2), which judges
# without the capability, must not turn that down (the lookup leaves it
# to the exec).
if command -v setpriv >/dev/null 2>&1 &&
    setpriv --reuid="$uid" --regid="$uid" --clear-groups --inh-caps=+dac_override \
    --ambient-caps=+dac_override true 2>/dev/null; then
	setpriv --reuid="$uid" --regid="$uid" --clear-groups --inh-caps=+dac_override \
	    --ambient-caps=+dac_override "$HTTOP" --sim busy -- "$work/rootonly" \
	    >"$work/aout" 2>"$work/aerr"
	st=$?
	check "a user with ambient CAP_DAC_OVERRIDE runs the file only root may (status $st)" \
		sh -c '[ "$1" -eq 0 ] && grep -qx root-only "$2"' sh "$st" "$work/aout"
else
	skip "setpriv with ambient capabilities is not available here"
fi

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
