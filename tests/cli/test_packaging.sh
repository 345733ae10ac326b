#!/bin/sh
# time-limit: 1800 (tests/tap-run; the default 600 s is short for its builds)
# test_packaging.sh: the packaging recipes build and fit their distributions.
#  - versions and the project's URL: configure.ac (AC_INIT), debian/,
#    the RPM spec and the Spack recipe agree;
#  - Spack (packaging/spack/{httop,libcpuid}/package.py; not in the release
#    tarball, which they name by sha256): they compile and, run against a
#    stub spack.package, declare a license, the +nls variant (gettext only
#    with it), every build dependency configure.ac checks for, a check()
#    and a test_demo; the sha256 is a sha256;
#  - RPM: rpmspec parses the spec (URL, Source0 a URL, no hand-written
#    library Requires); rpmbuild -bb --nodeps builds it from a tarball of
#    the source tree; the package holds the programs, data, unit and
#    completion, requires the libraries by soname, and its scriptlets print
#    nothing and run no setcap; rpmlint's findings are listed (# lines);
#  - Debian: dpkg-buildpackage -us -uc -b builds a copy of the source tree
#    (DEB_BUILD_OPTIONS=nocheck: debian/rules' smoke test is not the point
#    here); the .deb's files, Depends, copyright (the full license texts),
#    maintainer scripts (the unit neither enabled nor started, no setcap);
#    lintian reports nothing but initial-upload-closes-no-bugs (a first
#    upload closes no ITP bug here); debian/tests/demo-replay passes on the
#    unpacked package.
# Both package builds compile httop once each: about a minute apiece on two
# CPUs.
. "$HTTOP_SRCDIR/tests/lib.sh"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
plan 28

S=$HTTOP_SRCDIR
V=$(sed -n 's/^AC_INIT(\[httop\], \[\([^]]*\)\].*/\1/p' "$S/configure.ac")
URL=$(sed -n 's/^AC_INIT(\[httop\],.*, \[\(https*:[^]]*\)\])$/\1/p' "$S/configure.ac")
diag "configure.ac version: $V, URL: $URL"
spack=$S/packaging/spack

# --- Versions and URL -------------------------------------------------------
check "debian/changelog's first entry is httop ($V-N)" \
	grep -q "^httop ($V-[0-9][0-9]*) " "$S/debian/changelog"
check "httop.spec has Version: $V" grep -q "^Version: *$V\$" "$S/packaging/rpm/httop.spec"
check "AC_INIT names the project's URL" [ -n "$URL" ]
check "debian/control Homepage, debian/watch, the spec's URL are AC_INIT's" sh -c '
	grep -qx "Homepage: $1" "$2/debian/control" &&
	grep -q "^version=4" "$2/debian/watch" && grep -q "^$1/ " "$2/debian/watch" &&
	grep -qx "URL: *$1" "$2/packaging/rpm/httop.spec" &&
	grep -qx "Source0: *%{url}/%{name}-%{version}.tar.gz" "$2/packaging/rpm/httop.spec"' \
	sh "$URL" "$S"

# --- Spack -------------------------------------------------------------------
if [ ! -f "$spack/httop/package.py" ]; then
	i=0; while [ $i -lt 3 ]; do
		skip "no Spack recipes here: a release tarball does not carry them"; i=$((i + 1)); done
elif ! command -v python3 >/dev/null 2>&1; then
	i=0; while [ $i -lt 3 ]; do skip "python3 is not installed (Debian: python3)"; i=$((i + 1)); done
else
	check "httop's and libcpuid's package.py compile (py_compile)" python3 -c '
import py_compile, sys
for f in sys.argv[1:]:
    py_compile.compile(f, cfile="pkg.pyc", doraise=True)' \
		"$spack/httop/package.py" "$spack/libcpuid/package.py"
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
license = _rec("license")
def join_path(*a):
    return os.path.join(*a)
def working_dir(d):
    raise NotImplementedError
def which(*a, **k):
    raise NotImplementedError
class Executable:
    pass
class _Package:
    def enable_or_disable(self, name):
        on = "+" + name in self.spec
        return ["--%s-%s" % ("enable" if on else "disable", name)]
    def with_or_without(self, name):
        on = "+" + name in self.spec
        return ["--%s-%s" % ("with" if on else "without", name)]
    def define(self, name, value):
        return "-D%s=%s" % (name, "ON" if value is True else "OFF" if value is False else value)
