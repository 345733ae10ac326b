# averaging windows
libhttop_a_SOURCES += src/metrics/history.h src/metrics/history.c
