# msr engine, /dev/cpu/%u/msr backend, sim source wiring
libhttop_a_SOURCES += src/source/msr_io.h \
	src/source/msr_source.c src/source/msr_io_file.c src/source/sim_source.c
# msr-safe backend (batch device, allowlist check)
libhttop_a_SOURCES += src/source/msr_safe.h src/source/msr_io_safe.c
