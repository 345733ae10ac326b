/* history.c: figures over longer windows through the same metrics code.
 *
 * Every refresh, the wrapped delta of each counter (counter_delta at the
 * slot's width) is added to a 64-bit running sum per CPU and slot, so a
 * window is just the difference of two snapshots of those sums, and the
 * metrics see them through a copy of the plan whose slots are 64 bits wide
 * (a difference of sums never wraps). A ring keeps one snapshot per
 * refresh; AVG_RUN starts from zero.
 *
 * What is added: a core's counts only for intervals in which the core was
 * valid (core_fig.reason == R_NONE), so its window figures cover the time it
 * was valid; its thread 0 TSC sum is that time and weights it in the
 * aggregates. A core on its fallback (the split's own counter failed, the
 * fixed counters are sound) has its fixed-counter and TSC slots added but
 * not the ANY/OTA slot. Its thread figures then cover all of its valid time,
 * and over the window the split counter lags the fixed ones: the metrics'
 * own checks clamp it (reported as the inconsistency) when that interval
 * was a small part of the window, or show the window as the fallback bound
 * when it was not; an exact split is never made up for time it was not
 * measured.
 *
 * The seconds of the intervals a selected core was not valid in are summed
 * per core as well (lost): over a window, their difference is the time the
 * core's sums leave out, which its threads' job_unc_s say (the job's cpu_s
 * is then a bound, aggregate.c). Its TSC sum would say it too, but only to
 * the read skew between the sample's time and the core's clock.
 *
 * A core with no valid interval in the window has no TSC sum there: it is
 * given the reason of its latest invalid interval instead of "TSC did not
 * advance".
 *
 * A counter that stopped (thread_fig.stopped) in a valid interval is added
 * like the others, and the time of that interval is kept per CPU and kind:
 * a window that reaches back to it has the counter's figures absent
 * (R_STOPPED, through metrics_ctx.stopped_in), since the sum is missing
 * counts that were never made; the other figures cover the whole window. */
#include "config.h"
#include "metrics/history.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics/internal.h"
#include "util/i18n.h"
#include "util/xalloc.h"

/* Ring size: one snapshot per refresh, never more than this many, and
 * never more than HISTORY_MAX_BYTES of snapshots (a 272-thread node keeps
 * about 13 KB per snapshot). A window longer than the ring covers is cut
 * to what the ring holds, and history_compute says how long that was. */
#define HISTORY_MAX_SNAPS 4096
#define HISTORY_MAX_BYTES (32u << 20)

struct history {
	const struct machine *m;
	unsigned max_cpu, nslots, ncores;
	size_t rowlen;               /* max_cpu * nslots */
	size_t tlen;                 /* ncores * 4 */
	unsigned width[PLAN_MAX_SLOTS]; /* the source's slot widths */
	struct plan plan64;          /* the caller's plan, slots 64 bits wide */

	bool started;
	bool truth;                  /* ground truth seen (simulator) */
	double start_time;
	/* The measured clock: start_time plus the lengths of the intervals
	 * added. A pause (a new first sample, no interval over the gap) does
	 * not advance it, so a window of the last N s is N s of intervals,
	 * as before the pause, not what is left of N s of the clock. */
	double mtime;
	double last_wall;            /* the latest sample's wall time */
	uint64_t nadd;

	uint64_t *sums;              /* running sums, rowlen */
	uint64_t *tsums;             /* running truth sums, tlen */
	double *lost;                /* per core: seconds of the intervals it
				      * was selected and not valid in */
	uint64_t *zero;              /* the AVG_RUN start: all zero, rowlen + tlen */
	enum reason *last_reason;    /* per core: latest invalid interval's reason */
	uint8_t *latest_state;       /* per CPU: CPU_NOT_READ or CPU_READ_OK */
	uint8_t *last_read;          /* per CPU: the latest sample's state, as read */
	uint8_t *ok_state;           /* per CPU: CPU_READ_OK */
	int *noerr;                  /* per CPU: 0 */
	double *stop_time;           /* per CPU and kind: end of the latest
				      * interval it was stopped in, or -1 */
	uint8_t *stop_in;            /* per CPU: kinds stopped in the window */

