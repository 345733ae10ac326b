/* stopped.c: a counter that stands still while its partner advances was
 * stopped by another program (it cleared the counter's enable bits): the
 * figures computed from it would be made up, IPC 0 for a thread that ran.
 * The partners are the plan's (plan_link); the thresholds are httop.1's
 * VALIDITY:
 *
 * A thread that is unhalted retires instructions and runs both clocks; the
 * longest it can stay unhalted with one of them still is one instruction
 * in flight (a load that misses every cache and the TLB takes about a
 * microsecond) and the time between the reads of two counters of one CPU
 * (back to back, microseconds). METRICS_STOP_WINDOW (20 us) covers both
 * several times over; a partner must gain more than that window's counts
 * at its highest rate, plus two of its steps, before a still counter is
 * called stopped. A partner read on the sibling thread may also have been
 * read later by the allowance the split already grants for sibling skew.
 * A thread halted all the time moves nothing and stays a valid idle one. */
#include "config.h"
#include "metrics/internal.h"

#include <stdio.h>
#include <string.h>

#include "util/i18n.h"

double
metrics_stop_threshold(enum slot_kind k, double tsc_hz, unsigned scale)
{
	double step = scale > 0 ? (double)scale : 1.0;

	switch (k) {
	case SLOT_CYCLES:
		return METRICS_STOP_WINDOW * METRICS_MAX_HZ + 2.0;
	case SLOT_INST:
		return METRICS_STOP_WINDOW * METRICS_MAX_IPC * METRICS_MAX_HZ + 2.0;
	case SLOT_ANY:
	case SLOT_OTA:
	case SLOT_REFX:
		/* Counts of S ticks each. */
		return METRICS_STOP_WINDOW * tsc_hz / step + 2.0;
	default:
		/* The reference clock (and the TSC) at the TSC rate, in steps
		 * of S ticks where it follows the crystal. */
		return METRICS_STOP_WINDOW * tsc_hz + 2.0 * step;
	}
}

static bool
read_on(const struct slot_deltas *t, unsigned s)
{
	return (t->read >> s) & 1u;
}

/* Did partner slot `ps` of thread `th` advance past its threshold, by
 * `rule`? */
static bool
partner_moved(const struct plan *p, const struct plan_partner *q, const struct slot_deltas *t,
    unsigned n, unsigned th, double tsc_hz, double skew)
{
	unsigned ps = q->partner, i;
	double thr = metrics_stop_threshold(p->slots[ps].kind, tsc_hz, p->scale);

	switch (q->rule) {
	case PARTNER_CORE:
		/* Thread 0's AnyThread count covers every thread's clock. */
		if (th != 0)
			return false;
		for (i = 0; i < n; i++)
			if (read_on(&t[i], ps) &&
			    (double)t[i].d[ps] > thr + (i == th ? 0.0 : skew))
				return true;
		return false;
	case PARTNER_ALONE: {
		/* Ran longer than its sibling: alone for at least the
		 * difference. Only a core of two threads has one sibling. */
		double own, sib = 0.0;

		if (!read_on(&t[th], ps) || n > 2)
			return false;
		own = (double)t[th].d[ps];
		if (n == 2) {
			if (!read_on(&t[1 - th], ps))
				return false;
			sib = (double)t[1 - th].d[ps];
		}
		return own - sib > thr + (n == 2 ? skew : 0.0);
	}
	case PARTNER_SAME:
	default:
		return read_on(&t[th], ps) && (double)t[th].d[ps] > thr;
	}
}

unsigned
metrics_stopped_kinds(const struct plan *p, const struct slot_deltas *t, unsigned n,
    unsigned th, double tsc_hz, double skew)
{
	unsigned k, mask = 0;

	if (th >= n)
		return 0;
	for (k = 0; k < p->npartners; k++) {
		const struct plan_partner *q = &p->partners[k];
		enum slot_kind kind;

		if (q->slot >= p->nslots || q->partner >= p->nslots)
			continue;
		kind = p->slots[q->slot].kind;
		if ((mask & KIND_BIT(kind)) || !read_on(&t[th], q->slot) || t[th].d[q->slot] != 0)
			continue;
		if (partner_moved(p, q, t, n, th, tsc_hz, skew))
			mask |= KIND_BIT(kind);
	}
	return mask;
}

const char *
metrics_stopped_title(unsigned mask)
{
	unsigned k;

	for (k = 0; k < SLOT_NKINDS; k++)
		if (mask & KIND_BIT(k))
			return slot_kind_title((enum slot_kind)k);
	return "";
}

/* Append to both texts: "; " between parts. */
static void
both_put(struct interval *iv, const char *tr, const char *c)
{
	size_t a = strlen(iv->reason), b = strlen(iv->reason_c);

	snprintf(iv->reason + a, sizeof iv->reason - a, "%s", tr);
	snprintf(iv->reason_c + b, sizeof iv->reason_c - b, "%s", c);
}

/* "instructions retired on CPUs 48-95" for kind k, in both texts. */
static void
put_kind(struct interval *iv, unsigned k, bool first)
{
	char list[192], tr[256], cc[256];
	const char *title = slot_kind_title((enum slot_kind)k);
	/* TRANSLATORS: a counter and the CPUs it stopped on, "instructions
	 * retired on CPUs 48-95" */
	const char *one = N_("%s on CPU %s"), *many = N_("%s on CPUs %s");
	unsigned cpu, ncpu = 0;

	for (cpu = 0; cpu < iv->max_cpu; cpu++) {
		const struct thread_fig *t = &iv->threads[cpu];

		iv->scratch[cpu] = t->reason == R_NONE && (t->stopped & KIND_BIT(k));
		ncpu += iv->scratch[cpu];
	}
	list[0] = '\0';
	cpulist_append(list, sizeof list, iv->scratch, iv->max_cpu);
	snprintf(tr, sizeof tr, _(ncpu == 1 ? one : many), _(title), list);
	snprintf(cc, sizeof cc, ncpu == 1 ? one : many, title, list);
	both_put(iv, first ? ": " : "; ", first ? ": " : "; ");
	both_put(iv, tr, cc);
}

/* "counter stopped: instructions retired on CPUs 48-95; core cycles on
 * CPU 3", after the first core's problem when there is one. */
void
interval_stopped(struct interval *iv)
{
	unsigned cpu, k;
	bool first = true;

	iv->stopped = 0;
	for (cpu = 0; cpu < iv->max_cpu; cpu++)
		if (iv->threads[cpu].reason == R_NONE)
			iv->stopped |= iv->threads[cpu].stopped;
	if (iv->stopped == 0)
		return;
	if (iv->valid)
		iv->reason[0] = iv->reason_c[0] = '\0';
	else
		both_put(iv, "; ", "; ");
	iv->valid = false;
	both_put(iv, _(metrics_reason_text(R_STOPPED)), metrics_reason_text(R_STOPPED));
	for (k = 0; k < SLOT_NKINDS; k++) {
		if (iv->stopped & KIND_BIT(k)) {
			put_kind(iv, k, first);
			first = false;
		}
	}
}
