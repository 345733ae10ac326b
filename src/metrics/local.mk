# metrics layer: deltas with wrap, per-thread figures, the split and its
# bounds, invariants, aggregates.
libhttop_a_SOURCES += \
	src/metrics/metrics.h src/metrics/value.h src/metrics/internal.h \
	src/metrics/delta.c src/metrics/split.c src/metrics/reason.c \
	src/metrics/thread.c src/metrics/stopped.c src/metrics/core.c src/metrics/aggregate.c \
	src/metrics/metrics.c src/metrics/compute.c \
	src/metrics/figures.h src/metrics/figures.c
include $(srcdir)/src/metrics/history.mk
include $(srcdir)/src/metrics/subset.mk
include $(srcdir)/src/metrics/totals.mk
