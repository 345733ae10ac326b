# tests for the procstat source (/proc/stat, no counters), --topology as a
# declaration about this machine, and a command run where no source opens.
check_PROGRAMS += tests/unit/test_procstat
tests_unit_test_procstat_SOURCES = tests/unit/test_procstat.c
tests_unit_test_procstat_CFLAGS = $(TEST_CFLAGS) -I$(top_srcdir)/tests
tests_unit_test_procstat_LDADD = $(TEST_LIBS)
TESTS += tests/unit/test_procstat tests/cli/test_procstat.sh tests/cli/test_procstat_user.sh \
	tests/cli/test_steal.sh
EXTRA_DIST += tests/cli/test_procstat.sh tests/cli/test_procstat_user.sh tests/cli/test_steal.sh
