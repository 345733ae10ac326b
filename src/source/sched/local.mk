# the scheduler source: context switches from perf ring buffers
libhttop_a_SOURCES += src/source/sched/sched_source.c src/source/sched/sched_source.h \
	src/source/sched/sched_merge.c src/source/sched/sched_merge.h \
	src/source/sched/sched_tasks.c src/source/sched/sched_tasks.h
