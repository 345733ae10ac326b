/* verdict.h: one figure of the check against what the load implies: the
 * expected value (or the range it must lie in), the measured figure as
 * httop computed it (exact, a bound, or absent), the tolerance, and the
 * verdict. The tolerances are derived here, from the period, the read
 * skew, the load's own timing and the interval length (httop(1), CHECK). */
#ifndef HTTOP_CHECK_VERDICT_H
#define HTTOP_CHECK_VERDICT_H

#include <stdbool.h>

#include "metrics/metrics.h"
#include "metrics/value.h"

/* The figures are judged by family; the summary says per family whether
 * this node can be trusted for it. */
enum check_family {
	CF_SPLIT = 0,   /* the four shares of a core */
	CF_UTIL,        /* a thread's utilisation */
	CF_INST,        /* instructions retired */
	CF_CPI,         /* cycles per instruction */
	CF_GHZ,         /* the clock while active */
	CF_CLOCK,       /* the TSC against the nominal clock and the wall clock */
	CF_SCALE,       /* the reference-clock scale against the table */
	CF_NFAMILIES
};

/* What the load says of a figure. */
enum check_expect {
	CE_EXACT = 0,   /* lo == hi: the value */
	CE_AT_LEAST,    /* >= lo (hi unused) */
	CE_RANGE,       /* in [lo, hi] */
};

enum check_verdict {
	CV_PASS = 0,    /* exact, within the tolerance of what is expected */
	CV_BOUND,       /* a bound, and the expected value lies in it (widened by the tolerance) */
	CV_FAIL,        /* beyond the tolerance */
	CV_NONE,        /* httop gave no value where it should have (see reason) */
	CV_DISTURBED,   /* beyond the tolerance, but other work ran on the CPUs
	                 * or another program took the counters: not a test of httop */
};

/* What the summary says of a family. */
enum check_trust {
	CT_UNCHECKED = 0, /* no figure of the family could be checked here */
	CT_TRUSTED,       /* every figure exact and within its tolerance */
	CT_BOUND,         /* bounds only, and each held */
	CT_DISTURBED,     /* some could not be judged: other work or another program */
	CT_FAILED,        /* some figure beyond its tolerance, or absent */
};

/* The parts of a share's or a utilisation's tolerance against what the
 * loads ran (check_ran), each a fraction of the interval; they sum to the
 * row's tol (httop(1), CHECK, Tolerances). */
struct check_tol_parts {
	bool has;
	double floor;              /* the source's own: counts that should agree,
	                            * silent tasks (sched) */
	double reads;              /* the window's ends against the reads */
	double edges;              /* the kernel's way in and out of each burst */
	double granularity;        /* /proc/stat's ticks, where other work counts */
	double steal;              /* time a hypervisor took, unseen by the source */
	double other_work;         /* other work /proc/stat saw beyond the load's */
};

struct check_row {
	enum check_family family;
	const char *figure;        /* "both", "util", "cpi", "ghz"... (JSON key, untranslated) */
	const char *basis;         /* what the expectation rests on: "schedule", "loop", ... */
	int thread;                /* 0, 1, or -1 for the core */
	enum check_expect expect;
	double lo, hi;
	struct val measured;
	double tol;                /* in the figure's unit, absolute */
	double diff;               /* measured - the nearest expected value (0 inside a range or bound) */
	enum check_verdict verdict;
	enum reason reason;        /* CV_NONE: why httop gave nothing */
	/* Where the expectation is what the loads ran (basis "loads"): the
	 * case's own value beside it, and the tolerance's parts. */
	bool has_schedule;
	double schedule;
	struct check_tol_parts parts;
};

/* The tolerance's parts, in seconds. */
struct check_timing {
	double period;             /* the load's period */
	double interval;           /* the interval measured */
	double skew;               /* the longest read of the counters (an upper bound on the skew) */
};

/* httop's own tolerance for counts of one interval that should agree
 * (metrics.h, struct tolerance: 0.5% of the interval). */
#define CHECK_TOL_FLOOR 0.005
/* The time from a thread's call to sleep to the CPU halting: the kernel's
 * path to its idle loop, which the thread cannot see. Generous for current
 * kernels (a few microseconds). */
#define CHECK_IDLE_ENTRY_S 10e-6
/* A hypervisor that took more than this share of a loaded CPU's time
 * (steal) leaves too little of the case for a source that cannot see it
 * (struct check_context, steal_hidden): the case is disturbed. Less
 * only widens the tolerance by the share taken. */
#define CHECK_STEAL_MAX 0.10
/* Instructions beyond the loop's own: the clock read after each block of
 * the loop (about 1%), the kernel's wake up and sleep (under 1%), the
 * timer interrupt. More than this, and the counter counts something else. */
#define CHECK_INST_ALLOWANCE 0.05

/* Tolerance of a share of the interval (a fraction): the floor, the
 * partial period at the ends (period / interval), both reads' skew (2 x
 * skew / interval), and `edges`: the mean error of the load's window
 * edges per period summed over the windows that have edges (seconds; 0
 * where the source plays the schedule itself) over the period. */
double check_tol_share(const struct check_timing *t, double edges);
/* Tolerance of a share or a utilisation against what the loads ran
 * (check_ran) over an interval of `interval` s: the window's ends,
 * `read_err` s (half of each read's span) over the interval, and `edges`
 * burst edges in the window, each of which the source sees up to
 * CHECK_IDLE_ENTRY_S from where the load read the clock. Into p's
 * `reads` and `edges`; returns their sum. */
double check_tol_ran(double read_err, unsigned edges, double interval,
    struct check_tol_parts *p);
/* The sum of the parts. */
double check_tol_parts_sum(const struct check_tol_parts *p);
/* Relative tolerance of a rate over the whole interval (GHz, CPI, the
 * TSC rate): the floor and both reads' skew. */
double check_tol_rate(const struct check_timing *t);

/* Fill in the verdict and the difference of a row whose expectation,
 * measured value and tolerance are set. */
void check_row_judge(struct check_row *r);
/* A row of a disturbed case becomes CV_DISTURBED, whatever it measured:
 * the case judges nothing of httop (httop(1), CHECK). */
void check_row_disturbed(struct check_row *r);

/* The worst of two verdicts (for a case's line). */
enum check_verdict check_verdict_worse(enum check_verdict a, enum check_verdict b);
/* What a family's rows say together; fold one row in at a time, from
 * CT_UNCHECKED. */
enum check_trust check_trust_add(enum check_trust t, enum check_verdict v);

/* Stable tokens for JSON (never translated). */
const char *check_family_key(enum check_family f);
const char *check_verdict_key(enum check_verdict v);
const char *check_trust_key(enum check_trust t);
const char *check_expect_key(enum check_expect e);
/* Words for the text report, untranslated (the caller applies _()). */
const char *check_family_text(enum check_family f);
const char *check_verdict_text(enum check_verdict v);

#endif
