/* measure.h: what the check measured on one core in one case (the figures
 * httop computed for the interval, and what the load itself saw), and the
 * rows that judge them against the case. */
#ifndef HTTOP_CHECK_MEASURE_H
#define HTTOP_CHECK_MEASURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "check/cases.h"
#include "check/ran.h"
#include "check/verdict.h"
#include "metrics/metrics.h"
#include "sample/sample.h"

/* Rows of one case on one core, at most. */
#define CHECK_MAX_ROWS 24

/* Who plays the schedule, and so what is known of it. */
enum check_load_mode {
	CL_THREADS = 0,  /* httop's own load threads, on this machine: the loop's
	                  * instructions and chain are known, the kernel's
	                  * busy time is read too */
	CL_SIM,          /* the simulator, from the scenario httop built: its
	                  * clock and IPC are known */
	CL_SOURCE,       /* the counters' source plays the case itself (a device
	                  * behind --msr-path, the machine described by
	                  * --topology): only the windows are known */
};

/* What httop's load did on one thread between the two reads. */
struct check_load_meas {
	bool ran;                  /* a load thread ran on it */
	bool loop_known;           /* its loop's instructions and chain are known (x86-64) */
	double late_s;             /* mean lateness of the windows' starts, s */
	double over_s;             /* mean overrun of their ends, s */
	uint64_t iter_lo, iter_hi; /* iterations of the loop between the reads, bounds */
	double busy_s;             /* time in the loop, an upper bound, s */
	bool os_known;
	double os_busy;            /* the kernel's busy share of the interval (/proc/stat) */
	bool steal_known;
	double os_steal;           /* the share a hypervisor took (steal, /proc/stat) */
	/* The CPU was offline for some of the case: the load could not
	 * start on it or was moved off it, or /proc/stat had no line for it
	 * at one end. */
	bool offline;
};

struct check_thread_meas {
	unsigned cpu;
	enum reason reason;        /* the thread's, R_NONE if it has figures */
	bool offline;              /* the source read its CPU offline at one end */
	struct val util, cpi, ghz;
	uint64_t d_inst, d_tsc;
	bool has_aperf;            /* APERF/MPERF were read next to the plan */
	double aperf_ghz;          /* dAPERF / dMPERF x the nominal clock, GHz (0: none) */
	struct check_load_meas load;
};

struct check_meas {
	unsigned core, nthreads;   /* topology index; threads of the core */
	enum reason reason;        /* the core's */
	enum reason fallback;      /* why the plan's exact split was not used */
	struct val share[4];       /* neither, t0 only, t1 only, both */
	double dt;                 /* the interval, s */
	double base_hz;            /* the nominal clock (0: unknown) */
	bool has_inst;             /* the plan counts instructions */
	bool has_cycles;           /* the plan counts core cycles (GHz) */
	/* ... with a counter that may be switched off (AMD IRPerfCount counts
	 * only once the kernel sets HWCR bit 30): a count of 0 means that. */
	bool inst_may_be_off;
	bool split_given;          /* httop gives a split for this core (2 threads, a plan for it) */
	struct check_thread_meas t[2];
	/* What httop's load threads ran (CL_THREADS, their record whole):
	 * the shares and utilisations expected instead of the schedule's. */
	struct check_ran ran;
};

/* What the rows need besides the measurement. */
struct check_context {
	enum check_load_mode mode;
	struct check_timing timing;
	double sim_ghz, sim_cpi;   /* CL_SIM: what the scenario runs at */
	double os_granularity;     /* the kernel's busy share moves in steps of this (CL_THREADS) */
	/* The source counts the time any task ran (the scheduler's, not the
	 * counters'): other work the kernel saw on a CPU beyond the load's
	 * moves its figures by as much, and widens their tolerance. */
	bool any_task;
	/* The source does not see a thread run while a hypervisor has
	 * taken its CPU (counters stop with the vCPU; /proc/stat counts
	 * steal apart): the stolen share widens its tolerance. The
	 * scheduler counts that time as the task's. */
	bool steal_hidden;
	/* The source has no TSC: it times its intervals with the clock the
	 * check uses (the scheduler, /proc/stat), so the TSC rate against
	 * that clock would be 1 by construction, and is not a row. */
	bool no_tsc;
	/* The source's own error on a thread's busy share, against what the
	 * loads ran: httop's tolerance for counts that should agree
	 * (counters), the silent tasks' allowance (the scheduler), none
	 * (/proc/stat, whose ticks are `os_granularity`); a share rests on
	 * both threads' where per_thread. */
	double src_floor;
	bool floor_per_thread;
};

/* The loop of the load (load.h), for the expectations: instructions per
 * iteration and the cycles its dependency chain takes at least. */
#define CHECK_LOOP_INST 9
#define CHECK_LOOP_CHAIN_CYCLES 24

/* Slots of APERF and MPERF read after the plan's own (-1: not read). */
struct check_extra_slots {
	int aperf, mperf;
};

/* The figures of core `core` and its first two threads from an interval.
 * The load parts are left as they are (the caller fills them in). */
void check_meas_from_interval(struct check_meas *m, const struct interval *iv,
    const struct metrics_ctx *mc, const struct topology *t, unsigned core,
    const struct sample *prev, const struct sample *cur, const struct check_extra_slots *x);

/* Why the figures of a case cannot test httop. */
enum check_disturb_kind {
	CD_NONE = 0,
	CD_REPROGRAMMED,   /* another program reprogrammed the counters */
	CD_LATE,           /* the load on `cpu` woke `value` s late on average */
	CD_OTHER_WORK,     /* `cpu` was `value` busy by the kernel's count, the load made it `want` */
	CD_LOST,           /* the source could not follow the core's switches */
	CD_STEAL,          /* a hypervisor took `value` of `cpu`'s time (steal_hidden) */
	CD_OFFLINE,        /* `cpu` was offline for some of the case (hotplug) */
};

struct check_disturbance {
	enum check_disturb_kind kind;
	unsigned cpu;
	double value, want;
};

/* The rows of case `c` measured as `m`, judged; returns how many (at most
 * `max`). When the figures cannot test httop (another program
 * reprogrammed the counters, other work ran on the CPUs, the load could
 * not keep to its schedule) *d says why and failing rows are CV_DISTURBED. */
unsigned check_rows(const struct check_case *c, const struct check_meas *m,
    const struct check_context *x, struct check_row *rows, unsigned max,
    struct check_disturbance *d);
/* The disturbance in words; `tr` translates a format (gettext, or NULL
 * for the untranslated text files keep). */
void check_disturbance_text(const struct check_disturbance *d, const char *(*tr)(const char *),
    char *buf, size_t len);

/* The loop's lower bound on the clock: chain cycles per iteration x the
 * iterations over the time spent in the loop, GHz (0 when nothing ran). */
double check_loop_ghz(uint64_t iterations, double busy_s);

#endif
