# source: where counter values come from. Each source lists its files in
# its own fragment.
libhttop_a_SOURCES += \
	src/source/source.c src/source/source.h src/source/sources.h \
	src/source/sample.c src/source/sample.h \
	src/source/calibrate.c src/source/calibrate.h
include $(srcdir)/src/source/sim.mk
include $(srcdir)/src/source/msr.mk
include $(srcdir)/src/source/replay.mk
include $(srcdir)/src/source/perf.mk
