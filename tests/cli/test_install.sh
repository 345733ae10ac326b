#!/bin/sh
# test_install.sh: what `make install` puts where, and that an installed
# httop reads its data from the installed directory.
#
# Two ways to run it:
# - from make check: installs the build into two staging trees (DESTDIR
#   with prefix=/usr and prefix=/opt/x), checks every file, runs the staged
#   programs on the staged data, then uninstalls and finds nothing left;
# - from make installcheck (Makefile.am; make distcheck runs it on its own
#   --prefix): HTTOP_INSTALLED_BINDIR etc. name the real installed tree, and
#   the installed httop must find its data there with no help.
. "$HTTOP_SRCDIR/tests/lib.sh"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
# The messages checked below are the English ones.
LC_ALL=C; export LC_ALL
unset HTTOP_DATA_DIR LANGUAGE

# The data files the demo and the die view need, in every install.
data_files="demo-skx.xml demo-skx.cpuid LICENSES httop.schema.json"
for sub in dies msr-safe scenarios traces; do
	for f in "$HTTOP_SRCDIR"/data/$sub/*; do
		data_files="$data_files $sub/${f##*/}"
	done
done
man_files=
for f in "$HTTOP_SRCDIR"/man/*.[1-8]; do
	n=${f##*/}
	man_files="$man_files man${n##*.}/$n"
done
linguas=$(sed 's/#.*//' "$HTTOP_SRCDIR/po/LINGUAS" 2>/dev/null)

# has_all DIRS...: every expected file under bin, data, man, locale, the
# bash completion dir and the systemd unit dir: $1 bindir, $2 pkgdatadir,
# $3 mandir, $4 localedir, $5 completions dir, $6 unit dir ("no" or empty:
# none configured). Prints what is missing.
has_all() {
	miss=
	for f in httop httop-ppc2trace; do
		[ -x "$1/$f" ] || miss="$miss $1/$f"
	done
	for f in $data_files; do
		[ -f "$2/$f" ] || miss="$miss $2/$f"
	done
	for f in $man_files; do
		[ -f "$3/$f" ] || miss="$miss $3/$f"
	done
	for l in $linguas; do
		[ -f "$4/$l/LC_MESSAGES/httop.mo" ] || miss="$miss $4/$l/LC_MESSAGES/httop.mo"
	done
	case ${5:-no} in
	no) ;;
	*) [ -f "$5/httop" ] || miss="$miss $5/httop" ;;
	esac
	case ${6:-no} in
	no) ;;
	*) [ -f "$6/httop-textfile.service" ] || miss="$miss $6/httop-textfile.service" ;;
	esac
	[ -z "$miss" ] || diag "missing:$miss"
	[ -z "$miss" ]
}

# The demo's first frame is fixed (seed 0, virtual clock): the installed
# program must print what the build tree's prints. The demo machine has
# 2 sockets x 18 cores = 36 core rows; core 0 of package 0 holds CPUs 0
# and 36 (hwloc numbers the second threads from 36 on).
demo_rows() {
	grep -c '^ *[01] *[0-9][0-9]* [0-9][0-9]*,[0-9][0-9]* ' "$1"
}
demo_ok() { [ "$(demo_rows "$1")" -eq 36 ] && grep -q '^ *0 *0 0,36 ' "$1"; }

if [ -n "${HTTOP_INSTALLED_BINDIR:-}" ]; then
	# make installcheck: the real installed tree.
	plan 7
	ibin=$HTTOP_INSTALLED_BINDIR
	idata=$HTTOP_INSTALLED_DATADIR
	check "every file is installed under the prefix" \
		has_all "$ibin" "$idata" "$HTTOP_INSTALLED_MANDIR" "$HTTOP_INSTALLED_LOCALEDIR" \
		"${HTTOP_INSTALLED_COMPLETIONDIR:-}" "${HTTOP_INSTALLED_UNITDIR:-}"
	HTTOP_DEBUG_DATA=1 "$ibin/httop" --demo -b -n 1 >"$tmp/demo.out" 2>"$tmp/demo.err" </dev/null
	st=$?
	check "installed httop --demo -b -n 1 exits 0" [ "$st" -eq 0 ]
	check "it read demo-skx.xml from the installed data directory" grep -qxF \
		"httop: data file demo-skx.xml: $idata/demo-skx.xml (installed data directory)" "$tmp/demo.err"
	check "it read demo-skx.cpuid from there too" grep -qxF \
		"httop: data file demo-skx.cpuid: $idata/demo-skx.cpuid (installed data directory)" "$tmp/demo.err"
	check "and the die map" grep -qxF \
		"httop: data file dies/skx-xcc.map: $idata/dies/skx-xcc.map (installed data directory)" "$tmp/demo.err"
	check "it prints the 36 cores of the demo machine, core 0 on CPUs 0,36" \
		demo_ok "$tmp/demo.out"
	"$ibin/httop-ppc2trace" --help >"$tmp/ppc.out" 2>&1
	check "installed httop-ppc2trace --help exits 0 with its usage" \
		grep -q '^usage: httop-ppc2trace' "$tmp/ppc.out"
	[ -s "$tmp/demo.err" ] && sed 's/^/# /' "$tmp/demo.err"
	exit 0
