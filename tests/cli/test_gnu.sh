#!/bin/sh
# test_gnu.sh: the GNU conventions of --help and --version.
# - A write error on standard output (a full device) is an error: status 1
#   and one message naming it, not a silent success.
# - A reader that goes away early (a closed pipe) is not: status 0, as in
#   every mode of httop (httop(1), EXIT STATUS).
# - Every default --help states is what httop does without the option:
#   for each "(default X" in --help, a run without the option and one
#   with "--OPTION X" give the same output (--textfile-level said thread,
#   httop wrote package). An option whose default the help states and this
#   test does not know is a failure, so a new one cannot go unchecked.
# - --help ends with "Report bugs to:" and the home page (AC_INIT's
#   bug-report and URL arguments); --version has the copyright line of
#   COPYING and the licence (BSD-2-Clause), as GNU's standards describe.
. "$HTTOP_SRCDIR/tests/lib.sh"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
need python3 python3
[ -w /dev/full ] || skip_all "no /dev/full to write to"
plan 12

for opt in --help --version; do
	"$HTTOP" $opt >/dev/full 2>"$tmp/err"; st=$?
	check "$opt >/dev/full: status 1 (was $st)" [ "$st" -eq 1 ]
	check "$opt >/dev/full: one message naming the write error ($(head -c 120 "$tmp/err"))" \
		sh -c '[ "$(wc -l <"$1")" -eq 1 ] && grep -q "^httop: writing to standard output: No space left on device$" "$1"' \
		sh "$tmp/err"
done
# The reader is gone before httop writes (the pipe's read end closed
# first): EPIPE, status 0.
out=$(python3 -c '
import os, subprocess, sys
r, w = os.pipe()
os.close(r)
p = subprocess.run([sys.argv[1], "--help"], stdout=w, stderr=subprocess.PIPE)
print(p.returncode, len(p.stderr))' "$HTTOP")
check "--help into a pipe whose reader is gone: status 0, nothing on standard error ($out)" \
	[ "$out" = "0 0" ]

# Each default the help states: OPTION VALUE, one a line.
"$HTTOP" --help >"$tmp/help" 2>/dev/null
python3 -c '
import re, sys
opt, text = None, {}
for line in open(sys.argv[1]):
    m = re.match(r"^  (?:-\w, )?(?:    )?--([a-z-]+)", line)
    if m:
        opt = m.group(1)
        text[opt] = line[m.end():]
    elif opt is not None and line.startswith(" " * 25):
        text[opt] += line
    else:
        opt = None
for o, t in text.items():
    t = " ".join(t.split())
    for m in re.finditer(r"default(?: scenario:)? ([^\s,:;)]+)", t):
        print(o, m.group(1))
' "$tmp/help" >"$tmp/defaults"
export HTTOP_CLOCK=virtual
# run NAME ARGS...: httop's standard output, standard error and status,
# into $tmp/NAME.
run() {
	_n=$1
	shift
	rm -rf "$tmp/tf"
	mkdir -p "$tmp/tf"
	"$HTTOP" "$@" >"$tmp/$_n.out" 2>"$tmp/$_n.err"
	echo "status $?" >>"$tmp/$_n.err"
	[ -f "$tmp/tf/httop.prom" ] && cat "$tmp/tf/httop.prom" >>"$tmp/$_n.out"
	sed -i "s|$tmp|TMP|g" "$tmp/$_n.out" "$tmp/$_n.err"
}
checked= unknown= differ= skipped=
while read -r opt val; do
	case $opt in
	delay|format|seed|on-conflict) base="--demo -b -n 2 --format summary" ;;
	level) base="--demo -b -n 1 --format openmetrics" ;;
	textfile-level) base="--demo -b -n 1 --format summary --textfile $tmp/tf" ;;
	sim) base="--source sim -b -n 1 --format json" ;;
	source) base="-b -n 1 -d 0.2 --format json" ;;
	msr-path) base="--source msr -b -n 1" ;;
	msr-safe-path|msr-batch-path) base="--source msr-safe -b -n 1" ;;
	# --seconds: --check needs idle CPUs and seconds per case; its default
	# is OPT_CHECK_SECONDS_DEFAULT, the constant the help prints.
	# --remote-httop: the nodes' command line (test_nodes_ssh.sh).
	seconds|remote-httop) skipped="$skipped $opt"; continue ;;
	*) unknown="$unknown $opt=$val"; continue ;;
	esac
	[ "$opt" = format ] && base="--demo -b -n 2"
	run without $base
	run with $base "--$opt" "$val"
	if [ "$opt" = source ]; then
		# a live source: the measured figures differ, the source not
		jq -r .source "$tmp/without.out" >"$tmp/without.src"
		jq -r .source "$tmp/with.out" >"$tmp/with.src"
		cmp -s "$tmp/without.src" "$tmp/with.src" && [ -s "$tmp/with.src" ] ||
			differ="$differ $opt=$val"
	elif ! cmp -s "$tmp/without.out" "$tmp/with.out" ||
	    ! cmp -s "$tmp/without.err" "$tmp/with.err"; then
		differ="$differ $opt=$val"
	fi
	checked="$checked $opt=$val"
done <"$tmp/defaults"
check "the help states defaults ($(wc -l <"$tmp/defaults"))" [ "$(wc -l <"$tmp/defaults")" -ge 12 ]
check "each default the help states is what httop does without the option (checked:$checked; not here:$skipped; differ:${differ:- none})" \
    [ -z "$differ" ]
check "no default in the help this test does not know (${unknown:-none})" [ -z "$unknown" ]
check "--help: --textfile-level's default is package" \
    grep -qx "textfile-level package" "$tmp/defaults"
# GNU's --help end and --version.
url=$(sed -n 's/^AC_INIT(\[httop\], \[[^]]*\], \[\([^]]*\)\], \[httop\], \[\([^]]*\)\]).*/\1 \2/p' \
    "$HTTOP_SRCDIR/configure.ac")
check "configure.ac's AC_INIT names a bug-report address and a home page ($url)" \
    [ -n "${url% *}" ] && [ -n "${url#* }" ]
check "--help: 'Report bugs to:' and the home page, AC_INIT's" sh -c '
    grep -qx "Report bugs to: $1" "$3" && grep -qx "httop home page: <$2>" "$3"' \
    sh "${url% *}" "${url#* }" "$tmp/help"
"$HTTOP" --version >"$tmp/version" 2>&1
copy=$(sed -n '1s/^Copyright (c) /Copyright (C) /p' "$HTTOP_SRCDIR/COPYING")
check "--version: name and version, COPYING's copyright, the licence, no warranty" sh -c '
    [ "$(sed -n 2p "$1")" = "$2" ] &&
    sed -n 1p "$1" | grep -Eq "^httop [0-9]+\.[0-9]+\.[0-9]+$" &&
    grep -qx "License BSD-2-Clause: <https://spdx.org/licenses/BSD-2-Clause.html>" "$1" &&
    grep -q "^There is NO WARRANTY" "$1" && grep -q "BSD 2-Clause\|Redistribution and use" "$3"' \
    sh "$tmp/version" "$copy" "$HTTOP_SRCDIR/COPYING"
