/* load.h: the check's load: one thread per SMT thread of a core, pinned
 * to it, each busy in its window of every period and asleep outside it
 * (the CPU halts). The periods start at multiples of the period on
 * CLOCK_MONOTONIC, so the threads are in phase with each other. While busy
 * a thread runs a loop whose instructions and dependency chain are known,
 * in blocks, reading the clock between blocks; it counts what it did. */
#ifndef HTTOP_CHECK_LOAD_H
#define HTTOP_CHECK_LOAD_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "check/cases.h"
#include "util/errmsg.h"

/* Iterations of the loop between two reads of the clock: about 10 us at
 * 3 GHz, so a window ends at most that late, and the clock read costs
 * about 1% of the instructions. */
#define LOAD_BLOCK 1024u

/* Is the loop's instruction count known on this architecture (x86-64)? */
bool load_loop_known(void);

/* What a thread has done so far; it publishes after every block. */
struct load_counts {
	uint64_t iterations;       /* of the loop */
	uint64_t busy_ns;          /* time in the loop, by the clock */
	uint64_t windows;          /* busy windows begun */
	uint64_t late_ns;          /* sum over windows: start - scheduled start */
	uint64_t over_ns;          /* sum over windows: end - scheduled end */
	uint64_t cpu_ns;           /* the thread's own CPU time (at its end only) */
	bool moved;                /* it found itself off its CPU, and stopped */
};

/* One burst a thread ran: from its first reading of the clock after it
 * woke to its last before it went to sleep (or stopped), CLOCK_MONOTONIC
 * seconds, on `cpu` (sched_getcpu() at its start); of no length where it
 * woke after its window had ended. Between the two the
 * CPU was never idle: the thread ran, or was runnable there while
 * something else ran. */
struct load_burst {
	double start, end;
	int cpu;
};

struct load_thread {
	struct load *owner;
	struct check_window w;
	unsigned cpu;
	bool started;
	pthread_t tid;
	_Atomic uint64_t iterations, busy_ns, windows, late_ns, over_ns, cpu_ns;
	/* The kernel moved it off its CPU: the CPU went offline (which breaks
	 * the affinity of the tasks pinned to it), or another program changed
	 * its affinity. It stops there: its load would land on another CPU. */
	atomic_bool moved;
	uint64_t sink;             /* the loop's result, so it is not optimised away */
	/* Its bursts in order, written by the thread alone and read once it
	 * is joined (load_bursts); `full`: more ran than the record holds. */
	struct load_burst *bursts;
	size_t nbursts, capbursts;
	bool full;
};

struct load {
	double period;             /* s */
	double epoch;              /* clock_mono() of the first period's start */
	atomic_bool stop;
	unsigned n;
	struct load_thread th[2];
};

/* Start the windows of case `c` on cpus[0] and cpus[1] (n of them: 1 when
 * the core has no sibling); a thread whose window is empty is not started.
 * The first period begins `delay` seconds from now or later, on a multiple
 * of the period. Each thread records its bursts for `span` seconds of
 * periods (twice that many, and a few more; after that it goes on, and
 * its record says it is not whole). Ending signals stay with the calling
 * thread. -1 with a message if a thread cannot be started on its CPU.
 * load_free() then, in either case. */
int load_start(struct load *l, const struct check_case *c, const unsigned *cpus, unsigned n,
    double period, double delay, double span, struct errmsg *e);
/* What thread i has done so far (zeros for one not started). */
void load_counts(struct load *l, unsigned i, struct load_counts *out);
/* Stop and join the threads: at most a period and a block later. */
void load_stop(struct load *l);
/* Thread i's bursts, once stopped (load_stop): *n of them (0 for a
 * thread not started); *whole is false when more ran than were kept. */
const struct load_burst *load_bursts(const struct load *l, unsigned i, size_t *n, bool *whole);
/* Free the records (after load_stop). */
void load_free(struct load *l);

/* The loop itself, `n` >= 1 iterations from x: for tests and the
 * threads. */
uint64_t load_loop(uint64_t x, uint64_t n);

#endif