	/* The ring: cap snapshots, n in use, head the newest. */
	size_t cap, n, head;
	double *ring_time;
	uint64_t *ring_v;            /* cap * rowlen */
	uint64_t *ring_t;            /* cap * tlen */
	double *ring_l;              /* cap * ncores */

	struct sample a, b;          /* what metrics_compute is given */
};

struct history *
history_new(const struct machine *m, const struct plan *p, double max_seconds,
    double min_delay)
{
	const struct topology *t = &m->topo;
	struct history *h = xcalloc(1, sizeof *h);
	size_t per, cap, i;
	double want;

	h->m = m;
	h->max_cpu = t->max_cpu;
	h->nslots = p->nslots;
	h->ncores = t->ncores;
	h->rowlen = (size_t)t->max_cpu * p->nslots;
	h->tlen = (size_t)t->ncores * 4;
	for (i = 0; i < p->nslots && i < PLAN_MAX_SLOTS; i++)
		h->width[i] = p->slots[i].width;
	h->plan64 = *p;

	/* Enough for max_seconds at the shortest refresh, plus the two ends. */
	if (min_delay <= 0.0)
		min_delay = 0.05;
	want = max_seconds > 0.0 ? max_seconds / min_delay + 2.0 : 2.0;
	cap = want > (double)HISTORY_MAX_SNAPS ? HISTORY_MAX_SNAPS : (size_t)want + 1;
	per = (h->rowlen + h->tlen) * sizeof(uint64_t) + (h->ncores + 1) * sizeof(double);
	if (cap * per > HISTORY_MAX_BYTES)
		cap = HISTORY_MAX_BYTES / per;
	if (cap < 3)
		cap = 3;
	h->cap = cap;

	h->sums = xcalloc(h->rowlen + 1, sizeof *h->sums);
	h->tsums = xcalloc(h->tlen + 1, sizeof *h->tsums);
	h->lost = xcalloc(h->ncores + 1, sizeof *h->lost);
	h->zero = xcalloc(h->rowlen + h->tlen + 1, sizeof *h->zero);
	h->last_reason = xcalloc(h->ncores + 1, sizeof *h->last_reason);
	h->latest_state = xcalloc(h->max_cpu + 1, sizeof *h->latest_state);
	h->last_read = xcalloc(h->max_cpu + 1, sizeof *h->last_read);
	h->ok_state = xcalloc(h->max_cpu + 1, sizeof *h->ok_state);
	h->noerr = xcalloc(h->max_cpu + 1, sizeof *h->noerr);
	h->stop_time = xcalloc((size_t)(h->max_cpu + 1) * SLOT_NKINDS, sizeof *h->stop_time);
	for (i = 0; i < (size_t)(h->max_cpu + 1) * SLOT_NKINDS; i++)
		h->stop_time[i] = -1.0;
	h->stop_in = xcalloc(h->max_cpu + 1, sizeof *h->stop_in);
	h->ring_time = xcalloc(cap, sizeof *h->ring_time);
	h->ring_v = xcalloc(cap * h->rowlen + 1, sizeof *h->ring_v);
	h->ring_t = xcalloc(cap * h->tlen + 1, sizeof *h->ring_t);
	h->ring_l = xcalloc(cap * h->ncores + 1, sizeof *h->ring_l);
	for (i = 0; i < h->ncores; i++)
		h->last_reason[i] = R_FIRST;
	/* Until the first sample every core waits for its first interval. */
	memset(h->latest_state, CPU_READ_OK, h->max_cpu);
	memset(h->ok_state, CPU_READ_OK, h->max_cpu);

	h->a.max_cpu = h->b.max_cpu = h->max_cpu;
	h->a.nslots = h->b.nslots = h->nslots;
	h->a.ncores = h->b.ncores = h->ncores;
	h->a.err = h->b.err = h->noerr;
	return h;
}

