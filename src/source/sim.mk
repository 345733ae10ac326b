# simulator: vpmu, scenarios, msr_io over the vpmu
libsource_a_SOURCES += src/source/vpmu.h src/source/scenario.h
