# tests for stopped counters (issue 20): the partner rule and its
# thresholds on hand-made samples (the real trace is test_realtrace's), the
# same live over the simulator's PMU, and end to end on the fake MSR device.
check_PROGRAMS += tests/unit/test_stopped
tests_unit_test_stopped_SOURCES = tests/unit/test_stopped.c
tests_unit_test_stopped_CFLAGS = $(TEST_CFLAGS) -I$(top_srcdir)/tests
tests_unit_test_stopped_LDADD = $(TEST_LIBS)
TESTS += tests/unit/test_stopped

# End to end on the FUSE fake MSR device (root and /dev/fuse).
TESTS += tests/cli/test_fakemsr_stopped.sh
EXTRA_DIST += tests/cli/test_fakemsr_stopped.sh

# On the screen (tmux): the real trace's stopped counter in the views.
TESTS += tests/tui/test_tui_stopped.sh
EXTRA_DIST += tests/tui/test_tui_stopped.sh
