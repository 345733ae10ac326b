# tests for check (httop --check, issue 19): the pure parts and a whole
# check of the simulator (unit), the real load against /proc/stat and its
# own CPU time (unit, skipped on a machine too busy to measure), the
# command line on the simulator and on the FUSE fake MSR device (shell).
check_PROGRAMS += tests/unit/test_check tests/unit/test_check_load
tests_unit_test_check_SOURCES = tests/unit/test_check.c
tests_unit_test_check_CFLAGS = $(TEST_CFLAGS) -I$(top_srcdir)/tests
tests_unit_test_check_LDADD = $(TEST_LIBS)
tests_unit_test_check_load_SOURCES = tests/unit/test_check_load.c
tests_unit_test_check_load_CFLAGS = $(AM_CFLAGS)
tests_unit_test_check_load_LDADD = $(HTTOP_LIBS)
TESTS += tests/unit/test_check tests/unit/test_check_load
# The command line on the simulator.
TESTS += tests/cli/test_check_cli.sh
EXTRA_DIST += tests/cli/test_check_cli.sh
# End to end on the FUSE fake MSR device (root and /dev/fuse).
TESTS += tests/cli/test_check_fakemsr.sh tests/cli/test_check_threads.sh
EXTRA_DIST += tests/cli/test_check_fakemsr.sh tests/cli/test_check_threads.sh
