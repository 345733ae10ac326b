# simulator: vpmu, scenarios, msr_io over the vpmu
libhttop_a_SOURCES += src/source/vpmu.h src/source/scenario.h \
	src/source/vpmu.c src/source/scenario.c src/source/msr_io_vpmu.c
