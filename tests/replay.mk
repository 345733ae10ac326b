# tests: replay controls in the live view (replay_source seek and scan, the
# header's position) and replay identity (a recording replays to the same
# figures), a trace cut before its first interval, a gzip recording cut
# short, a batch replay from a pipe, a watched job's recording.
check_PROGRAMS += tests/unit/test_replay_seek
tests_unit_test_replay_seek_SOURCES = tests/unit/test_replay_seek.c
tests_unit_test_replay_seek_CFLAGS = $(TEST_CFLAGS) -I$(top_srcdir)/tests
tests_unit_test_replay_seek_LDADD = $(TEST_LIBS) $(NCURSESW_LIBS)
TESTS += tests/unit/test_replay_seek
E2_TESTS = tests/cli/test_replay_identity.sh tests/tui/test_tui_replay_controls.sh \
	tests/tui/test_tui_replay_cut.sh tests/tui/test_tui_replay_job.sh \
	tests/cli/test_replay_cut.sh tests/cli/test_replay_gzcut.sh tests/cli/test_replay_job.sh
TESTS += $(E2_TESTS)
EXTRA_DIST += $(E2_TESTS)
