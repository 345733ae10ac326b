# replay of trace files
libhttop_a_SOURCES += src/source/replay/replay_source.c