void
history_reset(struct history *h)
{
	size_t i;

	h->started = false;
	h->truth = false;
	h->start_time = h->mtime = 0.0;
	h->nadd = 0;
	h->n = h->head = 0;
	memset(h->sums, 0, h->rowlen * sizeof *h->sums);
	memset(h->tsums, 0, h->tlen * sizeof *h->tsums);
	memset(h->lost, 0, h->ncores * sizeof *h->lost);
	for (i = 0; i < h->ncores; i++)
		h->last_reason[i] = R_FIRST;
	memset(h->latest_state, CPU_READ_OK, h->max_cpu);
}

static void
push(struct history *h, double time)
{
	size_t i = h->n == 0 ? 0 : (h->head + 1) % h->cap;

	h->ring_time[i] = time;
	memcpy(h->ring_v + i * h->rowlen, h->sums, h->rowlen * sizeof *h->sums);
	memcpy(h->ring_t + i * h->tlen, h->tsums, h->tlen * sizeof *h->tsums);
	memcpy(h->ring_l + i * h->ncores, h->lost, h->ncores * sizeof *h->lost);
	h->head = i;
	if (h->n < h->cap)
		h->n++;
}

/* Add one valid core's deltas; `fixed_only` leaves out the split counter. */
static void
add_core(struct history *h, const struct topo_core *tc, const struct sample *prev,
    const struct sample *cur, bool fixed_only)
{
	unsigned th, s;

	for (th = 0; th < tc->nthreads && th < TOPO_MAX_SMT; th++) {
		unsigned cpu = tc->cpus[th];
		const uint64_t *p = sample_row_c(prev, cpu), *c = sample_row_c(cur, cpu);
		uint64_t *sum = h->sums + (size_t)cpu * h->nslots;

		if (cpu >= h->max_cpu)
			continue;
		for (s = 0; s < h->nslots; s++) {
			const struct plan_slot *ps = &h->plan64.slots[s];

			if (!plan_slot_on_thread(ps, th))
				continue;
			if (fixed_only && (ps->kind == SLOT_ANY || ps->kind == SLOT_OTA))
				continue;
			sum[s] += counter_delta(p[s], c[s], h->width[s]);
		}
	}
}

/* When each of the core's threads last had a counter stopped. */
static void
note_stopped(struct history *h, const struct topo_core *tc, const struct interval *last,
    double time)
{
	unsigned th, k;

	for (th = 0; th < tc->nthreads && th < TOPO_MAX_SMT; th++) {
		unsigned cpu = tc->cpus[th];

		if (cpu >= h->max_cpu || cpu >= last->max_cpu)
			continue;
		for (k = 0; k < SLOT_NKINDS; k++)
			if (last->threads[cpu].stopped & KIND_BIT(k))
				h->stop_time[(size_t)cpu * SLOT_NKINDS + k] = time;
	}
}

/* The kinds stopped in an interval that ended after `from`. */
static void
stopped_since(struct history *h, double from)
{
	unsigned cpu, k;

	for (cpu = 0; cpu < h->max_cpu; cpu++) {
		uint8_t m = 0;

		for (k = 0; k < SLOT_NKINDS; k++)
			if (h->stop_time[(size_t)cpu * SLOT_NKINDS + k] > from)
				m |= (uint8_t)KIND_BIT(k);
		h->stop_in[cpu] = m;
	}
}

