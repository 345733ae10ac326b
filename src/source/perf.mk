# perf_event source
libhttop_a_SOURCES += src/source/perf_source.c
