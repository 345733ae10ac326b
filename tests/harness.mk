# tests of the test harness itself: tests/tap-run's time limit (a hang
# fails by name, nothing of it left running) and the sanitizer build's
# LeakSanitizer suppressions (tests/lsan.supp: libraries only), and that
# no test hands check() two conditions the shell splits apart.
HARNESS_TESTS = tests/cli/test_tap_run.sh tests/cli/test_lsan_supp.sh \
	tests/cli/test_check_calls.sh
TESTS += $(HARNESS_TESTS)
EXTRA_DIST += $(HARNESS_TESTS)
