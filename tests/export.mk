# tests for export: the openmetrics and summary formats, --textfile, the node
# exporter and many nodes on the loopback (pdsh -R exec)
check_PROGRAMS += tests/unit/test_openmetrics
tests_unit_test_openmetrics_SOURCES = tests/unit/test_openmetrics.c
tests_unit_test_openmetrics_CFLAGS = $(TEST_CFLAGS) -I$(top_srcdir)/tests
tests_unit_test_openmetrics_LDADD = $(TEST_LIBS)
TESTS += tests/unit/test_openmetrics
EXPORT_CLI_TESTS = tests/cli/test_node_exporter.sh tests/cli/test_many_nodes.sh \
	tests/cli/test_prom_series.sh tests/cli/test_promtool.sh tests/cli/test_job_outputs.sh \
	tests/cli/test_prometheus.sh \
	tests/cli/test_wall_time.sh tests/cli/test_output_file.sh
TESTS += $(EXPORT_CLI_TESTS)
EXTRA_DIST += $(EXPORT_CLI_TESTS) tests/cli/om_check.py contrib/grafana/httop-dashboard.json \
	contrib/slurm/httop-prolog contrib/slurm/httop-epilog contrib/slurm/httop-acct
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
