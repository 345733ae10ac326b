# tests: tui (job watching, the job aggregate; the tmux tests drive the
# real binary)
check_PROGRAMS += tests/unit/test_job tests/unit/test_subset
tests_unit_test_job_SOURCES = tests/unit/test_job.c
tests_unit_test_job_CFLAGS = $(TEST_CFLAGS) -I$(top_srcdir)/tests
tests_unit_test_job_LDADD = $(TEST_LIBS)
tests_unit_test_subset_SOURCES = tests/unit/test_subset.c
tests_unit_test_subset_CFLAGS = $(TEST_CFLAGS) -I$(top_srcdir)/tests
tests_unit_test_subset_LDADD = $(TEST_LIBS)
TESTS += tests/unit/test_job tests/unit/test_subset
# the job's tasks (src/watch/jobtask.c) over a fake /proc
check_PROGRAMS += tests/unit/test_jobtask
tests_unit_test_jobtask_SOURCES = tests/unit/test_jobtask.c
tests_unit_test_jobtask_CFLAGS = $(TEST_CFLAGS) -I$(top_srcdir)/tests
tests_unit_test_jobtask_LDADD = $(TEST_LIBS)
TESTS += tests/unit/test_jobtask
# The tmux tests (skipped when tmux is missing).
TUI_TESTS = tests/tui/test_tui_demo.sh tests/tui/test_tui_term.sh \
	tests/tui/test_tui_replay.sh tests/tui/test_tui_big.sh tests/tui/test_tui_job.sh \
	tests/tui/test_tui_config.sh tests/tui/test_tui_exit.sh tests/tui/test_tui_bytes.sh \
	tests/tui/test_tui_phases.sh tests/tui/test_tui_states.sh \
	tests/tui/test_tui_job_package.sh tests/tui/test_tui_sizes.sh tests/tui/test_tui_keys.sh \
	tests/tui/test_tui_procstat.sh tests/tui/test_tui_auto.sh \
	tests/tui/test_readme_sample.sh tests/tui/test_tui_ux.sh tests/tui/test_tui_cut.sh \
	tests/tui/test_tui_huge.sh tests/tui/test_tui_config_priv.sh tests/tui/test_tui_reads.sh \
	tests/tui/test_tui_job_split.sh tests/tui/test_tui_job_cores.sh \
	tests/tui/test_tui_nodes_job.sh tests/tui/test_tui_bar_eighth.sh tests/tui/test_tui_job_note.sh \
	tests/tui/test_tui_topo_brand.sh tests/tui/test_tui_unread.sh
TESTS += $(TUI_TESTS)
EXTRA_DIST += $(TUI_TESTS) tests/tui/tuilib.sh tests/tui/gen-topology.sh bench/term-bytes.sh \
	tools/readme-sample.sh