void
history_add(struct history *h, const struct sample *prev, const struct sample *cur,
    const struct interval *last)
{
	const struct topology *t = &h->m->topo;
	unsigned ci, cpu, k;
	double dt;
	bool truth;

	if (!h->started) {
		h->started = true;
		h->start_time = h->mtime = prev != NULL ? prev->time : cur->time;
		push(h, h->start_time);   /* the zero snapshot */
	}
	h->last_wall = cur->wall;
	for (cpu = 0; cpu < h->max_cpu && cpu < cur->max_cpu; cpu++) {
		h->latest_state[cpu] = cur->state[cpu] == CPU_NOT_READ ? CPU_NOT_READ : CPU_READ_OK;
		h->last_read[cpu] = cur->state[cpu];
	}
	if (prev == NULL || cur->nslots != h->nslots || prev->nslots != h->nslots)
		return;

	dt = cur->time > prev->time ? cur->time - prev->time : 0.0;
	h->mtime += dt;
	truth = prev->truth != NULL && cur->truth != NULL;
	for (ci = 0; ci < t->ncores && ci < last->ncores; ci++) {
		const struct core_fig *cf = &last->cores[ci];

		if (cf->reason != R_NONE) {
			if (cf->reason != R_NOT_SELECTED) {
				h->last_reason[ci] = cf->reason;
				h->lost[ci] += dt;
			}
			continue;
		}
		add_core(h, &t->cores[ci], prev, cur, cf->fallback != R_NONE);
		if (cf->stopped != 0)
			note_stopped(h, &t->cores[ci], last, h->mtime);
		if (truth && ci < cur->ncores && ci < prev->ncores)
			for (k = 0; k < 4; k++)
				h->tsums[ci * 4 + k] += cur->truth[ci * 4 + k] - prev->truth[ci * 4 + k];
	}
	if (truth)
		h->truth = true;
	h->nadd++;
	push(h, h->mtime);
}

/* Which CPUs are offline now: the latest sample's, not the window's. */
static void
offline_now(const struct history *h, struct interval *iv)
{
	struct sample s;

	memset(&s, 0, sizeof s);
	s.max_cpu = h->max_cpu;
	s.state = h->last_read;
	interval_offline(iv, &h->m->topo, h->nadd > 0 ? &s : NULL);
}

/* The snapshot a window starts from: index into the ring. */
static size_t
window_start(const struct history *h, enum avg_window w, double seconds)
{
	size_t oldest = (h->head + h->cap - (h->n - 1)) % h->cap;
	size_t before = (h->head + h->cap - 1) % h->cap;
	double now = h->ring_time[h->head], from;
	size_t i, k;

	if (w != AVG_WINDOW || seconds <= 0.0)
		return before;
	/* The oldest snapshot inside the window (a hair of slack for
	 * refresh times that are not exact in binary); at least one interval. */
	from = now - seconds - 1e-9 * (seconds > 1.0 ? seconds : 1.0);
	for (k = 0; k + 1 < h->n; k++) {
		i = (oldest + k) % h->cap;
		if (h->ring_time[i] >= from)
			return i;
	}
	return before;
}

/* Cores without a valid interval in the window: say why, not "no time". */
static void
explain_empty(const struct history *h, const struct sample *a, const struct sample *b,
    struct interval *iv)
{
	const struct topology *t = &h->m->topo;
	int ts = plan_slot_index(&h->plan64, SLOT_TSC);
	unsigned ci, i;
	bool changed = false;

	if (ts < 0)
		return;
	for (ci = 0; ci < t->ncores && ci < iv->ncores; ci++) {
		const struct topo_core *tc = &t->cores[ci];
		struct core_fig *cf = &iv->cores[ci];
		unsigned c0 = tc->cpus[0];

		if (cf->reason != R_NO_TIME || tc->nthreads == 0 || c0 >= h->max_cpu)
			continue;
		if (sample_row_c(b, c0)[ts] != sample_row_c(a, c0)[ts])
			continue;
		cf->reason = h->last_reason[ci];
		for (i = 0; i < tc->nthreads && i < TOPO_MAX_SMT; i++)
			if (tc->cpus[i] < iv->max_cpu)
				thread_blank(&iv->threads[tc->cpus[i]], cf->reason);
		changed = true;
	}
	if (!changed || iv->valid)
		return;
	for (ci = 0; ci < t->ncores && ci < iv->ncores; ci++) {
		const struct core_fig *cf = &iv->cores[ci];

		if (cf->selected && (cf->reason != R_NONE || cf->fallback != R_NONE)) {
			interval_describe_core(iv, t, ci);
			return;
		}
	}
}