class AutotoolsPackage(_Package):
    pass
class CMakePackage(_Package):
    pass
__all__ = ["version", "depends_on", "requires", "variant", "license", "join_path",
           "working_dir", "which", "Executable", "AutotoolsPackage", "CMakePackage"]
EOF
	cat >spack_check.py <<'EOF'
import importlib.util, re, sys, types
sys.dont_write_bytecode = True   # nothing in the (maybe read-only) source tree
sys.path.insert(0, "stub")
import spack.package as sp
httop_py, libcpuid_py, configure_ac, V, part = sys.argv[1:6]

def load(path, name):
    del sp.calls[:]
    spec = importlib.util.spec_from_file_location(name, path)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m, list(sp.calls)

def httop():
  m, calls = load(httop_py, "httop_pkg")
  assert issubclass(m.Httop, sp.AutotoolsPackage), "Httop is not an AutotoolsPackage"
  lic = [a for n, a, k in calls if n == "license"]
  assert lic == [("BSD-2-Clause",)], "license: %s" % lic
  vers = [(a, k) for n, a, k in calls if n == "version"]
  assert [a[0] for a, k in vers] == [V], "versions %s" % vers
  assert re.fullmatch(r"[0-9a-f]{64}", vers[0][1].get("sha256", "")), \
      "version %s: sha256 %r is not a sha256" % (V, vers[0][1].get("sha256"))
  assert any(n == "variant" and a[0] == "nls" for n, a, k in calls), "no nls variant"
  deps = {a[0]: k for n, a, k in calls if n == "depends_on"}
  # Every library and tool configure.ac checks for (not the test-only ones),
  # by its Spack name.
  spack_name = {"hwloc": "hwloc@2.1:", "libcpuid": "libcpuid", "ncursesw": "ncurses",
                "zlib": "zlib-api", "libbpf": "libbpf", "libisal": "isa-l"}
  text = open(configure_ac).read()
  build_part = text.split("AC_ARG_ENABLE([tests]")[0]
  mods = re.findall(r"PKG_CHECK_MODULES\(\[\w+\], \[(\w+)", build_part)
  assert sorted(mods) == sorted(spack_name), "configure.ac checks %s" % mods
  want = {spack_name[x] for x in mods} | {"pkgconfig", "c"}
  if "AM_GNU_GETTEXT(" in text:
      want.add("gettext")
  missing = want - set(deps)
  assert not missing, "missing depends_on: %s" % sorted(missing)
  assert deps["gettext"].get("when") == "+nls", "gettext is needed only with +nls"
  assert callable(getattr(m.Httop, "check", None)), "no check()"
  assert callable(getattr(m.Httop, "test_demo", None)), "no test_demo()"
  doc = m.Httop.__doc__ or ""
  assert 0 < len(doc) <= 400, "docstring of %d characters: keep it short" % len(doc)
  for spec, flag in (("+nls", "--enable-nls"), ("~nls", "--disable-nls")):
      p = m.Httop()
      p.spec = spec
      p.prefix = types.SimpleNamespace(share="/opt/h/share")
      args = p.configure_args()
      assert flag in args, "%s: %s" % (spec, args)
      assert "--disable-tests" in args, args
      assert "--with-bash-completion-dir=/opt/h/share/bash-completion/completions" in args, args
  # libbpf, clang and bpftool only with +bpf, which configure then needs
  for n in ("libbpf", "llvm+clang", "bpftool"):
      assert deps.get(n, {}).get("when") == "+bpf", "%s is needed only with +bpf" % n
  for spec, flag in (("+bpf", "--enable-bpf"), ("~bpf", "--disable-bpf")):
      p = m.Httop()
      p.spec = spec
      p.prefix = types.SimpleNamespace(share="/opt/h/share")
      assert flag in p.configure_args(), "%s: %s" % (spec, p.configure_args())
  # ISA-L only with +isal, which configure then needs; zlib inflates without
  assert deps.get("isa-l", {}).get("when") == "+isal", "isa-l is needed only with +isal"
  for spec, flag in (("+isal", "--with-isal"), ("~isal", "--without-isal")):
      p = m.Httop()
      p.spec = spec
      p.prefix = types.SimpleNamespace(share="/opt/h/share")
      assert flag in p.configure_args(), "%s: %s" % (spec, p.configure_args())

