/* refresh_cpu.c: the CPU time of httop's reading and metrics per refresh,
 * measured, not estimated from instruction counts.
 *
 *   bench/httop-refresh-cpu TOPOLOGY.xml [CPUID-DUMP] [REFRESHES]
 *
 * The msr engine (the code that reads /dev/cpu/N/msr on a node) runs over a
 * tape: a first pass over the simulator records every value the engine
 * reads; the timed passes give the same engine the same values from
 * memory. So the timed loop (source_read, then metrics_compute, per
 * refresh) makes no system call and the simulator's own work is outside
 * it: what is timed is httop's user-space cost. Time is the thread's CPU
 * time (CLOCK_THREAD_CPUTIME_ID, counted by the scheduler in ns, not by
 * ticks), so other load on the machine does not inflate it, except
 * through caches. Passes repeat until 0.5 s has been timed (at least 5,
 * at most 1000 or 5 s); the best pass and the median are printed. These
 * run with warm caches; a monitor refreshing once a second does not, so
 * a cold figure follows: each refresh timed alone after a 64 MB buffer
 * has been written through, less the cost of the clock reads around it
 * measured in turns with it (5 passes, min and median). That is a
 * difference of two noisy times: when a pass's difference is not positive
 * the noise is larger than the figure, and it is printed as unmeasurable.
 *
 * Last line: cpus=N refreshes=R passes=P reads_per_refresh=N
 *            us_per_refresh=X us_per_cpu_best=X us_per_cpu_median=X
 *            us_per_cpu_cold=X|unmeasurable us_per_cpu_cold_median=X|unmeasurable */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "machine/machine.h"
#include "metrics/metrics.h"
#include "plan/plan.h"
#include "source/msr/msr_io.h"
#include "sample/sample.h"
#include "sim/scenario.h"
#include "source/source.h"
#include "source/sources.h"
#include "sim/sim.h"
#include "sim/vpmu.h"
#include "util/xalloc.h"

struct tape_op {
	unsigned cpu;
	uint32_t msr;
	int rc;
	uint64_t val;
};

/* Every read of the recording pass, in order. */
struct tape {
	struct tape_op *ops;
	size_t n, cap, pos;
	int mismatch;              /* a replayed read differed from the recording */
};

/* An msr_io that records through `inner`, or replays the tape. */
struct tape_io {
	struct msr_io io;          /* first: the engine holds a struct msr_io * */
	struct msr_io *inner;      /* recording: the simulator; replay: NULL */
	struct tape *t;
};

static struct tape_io *
tio(struct msr_io *io)
{
	return (struct tape_io *)io;
}

static int
t_open(struct msr_io *io, unsigned cpu, struct errmsg *e)
{
	struct tape_io *x = tio(io);

	return x->inner != NULL ? x->inner->open_cpu(x->inner, cpu, e) : 0;
}

static int
t_rd(struct msr_io *io, unsigned cpu, uint32_t msr, uint64_t *val)
{
	struct tape_io *x = tio(io);
	struct tape *t = x->t;
	struct tape_op *op;

	io->nreads++;
	if (x->inner != NULL) {
		if (t->n == t->cap) {
			t->cap = t->cap ? 2 * t->cap : 4096;
			t->ops = xreallocarray(t->ops, t->cap, sizeof *t->ops);
		}
		op = &t->ops[t->n++];
		op->cpu = cpu;
		op->msr = msr;
		op->val = 0;
		op->rc = x->inner->rd(x->inner, cpu, msr, &op->val);
		*val = op->val;
		return op->rc;
	}
	/* The same code on the same machine makes the same reads; if not,
	 * the figure would not be httop's cost, so say so. */
	if (t->pos >= t->n || t->ops[t->pos].cpu != cpu || t->ops[t->pos].msr != msr) {
		t->mismatch = 1;
		*val = 0;
		return -EIO;
	}
	op = &t->ops[t->pos++];
	*val = op->val;
	return op->rc;
}

static int
t_wr(struct msr_io *io, unsigned cpu, uint32_t msr, uint64_t val)
{
	struct tape_io *x = tio(io);

	io->nwrites++;
	return x->inner != NULL ? x->inner->wr(x->inner, cpu, msr, val) : 0;
}

