# msr engine (msr_source.c) over an msr_io backend: /dev/cpu/%u/msr files
# (msr_io_file.c) or LLNL msr-safe with its batch device (msr_io_safe.c);
# the saved-state file (msr_state.c) and what a killed run left (msr_recover.c).
libhttop_a_SOURCES += src/source/msr/msr_io.h src/source/msr/msr_source.c \
	src/source/msr/msr_priv.h src/source/msr/msr_recover.c \
	src/source/msr/msr_state.h src/source/msr/msr_state.c \
	src/source/msr/msr_io_file.c \
	src/source/msr/msr_safe.h src/source/msr/msr_io_safe.c
