/* format.c: what the batch formats share (format.h): which cores and
 * threads are shown, and the one way a figure is written as exact, a bound
 * or absent. */
#include "config.h"
#include "out/format.h"

#include <math.h>
#include <string.h>

bool
out_core_shown(const struct interval *iv, unsigned core)
{
	return core < iv->ncores && iv->cores[core].selected &&
	    iv->cores[core].reason != R_NOT_SELECTED;
}

bool
out_thread_shown(const struct interval *iv, unsigned cpu)
{
	return cpu < iv->max_cpu && iv->threads[cpu].reason != R_NOT_SELECTED;
}

const char *
out_fig(char *buf, size_t len, struct val v, double scale, int decimals, const char *unit)
{
	char a[32], b[32];

	if (v.kind == V_EXACT && isfinite(v.v)) {
		snprintf(buf, len, "%.*f%s", decimals, v.v * scale, unit);
	} else if (v.kind == V_BOUND && isfinite(v.lo) && isfinite(v.hi)) {
		snprintf(a, sizeof a, "%.*f", decimals, v.lo * scale);
		snprintf(b, sizeof b, "%.*f", decimals, v.hi * scale);
		if (strcmp(a, b) == 0)
			snprintf(buf, len, "%s%s", a, unit);
		else
			snprintf(buf, len, "%s-%s%s", a, b, unit);
	} else {
		snprintf(buf, len, "-");
	}
	return buf;
}

enum out_shape
out_shape(struct val v, double *x, double *lo, double *hi)
{
	if (v.kind == V_EXACT) {
		*x = v.v;
		return OUT_EXACT;
	}
	if (v.kind == V_BOUND && isfinite(v.lo) && isfinite(v.hi)) {
		*lo = v.lo;
		*hi = v.hi;
		return OUT_BOUND;
	}
	return OUT_ABSENT;
}
