# tests for cli: the command line (shell). The batch formats' unit tests
# are the out layer's (tests/out.mk).
CLI_TESTS = tests/cli/test_cli_options.sh tests/cli/test_cli_msr.sh tests/cli/test_cli_ux.sh \
	tests/cli/test_readme.sh \
	tests/cli/test_cli_demo.sh tests/cli/test_cli_signals.sh tests/cli/test_signal_window.sh tests/cli/test_cli_replay.sh \
	tests/cli/test_cli_scale.sh tests/cli/test_cli_inputs.sh tests/cli/test_docs.sh \
	tests/cli/test_out_files.sh tests/cli/test_hwloc_plugins.sh tests/cli/test_cli_recover.sh \
	tests/cli/test_gnu.sh tests/cli/test_msg_width.sh tests/cli/test_schema.sh
TESTS += $(CLI_TESTS)
EXTRA_DIST += $(CLI_TESTS)

# The code's shape: no include reaches up HACKING.md's layer table
# (tools/check-layers.sh), no function above McCabe 25 (pmccabe).
TESTS += tests/cli/test_layers.sh tests/cli/test_complexity.sh
EXTRA_DIST += tests/cli/test_layers.sh tests/cli/test_complexity.sh tools/check-layers.sh

# The table of sources (src/source/kinds.c) that --source's parsing, help
# and error text and auto's order come from.
check_PROGRAMS += tests/unit/test_source_kinds
tests_unit_test_source_kinds_SOURCES = tests/unit/test_source_kinds.c
tests_unit_test_source_kinds_CFLAGS = $(TEST_CFLAGS) -I$(top_srcdir)/tests
tests_unit_test_source_kinds_LDADD = $(TEST_LIBS)
TESTS += tests/unit/test_source_kinds
