# tests for out (src/out/): the batch formats on hand-built intervals,
# parsed back: text, CSV and JSON (test_out); openmetrics, the summary and
# the --textfile writer (test_openmetrics). The command line that picks
# them is tested from tests/cli.mk, the exporter end to end from
# tests/export.mk.
check_PROGRAMS += tests/unit/test_out tests/unit/test_openmetrics
tests_unit_test_out_SOURCES = tests/unit/test_out.c
tests_unit_test_out_CFLAGS = $(TEST_CFLAGS) -I$(top_srcdir)/tests
tests_unit_test_out_LDADD = $(TEST_LIBS)
tests_unit_test_openmetrics_SOURCES = tests/unit/test_openmetrics.c
tests_unit_test_openmetrics_CFLAGS = $(TEST_CFLAGS) -I$(top_srcdir)/tests
tests_unit_test_openmetrics_LDADD = $(TEST_LIBS)
TESTS += tests/unit/test_out tests/unit/test_openmetrics
