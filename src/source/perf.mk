# perf_event source
libhttop_a_SOURCES += src/source/perf_source.c src/source/perf_source.h \
	src/source/perf_plan.c src/source/perf_plan.h \
	src/source/perf_sys.c src/source/perf_sys.h
