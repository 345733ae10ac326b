/* calibrate.c: measure how many TSC ticks one count of the reference event
 * stands for, by counting it without AnyThread next to fixed counter 2
 * (which ticks at the TSC rate) on thread 0 of every core. */
#include "config.h"
#include "source/calibrate.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "sample/sample.h"

/* Fewer reference counts than this say too little about the ratio. */
#define CAL_MIN_REFX 1000u
/* A ratio this close (relative) to the table value confirms it. */
#define CAL_INT_TOL 0.02
/* A ratio that contradicts the table must be this close (absolute) to an
 * integer. A relative test would be empty: from n = 25 on, 2% of n is more
 * than the 0.5 by which any ratio can miss its nearest integer, so 81.3
 * (quantisation on an idle node) would have replaced a table 84. */
#define CAL_INT_ABS 0.1

unsigned
calibrate_ratio(uint64_t sum_ref, uint64_t sum_refx, char *note, size_t notelen,
    unsigned expected)
{
	double r, n;
	unsigned got;

	if (sum_refx < CAL_MIN_REFX) {
		if (expected != 0)
			snprintf(note, notelen, "too little activity: using table value %u", expected);
		else
			snprintf(note, notelen, "too little activity and no table value");
		return 0;
	}
	r = (double)sum_ref / (double)sum_refx;
	n = floor(r + 0.5);
	if (expected != 0 && fabs(r - (double)expected) <= CAL_INT_TOL * (double)expected)
		n = (double)expected;
	else if (n < 1.0 || fabs(r - n) > CAL_INT_ABS || n > 4096.0) {
		if (expected != 0)
			snprintf(note, notelen,
			    "measured %.3f, not an integer: using table value %u", r, expected);
		else
			snprintf(note, notelen, "measured %.3f, not an integer; no table value", r);
		return 0;
	}
	got = (unsigned)n;
	if (got == expected)
		snprintf(note, notelen, "measured %u, table %u", got, expected);
	else if (expected == 0)
		snprintf(note, notelen, "measured %u (no table value)", got);
	else
		snprintf(note, notelen, "measured %u but table says %u: using %u", got,
		    expected, got);
	return got;
}

/* (cur - prev) modulo 2^width; the metrics layer has its own copy. */
static uint64_t
wrap_delta(uint64_t prev, uint64_t cur, unsigned width)
{
	uint64_t mask = width >= 64 ? ~0ull : (1ull << width) - 1;

	return (cur - prev) & mask;
}

