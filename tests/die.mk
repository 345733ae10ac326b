# tests: the die grid view (its cells, layout and heat scale without
# curses; the tmux captures; the placement in the JSON output)
check_PROGRAMS += tests/unit/test_view_die
tests_unit_test_view_die_SOURCES = tests/unit/test_view_die.c
tests_unit_test_view_die_CFLAGS = $(TEST_CFLAGS) -I$(top_srcdir)/tests
tests_unit_test_view_die_LDADD = $(TEST_LIBS) $(NCURSESW_LIBS)
TESTS += tests/unit/test_view_die
DIE_SH_TESTS = tests/cli/test_cli_die.sh tests/tui/test_tui_die.sh
TESTS += $(DIE_SH_TESTS)
EXTRA_DIST += $(DIE_SH_TESTS)
