# Spack recipe for httop. Copy it into a Spack package repository as
# packages/httop/package.py, then: spack install httop
#
# Runtime dependencies: hwloc (>= 2.1), libcpuid, ncurses (the wide
# library, ncursesw), zlib and gettext's libintl. What an administrator of
# the compute nodes sets up so that users can read the counters is in the
# docstring below and in httop(1), PRIVILEGE.

from spack.package import *


class Httop(AutotoolsPackage):
    """httop shows, for every physical core, how each interval splits
    between neither SMT thread active, thread 0 only, thread 1 only and
    both, with per-thread utilisation, CPI and frequency, from the
    performance counters (John McCalpin's method).

    Reading the counters needs privilege that a Spack install does not
    grant. On the compute nodes an administrator does one of:
    load LLNL msr-safe with share/httop/msr-safe/allowlist merged into the
    site's allowlist (README next to it), and give the users' group access
    to /dev/cpu/*/msr_safe and /dev/cpu/msr_batch (nothing else needed);
    or "modprobe msr", a group with rw on /dev/cpu/*/msr and
    "setcap cap_sys_rawio=ep <prefix>/bin/httop" (as root, on a file
    system that keeps extended attributes, after any chgrp, which clears
    it; everyone who can run the binary can then program the PMU, and a
    reinstall drops the capability);
    or kernel.perf_event_paranoid=0 for "httop --source perf".
    "httop --demo" runs without any of them."""

    # Where the site keeps the release tarball made by `make dist`; there
    # is no public download yet. `spack checksum httop` adds the sha256.
    homepage = "https://example.org/httop"
    url = "https://example.org/httop/httop-0.1.0.tar.gz"

    version("0.1.0")

    # It reads x86 model-specific registers and CPUID.
    requires("target=x86_64:", msg="httop reads x86 performance counters")

    depends_on("c", type="build")
    depends_on("pkgconfig", type="build")
    depends_on("gettext")
    depends_on("hwloc@2.1:")
    depends_on("libcpuid")
    depends_on("ncurses")
    depends_on("zlib-api")

    def configure_args(self):
        # The test programs need cmocka, fuse3 and the project's shared
        # fixtures, which the tarball does not carry.
        return [
            "--disable-tests",
            "--with-bash-completion-dir="
            + join_path(self.prefix.share, "bash-completion", "completions"),
        ]