fi

# make check: stage installs of this build.
plan 15
# The completion goes under the prefix unless configured elsewhere or off.
comp=$(sed -n 's/^BASH_COMPLETION_DIR = //p' "$HTTOP_BUILDDIR/Makefile")
case $comp in
'${prefix}/share/bash-completion/completions'|'${datadir}/bash-completion/completions')
	comp=share/bash-completion/completions ;;
'') comp=no ;;
*) diag "completion configured to $comp: not checked"; comp=no ;;
esac
at() { [ "$comp" = no ] && echo no || echo "$1/$comp"; }
# The systemd unit likewise.
unitd=$(sed -n 's/^systemdsystemunitdir = //p' "$HTTOP_BUILDDIR/Makefile")
case $unitd in
'${prefix}/lib/systemd/system') unitd=lib/systemd/system ;;
'') unitd=no ;;
*) diag "systemd unit configured to $unitd: not checked"; unitd=no ;;
esac
atu() { [ "$unitd" = no ] && echo no || echo "$1/$unitd"; }
unset MAKEFLAGS MFLAGS MAKELEVEL
mk() { make -s -C "$HTTOP_BUILDDIR" "$@" >"$tmp/make.out" 2>&1 ||
	{ sed 's/^/# /' "$tmp/make.out" | tail -20; return 1; }; }
left() { find "$1" ! -type d | sed 's/^/# left: /'; [ -z "$(find "$1" ! -type d)" ]; }

s=$tmp/usr
check "make install DESTDIR=... prefix=/usr" mk install DESTDIR="$s" prefix=/usr
u=$s/usr
check "bin, share/httop, man1/man5, locale, completion, systemd unit are all there" \
	has_all "$u/bin" "$u/share/httop" "$u/share/man" "$u/share/locale" "$(at "$u")" "$(atu "$u")"
check "the Slurm prolog and epilog in libexec/httop, executable; the dashboard in share/httop/grafana" \
	sh -c '[ -x "$1/libexec/httop/httop-prolog" ] && [ -x "$1/libexec/httop/httop-epilog" ] &&
	    [ -x "$1/libexec/httop/httop-acct" ] &&
	    python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$1/share/httop/grafana/httop-dashboard.json"' \
	sh "$u"
only_data() { [ ! -e "$1/local.mk" ] && [ ! -e "$1/README.md" ]; }
check "the data directory holds only data files (no local.mk, no README.md)" \
	only_data "$u/share/httop"

# The staged binary still looks in the configured prefix; point it at the
# staged data: the installed data set alone must be enough for the demo.
HTTOP_DEBUG_DATA=1 HTTOP_DATA_DIR="$u/share/httop" "$u/bin/httop" --demo -b -n 1 \
	>"$tmp/demo.out" 2>"$tmp/demo.err" </dev/null
st=$?
check "staged httop --demo -b -n 1 exits 0" [ "$st" -eq 0 ]
check "it read demo-skx.xml from the staged data (HTTOP_DATA_DIR)" grep -qxF \
	"httop: data file demo-skx.xml: $u/share/httop/demo-skx.xml (HTTOP_DATA_DIR)" "$tmp/demo.err"
check "the die map too" grep -qxF \
	"httop: data file dies/skx-xcc.map: $u/share/httop/dies/skx-xcc.map (HTTOP_DATA_DIR)" "$tmp/demo.err"
check "36 core rows, core 0 on CPUs 0,36" demo_ok "$tmp/demo.out"
"$HTTOP" --demo -b -n 1 >"$tmp/tree.out" 2>/dev/null </dev/null
check "same frame as the build tree's httop" cmp -s "$tmp/tree.out" "$tmp/demo.out"
"$u/bin/httop-ppc2trace" --help >"$tmp/ppc.out" 2>&1
check "staged httop-ppc2trace --help prints its usage" grep -q '^usage: httop-ppc2trace' "$tmp/ppc.out"
check "make uninstall DESTDIR=... prefix=/usr" mk uninstall DESTDIR="$s" prefix=/usr
check "uninstall leaves no file behind" left "$s"

# Another prefix, the way sites install modules: /opt/x.
o=$tmp/opt
check "make install DESTDIR=... prefix=/opt/x" mk install DESTDIR="$o" prefix=/opt/x
x=$o/opt/x
check "bin, share/httop, man, locale under /opt/x" \
	has_all "$x/bin" "$x/share/httop" "$x/share/man" "$x/share/locale" "$(at "$x")" "$(atu "$x")"
mk uninstall DESTDIR="$o" prefix=/opt/x
check "uninstall from /opt/x leaves no file behind" left "$o"
