/* value.h: every figure httop shows is exact, a bound, or absent with a
 * reason. Outputs print the kind; nothing downstream sees NaN. */
#ifndef HTTOP_VALUE_H
#define HTTOP_VALUE_H

#include <stdbool.h>

/* Why a figure or a whole core is not shown. Texts in metrics_reason_text(). */
enum reason {
	R_NONE = 0,         /* no problem (not R_OK: that is access(2)'s) */
	R_NOT_SELECTED,     /* outside --cpus / the watched job */
	R_OFFLINE,          /* a CPU of the core is offline */
	R_READ_ERROR,       /* a read failed (EIO, ...) */
	R_FIRST,            /* no previous sample yet */
	R_NO_TIME,          /* TSC did not advance */
	R_REPROGRAMMED,     /* counts impossible for the programmed events: another program changed the PMU */
	R_SKEW,             /* sibling reads too far apart for the split to be trusted */
	R_NO_INST,          /* no instructions retired: CPI undefined */
	R_NOT_HALTED_ZERO,  /* thread never active: frequency undefined */
	R_NO_BASE,          /* base frequency unknown: GHz unavailable */
	R_NO_SPLIT,         /* the plan gives no split for this core */
	R_UNAVAILABLE,      /* the counter does not exist on this CPU */
	R_TIME_BACK,        /* the TSC went backwards: samples out of order */
	R_STOPPED,          /* a counter stood still while its partner advanced:
			     * another program stopped it (VALIDITY) */
	R_NOT_COUNTED,      /* the source counts no instructions or cycles
			     * (procstat): CPI and GHz are not measured */
	R_LOST,             /* the source lost records of this interval */
	R_TOO_SHORT,        /* a command's run shorter than the shortest interval
			     * httop measures (PACER_DELAY_MIN) */
	R_NO_STEAL,         /* the source does not read steal time (only
			     * procstat does: /proc/stat's steal column) */
	R_NO_JOB,           /* the job's own figures: no job watched, or its
			     * tasks not told apart (only the scheduler's
			     * record, --source sched, tells them) */
	R_NO_RECORD,        /* the job's own figures with a counter source:
			     * the scheduler's record beside it did not open
			     * or failed (its error said once) */
	R_NO_CGROUP_EVENTS, /* the job's own CPI and GHz: no perf cgroup events
			     * count its tasks alone (a job without a cgroup,
			     * a source other than perf, or the kernel refused
			     * them: said once); its CPUs' CPI and GHz stand */
	R_NOT_READ,         /* the running source does not read what the
			     * figure is made from (a figure's generic
			     * reason: no new code for each new figure) */
	R_JOB_UNTRACKED,    /* the job's own figures with --source bpf: a process
			     * of the job found the program's map of them full
			     * (BPF_JOB_PROCS_MAX) in the interval */
	R_NREASONS
};

enum vkind {
	V_NONE = 0,   /* not available: `why` says why */
	V_EXACT,      /* v */
	V_BOUND,      /* lo <= true value <= hi; v is not used */
};

struct val {
	enum vkind kind;
	enum reason why;   /* V_NONE: the reason (R_NONE only before it is known) */
	double v, lo, hi;
};

static inline struct val
val_exact(double v)
{
	struct val r = { V_EXACT, R_NONE, v, v, v };
	return r;
}

static inline struct val
val_bound(double lo, double hi)
{
	struct val r = { V_BOUND, R_NONE, 0.0, lo, hi };
	return r;
}

/* A bound whose ends meet (within rounding) is the value itself: the
 * bounds on the split close when a thread was idle or busy all the time. */
static inline struct val
val_tight(double lo, double hi)
{
	return hi - lo <= 1e-12 ? val_exact(lo) : val_bound(lo, hi);
}

/* An absent figure and why. */
static inline struct val
val_absent(enum reason why)
{
	struct val r = { V_NONE, why, 0.0, 0.0, 0.0 };
	return r;
}

/* Absent, the reason still to be given (a figure that does not apply:
 * outputs print null / a dash). */
static inline struct val
val_none(void)
{
	return val_absent(R_NONE);
}

#endif
