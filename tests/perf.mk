# tests for the perf_event source: a fake kernel driving the real source
# code, and the real kernel of the machine the tests run on.
check_PROGRAMS += tests/unit/test_perf_source
tests_unit_test_perf_source_SOURCES = tests/unit/test_perf_source.c
tests_unit_test_perf_source_CFLAGS = $(TEST_CFLAGS) -I$(top_srcdir)/tests
tests_unit_test_perf_source_LDADD = $(TEST_LIBS)
TESTS += tests/unit/test_perf_source
# a cgroup's own counts from perf's cgroup events: a fake kernel, then
# this machine's (root: a cgroup with a pinned busy loop, a stranger beside)
check_PROGRAMS += tests/unit/test_perf_cgroup
tests_unit_test_perf_cgroup_SOURCES = tests/unit/test_perf_cgroup.c
tests_unit_test_perf_cgroup_CFLAGS = $(TEST_CFLAGS) -I$(top_srcdir)/tests
tests_unit_test_perf_cgroup_LDADD = $(TEST_LIBS)
TESTS += tests/unit/test_perf_cgroup
