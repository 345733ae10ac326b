# tests for machine: topology (every hwloc fixture), identity (every CPUID
# dump), uarch groups, machine_load, --topology declared for this machine.
check_PROGRAMS += tests/unit/test_topology tests/unit/test_identity tests/unit/test_uarch \
    tests/unit/test_declare

tests_unit_test_topology_SOURCES = tests/unit/test_topology.c
tests_unit_test_topology_CFLAGS = $(TEST_CFLAGS) -I$(top_srcdir)/tests
tests_unit_test_topology_LDADD = $(TEST_LIBS)

tests_unit_test_identity_SOURCES = tests/unit/test_identity.c
tests_unit_test_identity_CFLAGS = $(TEST_CFLAGS) -I$(top_srcdir)/tests
tests_unit_test_identity_LDADD = $(TEST_LIBS)

tests_unit_test_declare_SOURCES = tests/unit/test_declare.c
tests_unit_test_declare_CFLAGS = $(TEST_CFLAGS) -I$(top_srcdir)/tests
tests_unit_test_declare_LDADD = $(TEST_LIBS)

tests_unit_test_uarch_SOURCES = tests/unit/test_uarch.c
tests_unit_test_uarch_CFLAGS = $(TEST_CFLAGS) -I$(top_srcdir)/tests
tests_unit_test_uarch_LDADD = $(TEST_LIBS)

TESTS += tests/unit/test_topology tests/unit/test_identity tests/unit/test_uarch \
    tests/unit/test_declare
EXTRA_DIST += tests/data/machine/malformed.xml tests/data/machine/README
