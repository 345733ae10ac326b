# tests: translations (po/de.po complete and used; po/POTFILES.in complete;
# the TUI in German)
I18N_TESTS = tests/cli/test_i18n.sh tests/cli/test_potfiles.sh tests/tui/test_tui_de.sh
TESTS += $(I18N_TESTS)
EXTRA_DIST += $(I18N_TESTS) tests/cli/i18nlib.sh
