# msr engine, /dev/cpu/%u/msr backend, sim source wiring
libsource_a_SOURCES += src/source/msr_io.h
