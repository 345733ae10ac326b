/* sample.h: the raw counter values of one refresh, exactly as read. Metrics
 * turn two consecutive samples into an interval. Allocated once, reused. */
#ifndef HTTOP_SAMPLE_H
#define HTTOP_SAMPLE_H

#include <stdbool.h>
#include <stdint.h>

enum cpu_read_state {
	CPU_READ_OK = 0,
	CPU_NOT_READ,     /* not selected (--cpus) or not present */
	CPU_OFFLINE,      /* ENXIO, device vanished */
	CPU_READ_ERROR,   /* EIO or other; errno in err[] */
	/* Read, but what happened in the interval ending here is not known
	 * exactly: a buffered source lost records, or had not learnt the
	 * CPU's state yet (the scheduler source). */
	CPU_LOST,
};

struct sample {
	unsigned max_cpu;        /* rows */
	unsigned nslots;         /* columns (plan.nslots) */
	uint64_t seq;            /* 0, 1, 2, ... per source */
	double time;             /* seconds since the source started */
	/* Wall-clock time of the read, seconds since the Unix epoch
	 * (CLOCK_REALTIME, util/clock.h), for the outputs' time stamps: the
	 * msr and perf sources read the clock after the counters, the
	 * simulator gives its start plus its simulated time, a replay what
	 * the trace recorded. 0: not known (a trace without it). Never used
	 * to measure an interval: `time` is. */
	double wall;
	uint64_t *v;             /* v[cpu * nslots + slot]; unread slots are 0 */
	uint8_t *state;          /* enum cpu_read_state per cpu */
	int *err;                /* errno per cpu for CPU_READ_ERROR */
	/* Per cpu, 1: the counts of the interval ending at this sample were
	 * multiplexed (perf: time_running < time_enabled) and are scaled up
	 * by enabled/running, so they are estimates. 0 for exact counts and
	 * for every source that does not multiplex. */
	uint8_t *scaled;
	/* A replay of a watched job's recording (trace 1.6 "job-cpus"): per
	 * cpu, 1 where the job could run in the interval ending here, the
	 * CPUs the live run narrowed its outputs to. has_job false: not said
	 * (every live source, an older trace). */
	uint8_t *job;
	bool has_job;

	/* Simulator only: cumulative ground truth per core in TSC ticks,
	 * truth[core * 4 + k] for k = neither, t0 only, t1 only, both.
	 * NULL for real sources. */
	uint64_t *truth;
	unsigned ncores;
};

void sample_init(struct sample *s, unsigned max_cpu, unsigned nslots, unsigned ncores, bool truth);
void sample_free(struct sample *s);
void sample_copy(struct sample *dst, const struct sample *src);   /* same shape */
static inline uint64_t *
sample_row(struct sample *s, unsigned cpu)
{
	return s->v + (uint64_t)cpu * s->nslots;
}
static inline const uint64_t *
sample_row_c(const struct sample *s, unsigned cpu)
{
	return s->v + (uint64_t)cpu * s->nslots;
}

#endif
