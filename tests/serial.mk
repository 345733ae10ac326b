# The serial phase: tests that change the machine under every other test
# (CPU 1 taken offline: a test pinned to it would fail) run alone, after
# make check, with `make check-serial`: the same driver, .log and .trs
# files as make check (tests/run-suite counts them), one test at a time.
# They are not in TESTS, so make check and distcheck leave them out.
# The scheduler's tests that compare its record with a known schedule
# are here too: beside the rest of the suite the CPUs are never idle, and
# those comparisons were skipped as "the machine is busy".
SERIAL_TESTS = tests/cli/test_sched_hotplug.sh tests/cli/test_sched.sh \
	tests/cli/test_check_beside.sh tests/cli/test_check_hotplug.sh \
	tests/cli/test_sched_busy.sh tests/cli/test_job_split.sh tests/cli/test_bpf.sh \
	tests/cli/test_bpf_window.sh
EXTRA_DIST += $(SERIAL_TESTS) tests/cli/hotplug_check.py
CLEANFILES += test-suite-serial.log $(SERIAL_TESTS:.sh=.log) $(SERIAL_TESTS:.sh=.trs)
# Automake writes a .log rule only for the tests in TESTS: this one is
# the rule it writes for those (one per serial test).
tests/cli/test_sched_hotplug.sh.log: tests/cli/test_sched_hotplug.sh
	@p='tests/cli/test_sched_hotplug.sh'; \
	b='tests/cli/test_sched_hotplug.sh'; \
	$(am__check_pre) $(LOG_DRIVER) --test-name "$$f" \
	--log-file $$b.log --trs-file $$b.trs \
	$(am__common_driver_flags) $(AM_LOG_DRIVER_FLAGS) $(LOG_DRIVER_FLAGS) -- $(LOG_COMPILE) \
	"$$tst" $(AM_TESTS_FD_REDIRECT)
tests/cli/test_sched.sh.log: tests/cli/test_sched.sh
	@p='tests/cli/test_sched.sh'; \
	b='tests/cli/test_sched.sh'; \
	$(am__check_pre) $(LOG_DRIVER) --test-name "$$f" \
	--log-file $$b.log --trs-file $$b.trs \
	$(am__common_driver_flags) $(AM_LOG_DRIVER_FLAGS) $(LOG_DRIVER_FLAGS) -- $(LOG_COMPILE) \
	"$$tst" $(AM_TESTS_FD_REDIRECT)
tests/cli/test_check_beside.sh.log: tests/cli/test_check_beside.sh
	@p='tests/cli/test_check_beside.sh'; \
	b='tests/cli/test_check_beside.sh'; \
	$(am__check_pre) $(LOG_DRIVER) --test-name "$$f" \
	--log-file $$b.log --trs-file $$b.trs \
	$(am__common_driver_flags) $(AM_LOG_DRIVER_FLAGS) $(LOG_DRIVER_FLAGS) -- $(LOG_COMPILE) \
	"$$tst" $(AM_TESTS_FD_REDIRECT)
tests/cli/test_check_hotplug.sh.log: tests/cli/test_check_hotplug.sh
	@p='tests/cli/test_check_hotplug.sh'; \
	b='tests/cli/test_check_hotplug.sh'; \
	$(am__check_pre) $(LOG_DRIVER) --test-name "$$f" \
	--log-file $$b.log --trs-file $$b.trs \
	$(am__common_driver_flags) $(AM_LOG_DRIVER_FLAGS) $(LOG_DRIVER_FLAGS) -- $(LOG_COMPILE) \
	"$$tst" $(AM_TESTS_FD_REDIRECT)
tests/cli/test_sched_busy.sh.log: tests/cli/test_sched_busy.sh
	@p='tests/cli/test_sched_busy.sh'; \
	b='tests/cli/test_sched_busy.sh'; \
	$(am__check_pre) $(LOG_DRIVER) --test-name "$$f" \
	--log-file $$b.log --trs-file $$b.trs \
	$(am__common_driver_flags) $(AM_LOG_DRIVER_FLAGS) $(LOG_DRIVER_FLAGS) -- $(LOG_COMPILE) \
	"$$tst" $(AM_TESTS_FD_REDIRECT)
tests/cli/test_job_split.sh.log: tests/cli/test_job_split.sh
	@p='tests/cli/test_job_split.sh'; \
	b='tests/cli/test_job_split.sh'; \
	$(am__check_pre) $(LOG_DRIVER) --test-name "$$f" \
	--log-file $$b.log --trs-file $$b.trs \
	$(am__common_driver_flags) $(AM_LOG_DRIVER_FLAGS) $(LOG_DRIVER_FLAGS) -- $(LOG_COMPILE) \
	"$$tst" $(AM_TESTS_FD_REDIRECT)
check-serial: all
	$(MAKE) $(AM_MAKEFLAGS) -j1 check TESTS='$(SERIAL_TESTS)' \
	    TEST_SUITE_LOG=test-suite-serial.log
tests/cli/test_bpf.sh.log: tests/cli/test_bpf.sh
	@p='tests/cli/test_bpf.sh'; \
	b='tests/cli/test_bpf.sh'; \
	$(am__check_pre) $(LOG_DRIVER) --test-name "$$f" \
	--log-file $$b.log --trs-file $$b.trs \
	$(am__common_driver_flags) $(AM_LOG_DRIVER_FLAGS) $(LOG_DRIVER_FLAGS) -- $(LOG_COMPILE) \
	"$$tst" $(AM_TESTS_FD_REDIRECT)
tests/cli/test_bpf_window.sh.log: tests/cli/test_bpf_window.sh
	@p='tests/cli/test_bpf_window.sh'; \
	b='tests/cli/test_bpf_window.sh'; \
	$(am__check_pre) $(LOG_DRIVER) --test-name "$$f" \
	--log-file $$b.log --trs-file $$b.trs \
	$(am__common_driver_flags) $(AM_LOG_DRIVER_FLAGS) $(LOG_DRIVER_FLAGS) -- $(LOG_COMPILE) \
	"$$tst" $(AM_TESTS_FD_REDIRECT)