def libcpuid():
  m, calls = load(libcpuid_py, "libcpuid_pkg")
  assert issubclass(m.Libcpuid, sp.CMakePackage), "Libcpuid is not a CMakePackage"
  assert [a for n, a, k in calls if n == "license"] == [("BSD-2-Clause",)], "libcpuid license"
  vers = [(a, k) for n, a, k in calls if n == "version"]
  assert vers and all(re.fullmatch(r"[0-9a-f]{40}", k.get("commit", "")) for a, k in vers), \
      "libcpuid versions need a commit: %s" % vers
  p = m.Libcpuid()
  p.spec = ""
  assert "-DLIBCPUID_ENABLE_TESTS=OFF" in p.cmake_args()

try:
  {"httop": httop, "libcpuid": libcpuid}[part]()
  print("ok")
except AssertionError as e:
  print(e)
EOF
	out=$(python3 spack_check.py "$spack/httop/package.py" "$spack/libcpuid/package.py" \
	    "$S/configure.ac" "$V" httop 2>&1)
	check "httop's package.py: AutotoolsPackage, BSD-2-Clause, version $V with a sha256, +nls (gettext only with it), every build dependency configure.ac checks for, check() and test_demo, a short docstring${out:+ ($out)}" \
		[ "$out" = ok ]
	out=$(python3 spack_check.py "$spack/httop/package.py" "$spack/libcpuid/package.py" \
	    "$S/configure.ac" "$V" libcpuid 2>&1)
	check "libcpuid's package.py: CMakePackage, BSD-2-Clause, git versions pinned to commits${out:+ ($out)}" \
		[ "$out" = ok ]
	tarball=$HTTOP_BUILDDIR/httop-$V.tar.gz
	if [ -f "$tarball" ]; then
		sum=$(sha256sum "$tarball" | cut -d' ' -f1)
		if grep -q "sha256=\"$sum\"" "$spack/httop/package.py"; then
			diag "package.py names the sha256 of $tarball"
		else
			diag "package.py's sha256 is not that of $tarball ($sum): set it at the release"
		fi
	fi
fi

# --- A copy of the source tree ---------------------------------------------
# What a release tarball holds (copy_source_tree, tests/lib.sh).
copy_source_tree "src-$V" || exit 1

# --- RPM -------------------------------------------------------------------
spec=$S/packaging/rpm/httop.spec
if ! command -v rpmspec >/dev/null 2>&1 || ! command -v rpmbuild >/dev/null 2>&1; then
	i=0; while [ $i -lt 8 ]; do skip "rpm (rpmspec, rpmbuild) is not installed (Debian: rpm)"; i=$((i + 1)); done
