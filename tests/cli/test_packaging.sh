#!/bin/sh
# test_packaging.sh: the packaging recipes build and say what they should.
#  - versions: debian/changelog, the RPM spec and the Spack recipe carry
#    configure.ac's version;
#  - Spack: packaging/spack/package.py compiles and, run against a stub
#    spack.package module, declares the dependencies and configure flags;
#  - RPM: rpmspec parses the spec; rpmbuild -bb --nodeps builds it from a
#    tarball of the source tree in a private _topdir;
#  - Debian: dpkg-buildpackage -us -uc -b builds a copy of the source tree
#    (DEB_BUILD_OPTIONS=nocheck: debian/rules' smoke test is not the point
#    here); dpkg-deb -c / -f check its files and Depends, and the packaged
#    httop runs the demo from the packaged data.
# Both package builds compile httop once each: about a minute apiece on two
# CPUs.
. "$HTTOP_SRCDIR/tests/lib.sh"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
plan 22

S=$HTTOP_SRCDIR
V=$(sed -n 's/^AC_INIT(\[httop\], \[\([^]]*\)\].*/\1/p' "$S/configure.ac")
diag "configure.ac version: $V"

# --- Versions --------------------------------------------------------------
check "debian/changelog's first entry is httop ($V-N)" \
	grep -q "^httop ($V-[0-9][0-9]*) " "$S/debian/changelog"
check "httop.spec has Version: $V" grep -q "^Version: *$V\$" "$S/packaging/rpm/httop.spec"
check "package.py has version(\"$V\") and a url ending in httop-$V.tar.gz" \
	sh -c "grep -q 'version(\"$V\")' '$S/packaging/spack/package.py' &&
	    grep -q '^ *url = \".*/httop-$V\\.tar\\.gz\"' '$S/packaging/spack/package.py'"

# --- Spack -----------------------------------------------------------------
mkdir -p stub/spack
: >stub/spack/__init__.py
cat >stub/spack/package.py <<'EOF'
# A stand-in for Spack's package API: the directives record their calls.
import os
calls = []
def _rec(name):
    def f(*a, **k):
        calls.append((name, a, k))
    return f
version = _rec("version")
depends_on = _rec("depends_on")
requires = _rec("requires")
variant = _rec("variant")
def join_path(*a):
    return os.path.join(*a)
class AutotoolsPackage:
    pass
__all__ = ["version", "depends_on", "requires", "variant", "join_path", "AutotoolsPackage"]
EOF
check "package.py compiles (python3 -m py_compile)" \
	python3 -c "import py_compile, sys; py_compile.compile(sys.argv[1], cfile='pkg.pyc', doraise=True)" \
	"$S/packaging/spack/package.py"
cat >spack_check.py <<'EOF'
import importlib.util, sys, types
sys.dont_write_bytecode = True   # nothing in the (maybe read-only) source tree
sys.path.insert(0, "stub")
import spack.package as sp
spec = importlib.util.spec_from_file_location("httop_pkg", sys.argv[1])
m = importlib.util.module_from_spec(spec)
spec.loader.exec_module(m)
assert issubclass(m.Httop, sp.AutotoolsPackage), "not an AutotoolsPackage"
deps = {a[0] for n, a, k in sp.calls if n == "depends_on"}
want = {"hwloc@2.1:", "libcpuid", "ncurses", "gettext", "pkgconfig", "zlib-api"}
assert want <= deps, "missing depends_on: %s" % sorted(want - deps)
vers = [a[0] for n, a, k in sp.calls if n == "version"]
assert vers == [sys.argv[2]], "versions %s" % vers
p = m.Httop()
p.prefix = types.SimpleNamespace(share="/opt/h/share")
args = p.configure_args()
assert "--disable-tests" in args, args
assert "--with-bash-completion-dir=/opt/h/share/bash-completion/completions" in args, args
doc = m.Httop.__doc__
for w in ("msr-safe", "allowlist", "cap_sys_rawio", "perf_event_paranoid"):
    assert w in doc, "docstring lacks " + w
print("ok")
EOF
out=$(python3 spack_check.py "$S/packaging/spack/package.py" "$V" 2>&1)
if [ "$out" = ok ]; then
	ok "package.py: AutotoolsPackage, version $V, depends on hwloc@2.1:, libcpuid, ncurses, gettext, pkgconfig, zlib-api; --disable-tests; states the admin setup"
else
	not_ok "package.py: $out"
fi

