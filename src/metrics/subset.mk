# the aggregate over a watched job's cores
libhttop_a_SOURCES += src/metrics/subset.c
