/* value.h: every figure httop shows is exact, a bound, or absent with a
 * reason. Outputs print the kind; nothing downstream sees NaN. */
#ifndef HTTOP_VALUE_H
#define HTTOP_VALUE_H

#include <stdbool.h>

enum vkind {
	V_NONE = 0,   /* not available: see the owner's reason */
	V_EXACT,      /* v */
	V_BOUND,      /* lo <= true value <= hi; v is not used */
};

struct val {
	enum vkind kind;
	double v, lo, hi;
};

static inline struct val
val_exact(double v)
{
	struct val r = { V_EXACT, v, v, v };
	return r;
}

static inline struct val
val_bound(double lo, double hi)
{
	struct val r = { V_BOUND, 0.0, lo, hi };
	return r;
}

/* A bound whose ends meet (within rounding) is the value itself: the
 * bounds on the split close when a thread was idle or busy all the time. */
static inline struct val
val_tight(double lo, double hi)
{
	return hi - lo <= 1e-12 ? val_exact(lo) : val_bound(lo, hi);
}

static inline struct val
val_none(void)
{
	struct val r = { V_NONE, 0.0, 0.0, 0.0 };
	return r;
}

#endif