# --- A copy of the source tree ---------------------------------------------
# Build directories (a config.status inside), distcheck's _build, .git and
# autom4te.cache stay behind. Files are made writable: distcheck's source
# tree is read-only.
mkdir "src-$V" || exit 1
ex=
for d in "$S"/* "$S"/.[!.]*; do
	[ -e "$d" ] || continue
	b=${d##*/}
	case $b in
	.git|autom4te.cache|_build|config.status|config.log|config.h|stamp-h1) continue ;;
	esac
	[ -d "$d" ] && [ -f "$d/config.status" ] && continue
	ex="$ex $b"
done
(cd "$S" && tar cf - $ex) | (cd "src-$V" && tar xf -) || exit 1
chmod -R u+w "src-$V"

# --- RPM -------------------------------------------------------------------
spec=$S/packaging/rpm/httop.spec
if ! command -v rpmspec >/dev/null 2>&1 || ! command -v rpmbuild >/dev/null 2>&1; then
	i=0; while [ $i -lt 6 ]; do skip "rpm (rpmspec, rpmbuild) is not installed"; i=$((i + 1)); done
else
	rpmspec -P "$spec" >spec.out 2>spec.err; st=$?
	check "rpmspec -P parses httop.spec" [ "$st" -eq 0 ]
	[ "$st" -eq 0 ] || sed 's/^/# /' spec.err
	rpmspec -q --buildrequires "$spec" 2>/dev/null | sort >br.out
	bad=
	for p in hwloc-devel libcpuid-devel ncurses-devel gettext zlib-devel pkgconfig; do
		grep -q "^$p\\( \\|\$\\)" br.out || bad="$bad $p"
	done
	check "BuildRequires has the Fedora/RHEL names${bad:+ (missing:$bad)}" [ -z "$bad" ]

	mkdir -p rpm/SOURCES
	mv "src-$V" "httop-$V" && tar czf "rpm/SOURCES/httop-$V.tar.gz" "httop-$V" &&
	    mv "httop-$V" "src-$V"
	rpmbuild -bb --nodeps --define "_topdir $tmp/rpm" "$spec" >rpmbuild.log 2>&1; st=$?
	rpmf=$(ls rpm/RPMS/*/httop-"$V"-*.rpm 2>/dev/null | head -n 1)
	if [ "$st" -eq 0 ] && [ -n "$rpmf" ]; then
		ok "rpmbuild -bb --nodeps built ${rpmf##*/} (%files complete: no unpackaged file)"
	else
		not_ok "rpmbuild -bb --nodeps failed (exit $st)"; tail -n 25 rpmbuild.log | sed 's/^/# /'
	fi
	if [ -n "$rpmf" ]; then
		rpm -qlp "$rpmf" 2>/dev/null >rpm.files
		bad=
		for f in /usr/bin/httop /usr/bin/httop-ppc2trace /usr/share/man/man1/httop.1 \
		    /usr/share/man/man5/httop-trace.5 /usr/share/httop/demo-skx.xml \
		    /usr/share/httop/msr-safe/allowlist /usr/share/httop/dies/skx-xcc.map \
		    /usr/share/httop/scenarios/example.scn /usr/share/bash-completion/completions/httop; do
			grep -q "^$f" rpm.files || bad="$bad $f"
		done
		check "the RPM holds the programs, manuals, data and completion${bad:+ (missing:$bad)}" [ -z "$bad" ]
		rpm -qp --requires "$rpmf" 2>/dev/null >rpm.req
		bad=
		for p in 'hwloc-libs' 'libcpuid' 'ncurses-libs' 'libhwloc\.so' 'libcpuid\.so' 'libncursesw\.so'; do
			grep -q "^$p" rpm.req || bad="$bad $p"
		done
		check "the RPM requires hwloc-libs, libcpuid, ncurses-libs and their sonames${bad:+ (missing:$bad)}" [ -z "$bad" ]
		rpm -qp --scripts "$rpmf" 2>/dev/null >rpm.scripts
		# The note names the three ways; no line of %post runs setcap itself.
		check "the RPM's %post tells of cap_sys_rawio, msr-safe and perf_event_paranoid, runs no setcap" \
			sh -c 'grep -q "cap_sys_rawio" rpm.scripts && grep -q "msr-safe" rpm.scripts &&
			    grep -q "perf_event_paranoid" rpm.scripts && ! grep -q "^ *setcap" rpm.scripts'
	else
		i=0; while [ $i -lt 3 ]; do skip "no RPM was built"; i=$((i + 1)); done
	fi
fi

