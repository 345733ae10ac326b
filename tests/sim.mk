# tests for sim: the virtual PMU and the scenarios
check_PROGRAMS += tests/unit/test_vpmu tests/unit/test_scenario
tests_unit_test_vpmu_SOURCES = tests/unit/test_vpmu.c
tests_unit_test_vpmu_CFLAGS = $(TEST_CFLAGS) -I$(top_srcdir)/tests
tests_unit_test_vpmu_LDADD = $(TEST_LIBS)
tests_unit_test_scenario_SOURCES = tests/unit/test_scenario.c
tests_unit_test_scenario_CFLAGS = $(TEST_CFLAGS) -I$(top_srcdir)/tests
tests_unit_test_scenario_LDADD = $(TEST_LIBS)
TESTS += tests/unit/test_vpmu tests/unit/test_scenario
