# tests for util: the CPU list syntax (parse, and the lists httop writes).
check_PROGRAMS += tests/unit/test_cpulist
tests_unit_test_cpulist_SOURCES = tests/unit/test_cpulist.c
tests_unit_test_cpulist_CFLAGS = $(TEST_CFLAGS) -I$(top_srcdir)/tests
tests_unit_test_cpulist_LDADD = $(TEST_LIBS)
TESTS += tests/unit/test_cpulist
# files the user names: limits, kinds, and escaping what messages quote
check_PROGRAMS += tests/unit/test_infile
tests_unit_test_infile_SOURCES = tests/unit/test_infile.c
tests_unit_test_infile_CFLAGS = $(TEST_CFLAGS) -I$(top_srcdir)/tests
tests_unit_test_infile_LDADD = $(TEST_LIBS)
TESTS += tests/unit/test_infile
