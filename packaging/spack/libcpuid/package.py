# Spack recipe for libcpuid, which httop needs and Spack's builtin
# repository does not have. Copy this directory into a Spack package
# repository's packages/ directory next to httop's.

from spack.package import *

try:  # Spack 1.0 and later keep the build systems in the builtin repository
    from spack_repo.builtin.build_systems.cmake import CMakePackage
except ImportError:  # older Spack: spack.package has it
    pass


class Libcpuid(CMakePackage):
    """A C library that identifies x86 CPUs from CPUID: vendor, family,
    model, code name, cores, caches and features; also reads raw CPUID
    dumps."""

    homepage = "https://libcpuid.sourceforge.net/"
    git = "https://github.com/anrieff/libcpuid.git"

    license("BSD-2-Clause")

    # Release tags and the commits they name.
    version("0.8.1", tag="v0.8.1", commit="3c5b94bea740badb8da703e4a30a0ef70d956010")
    version("0.8.0", tag="v0.8.0", commit="5bb7c32618fb50178462c791f649516ae6a17193")
    version("0.7.1", tag="v0.7.1", commit="018a05372d1cf2b4b9c18192da6f203521a23460")
    version("0.6.5", tag="v0.6.5", commit="a578c8d993bb27ecf413ac8ff6b93845fc2fe1b3")

    # CPUID exists on x86 only.
    requires("target=x86_64:", msg="libcpuid reads the x86 CPUID instruction")

    depends_on("c", type="build")
    depends_on("cxx", type="build", when="@:0.6")
    depends_on("cmake@3.13:", type="build")

    def cmake_args(self):
        # The kernel drivers are for other systems; the tests need the
        # source tree's test data and Python.
        return [
            self.define("BUILD_SHARED_LIBS", True),
            self.define("LIBCPUID_BUILD_DRIVERS", False),
            self.define("LIBCPUID_ENABLE_TESTS", False),
        ]
