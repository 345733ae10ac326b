# the scheduler source: context switches from perf ring buffers
libhttop_a_SOURCES += src/source/sched_source.c src/source/sched_source.h \
	src/source/sched_merge.c src/source/sched_merge.h
