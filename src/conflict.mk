# conflict: what httop does when another program reprograms the PMU
# mid-run (--on-conflict); between the sources and the refresh loop.
libhttop_a_SOURCES += src/conflict.c src/conflict.h
