# tests for the scheduler source: its arithmetic by hand (unit), and the
# source on the real kernel (cli: loads, --check, outputs, the live view;
# test_sched.sh and test_check_beside.sh run alone: tests/serial.mk)
check_PROGRAMS += tests/unit/test_sched
tests_unit_test_sched_SOURCES = tests/unit/test_sched.c
tests_unit_test_sched_CFLAGS = $(TEST_CFLAGS) -I$(top_srcdir)/tests
tests_unit_test_sched_LDADD = $(TEST_LIBS)
TESTS += tests/unit/test_sched
# the job's figures in the merge, by hand
check_PROGRAMS += tests/unit/test_sched_job
tests_unit_test_sched_job_SOURCES = tests/unit/test_sched_job.c
tests_unit_test_sched_job_CFLAGS = $(TEST_CFLAGS) -I$(top_srcdir)/tests
tests_unit_test_sched_job_LDADD = $(TEST_LIBS)
TESTS += tests/unit/test_sched_job
SCHED_TESTS = tests/tui/test_tui_sched.sh tests/cli/test_split_label.sh \
	tests/cli/test_scale_absent.sh tests/cli/test_perfmon_cap.sh tests/cli/test_bpf_cap.sh \
	tests/cli/test_bpf_off.sh
TESTS += $(SCHED_TESTS)
EXTRA_DIST += $(SCHED_TESTS) tests/cli/sched_load.py tests/schedlib.sh
# the bpf source's arithmetic (kernel program and reads alike), by hand
check_PROGRAMS += tests/unit/test_bpf_core
tests_unit_test_bpf_core_SOURCES = tests/unit/test_bpf_core.c
tests_unit_test_bpf_core_CFLAGS = $(TEST_CFLAGS) -I$(top_srcdir)/tests
tests_unit_test_bpf_core_LDADD = $(TEST_LIBS)
TESTS += tests/unit/test_bpf_core
# the bpf and sched sources in one process over the same windows (issue
# 37): tests/cli/bpf_window.c, driven by test_bpf_window.sh (serial)
check_PROGRAMS += tests/cli/bpf_window
tests_cli_bpf_window_SOURCES = tests/cli/bpf_window.c
tests_cli_bpf_window_CFLAGS = $(AM_CFLAGS)
tests_cli_bpf_window_LDADD = $(HTTOP_LIBS)
