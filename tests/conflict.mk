# tests for conflicts, hotplug and long runs (issue 6): --on-conflict over
# the engine and the real Stampede2 trace, hotplug in the engine, the same
# end to end on the FUSE fake MSR device, and a soak run of the simulator.
check_PROGRAMS += tests/unit/test_conflict
tests_unit_test_conflict_SOURCES = tests/unit/test_conflict.c
tests_unit_test_conflict_CFLAGS = $(TEST_CFLAGS) -I$(top_srcdir)/tests
tests_unit_test_conflict_LDADD = $(TEST_LIBS)
TESTS += tests/unit/test_conflict

check_PROGRAMS += tests/unit/test_hotplug
tests_unit_test_hotplug_SOURCES = tests/unit/test_hotplug.c
tests_unit_test_hotplug_CFLAGS = $(TEST_CFLAGS) -I$(top_srcdir)/tests
tests_unit_test_hotplug_LDADD = $(TEST_LIBS)
TESTS += tests/unit/test_hotplug

# End to end on the FUSE fake MSR device (root and /dev/fuse).
TESTS += tests/cli/test_fakemsr_conflict.sh
EXTRA_DIST += tests/cli/test_fakemsr_conflict.sh
TESTS += tests/cli/test_fakemsr_hotplug.sh
EXTRA_DIST += tests/cli/test_fakemsr_hotplug.sh

# 100,000 simulated intervals (20,000 under the sanitizers): flat memory
# and descriptors.
TESTS += tests/cli/test_soak.sh
EXTRA_DIST += tests/cli/test_soak.sh

# the pacer's deadlines: --align on the wall clock's grid
check_PROGRAMS += tests/unit/test_pacer
tests_unit_test_pacer_SOURCES = tests/unit/test_pacer.c
tests_unit_test_pacer_CFLAGS = $(TEST_CFLAGS) -I$(top_srcdir)/tests
tests_unit_test_pacer_LDADD = $(TEST_LIBS)
TESTS += tests/unit/test_pacer
