# tests for fuzz/: the libFuzzer harnesses, built with a plain main()
# (fuzz/standalone.c) by gcc, run over the kept corpus and the regression
# inputs of every malformed-input class the fuzzer found (fuzz/regress/).
check_PROGRAMS += tests/fuzz/run_trace tests/fuzz/run_tracez tests/fuzz/run_ppc \
	tests/fuzz/run_diemap
tests_fuzz_run_trace_SOURCES = fuzz/fuzz_trace.c fuzz/standalone.c fuzz/fuzz.h
tests_fuzz_run_trace_LDADD = $(HTTOP_LIBS)
tests_fuzz_run_tracez_SOURCES = fuzz/fuzz_trace.c fuzz/standalone.c fuzz/fuzz.h
tests_fuzz_run_tracez_CPPFLAGS = $(AM_CPPFLAGS) -DFUZZ_TRACE_FILE
tests_fuzz_run_tracez_LDADD = $(HTTOP_LIBS)
tests_fuzz_run_ppc_SOURCES = fuzz/fuzz_ppc.c fuzz/standalone.c fuzz/fuzz.h \
	tools/ppc.c tools/ppc.h
tests_fuzz_run_ppc_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tools
tests_fuzz_run_ppc_LDADD = $(HTTOP_LIBS)
tests_fuzz_run_diemap_SOURCES = fuzz/fuzz_diemap.c fuzz/standalone.c fuzz/fuzz.h
tests_fuzz_run_diemap_LDADD = $(HTTOP_LIBS)
TESTS += tests/fuzz/test_fuzz_regress.sh
EXTRA_DIST += tests/fuzz/test_fuzz_regress.sh
