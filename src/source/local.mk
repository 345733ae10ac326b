# source: where counter values come from (msr, sim, replay).
libsource_a_SOURCES += \
	src/source/source.c src/source/source.h \
	src/source/sample.c src/source/sample.h \
	src/source/msr_io.h src/source/scenario.h src/source/vpmu.h
