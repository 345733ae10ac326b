# job watching (--pid, --cgroup)
libhttop_a_SOURCES += src/watch/job.h src/watch/job.c