static void
t_close(struct msr_io *io, unsigned cpu)
{
	struct tape_io *x = tio(io);

	if (x->inner != NULL)
		x->inner->close_cpu(x->inner, cpu);
}

static void
t_destroy(struct msr_io *io)
{
	struct tape_io *x = tio(io);

	if (x->inner != NULL)
		x->inner->destroy(x->inner);
	free(x);
}

static struct msr_io *
tape_io_new(struct tape *t, struct msr_io *inner)
{
	struct tape_io *x = xcalloc(1, sizeof *x);

	x->io.open_cpu = t_open;
	x->io.rd = t_rd;
	x->io.wr = t_wr;
	x->io.wr_async = t_wr;
	x->io.close_cpu = t_close;
	x->io.destroy = t_destroy;
	x->inner = inner;
	x->t = t;
	return &x->io;
}

static double
cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static bool
late(const struct timespec *start)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return now.tv_sec - start->tv_sec > 5;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void
die(const char *what, const struct errmsg *e)
{
	fprintf(stderr, "httop-refresh-cpu: %s: %s\n", what, e != NULL ? e->text : "failed");
	exit(1);
}

/* One pass: a fresh engine over `io`, programmed (untimed), a first read
 * (untimed), then `r` timed refreshes. Returns seconds of CPU time. */
/* A buffer larger than the last-level cache, written through between cold
 * refreshes: a monitor refreshing once a second finds its data evicted by
 * the job it watches. */
#define EVICT_BYTES (64u << 20)
#define COLD_PASSES 5
static unsigned char *evict_buf;

static void
evict(void)
{
	size_t i;

	if (evict_buf == NULL)
		evict_buf = xcalloc(EVICT_BYTES, 1);
	for (i = 0; i < EVICT_BYTES; i += 64)
		evict_buf[i]++;
}

static double
pass(struct machine *m, const struct plan *p, struct msr_io *io, unsigned r,
    struct vpmu *v, uint64_t step, uint64_t *reads, bool cold)
{
	uint64_t n0, n1;
	struct errmsg e = { 0 };
	struct sample s[2];
	struct metrics_ctx mc;
	struct interval iv;
	struct source *src;
	double t0, t;
	unsigned i;
	int rc;

	if ((src = msr_source_new(m, io, "bench", &e)) == NULL)
		die("the msr engine did not open", &e);
	if (source_program(src, p, false, &e) != 0)
		die("programming failed", &e);
	sample_init(&s[0], m->topo.max_cpu, src->plan->nslots, m->topo.ncores, false);
	sample_init(&s[1], m->topo.max_cpu, src->plan->nslots, m->topo.ncores, false);
	metrics_ctx_init(&mc, m, src->plan);
	interval_init(&iv, m);
	if (source_read(src, &s[0], &e) != 0)
		die("the first read failed", &e);
	/* Replay: one clock reading around the whole loop, so the clock's
	 * own cost is not counted r times. */
	msr_source_io_counts(src, &n0, NULL);
	if (cold) {
		/* Each refresh timed on its own, after the caches were flushed. */
		for (i = 0, rc = 0, t = 0; i < r && rc == 0; i++) {
			struct sample *prev = &s[i & 1], *cur = &s[(i + 1) & 1];

			evict();
			t0 = cpu_now();
			rc = source_read(src, cur, &e);
			metrics_compute(&mc, prev, cur, &iv);
			t += cpu_now() - t0;
		}
	} else {
		t0 = cpu_now();
		for (i = 0, rc = 0; i < r && rc == 0; i++) {
			struct sample *prev = &s[i & 1], *cur = &s[(i + 1) & 1];

			if (v != NULL)
				vpmu_advance(v, step);
			rc = source_read(src, cur, &e);
			metrics_compute(&mc, prev, cur, &iv);
		}
		t = cpu_now() - t0;
	}
	if (rc != 0)
		die("a read failed", &e);
	msr_source_io_counts(src, &n1, NULL);
	*reads = n1 - n0;
	if (source_restore(src, &e) != 0)
		die("restoring failed", &e);
	source_close(src);
	interval_free(&iv);
	sample_free(&s[0]);
	sample_free(&s[1]);
	return t;
}

