/* beside.h: the scheduler's record of a case beside the check's own
 * source (httop --check with counters, or with /proc/stat; httop(1),
 * CHECK): for each share of the split and each thread's utilisation, the
 * two figures, their difference, and how far two records that each hold
 * to the schedule within their tolerance may differ. It is not a verdict
 * on httop: a difference is time one record sees and the other does not
 * (interrupts, idle polling, a hypervisor's steal). */
#ifndef HTTOP_CHECK_BESIDE_H
#define HTTOP_CHECK_BESIDE_H

#include <stdbool.h>

#include "check/measure.h"
#include "check/verdict.h"

/* The four shares and two utilisations. */
#define CHECK_BESIDE_MAX 6

struct check_beside_fig {
	enum check_family family;  /* CF_SPLIT or CF_UTIL */
	const char *figure;        /* "neither" .. "both", "util" (the rows' keys) */
	int thread;                /* -1 for the core */
	struct val measured;       /* the check's source's figure */
	struct val sched;          /* the scheduler's */
	bool known;                /* both have a value: diff is shown */
	bool compared;             /* known, and the scheduler's record whole
	                            * (a disturbed one is shown, not compared) */
	double diff;               /* measured - sched; where one is a bound, the
	                            * gap to it (0 when the other lies in it) */
	double limit;              /* how far two true records of the same time
	                            * may differ (check_beside_limit) */
	bool agree;                /* compared and |diff| <= limit */
};

struct check_beside {
	bool has;                  /* the scheduler was read beside this case */
	struct check_disturbance dist;  /* what spoiled the scheduler's record */
	char note[256];            /* the scheduler source's events (lost records) */
	unsigned n;
	struct check_beside_fig f[CHECK_BESIDE_MAX];
	unsigned nknown, nagree;   /* figures compared, and agreeing */
};

/* How far a figure of two records of the same CPUs over nearly the same
 * interval may differ when both are right: the reads' ends lie up to
 * `span` s apart over `interval` s (at both ends), each count may be off
 * by httop's floor (CHECK_TOL_FLOOR), and a record in ticks moves in
 * steps of `granularity` of the interval per thread (0 for counters and
 * the scheduler). A share rests on two threads, a utilisation on one. */
double check_beside_limit(bool share, double span, double interval, double granularity);
/* Pair the rows of the split and the utilisations: `mine` judged the
 * check's source, `sched` the scheduler's record of the same case;
 * limits as check_beside_limit() gives them, plus the share of each
 * thread's CPU a hypervisor took (`steal`, NULL for none: time the
 * scheduler gives the running task and the source cannot see), once for
 * a utilisation, both threads' for a share. b->dist must already say
 * whether the scheduler's record was disturbed: then its figures are
 * paired and shown but none is compared. */
void check_beside_compare(struct check_beside *b, const struct check_row *mine, unsigned nmine,
    const struct check_row *sched, unsigned nsched, double span, double interval,
    double granularity, const double steal[2]);
/* The difference of two figures as check_beside_fig.diff defines it;
 * false when either has no value. */
bool check_beside_diff(struct val a, struct val b, double *diff);

#endif
