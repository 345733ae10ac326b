# Spack recipe for httop. Copy packaging/spack/httop and packaging/spack/libcpuid
# (Spack's builtin repository has no libcpuid) into a Spack package
# repository's packages/ directory, then: spack install httop
#
# What an administrator of the compute nodes sets up so that users can read
# the counters (a Spack install grants no privilege): httop(1), PRIVILEGE.
# In short, one of: LLNL msr-safe with share/httop/msr-safe/allowlist merged
# into the site's allowlist; "modprobe msr" and "setcap cap_sys_rawio=ep" on
# bin/httop (as root, after any chgrp, on a file system that keeps extended
# attributes; a reinstall drops it); or kernel.perf_event_paranoid=0 for
# "httop --source perf". "httop --demo" needs none of them.
#
# This file is not in the release tarball: its version entry holds that
# tarball's sha256. `make dist` gives the same bytes at any time and for any
# user (with the same autoconf, automake and gettext: Debian 12's 2.71,
# 1.16.5 and 0.21); tools/release-sha256.sh makes it from a fresh clone of
# the release commit and writes its sha256 here (Makefile.am, dist-hook).

from spack.package import *

try:  # Spack 1.0 and later keep the build systems in the builtin repository
    from spack_repo.builtin.build_systems.autotools import AutotoolsPackage
except ImportError:  # older Spack: spack.package has it
    pass


class Httop(AutotoolsPackage):
    """Per physical core, how the time splits between neither SMT thread,
    thread 0 only, thread 1 only and both, with per-thread utilisation, CPI
    and frequency, from the performance counters (J. McCalpin's method)."""

    homepage = "https://example.org/httop"
    url = "https://example.org/httop/httop-0.1.0.tar.gz"

    license("BSD-2-Clause")

    version("0.1.0", sha256="8014914009334a1641655112342570d43afc00e0c8ed758a9122bb5f4e6d17a0")

    variant("nls", default=True, description="Translated messages (gettext)")
    variant("bpf", default=True,
            description="--source bpf: the scheduler's figures counted by an eBPF program")
    variant("isal", default=True,
            description="gzip traces inflated by Intel ISA-L (a replay's inflate in a fifth "
            "of zlib's time); zlib's inflate without it")

    # It reads x86 model-specific registers and CPUID.
    requires("target=x86_64:", msg="httop reads x86 performance counters")

    # configure.ac: a C11 compiler, pkg-config, hwloc >= 2.1, libcpuid,
    # ncursesw, zlib; gettext only for the translations; libbpf, with clang
    # and bpftool to build the kernel program, only for --source bpf; ISA-L
    # (libisal) only for +isal.
    depends_on("c", type="build")
    depends_on("pkgconfig", type="build")
    depends_on("hwloc@2.1:")
    depends_on("libcpuid")
    depends_on("ncurses")
    depends_on("zlib-api")
    depends_on("gettext", when="+nls")
    depends_on("libbpf", when="+bpf")
    depends_on("llvm+clang", type="build", when="+bpf")
    depends_on("bpftool", type="build", when="+bpf")
    depends_on("isa-l", when="+isal")

    def configure_args(self):
        # The test programs and their fixtures are for the project's CI; the
        # systemd unit is for distribution packages.
        args = [
            "--disable-tests",
            "--with-systemdsystemunitdir=no",
            "--with-bash-completion-dir="
            + join_path(self.prefix.share, "bash-completion", "completions"),
        ]
        args.extend(self.enable_or_disable("nls"))
        args.extend(self.enable_or_disable("bpf"))
        args.extend(self.with_or_without("isal"))
        return args

    def check(self):
        """The program built runs one interval of the simulated demo machine
        (spack install --test=root)."""
        with working_dir(self.build_directory):
            httop = Executable(join_path("src", "httop"))
            httop("--demo", "-b", "-n", "1")

    def test_demo(self):
        """the installed httop runs one interval of the demo machine"""
        httop = which(self.prefix.bin.httop, required=True)
        out = httop("--demo", "-b", "-n", "1", output=str.split, error=str.split)
        assert "node:" in out
