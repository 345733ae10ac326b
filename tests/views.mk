# tests: views (threads, topology), averaging history, settings file
check_PROGRAMS += tests/unit/test_history
tests_unit_test_history_SOURCES = tests/unit/test_history.c
tests_unit_test_history_CFLAGS = $(TEST_CFLAGS) -I$(top_srcdir)/tests
tests_unit_test_history_LDADD = $(TEST_LIBS)
TESTS += tests/unit/test_history
check_PROGRAMS += tests/unit/test_config
tests_unit_test_config_SOURCES = tests/unit/test_config.c
tests_unit_test_config_CFLAGS = $(TEST_CFLAGS) -I$(top_srcdir)/tests
tests_unit_test_config_LDADD = $(TEST_LIBS)
TESTS += tests/unit/test_config
# the view files are included by the test (their layout functions are static)
check_PROGRAMS += tests/unit/test_views
tests_unit_test_views_SOURCES = tests/unit/test_views.c
tests_unit_test_views_CFLAGS = $(TEST_CFLAGS) -I$(top_srcdir)/tests
tests_unit_test_views_LDADD = $(TEST_LIBS) $(NCURSESW_LIBS)
TESTS += tests/unit/test_views
