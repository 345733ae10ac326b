/* verdict.c: tolerances and verdicts of the check (verdict.h). */
#include "config.h"
#include "check/verdict.h"

#include "util/i18n.h"

double
check_tol_share(const struct check_timing *t, double edges)
{
	double tol = CHECK_TOL_FLOOR;

	if (t->interval > 0.0)
		tol += (t->period + 2.0 * t->skew) / t->interval;
	if (t->period > 0.0)
		tol += edges / t->period;
	return tol;
}

double
check_tol_ran(double read_err, unsigned edges, double interval, struct check_tol_parts *p)
{
	p->reads = p->edges = 0.0;
	if (interval > 0.0) {
		p->reads = read_err / interval;
		p->edges = (double)edges * CHECK_IDLE_ENTRY_S / interval;
	}
	return p->reads + p->edges;
}

double
check_tol_parts_sum(const struct check_tol_parts *p)
{
	return p->floor + p->reads + p->edges + p->granularity + p->steal + p->other_work;
}

double
check_tol_rate(const struct check_timing *t)
{
	double tol = CHECK_TOL_FLOOR;

	if (t->interval > 0.0)
		tol += 2.0 * t->skew / t->interval;
	return tol;
}

/* The expected values as an interval [*lo, *hi] (hi infinite: open). */
static void
expected_range(const struct check_row *r, double *lo, double *hi, bool *open)
{
	*lo = r->lo;
	*hi = r->expect == CE_EXACT ? r->lo : r->hi;
	*open = r->expect == CE_AT_LEAST;
}

/* m minus the nearest point of the expected values (0 inside them). */
static double
gap(double m, double lo, double hi, bool open)
{
	if (m < lo)
		return m - lo;
	if (!open && m > hi)
		return m - hi;
	return 0.0;
}

void
check_row_judge(struct check_row *r)
{
	double lo, hi, d;
	bool open;

	expected_range(r, &lo, &hi, &open);
	r->diff = 0.0;
	switch (r->measured.kind) {
	case V_NONE:
		r->verdict = CV_NONE;
		return;
	case V_EXACT:
		d = gap(r->measured.v, lo, hi, open);
		r->diff = d;
		r->verdict = d >= -r->tol && d <= r->tol ? CV_PASS : CV_FAIL;
		return;
	case V_BOUND:
		/* The bound [blo, bhi] holds if it meets the expected values;
		 * the difference is the gap between the two. */
		if (r->measured.hi < lo)
			d = r->measured.hi - lo;
		else if (!open && r->measured.lo > hi)
			d = r->measured.lo - hi;
		else
			d = 0.0;
		r->diff = d;
		r->verdict = d >= -r->tol && d <= r->tol ? CV_BOUND : CV_FAIL;
		return;
	}
	r->verdict = CV_NONE;
}

void
check_row_disturbed(struct check_row *r)
{
	/* Every figure, one within its tolerance too: the case tested
	 * nothing of httop (its tolerance may have been widened by the
	 * other work, and another program's counter can turn an exact split
	 * into its fallback bound), so it counts for no family's trust. */
	r->verdict = CV_DISTURBED;
}

static int
severity(enum check_verdict v)
{
	switch (v) {
	case CV_PASS: return 0;
	case CV_BOUND: return 1;
	case CV_DISTURBED: return 2;
	case CV_NONE: return 3;
	case CV_FAIL: return 4;
	}
	return 4;
}

enum check_verdict
check_verdict_worse(enum check_verdict a, enum check_verdict b)
{
	return severity(b) > severity(a) ? b : a;
}

enum check_trust
check_trust_add(enum check_trust t, enum check_verdict v)
{
	enum check_trust n;

	switch (v) {
	case CV_PASS: n = CT_TRUSTED; break;
	case CV_BOUND: n = CT_BOUND; break;
	case CV_DISTURBED: n = CT_DISTURBED; break;
	default: n = CT_FAILED; break;
	}
	/* The enum is in order of concern: the worst one stays. */
	return n > t ? n : t;
}

const char *
check_family_key(enum check_family f)
{
	static const char *const k[CF_NFAMILIES] = {
		"split", "util", "instructions", "cpi", "ghz", "clock", "scale"
	};

	return f < CF_NFAMILIES ? k[f] : "?";
}

const char *
check_family_text(enum check_family f)
{
	static const char *const k[CF_NFAMILIES] = {
		N_("split"), N_("utilisation"), N_("instructions"), N_("CPI"), N_("frequency"),
		N_("clock"), N_("reference-clock scale")
	};

	return f < CF_NFAMILIES ? k[f] : "?";
}

const char *
check_verdict_key(enum check_verdict v)
{
	switch (v) {
	case CV_PASS: return "pass";
	case CV_BOUND: return "bound";
	case CV_FAIL: return "fail";
	case CV_NONE: return "none";
	case CV_DISTURBED: return "disturbed";
	}
	return "?";
}

const char *
check_verdict_text(enum check_verdict v)
{
	switch (v) {
	case CV_PASS: return N_("pass");
	case CV_BOUND: return N_("bound holds");
	case CV_FAIL: return N_("FAIL");
	case CV_NONE: return N_("no value");
	case CV_DISTURBED: return N_("disturbed");
	}
	return "?";
}

const char *
check_trust_key(enum check_trust t)
{
	switch (t) {
	case CT_UNCHECKED: return "unchecked";
	case CT_TRUSTED: return "trusted";
	case CT_BOUND: return "bound";
	case CT_DISTURBED: return "disturbed";
	case CT_FAILED: return "failed";
	}
	return "?";
}

const char *
check_expect_key(enum check_expect e)
{
	switch (e) {
	case CE_EXACT: return "exact";
	case CE_AT_LEAST: return "at-least";
	case CE_RANGE: return "range";
	}
	return "?";
}
