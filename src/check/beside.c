/* beside.c: the check's source against the scheduler's record (beside.h). */
#include "config.h"
#include "check/beside.h"

#include <math.h>
#include <string.h>

/* A figure as the interval it says the value lies in. */
static bool
span(struct val v, double *lo, double *hi)
{
	switch (v.kind) {
	case V_EXACT:
		*lo = *hi = v.v;
		return true;
	case V_BOUND:
		*lo = v.lo;
		*hi = v.hi;
		return true;
	default:
		return false;
	}
}

bool
check_beside_diff(struct val a, struct val b, double *diff)
{
	double alo, ahi, blo, bhi;

	*diff = 0.0;
	if (!span(a, &alo, &ahi) || !span(b, &blo, &bhi))
		return false;
	/* Two exact values: a - b. A bound and a value, or two bounds: the
	 * gap between them, signed as a - b, none where they meet. */
	if (alo > bhi)
		*diff = alo - bhi;
	else if (ahi < blo)
		*diff = ahi - blo;
	return true;
}

static const struct check_row *
find(const struct check_row *rows, unsigned n, const char *figure, int thread)
{
	unsigned i;

	for (i = 0; i < n; i++)
		if (strcmp(rows[i].figure, figure) == 0 && rows[i].thread == thread &&
		    (rows[i].family == CF_SPLIT || rows[i].family == CF_UTIL))
			return &rows[i];
	return NULL;
}

double
check_beside_limit(bool share, double span, double interval, double granularity)
{
	double threads = share ? 2.0 : 1.0;

	if (interval <= 0.0)
		return INFINITY;
	return 2.0 * span / interval + 2.0 * CHECK_TOL_FLOOR + threads * granularity;
}

void
check_beside_compare(struct check_beside *b, const struct check_row *mine, unsigned nmine,
    const struct check_row *sched, unsigned nsched, double span, double interval,
    double granularity, const double steal[2])
{
	/* Other work on the CPU or lost records: the scheduler's figures
	 * are not a record of the case, so a difference says nothing. */
	bool whole = b->dist.kind == CD_NONE;
	unsigned i;

	b->n = b->nknown = b->nagree = 0;
	for (i = 0; i < nsched && b->n < CHECK_BESIDE_MAX; i++) {
		const struct check_row *s = &sched[i], *m;
		struct check_beside_fig *f;

		if (s->family != CF_SPLIT && s->family != CF_UTIL)
			continue;
		if ((m = find(mine, nmine, s->figure, s->thread)) == NULL)
			continue;
		f = &b->f[b->n++];
		memset(f, 0, sizeof *f);
		f->family = s->family;
		f->figure = s->figure;
		f->thread = s->thread;
		f->measured = m->measured;
		f->sched = s->measured;
		f->limit = check_beside_limit(f->family == CF_SPLIT, span, interval, granularity);
		if (steal != NULL)
			f->limit += f->family == CF_SPLIT ? steal[0] + steal[1] :
			    f->thread >= 0 && f->thread < 2 ? steal[f->thread] : 0.0;
		f->known = check_beside_diff(f->measured, f->sched, &f->diff);
		f->compared = f->known && whole;
		if (!f->compared)
			continue;
		b->nknown++;
		f->agree = fabs(f->diff) <= f->limit;
		b->nagree += f->agree;
	}
}