else
	rpmspec -P "$spec" >spec.out 2>spec.err; st=$?
	check "rpmspec -P parses httop.spec" [ "$st" -eq 0 ]
	[ "$st" -eq 0 ] || sed 's/^/# /' spec.err
	rpmspec -q --buildrequires "$spec" 2>/dev/null | sort >br.out
	bad=
	for p in hwloc-devel libcpuid-devel ncurses-devel gettext zlib-devel pkgconfig \
	    systemd-rpm-macros; do
		grep -q "^$p\\( \\|\$\\)" br.out || bad="$bad $p"
	done
	check "BuildRequires has the Fedora/RHEL names${bad:+ (missing:$bad)}" [ -z "$bad" ]
	# rpm finds the libraries' sonames itself: no Requires on their packages.
	check "no hand-written Requires on the libraries' packages" \
		sh -c '! grep -E "^Requires:.*(hwloc|libcpuid|ncurses|zlib)" "$1"' sh "$spec"

	mkdir -p rpm/SOURCES
	mv "src-$V" "httop-$V" && tar czf "rpm/SOURCES/httop-$V.tar.gz" "httop-$V" &&
	    mv "httop-$V" "src-$V"
	# Fedora's systemd-rpm-macros define these; a Debian rpm has none, so
	# stand-ins let the spec build here (they are not what a Fedora build
	# puts into the scriptlets).
	set --
	if [ -z "$(rpm --eval '%{?_unitdir}')" ]; then
		set -- --define '_unitdir /usr/lib/systemd/system' --define 'systemd_post() :' \
		    --define 'systemd_preun() :' --define 'systemd_postun_with_restart() :'
		diag "rpm has no systemd macros here: stand-ins defined"
	fi
	rpmbuild -bb --nodeps --define "_topdir $tmp/rpm" "$@" "$spec" >rpmbuild.log 2>&1; st=$?
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
		    /usr/share/httop/scenarios/example.scn \
		    /usr/share/httop/traces/stampede2-c591-803.trace.gz \
		    /usr/share/bash-completion/completions/httop \
		    /usr/lib/systemd/system/httop-textfile.service \
		    /usr/libexec/httop/httop-prolog /usr/libexec/httop/httop-epilog \
		    /usr/libexec/httop/httop-acct \
		    /usr/share/httop/grafana/httop-dashboard.json; do
			grep -q "^$f" rpm.files || bad="$bad $f"
		done
		check "the RPM holds the programs, manuals, data, completion and unit${bad:+ (missing:$bad)}" [ -z "$bad" ]
		rpm -qp --requires "$rpmf" 2>/dev/null >rpm.req
		bad=
		for p in 'libhwloc\.so' 'libcpuid\.so' 'libncursesw\.so' 'libz\.so'; do
			grep -q "^$p" rpm.req || bad="$bad $p"
		done
		check "the RPM requires the libraries by soname (found by rpm)${bad:+ (missing:$bad)}" [ -z "$bad" ]
		rpm -qp --scripts "$rpmf" 2>/dev/null >rpm.scripts
		check "the RPM's scriptlets print nothing and run no setcap" \
			sh -c '! grep -qE "(^|[;&|] *)(echo|printf|cat) |^ *setcap" rpm.scripts'
		if command -v rpmlint >/dev/null 2>&1; then
			rpmlint "$spec" "$rpmf" >rpmlint.out 2>&1
			grep -E '^[^ ]+: [EW]: ' rpmlint.out | sed 's/^/# rpmlint: /'
			# What it may say here, and why (a Debian rpm, rpmlint's
			# generic configuration, no signing). Errors, none real
			# (the spec's head says the same):
			#  no-signature: the distributor signs a built package;
			#  no-packager-tag, no-group-tag: Fedora's guidelines
			#   leave Packager to the build system and dropped Group;
			#  missing-call-to-setgroups-before-setuid: a set-user-ID
			#   httop becomes the user who ran it (setresuid, no
			#   setgroups, src/sys/privilege.c): exec kept that user's
			#   supplementary groups, none of root's, so there is none
			#   to drop (test_privileged.sh shows the command's IDs and
			#   groups are the user's).
			# Warnings: Debian's rpm neither strips the binaries nor
			# compresses the manuals (Fedora's brp scripts do), after
			# which rpmlint finds no manual page for either binary;
			# one-line-command-in-%post etc. are the ':' stand-ins of
			# the systemd macros above; invalid-license: rpmlint's
			# licence list here predates the SPDX names;
			# no-buildroot-tag: obsolete since rpm 4.6.
			# Anything else is a finding.
			other=$(grep -E '^[^ ]+: [EW]: ' rpmlint.out | grep -vE ': (W: (unstripped-binary-or-object|one-line-command-in-%(post|preun|postun)|no-manual-page-for-binary|manpage-not-compressed|invalid-license|no-buildroot-tag)|E: (no-signature|no-packager-tag|no-group-tag|missing-call-to-setgroups-before-setuid))( |$)')
			check "rpmlint: nothing but the known tags${other:+ ($other)}" [ -z "$other" ]
		else
			skip "rpmlint is not installed (Debian: rpmlint)"
		fi
	else
		i=0; while [ $i -lt 4 ]; do skip "no RPM was built"; i=$((i + 1)); done
	fi
fi

# --- Debian ----------------------------------------------------------------
if ! command -v dpkg-buildpackage >/dev/null 2>&1 || ! command -v dh >/dev/null 2>&1; then
	i=0; while [ $i -lt 12 ]; do
		skip "dpkg-dev or debhelper is not installed (Debian: dpkg-dev debhelper)"; i=$((i + 1)); done
	exit 0
fi
check "debian/control uses debhelper-compat 13" grep -q 'debhelper-compat (= 13)' "$S/debian/control"
check "debian/copyright has the full BSD-2-Clause and BSD-3-Clause texts" sh -c '
	grep -q "^License: BSD-2-Clause\$" "$1" && grep -q "^License: BSD-3-Clause\$" "$1" &&
	[ "$(grep -c "^ Redistribution and use in source and binary forms" "$1")" -eq 2 ] &&
	grep -q "^ 3. Neither the name of the copyright holder" "$1" &&
	! grep -q common-licenses/BSD "$1"' sh "$S/debian/copyright"
