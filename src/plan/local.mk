# plan layer: counter plans per group.
libplan_a_SOURCES += src/plan/plan.c src/plan/plan.h
