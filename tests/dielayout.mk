# tests for the die layout: CAPID6 from a fake sysfs (tests/mksysfs.sh),
# the layout rules on every SKX/CLX/KNL fixture, logical grids, die maps.
check_PROGRAMS += tests/unit/test_capid tests/unit/test_dielayout

tests_unit_test_capid_SOURCES = tests/unit/test_capid.c
tests_unit_test_capid_CFLAGS = $(TEST_CFLAGS) -I$(top_srcdir)/tests
tests_unit_test_capid_LDADD = $(TEST_LIBS)

tests_unit_test_dielayout_SOURCES = tests/unit/test_dielayout.c
tests_unit_test_dielayout_CFLAGS = $(TEST_CFLAGS) -I$(top_srcdir)/tests
tests_unit_test_dielayout_LDADD = $(TEST_LIBS)

TESTS += tests/unit/test_capid tests/unit/test_dielayout
EXTRA_DIST += tests/mksysfs.sh