(cd "src-$V" && DEB_BUILD_OPTIONS="nocheck parallel=2" \
    dpkg-buildpackage -us -uc -b) >deb.log 2>&1; st=$?
deb=$(ls httop_"$V"-*_*.deb 2>/dev/null | head -n 1)
if [ "$st" -eq 0 ] && [ -n "$deb" ]; then ok "dpkg-buildpackage -us -uc -b built $deb"
else not_ok "dpkg-buildpackage failed (exit $st)"; tail -n 25 deb.log | sed 's/^/# /'; fi
if [ -z "$deb" ]; then
	i=0; while [ $i -lt 9 ]; do skip "no .deb was built"; i=$((i + 1)); done
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
    ./usr/share/httop/traces/stampede2-c591-803.trace.gz \
    ./usr/share/bash-completion/completions/httop ./usr/share/doc/httop/copyright \
    ./usr/share/doc/httop/changelog.gz ./lib/systemd/system/httop-textfile.service \
    ./usr/libexec/httop/httop-prolog ./usr/libexec/httop/httop-epilog \
    ./usr/share/httop/grafana/httop-dashboard.json; do
	grep -q " $f\$" deb.files || bad="$bad $f"
done
check "the .deb holds the programs, manuals, data, completion, unit, copyright${bad:+ (missing:$bad)}" [ -z "$bad" ]
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
# The unit is installed, neither enabled (only re-enabled if the admin had
# it enabled) nor started.
check "the maintainer scripts run no setcap, enable the unit only if it was, start nothing" sh -c '
	! cat ctl/postinst ctl/preinst 2>/dev/null | grep -q setcap &&
	grep -q "was-enabled .httop-textfile.service" ctl/postinst &&
	! grep -q "deb-systemd-invoke.*start" ctl/postinst'
dep=$(dpkg-deb -f "$deb" Depends)
diag "Depends: $dep"
# On bookworm: libhwloc15, libcpuid16, libncursesw6, libtinfo6, zlib1g, libc6.
bad=
for p in 'libhwloc[0-9]' 'libcpuid[0-9]' 'libncursesw[0-9]' 'zlib1g' 'libc6'; do
	echo "$dep" | grep -q "\\(^\\|, \\)$p" || bad="$bad $p"
done
check "Depends (from \${shlibs:Depends}) names hwloc, libcpuid, ncursesw, zlib and libc${bad:+ (missing:$bad)}" \
	[ -z "$bad" ]
check "the Slurm scripts in the .deb are executable (prolog, epilog, httop-acct)" \
	sh -c 'for f in httop-prolog httop-epilog httop-acct; do
		grep " ./usr/libexec/httop/$f\$" deb.files | grep -q "^-rwxr-xr-x" || exit 1; done'
dpkg-deb -x "$deb" root
out=$(root/usr/bin/httop --version 2>&1)
check "the packaged httop prints 'httop $V' first" [ "$(printf '%s\n' "$out" | head -n 1)" = "httop $V" ]
# debian/tests/demo-replay (the autopkgtest) on the unpacked package.
(PATH=$tmp/root/usr/bin:$PATH HTTOP_DATA_DIR=$tmp/root/usr/share/httop AUTOPKGTEST_TMP=$tmp \
    sh "$S/debian/tests/demo-replay") >autopkgtest.out 2>&1; st=$?
check "debian/tests/demo-replay passes on the unpacked package (demo, then the shipped trace)" \
	sh -c "[ $st -eq 0 ] && grep -q 'demo and replay: ok' autopkgtest.out"
[ "$st" -eq 0 ] || tail -n 10 autopkgtest.out | sed 's/^/# /'
if command -v lintian >/dev/null 2>&1; then
	lintian -EI -L +pedantic "$deb" >lintian.out 2>&1
	grep -E '^[EWIPX]: ' lintian.out | sed 's/^/# lintian: /'
	# A first upload closes no ITP bug here; nothing else may remain.
	other=$(grep -E '^[EWIPX]: ' lintian.out | grep -v ': initial-upload-closes-no-bugs ')
	check "lintian: nothing but initial-upload-closes-no-bugs${other:+ ($other)}" [ -z "$other" ]
else
	skip "lintian is not installed (Debian: lintian)"
fi
