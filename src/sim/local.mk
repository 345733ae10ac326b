# simulator: a virtual PMU (vpmu) driven by a scenario, seen through an
# msr_io backend so the real msr engine reads it (sim_source.c).
libhttop_a_SOURCES += src/sim/sim.h src/sim/vpmu.h src/sim/scenario.h \
	src/sim/vpmu.c src/sim/scenario.c src/sim/msr_io_vpmu.c src/sim/sim_source.c
