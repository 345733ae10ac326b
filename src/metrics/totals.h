/* totals.h: running totals of the interval figures since the start, for
 * the monotonic counters of the Prometheus outputs (rate() and increase()
 * work at any scrape interval, where a gauge of the last interval only
 * samples it): the seconds each core spent in each of the four states,
 * and the seconds each thread was busy.
 *
 * What is added (httop(1), OUTPUT FORMATS): an interval's exact figures
 * only, each share or utilisation times the interval's length. Where the
 * figure is a bound (the split fell back, or the plan has no exact split),
 * is absent (the core or thread has no figures: offline, invalid, stopped
 * reference clock), or does not exist (a core without two threads has no
 * split), the whole interval goes to the uncovered seconds instead. So
 * for a core, its four state totals plus its uncovered total are the time
 * since it was first counted: nothing is silently missing, and nothing is
 * made up. A core or thread is counted from the first interval in which
 * it is shown (selected: --cpus, a watched job's view) and from then on
 * in every interval, shown or not (not shown: uncovered), so its series
 * never stop. The package and node totals are the sums over their cores
 * (core-seconds) and threads (thread-seconds).
 *
 * Next to the seconds, the raw counts (counts[], by enum total_count):
 * each thread's instructions, core cycles and reference cycles while not
 * halted, TSC ticks and the split counter's ticks, added over the
 * intervals in which the thread has figures (each count unless its
 * counter stood still, stopped by another program; the split counter's
 * only while the split used it), and summed over the core's, package's
 * and node's threads: CPI, IPC and frequency over any window are their
 * rates' ratios (httop(1), OUTPUT FORMATS). */
#ifndef HTTOP_TOTALS_H
#define HTTOP_TOTALS_H

#include <stdbool.h>
#include <stdint.h>

#include "machine/machine.h"
#include "metrics/metrics.h"

/* The raw counts kept per thread and summed. */
enum total_count {
	TC_INST = 0,    /* instructions retired */
	TC_CYCLES,      /* core cycles while not halted */
	TC_REF,         /* reference cycles while not halted, TSC ticks */
	TC_TSC,         /* TSC ticks */
	TC_SPLIT,       /* AnyThread or ONE_THREAD_ACTIVE ticks (the plan's split) */
	TC_N
};

/* The figures of one core, or the sums over a package or the node. */
struct totals_set {
	uint64_t counts[TC_N];     /* raw counts (enum total_count) */
	bool has_split;            /* counts[TC_SPLIT] has had a count added */
	double state[4];           /* seconds neither, t0 only, t1 only, both */
	double uncovered;          /* seconds not in state[] */
	double busy;               /* thread-seconds busy */
	double thread_uncovered;   /* thread-seconds not in busy */
	/* The watched job's (node only): core-seconds with the job on both
	 * threads, alone, beside another task (exact intervals only), and
	 * its own CPU seconds (cpu_s summed), and the seconds of the
	 * intervals without cpu_s (not valid: records lost), which job_cpu
	 * does not cover. */
	double job_state[3];
	double job_cpu;
	double job_uncovered;
};

struct totals {
	const struct topology *t;
	unsigned *pkg_of;          /* per core: its index in interval.packages[] */
	struct totals_set *cores;  /* per core: state[], uncovered */
	bool *core_seen;           /* per core: counted from now on */
	struct totals_set *threads;/* per CPU: busy, thread_uncovered */
	bool *thread_seen;         /* per CPU */
	struct totals_set *packages;
	struct totals_set node;
	double last_time;          /* end of the last interval added */
	bool started;
};

/* Allocates once for topology `t` (kept by pointer). */
void totals_init(struct totals *tt, const struct topology *t);
void totals_free(struct totals *tt);
/* Add interval `iv`. An interval that does not end after the last one
 * added (a replay that jumped back, the whole-run record of a command's
 * run written after its last interval) adds nothing. */
void totals_add(struct totals *tt, const struct interval *iv);

#endif
