# tests: ui (the screen's arithmetic: layout, bar glyphs, figures, help)
check_PROGRAMS += tests/unit/test_ui_layout
tests_unit_test_ui_layout_SOURCES = tests/unit/test_ui_layout.c
tests_unit_test_ui_layout_CFLAGS = $(TEST_CFLAGS) -I$(top_srcdir)/tests
tests_unit_test_ui_layout_LDADD = $(TEST_LIBS) $(NCURSESW_LIBS)
TESTS += tests/unit/test_ui_layout