# --- Debian ----------------------------------------------------------------
if ! command -v dpkg-buildpackage >/dev/null 2>&1 || ! command -v dh >/dev/null 2>&1; then
	i=0; while [ $i -lt 11 ]; do skip "dpkg-dev or debhelper is not installed"; i=$((i + 1)); done
	exit 0
fi
check "debian/control uses debhelper-compat 13" grep -q 'debhelper-compat (= 13)' "$S/debian/control"
check "debian/control: Depends: \${shlibs:Depends}" grep -q '^Depends:.*\${shlibs:Depends}' "$S/debian/control"
(cd "src-$V" && DEB_BUILD_OPTIONS="nocheck parallel=2" \
    dpkg-buildpackage -us -uc -b) >deb.log 2>&1; st=$?
deb=$(ls httop_"$V"-*_*.deb 2>/dev/null | head -n 1)
if [ "$st" -eq 0 ] && [ -n "$deb" ]; then ok "dpkg-buildpackage -us -uc -b built $deb"
else not_ok "dpkg-buildpackage failed (exit $st)"; tail -n 25 deb.log | sed 's/^/# /'; fi
if [ -z "$deb" ]; then
	i=0; while [ $i -lt 8 ]; do skip "no .deb was built"; i=$((i + 1)); done
	exit 0
fi
dpkg-deb -c "$deb" >deb.files
bad=
for f in ./usr/bin/httop ./usr/bin/httop-ppc2trace ./usr/share/man/man1/httop.1.gz \
    ./usr/share/man/man1/httop-ppc2trace.1.gz ./usr/share/man/man5/httop-trace.5.gz \
    ./usr/share/man/man5/httop-diemap.5.gz ./usr/share/httop/demo-skx.xml \
    ./usr/share/httop/demo-skx.cpuid ./usr/share/httop/LICENSES ./usr/share/httop/httop.schema.json \
    ./usr/share/httop/msr-safe/allowlist ./usr/share/httop/msr-safe/README \
    ./usr/share/httop/dies/skx-xcc.map ./usr/share/httop/scenarios/example.scn \
    ./usr/share/bash-completion/completions/httop ./usr/share/doc/httop/copyright; do
	grep -q " $f\$" deb.files || bad="$bad $f"
done
check "the .deb holds the programs, manuals, data, completion and copyright${bad:+ (missing:$bad)}" [ -z "$bad" ]
check "the .deb has README.Debian" grep -q ' ./usr/share/doc/httop/README\.Debian\(\.gz\)\{0,1\}$' deb.files
# Each language in po/LINGUAS has its catalogue.
bad=
for l in $(sed 's/#.*//' "$S/po/LINGUAS" 2>/dev/null); do
	grep -q " ./usr/share/locale/$l/LC_MESSAGES/httop\\.mo\$" deb.files || bad="$bad $l"
done
check "the .deb has the message catalogue of every language in po/LINGUAS${bad:+ (missing:$bad)}" [ -z "$bad" ]
check "no file in the .deb is set-user-ID or set-group-ID" \
	sh -c '! awk "{ print \$1 }" deb.files | grep -q "[sS]"'
dpkg-deb -e "$deb" ctl
check "the .deb's maintainer scripts run no setcap" \
	sh -c '! cat ctl/postinst ctl/preinst 2>/dev/null | grep -q setcap'
dep=$(dpkg-deb -f "$deb" Depends)
diag "Depends: $dep"
# On bookworm: libhwloc15, libcpuid16, libncursesw6, libtinfo6, zlib1g, libc6.
bad=
for p in 'libhwloc[0-9]' 'libcpuid[0-9]' 'libncursesw[0-9]' 'zlib1g' 'libc6'; do
	echo "$dep" | grep -q "\\(^\\|, \\)$p" || bad="$bad $p"
done
check "Depends (from \${shlibs:Depends}) names hwloc, libcpuid, ncursesw, zlib and libc${bad:+ (missing:$bad)}" \
	[ -z "$bad" ]
dpkg-deb -x "$deb" root
out=$(root/usr/bin/httop --version 2>&1)
check "the packaged httop prints 'httop $V'" [ "$out" = "httop $V" ]
HTTOP_DATA_DIR=$tmp/root/usr/share/httop HTTOP_DEBUG_DATA=1 \
    root/usr/bin/httop --demo -b -n 1 -d 0.05 >demo.out 2>demo.err; st=$?
check "the packaged httop runs --demo -b -n 1 from the packaged data" \
	sh -c "[ $st -eq 0 ] && grep -q '$tmp/root/usr/share/httop/demo-skx.xml' demo.err && [ -s demo.out ]"