/* Each thread's job_unc_s: the seconds of the window its core's sums
 * leave out (lost at the window's end less lost at its start, `from`;
 * NULL: the run's start, zero). Whether any is not zero: only then do the
 * aggregates (cpu_s) need computing again. */
static bool
window_lost(const struct history *h, const double *from, struct interval *iv)
{
	const struct topology *t = &h->m->topo;
	const double *to = h->ring_l + h->head * h->ncores;
	unsigned ci, i;
	bool any = false;

	for (ci = 0; ci < t->ncores && ci < iv->ncores; ci++) {
		const struct topo_core *tc = &t->cores[ci];
		double u = to[ci] - (from != NULL ? from[ci] : 0.0);

		u = u < 0.0 ? 0.0 : u > iv->dt ? iv->dt : u;
		any = any || u > 0.0;
		for (i = 0; i < tc->nthreads && i < TOPO_MAX_SMT; i++)
			if (tc->cpus[i] < iv->max_cpu)
				iv->threads[tc->cpus[i]].job_unc_s = u;
	}
	return any;
}

double
history_compute(struct history *h, const struct metrics_ctx *c, enum avg_window w,
    double seconds, struct interval *iv)
{
	struct metrics_ctx c64 = *c;
	const double *lost_from = NULL;
	unsigned s;
	size_t i;

	/* The caller's plan as it is now (calibration may have set the
	 * scale since history_new), with sums that never wrap. */
	h->plan64 = *c->plan;
	for (s = 0; s < h->plan64.nslots && s < PLAN_MAX_SLOTS; s++)
		h->plan64.slots[s].width = 64;
	c64.plan = &h->plan64;

	h->b.state = h->latest_state;
	h->b.v = h->n > 0 ? h->ring_v + h->head * h->rowlen : h->zero;
	h->b.truth = h->truth ? (h->n > 0 ? h->ring_t + h->head * h->tlen : h->zero + h->rowlen) :
	    NULL;
	h->b.time = h->n > 0 ? h->ring_time[h->head] : 0.0;
	h->b.wall = h->last_wall;
	h->b.seq = h->nadd;
	if (h->nadd == 0) {
		/* Nothing accumulated: every core says so (R_FIRST). */
		metrics_compute(&c64, NULL, &h->b, iv);
		return 0.0;
	}

	h->a.state = h->ok_state;
	h->a.seq = 0;
	if (w == AVG_RUN) {
		h->a.v = h->zero;
		h->a.truth = h->truth ? h->zero + h->rowlen : NULL;
		h->a.time = h->start_time;
	} else {
		i = window_start(h, w, seconds);
		h->a.v = h->ring_v + i * h->rowlen;
		h->a.truth = h->truth ? h->ring_t + i * h->tlen : NULL;
		h->a.time = h->ring_time[i];
		lost_from = h->ring_l + i * h->ncores;
	}
	stopped_since(h, h->a.time);
	c64.stopped_in = h->stop_in;
	metrics_compute(&c64, &h->a, &h->b, iv);
	explain_empty(h, &h->a, &h->b, iv);
	offline_now(h, iv);
	if (window_lost(h, lost_from, iv))
		aggregate_all(&c64, iv);
	return h->b.time - h->a.time;
}

void
history_free(struct history *h)
{
	if (h == NULL)
		return;
	free(h->sums);
	free(h->tsums);
	free(h->lost);
	free(h->ring_l);
	free(h->zero);
	free(h->last_reason);
	free(h->latest_state);
	free(h->last_read);
	free(h->ok_state);
	free(h->noerr);
	free(h->stop_time);
	free(h->stop_in);
	free(h->ring_time);
	free(h->ring_v);
	free(h->ring_t);
	free(h);
}