int
main(int argc, char **argv)
{
	struct errmsg e = { 0 };
	struct machine m;
	struct plan p;
	struct scenario sc;
	struct tape t = { 0 };
	struct vpmu *v;
	unsigned r = 200, cpus = 0, k, np = 0;
	double times[1000], sum = 0, per, cold[COLD_PASSES];
	char cold_min[32], cold_med[32];
	uint64_t reads = 0;
	struct timespec start;

	if (argc < 2 || argc > 4) {
		fprintf(stderr, "usage: %s TOPOLOGY.xml [CPUID-DUMP|-] [REFRESHES]\n", argv[0]);
		return 2;
	}
	if (argc == 4 && (r = (unsigned)strtoul(argv[3], NULL, 10)) == 0)
		r = 1;
	memset(&m, 0, sizeof m);
	if (machine_load(&m, argv[1], argc > 2 && strcmp(argv[2], "-") != 0 ? argv[2] : NULL,
	    &e) != 0)
		die("the machine did not load", &e);
	plan_for_machine(&p, &m);
	for (k = 0; k < m.topo.max_cpu; k++)
		cpus += m.topo.cpus[k].present && m.topo.cpus[k].online;
	if (scenario_resolve(&sc, "demo", &m.topo, &e) != 0)
		die("no demo scenario", &e);
	if ((v = vpmu_new(&m, &sc, 1)) == NULL)
		die("the simulator could not be built", NULL);
	scenario_free(&sc);

	/* Record: the same engine over the simulator, one second per refresh. */
	pass(&m, &p, tape_io_new(&t, msr_io_vpmu_new(v)), r, v,
	    (uint64_t)(vpmu_tsc_hz(v) + 0.5), &reads, false);
	vpmu_free(v);

	/* At least 5 passes; then until 0.5 s is timed, or 5 s have passed
	 * (a sanitizer build spends most of its time outside the loop). */
	clock_gettime(CLOCK_MONOTONIC, &start);
	while (np < sizeof times / sizeof times[0] && (np < 5 || (sum < 0.5 && !late(&start)))) {
		t.pos = 0;
		times[np] = pass(&m, &p, tape_io_new(&t, NULL), r, NULL, 0, &reads, false);
		if (t.mismatch) {
			fprintf(stderr, "httop-refresh-cpu: the engine's reads differ from the "
			    "recording (read %zu): the figure would not be httop's cost\n", t.pos);
			return 1;
		}
		sum += times[np++];
	}
	qsort(times, np, sizeof times[0], cmp_double);
	per = times[0] / r;
	/* Cold: passes of at most 50 refreshes, each after a cache flush,
	 * less what reading the clock twice costs after the same flush (a
	 * system call: this clock has no vDSO path), measured right after
	 * in the same pass, so both see the same load. */
	for (k = 0; k < COLD_PASSES; k++) {
		unsigned rc_ = r < 50 ? r : 50, i;
		uint64_t ignore;
		double empty = 0, c0;

		t.pos = 0;
		cold[k] = pass(&m, &p, tape_io_new(&t, NULL), rc_, NULL, 0, &ignore, true);
		for (i = 0; i < rc_; i++) {
			evict();
			c0 = cpu_now();
			empty += cpu_now() - c0;
		}
		cold[k] = (cold[k] - empty) / rc_;
	}
	qsort(cold, COLD_PASSES, sizeof cold[0], cmp_double);
	/* A pass at or below zero: the clock's noise exceeds the refresh. */
	if (cold[0] > 0) {
		snprintf(cold_min, sizeof cold_min, "%.4f", cold[0] * 1e6 / cpus);
		snprintf(cold_med, sizeof cold_med, "%.4f", cold[COLD_PASSES / 2] * 1e6 / cpus);
	} else {
		snprintf(cold_min, sizeof cold_min, "unmeasurable");
		snprintf(cold_med, sizeof cold_med, "unmeasurable");
	}
	printf("cpus=%u refreshes=%u passes=%u reads_per_refresh=%.1f us_per_refresh=%.3f "
	    "us_per_cpu_best=%.4f us_per_cpu_median=%.4f us_per_cpu_cold=%s "
	    "us_per_cpu_cold_median=%s\n", cpus, r, np,
	    (double)reads / r, per * 1e6, per * 1e6 / cpus, times[np / 2] / r * 1e6 / cpus,
	    cold_min, cold_med);
	free(evict_buf);
	free(t.ops);
	machine_free(&m);
	return 0;
}
