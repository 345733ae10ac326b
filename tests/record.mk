# tests for record: httop --record (src/out/record.c, the trace writer's
# blocks, gzip) as a unit, and the binary: kill -9, full disks, events,
# the screen stopped by a full disk (tmux).
check_PROGRAMS += tests/unit/test_record
tests_unit_test_record_SOURCES = tests/unit/test_record.c
tests_unit_test_record_CFLAGS = $(TEST_CFLAGS) -I$(top_srcdir)/tests
tests_unit_test_record_LDADD = $(TEST_LIBS)
TESTS += tests/unit/test_record
RECORD_TESTS = tests/cli/test_record.sh tests/cli/test_record_events.sh \
	tests/cli/test_record_tui.sh
TESTS += $(RECORD_TESTS)
EXTRA_DIST += $(RECORD_TESTS)
