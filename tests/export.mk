# tests for export: --textfile, the node exporter and many nodes on the
# loopback (pdsh -R exec) end to end, and the running totals behind the
# Prometheus counters; the openmetrics and summary writers' unit test is
# the out layer's (tests/out.mk).
EXPORT_CLI_TESTS = tests/cli/test_node_exporter.sh tests/cli/test_many_nodes.sh \
	tests/cli/test_prom_series.sh tests/cli/test_promtool.sh tests/cli/test_job_outputs.sh \
	tests/cli/test_prometheus.sh tests/cli/test_om_strict.sh tests/cli/test_job_textfile.sh \
	tests/cli/test_wall_time.sh tests/cli/test_output_file.sh
TESTS += $(EXPORT_CLI_TESTS)
EXTRA_DIST += $(EXPORT_CLI_TESTS) tests/cli/om_check.py tests/cli/om_strict.py tests/cli/promlib.sh tests/cli/dash_check.py
check_PROGRAMS += tests/unit/test_totals
tests_unit_test_totals_SOURCES = tests/unit/test_totals.c
tests_unit_test_totals_CFLAGS = $(TEST_CFLAGS) -I$(top_srcdir)/tests
tests_unit_test_totals_LDADD = $(TEST_LIBS)
TESTS += tests/unit/test_totals
check_PROGRAMS += tests/unit/test_slurmjobs
tests_unit_test_slurmjobs_SOURCES = tests/unit/test_slurmjobs.c
tests_unit_test_slurmjobs_CFLAGS = $(TEST_CFLAGS) -I$(top_srcdir)/tests
tests_unit_test_slurmjobs_LDADD = $(TEST_LIBS)
TESTS += tests/unit/test_slurmjobs
# the table of figures against the formats it drives
check_PROGRAMS += tests/unit/test_figures
tests_unit_test_figures_SOURCES = tests/unit/test_figures.c
tests_unit_test_figures_CFLAGS = $(TEST_CFLAGS) -I$(top_srcdir)/tests
tests_unit_test_figures_LDADD = $(TEST_LIBS) -lm
TESTS += tests/unit/test_figures
