# running totals since the start, for the Prometheus counters
libhttop_a_SOURCES += src/metrics/totals.h src/metrics/totals.c
