# tests for plan and metrics
check_PROGRAMS += tests/unit/test_plan tests/unit/test_calibrate \
	tests/unit/test_split tests/unit/test_metrics
tests_unit_test_plan_SOURCES = tests/unit/test_plan.c
tests_unit_test_plan_CFLAGS = $(TEST_CFLAGS) -I$(top_srcdir)/tests
tests_unit_test_plan_LDADD = $(TEST_LIBS)
tests_unit_test_calibrate_SOURCES = tests/unit/test_calibrate.c
tests_unit_test_calibrate_CFLAGS = $(TEST_CFLAGS) -I$(top_srcdir)/tests
tests_unit_test_calibrate_LDADD = $(TEST_LIBS)
tests_unit_test_split_SOURCES = tests/unit/test_split.c
tests_unit_test_split_CFLAGS = $(TEST_CFLAGS) -I$(top_srcdir)/tests
tests_unit_test_split_LDADD = $(TEST_LIBS)
tests_unit_test_metrics_SOURCES = tests/unit/test_metrics.c
tests_unit_test_metrics_CFLAGS = $(TEST_CFLAGS) -I$(top_srcdir)/tests
tests_unit_test_metrics_LDADD = $(TEST_LIBS)
TESTS += tests/unit/test_plan tests/unit/test_calibrate \
	tests/unit/test_split tests/unit/test_metrics
