# perf_event source
libhttop_a_SOURCES += src/source/perf/perf_source.c src/source/perf/perf_source.h \
	src/source/perf/perf_plan.c src/source/perf/perf_plan.h \
	src/source/perf/perf_sys.c src/source/perf/perf_sys.h \
	src/source/perf/perf_cgroup.c src/source/perf/perf_cgroup.h
