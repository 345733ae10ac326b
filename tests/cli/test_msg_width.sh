#!/bin/sh
# test_msg_width.sh: httop's messages on standard error fit a terminal of
# 80 columns: on a terminal (here a pty from script(1)) a long one is
# wrapped at blanks (util/textwrap.c), its continuation lines indented by
# two blanks, and joined again it is the whole message; into a file it
# stays one line (logs, grep). The cases a new user met with lines of 130
# to 330 columns: --source perf refused (a machine without hardware
# events), -v's line of --source auto, a --cgroup that does not exist, a
# replay's conflict note (a counter stopped: a trace of the demo with one
# counter held), and the messages that say the fix: a missing trace,
# --job where scontrol cannot reach a controller (a stand-in scontrol that
# says what Debian's does without slurmctld) and where Slurm is not
# installed (scontrol hidden in a private mount namespace, as root). The
# same cases in German: the width only (display columns, UTF-8).
. "$HTTOP_SRCDIR/tests/lib.sh"
. "$HTTOP_SRCDIR/tests/cli/i18nlib.sh"
need python3 python3
need script bsdutils
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
plan 16

# widest FILE: the display width of its widest line (a wide character
# counts two, a combining one none).
widest() {
	python3 -c '
import sys, unicodedata
def width(s):
    return sum(0 if unicodedata.combining(c) else
               2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in s)
print(max([width(l) for l in open(sys.argv[1], encoding="utf-8").read().split("\n")] + [0]))
' "$1"
}

# fits NAME FILE: one test, every line within 80 columns.
fits() {
	w=$(widest "$2")
	if [ "$w" -le 80 ]; then
		ok "$1: every line within 80 columns (widest $w)"
	else
		not_ok "$1: every line within 80 columns (widest $w)"
		sed 's/^/# | /' "$2"
	fi
}

# says NAME FILE TEXT: one test, the messages joined again hold TEXT.
says() {
	if msg_join "$2" | grep -Fq -- "$3"; then
		ok "$1: joined again, it says '$3'"
	else
		not_ok "$1: joined again, it says '$3'"
		msg_join "$2" | sed 's/^/# | /'
	fi
}

# The demo recorded, and a copy with CPU 0's instructions counter held in
# its third sample while its cycles run: a counter stopped.
"$HTTOP" --demo -b -n 4 -d 0.1 --record demo.trace >/dev/null 2>&1
python3 - <<'PY'
lines = open("demo.trace").read().split("\n")
n, held = -1, None
for i, l in enumerate(lines):
    if l.startswith("sample "):
        n += 1
    if l.startswith("c 0 ok "):
        f = l.split()
        if n == 1:
            held = f[4]
        elif n == 2:
            f[4] = held
            lines[i] = " ".join(f)
open("held.trace", "w").write("\n".join(lines))
PY
# A stand-in scontrol: Slurm's client with no controller to ask.
cat >scontrol <<'SH'
#!/bin/sh
echo "slurm_load_jobs error: Unable to contact slurm controller (connect failure)" >&2
exit 1
SH
chmod +x scontrol

# Quote one word for sh.
q() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }

# run NAME COMMAND...: the command's standard error on a terminal (a pty
# of script(1); its standard output to /dev/null) in NAME.err.
run() {
	name=$1
	shift
	cmd=
	for a in "$@"; do cmd="$cmd $(q "$a")"; done
	script -qec "$cmd >/dev/null" /dev/null </dev/null | tr -d '\r' >"$name.err"
}

# perf: refused where there are no hardware events (a VM); elsewhere it
# runs and has little to say, which fits too.
run perf "$HTTOP" --source perf -b -n 1 -d 0.1
fits "--source perf" perf.err
"$HTTOP" --source perf -b -n 1 -d 0.1 >/dev/null 2>perf.file
if grep -q "no hardware performance events" perf.err; then
	says "--source perf" perf.err "run httop on the node itself"
	check "--source perf: into a file, one line ($(wc -l <perf.file))" \
	    [ "$(wc -l <perf.file)" -eq 1 ]
else
	skip "--source perf opens here (hardware events)"
	skip "--source perf opens here (hardware events)"
fi
run auto "$HTTOP" -v -b -n 1 -d 0.1
fits "-v: --source auto's line" auto.err
says "-v" auto.err "httop: --source auto: "
run cgroup "$HTTOP" --cgroup /no-such-httop-test -b -n 1
fits "--cgroup that does not exist" cgroup.err
says "--cgroup" cgroup.err "give a cgroup directory, absolute or as the 0:: (v2)"
run conflict "$HTTOP" --replay held.trace -b -n 4
fits "a replay's conflict note" conflict.err
says "a replay's conflict note" conflict.err \
    "counter stopped: instructions retired on CPU 0: registers not available in a replay; its figures stay absent while it lasts (--on-conflict report)"
run missing "$HTTOP" --replay "$tmp/no-such.trace" -b
fits "--replay of a missing file" missing.err
says "--replay of a missing file" missing.err \
    "cannot open the trace $tmp/no-such.trace: No such file or directory; give the path of a file httop --record wrote"
run noctld env HTTOP_SCONTROL="$tmp/scontrol" "$HTTOP" --job 123 -b -n 1
fits "--job, no controller" noctld.err
says "--job, no controller" noctld.err \
    "Unable to contact slurm controller (connect failure); is this a node of a Slurm cluster (scontrol ping)? Without Slurm, watch the job by --pid PID or --cgroup DIR"

# No scontrol where httop looks (the fixed directories): where there is
# one, a private mount namespace hides it (root and unshare needed).
hide=
for d in /usr/bin /bin /usr/sbin /sbin; do
	[ -x "$d/scontrol" ] && hide="$hide mount --bind /dev/null $d/scontrol &&"
done
if [ -z "$hide" ]; then
	run noslurm "$HTTOP" --job 123 -b -n 1
elif [ "$(id -u)" = 0 ] && command -v unshare >/dev/null 2>&1 &&
    unshare -m true 2>/dev/null; then
	run noslurm unshare -m sh -c "$hide exec \"\$0\" --job 123 -b -n 1" "$HTTOP"
fi
if [ -f noslurm.err ]; then
	fits "--job, Slurm not installed" noslurm.err
	says "--job, Slurm not installed" noslurm.err \
	    "without Slurm, watch the job by --pid PID or --cgroup DIR"
else
	skip "scontrol is installed and cannot be hidden here (root and unshare -m)"
	skip "scontrol is installed and cannot be hidden here (root and unshare -m)"
fi

# German: longer words, UTF-8; the width only.
if i18n_setup "$tmp/de"; then
	: >de.err
	for c in "--source perf -b -n 1 -d 0.1" "-v -b -n 1 -d 0.1" \
	    "--cgroup /no-such-httop-test -b -n 1" "--replay held.trace -b -n 4" \
	    "--replay $tmp/no-such.trace -b"; do
		# shellcheck disable=SC2086 # the words of a case
		run de1 env $i18n_env "$HTTOP" $c
		cat de1.err >>de.err
	done
	fits "German, the same cases" de.err
else
	skip "German: $i18n_skip"
fi