static void
wait_seconds(struct source *src, double seconds)
{
	struct timespec ts;

	if (src->virtual_clock) {
		source_advance(src, seconds);
		return;
	}
	ts.tv_sec = (time_t)seconds;
	ts.tv_nsec = (long)((seconds - (double)ts.tv_sec) * 1e9);
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

/* Sum fixed-2 and REFX deltas over thread-0 CPUs read both times. */
static void
sum_deltas(const struct plan *cal, const struct machine *m, const struct sample *a,
    const struct sample *b, uint64_t *sum_ref, uint64_t *sum_refx)
{
	int iref = plan_slot_index(cal, SLOT_REF), irefx = plan_slot_index(cal, SLOT_REFX);
	unsigned cpu;

	*sum_ref = *sum_refx = 0;
	if (iref < 0 || irefx < 0)
		return;
	for (cpu = 0; cpu < m->topo.max_cpu; cpu++) {
		const struct topo_cpu *tc = &m->topo.cpus[cpu];

		if (!tc->present || tc->thread != 0)
			continue;
		if (a->state[cpu] != CPU_READ_OK || b->state[cpu] != CPU_READ_OK)
			continue;
		*sum_ref += wrap_delta(sample_row_c(a, cpu)[iref], sample_row_c(b, cpu)[iref],
		    cal->slots[iref].width);
		*sum_refx += wrap_delta(sample_row_c(a, cpu)[irefx], sample_row_c(b, cpu)[irefx],
		    cal->slots[irefx].width);
	}
}

static void
use_table(struct plan *p, const char *why)
{
	p->scale = p->scale_expected;
	p->scale_measured = false;
	if (p->scale_expected != 0)
		snprintf(p->scale_note, sizeof p->scale_note, "%s: using table value %u", why,
		    p->scale_expected);
	else
		snprintf(p->scale_note, sizeof p->scale_note, "%s; no table value", why);
}

bool
calibrate_scale_used(const struct plan *p)
{
	/* A plan that counts time (the scheduler's) has no scale to measure. */
	if (p->basis != PLAN_BASIS_COUNTERS)
		return false;
	return plan_slot_index(p, SLOT_ANY) >= 0 || plan_slot_index(p, SLOT_OTA) >= 0;
}

int
calibrate_start(struct calibration *c, struct source *src, struct plan *main_plan,
    const struct machine *m, bool force, struct errmsg *e)
{
	memset(c, 0, sizeof *c);
	if (main_plan->basis != PLAN_BASIS_COUNTERS)
		return 0;   /* counts of time: the plan says its scale */
	if (!calibrate_scale_used(main_plan)) {
		/* Nothing the split rests on: nothing to measure or to say. */
		main_plan->scale = main_plan->scale_expected;
		main_plan->scale_measured = false;
		snprintf(main_plan->scale_note, sizeof main_plan->scale_note,
		    "not used: the plan reads no reference-clock event");
		return 0;
	}
	if (!plan_calibration(&c->cal, main_plan, m)) {
		use_table(main_plan, "no per-thread reference event to calibrate with");
		return 0;
	}
	if (source_program(src, &c->cal, force, e) != 0) {
		/* The main plan's refusal is the real cause (a busy PMU, with
		 * --force honoured there): say only that. If the main plan can
		 * be programmed, calibration just steps aside. */
		if (source_program(src, main_plan, force, e) != 0) {
			src->plan = NULL;
			return -1;
		}
		src->plan = NULL;
		use_table(main_plan, "could not program the calibration events");
		return 0;
	}
	sample_init(&c->a, m->topo.max_cpu, c->cal.nslots, m->topo.ncores, false);
	sample_init(&c->b, m->topo.max_cpu, c->cal.nslots, m->topo.ncores, false);
	c->active = true;
	c->rc = source_read(src, &c->a, e);
	if (c->rc < 0) {
		errmsg_prefix(e, "calibrating the reference scale: ");
		calibrate_free(c, src);
		return -1;
	}
	return 0;
}

int
calibrate_finish(struct calibration *c, struct source *src, struct plan *main_plan,
    const struct machine *m, struct errmsg *e)
{
	uint64_t sum_ref, sum_refx;
	unsigned got;
	int r = c->rc;

	if (!c->active)
		return 0;
	if (r == 0)
		r = source_read(src, &c->b, e);
	if (r < 0) {
		errmsg_prefix(e, "calibrating the reference scale: ");
		calibrate_free(c, src);
		return -1;
	}
	if (r > 0) {
		use_table(main_plan, "the source ended before calibration");
	} else {
		sum_deltas(&c->cal, m, &c->a, &c->b, &sum_ref, &sum_refx);
		got = calibrate_ratio(sum_ref, sum_refx, main_plan->scale_note,
		    sizeof main_plan->scale_note, main_plan->scale_expected);
		main_plan->scale_measured = got != 0;
		main_plan->scale = got != 0 ? got : main_plan->scale_expected;
	}
	calibrate_free(c, src);
	return 0;
}

void
calibrate_free(struct calibration *c, struct source *src)
{
	if (!c->active)
		return;
	sample_free(&c->a);
	sample_free(&c->b);
	c->active = false;
	/* `cal` dies with `c`: the source must not keep pointing at it. */
	if (src->plan == &c->cal)
		src->plan = NULL;
}

int
calibrate_scale(struct source *src, struct plan *main_plan, const struct machine *m,
    double seconds, struct errmsg *e)
{
	struct calibration c;

	if (calibrate_start(&c, src, main_plan, m, false, e) != 0)
		return -1;
	if (c.active)
		wait_seconds(src, seconds);
	return calibrate_finish(&c, src, main_plan, m, e);
}
