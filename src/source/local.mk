# source: where counter values come from: the interface, calibration of
# the reference-clock scale, and one fragment per kind of source.
libhttop_a_SOURCES += \
	src/source/source.c src/source/source.h src/source/sources.h \
	src/source/calibrate.c src/source/calibrate.h \
	src/source/kinds.c src/source/kinds.h
include $(srcdir)/src/source/msr/local.mk
include $(srcdir)/src/source/replay/local.mk
include $(srcdir)/src/source/perf/local.mk
include $(srcdir)/src/source/procstat/local.mk
include $(srcdir)/src/source/sched/local.mk
include $(srcdir)/src/source/bpf/local.mk
