# tests for util: the CPU list syntax (parse, and the lists httop writes);
# the number formatter of the batch outputs and the UTF-8 check.
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

# the batch outputs' number formatter and UTF-8 check
check_PROGRAMS += tests/unit/test_numfmt
tests_unit_test_numfmt_SOURCES = tests/unit/test_numfmt.c
tests_unit_test_numfmt_CFLAGS = $(TEST_CFLAGS) -I$(top_srcdir)/tests
tests_unit_test_numfmt_LDADD = $(TEST_LIBS) -lm
TESTS += tests/unit/test_numfmt
check_PROGRAMS += tests/unit/test_xmlcheck
tests_unit_test_xmlcheck_SOURCES = tests/unit/test_xmlcheck.c
tests_unit_test_xmlcheck_CFLAGS = $(TEST_CFLAGS) -I$(top_srcdir)/tests
tests_unit_test_xmlcheck_LDADD = $(TEST_LIBS)
TESTS += tests/unit/test_xmlcheck
# a stream's reads cut into lines (the nodes' pipes)
check_PROGRAMS += tests/unit/test_linesplit
tests_unit_test_linesplit_SOURCES = tests/unit/test_linesplit.c
tests_unit_test_linesplit_CFLAGS = $(TEST_CFLAGS) -I$(top_srcdir)/tests
tests_unit_test_linesplit_LDADD = $(TEST_LIBS)
TESTS += tests/unit/test_linesplit
# prose broken at blanks to 80 columns (the summaries)
check_PROGRAMS += tests/unit/test_textwrap
tests_unit_test_textwrap_SOURCES = tests/unit/test_textwrap.c
tests_unit_test_textwrap_CFLAGS = $(TEST_CFLAGS) -I$(top_srcdir)/tests
tests_unit_test_textwrap_LDADD = $(TEST_LIBS)
TESTS += tests/unit/test_textwrap
# the one JSON string writer: escapes worked by hand
check_PROGRAMS += tests/unit/test_jsonstr
tests_unit_test_jsonstr_SOURCES = tests/unit/test_jsonstr.c
tests_unit_test_jsonstr_CFLAGS = $(TEST_CFLAGS) -I$(top_srcdir)/tests
tests_unit_test_jsonstr_LDADD = $(TEST_LIBS)
TESTS += tests/unit/test_jsonstr
# the strict decimal number parser: its edges worked by hand
check_PROGRAMS += tests/unit/test_numparse
tests_unit_test_numparse_SOURCES = tests/unit/test_numparse.c
tests_unit_test_numparse_CFLAGS = $(TEST_CFLAGS) -I$(top_srcdir)/tests
tests_unit_test_numparse_LDADD = $(TEST_LIBS) -lm
TESTS += tests/unit/test_numparse
# the one wait: a resize held outside it wakes it (the live view)
check_PROGRAMS += tests/unit/test_evloop
tests_unit_test_evloop_SOURCES = tests/unit/test_evloop.c src/sys/evloop.c src/sys/signals.c
tests_unit_test_evloop_CFLAGS = $(TEST_CFLAGS) -I$(top_srcdir)/tests -I$(top_srcdir)/src/sys
tests_unit_test_evloop_LDADD = $(TEST_LIBS) -lm
TESTS += tests/unit/test_evloop
