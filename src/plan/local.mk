# plan layer: counter plans per group.
libhttop_a_SOURCES += src/plan/plan.c src/plan/plan.h
