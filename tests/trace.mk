# tests for trace: the format (reader, writer, replay source) and the
# real Stampede2 data converted by httop-ppc2trace.
check_PROGRAMS += tests/unit/test_trace tests/unit/test_realtrace tests/unit/test_tracez
tests_unit_test_trace_SOURCES = tests/unit/test_trace.c
tests_unit_test_trace_CFLAGS = $(TEST_CFLAGS) -I$(top_srcdir)/tests
tests_unit_test_trace_LDADD = $(TEST_LIBS)
tests_unit_test_realtrace_SOURCES = tests/unit/test_realtrace.c
tests_unit_test_realtrace_CFLAGS = $(TEST_CFLAGS) -I$(top_srcdir)/tests
tests_unit_test_realtrace_LDADD = $(TEST_LIBS)
tests_unit_test_tracez_SOURCES = tests/unit/test_tracez.c
tests_unit_test_tracez_CFLAGS = $(TEST_CFLAGS) -I$(top_srcdir)/tests
tests_unit_test_tracez_LDADD = $(TEST_LIBS)
TESTS += tests/unit/test_trace tests/unit/test_realtrace tests/unit/test_tracez
# the two inflaters of gzip traces (ISA-L, zlib: --without-isal) alike
TESTS += tests/cli/test_isal_off.sh
EXTRA_DIST += tests/cli/test_isal_off.sh
EXTRA_DIST += \
	tests/data/trace/good.trace tests/data/trace/truncated.trace \
	tests/data/trace/future-version.trace tests/data/trace/not-a-trace.trace \
	tests/data/trace/missing-field.trace tests/data/trace/dup-topo.trace \
	tests/data/trace/bad-plan.trace tests/data/trace/slot-count.trace \
	tests/data/trace/bad-hex.trace tests/data/trace/value-count.trace \
	tests/data/trace/bad-host.trace \
	tests/data/trace/garbage.trace tests/data/trace/dup-cpu.trace \
	tests/data/trace/cpu-range.trace tests/data/trace/no-end.trace \
	tests/data/trace/huge-time.trace
