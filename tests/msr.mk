# tests for msr: the engine over the simulator (unit), the FUSE fake MSR
# device (a helper program, not a test) and the shell tests that mount it
# and drive the real binary through the msr source.
check_PROGRAMS += tests/unit/test_msr_source
# Without fuse3 (configure says so) the device is not built and the tests
# that mount it report SKIP.
if HAVE_FUSE3
check_PROGRAMS += tests/fakemsr/fakemsr
endif
EXTRA_DIST += tests/fakemsr/fakemsr.c
tests_unit_test_msr_source_SOURCES = tests/unit/test_msr_source.c
tests_unit_test_msr_source_CFLAGS = $(TEST_CFLAGS) -I$(top_srcdir)/tests
tests_unit_test_msr_source_LDADD = $(TEST_LIBS)
TESTS += tests/unit/test_msr_source

tests_fakemsr_fakemsr_SOURCES = tests/fakemsr/fakemsr.c
tests_fakemsr_fakemsr_CFLAGS = $(AM_CFLAGS) $(FUSE3_CFLAGS)
tests_fakemsr_fakemsr_LDADD = $(HTTOP_LIBS) $(FUSE3_LIBS)

# They mount tests/fakemsr (root and /dev/fuse): a failed mount is a failure.
TESTS += tests/cli/test_fakemsr_skx.sh tests/cli/test_fakemsr_spr.sh \
	tests/cli/test_fakemsr_busy.sh tests/cli/test_fakemsr_signals.sh \
	tests/cli/test_fakemsr_hangup.sh
EXTRA_DIST += tests/cli/fakemsrlib.sh tests/cli/test_fakemsr_skx.sh \
	tests/cli/test_fakemsr_spr.sh tests/cli/test_fakemsr_busy.sh \
	tests/cli/test_fakemsr_signals.sh tests/cli/test_fakemsr_hangup.sh

# Every plan group on real fixtures: exact programming, foreign bits kept,
# access counts, split against the simulator's truth, full restore.
check_PROGRAMS += tests/unit/test_msr_groups
tests_unit_test_msr_groups_SOURCES = tests/unit/test_msr_groups.c
tests_unit_test_msr_groups_CFLAGS = $(TEST_CFLAGS) -I$(top_srcdir)/tests
tests_unit_test_msr_groups_LDADD = $(TEST_LIBS)
TESTS += tests/unit/test_msr_groups

# The saved-state file: its text both ways, torn files, the directory's rules.
check_PROGRAMS += tests/unit/test_msr_state
tests_unit_test_msr_state_SOURCES = tests/unit/test_msr_state.c
tests_unit_test_msr_state_CFLAGS = $(TEST_CFLAGS) -I$(top_srcdir)/tests
tests_unit_test_msr_state_LDADD = $(TEST_LIBS)
TESTS += tests/unit/test_msr_state

# The tests' state directory (HTTOP_STATE_DIR in Makefile.am): a test that
# kills httop with SIGKILL may leave a file there.
clean-state:
	rm -rf tests/state

# httop killed with SIGKILL: the next run puts back what it left from its
# saved state; without one, httop --restore (httop(1), RECOVERY).
TESTS += tests/cli/test_fakemsr_recover.sh
EXTRA_DIST += tests/cli/test_fakemsr_recover.sh

# The device refuses to open (EACCES, EPERM), has vanished (ENOENT) or
# answers ENXIO for one CPU (fakemsr's "deny open").
TESTS += tests/cli/test_fakemsr_priv.sh
EXTRA_DIST += tests/cli/test_fakemsr_priv.sh
