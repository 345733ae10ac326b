/* metrics.h: from two samples to the figures of one interval: per thread,
 * per core (the four-way SMT split), per package and for the node.
 * Formulas are defined in man/httop.1 (FIGURES) and doc/hardware.md
 * sections 1-2. */
#ifndef HTTOP_METRICS_H
#define HTTOP_METRICS_H

#include <stdbool.h>
#include <stdint.h>

#include "machine/machine.h"
#include "metrics/value.h"
#include "plan/plan.h"
#include "sample/sample.h"
#include "util/cpulist.h"

const char *metrics_reason_text(enum reason r);   /* untranslated; outputs call _() */
const char *metrics_reason_code(enum reason r);   /* stable token for csv/json */
/* The source does not provide the figure's input (not-counted, no-steal,
 * no-job, not-read): absent by what the source is, not by a trouble. */
bool metrics_reason_not_read(enum reason r);

/* Tolerances for the invariants, as fractions of the interval; documented
 * in httop.1 (VALIDITY). Beyond them an interval is invalid, within them
 * values are clamped and the size of the inconsistency is reported. */
struct tolerance {
	double rel;        /* 0.005: 0.5% of the interval */
	uint64_t abs_ticks_per_scale; /* extra allowance per reference quantum: 2 */
};

/* A set of counters by kind: bit 1u << enum slot_kind. */
#define KIND_BIT(k) (1u << (k))

struct thread_fig {
	unsigned cpu;
	enum reason reason;        /* R_NONE, or why the whole thread has no figures */
	/* Counters of this thread that stood still while a partner advanced
	 * (KIND_BIT set): another program stopped them, and every figure
	 * computed from them is absent with R_STOPPED. */
	unsigned stopped;
	uint64_t d_tsc, d_inst, d_cyc, d_ref;
	uint64_t d_steal;          /* steal time, in the TSC slot's unit */
	bool has_steal;            /* the plan reads steal time (procstat) */
	uint64_t d_job;            /* the job's tasks ran on it, TSC slot's unit */
	bool has_job;              /* the plan reads the job's time (sched, a job) */
	double job_s;              /* d_job in seconds (the plan's clock_hz) */
	/* Seconds of a window its core was not valid in, so job_s does not
	 * cover them (history.c: intervals left out of the sums); 0 for one
	 * interval. The aggregates' cpu_s is a bound when any is > 0. */
	double job_unc_s;
	/* The split counter's delta on this thread, in TSC ticks: the
	 * AnyThread count (SPLIT_ANY, thread 0) or ONE_THREAD_ACTIVE
	 * (SPLIT_OTA, each thread); has_split false where the plan reads none
	 * here, or it stood still (stopped) or was reprogrammed. */
	uint64_t d_split;
	bool has_split;
	struct val util;           /* d_ref / d_tsc */
	struct val cpi;            /* d_cyc / d_inst (non-halted CPI) */
	struct val nominal_cpi;    /* d_tsc / d_inst */
	struct val ghz;            /* d_cyc / d_ref * base GHz */
	struct val net_ghz;        /* d_cyc / d_tsc * base GHz */
	struct val ipc;            /* d_inst / d_cyc */
	struct val steal;          /* d_steal / d_tsc: the share of the interval
				    * the hypervisor ran something else while
				    * this virtual CPU wanted to run */
	struct val job_util;       /* d_job / d_tsc: the share of the interval
				    * the watched job's tasks ran on it */
	struct val gips;           /* d_inst / d_tsc * base GHz: instructions
				    * retired per second of the interval, 1e9 */
	/* The counts were multiplexed (perf source) and scaled up by
	 * enabled/running: every figure is an estimate, not a count. */
	bool scaled;
	/* The CPU was offline at the interval's end, as its sample says (or,
	 * not read, as the topology said at load): the topology itself is
	 * never changed after loading. */
	bool offline;
};

struct core_fig {
	unsigned index;            /* topology core index */
	enum reason reason;        /* R_NONE or why the core has no figures */
	bool selected;
	enum split_method split;
	bool exact;                /* the split is exact (not a bound) */
	struct val neither, t0_only, t1_only, both;   /* fractions of the interval */
	struct val util;           /* any thread active / interval */
	struct val active_threads; /* mean threads active while the core is active */
	struct val issue_util;     /* instructions per core cycle / issue width, summed over threads */
	struct val cpi;            /* core CPI: sum cycles (max over threads) / sum instructions */
	struct val ghz;            /* mean frequency while active */
	/* The watched job's split of the interval (sum 1): two threads ran
	 * the job's tasks (both), one ran them, the sibling idle (alone), one
	 * ran them beside another task (shared), no task of the job (none).
	 * Absent R_NO_JOB without the job's record, R_NO_SPLIT on a core of
	 * one thread. */
	struct val job_both, job_alone, job_shared, job_none;
	/* R_NONE, or why the plan's exact split could not be used this
	 * interval (its AnyThread/OTA counter is skewed or reprogrammed while
	 * the fixed counters are sound): the split is then the bound from the
	 * utilisations (exact = false), and the core stays valid. */
	enum reason fallback;
	/* The stopped counters of its threads (KIND_BIT), AnyThread included:
	 * a stopped split counter is a fallback R_STOPPED, a stopped reference
	 * clock the reason R_STOPPED, stopped instructions or core cycles make
	 * CPI, issue utilisation (and GHz) absent with R_STOPPED. */
	unsigned stopped;
	double inconsistency;      /* largest clamp applied, fraction of the interval */
	bool has_truth;
	double truth[4];           /* simulator ground truth, fractions */
	bool scaled;               /* a thread's counts were multiplexed and scaled */
};

/* Time-weighted averages over a set of cores (a package, the node). */
struct agg_fig {
	unsigned ncores, nvalid;
	bool exact;                /* every contributing split exact */
	struct val neither, t0_only, t1_only, both;
	struct val util, active_threads, ghz, cpi;
	/* Share of busy core time with both threads active, both / (1 -
	 * neither): exact, or a bound when the split is (both ends move
	 * together, so the bound is [both.lo / (1 - neither.lo), both.hi /
	 * (1 - neither.hi)]); absent when the cores were never busy. */
	struct val both_of_busy;
	/* The job's split over the cores, weighted by time (core_fig's), and
	 * the seconds its tasks ran on the cores' threads (cpu_s): exact when
	 * every thread of every selected core had its job time over the whole
	 * interval (window); else a bound, lo what was counted, hi lo plus
	 * the thread-seconds not covered (an invalid core's threads x dt, a
	 * thread without job_util x dt, job_unc_s); absent when nothing was. */
	struct val job_both, job_alone, job_shared, job_none, cpu_s;
};

struct interval {
	double time;               /* end of the interval, s since start */
	double wall;               /* its wall-clock time, s since the Unix
				    * epoch (sample.wall); 0: not known */
	double dt;                 /* length, s */
	bool valid;                /* every selected core valid */
	char reason[256];          /* first problem, with core and CPUs */
	char reason_c[256];        /* the same untranslated, for files (csv,
				    * json, recordings): the same in every locale */
	unsigned stopped;          /* KIND_BIT of every counter stopped on a
				    * selected CPU (the reason names them) */
	bool scaled;               /* some selected core's counts were scaled */
	unsigned ncores, max_cpu, npackages;
	struct core_fig *cores;    /* by topology core index */
	struct thread_fig *threads;/* by OS CPU number; reason R_NOT_SELECTED if absent */
	struct agg_fig *packages;  /* by package order in the topology */
	struct agg_fig node;
	/* The watched job's own CPI and GHz, from perf's cgroup events over
	 * every CPU read (metrics_job_rates); absent R_NO_CGROUP_EVENTS where
	 * there are none: the node's cpi and ghz are the CPUs'. */
	struct val job_cpi, job_ghz;
	bool *scratch;             /* max_cpu: a CPU list being built */
};

struct metrics_ctx {
	const struct machine *m;
	const struct plan *plan;
	double base_hz;            /* nominal (TSC) frequency; 0 if unknown */
	unsigned issue_width;      /* 0 if unknown */
	struct tolerance tol;
	int slot[SLOT_NKINDS];     /* plan slot index per kind, -1 if absent */
	/* Why a figure from a counter the plan lacks is absent: R_UNAVAILABLE,
	 * or R_NOT_COUNTED for a plan with neither instructions nor cycles
	 * (the procstat source: no counter at all, not a missing one). */
	enum reason missing;
	/* Per CPU, kinds known to have stopped during the samples' span
	 * (KIND_BIT), ORed into what the interval itself shows: a window
	 * over many intervals (history.c). NULL: none. */
	const uint8_t *stopped_in;
};

void metrics_ctx_init(struct metrics_ctx *c, const struct machine *m, const struct plan *p);
void interval_init(struct interval *iv, const struct machine *m);
void interval_free(struct interval *iv);
/* Each thread's `offline` from sample `s` (NULL: the topology's state at
 * load): metrics_compute does it for its interval. */
void interval_offline(struct interval *iv, const struct topology *t, const struct sample *s);
/* Compute everything for the interval prev -> cur into `iv` (reused). */
void metrics_compute(const struct metrics_ctx *c, const struct sample *prev,
    const struct sample *cur, struct interval *iv);

/* Every selected core of `iv` without figures, for R_TOO_SHORT: a command
 * that ended before one interval could measure it (the interval stays
 * selected, with its time and length). */
void metrics_too_short(const struct metrics_ctx *c, struct interval *iv);

/* The aggregate (as iv->node, both_of_busy included) over the cores that
 * have any CPU in `cpus`: a watched job's cores. */
void metrics_aggregate_subset(const struct interval *iv, const struct topology *t,
    const struct cpulist *cpus, struct agg_fig *out);
/* The same over the job's cores in one package (physical id `package`):
 * a package line of the job's view. */
void metrics_aggregate_subset_package(const struct interval *iv, const struct topology *t,
    const struct cpulist *cpus, unsigned package, struct agg_fig *out);

/* What a node's aggregate was weighed by, summed over its valid cores as
 * the aggregate sums them: time (thread 0's dTSC), the threads' reference
 * ticks and their instructions. A job over many nodes (src/cluster/)
 * combines the nodes' aggregates with them. */
struct agg_weights {
	double time, ref, inst;
};
/* The weights of iv->node over the cores of `t`. */
void metrics_node_weights(const struct interval *iv, const struct topology *t,
    struct agg_weights *w);
/* The aggregate of `n` aggregates (the nodes of a job), each weighed as
 * its own cores were (w[i]): the same as one aggregate over all their
 * cores. Parts with no valid core count in ncores only. cpu_s is the sum
 * of the parts' (ends added: a bound where any is one), absent where a
 * part of cores has none (its uncounted time is not known). */
void metrics_combine(const struct agg_fig *parts, const struct agg_weights *w, size_t n,
    struct agg_fig *out);

/* Narrow `iv` to the cores that have any CPU in `cpus` (a watched job's):
 * the others become unselected (R_NOT_SELECTED, as --cpus leaves a core
 * out), and the validity, the reason and the package and node aggregates
 * are those of the cores kept. An averaging history fed the narrowed
 * interval adds only the job's cores. */
void metrics_restrict(const struct metrics_ctx *c, const struct cpulist *cpus,
    struct interval *iv);

/* The watched job's own figures (the cores' job split, the threads'
 * job_util and job seconds, and so the aggregates' cpu_s) of every
 * selected core of `iv` that has figures, taken from `from`: the interval
 * of the scheduler's record read beside a counter source over the same
 * machine (its cores and CPUs by the same index). With `from` NULL they
 * are absent with `why` instead. The aggregates are computed again. */
void metrics_take_job(const struct metrics_ctx *c, const struct interval *from, enum reason why,
    struct interval *iv);

/* The job's own CPI (cycles / instructions) and GHz (cycles / reference
 * cycles x the base clock, as a thread's ghz) of the interval from its
 * cgroup's counts over it (perf_cgroup.h: d[0] instructions, d[1] cycles,
 * d[2] reference cycles); with `d` NULL both absent with `why`. */
void metrics_job_rates(const struct metrics_ctx *c, const uint64_t *d, enum reason why,
    struct interval *iv);

/* Why `v`, one of t's figures, is V_NONE (R_NONE if it has a value): the
 * thread's own reason, or the zero denominator / missing counter / unknown
 * base frequency behind that figure. */
enum reason metrics_thread_reason(const struct metrics_ctx *c, const struct thread_fig *t,
    const struct val *v);

/* One thread's counter deltas over an interval, by plan slot. */
struct slot_deltas {
	uint64_t d[PLAN_MAX_SLOTS];
	unsigned read;             /* bit s: slot s is read on this thread */
	unsigned still;            /* bit s: read, and its delta is 0 */
};

/* What a partner of kind `k` may gain while the counter it vouches for
 * legitimately stands still (httop.1, VALIDITY): METRICS_STOP_WINDOW
 * seconds at the partner's highest rate (core cycles at 10 GHz,
 * instructions at 16 per such cycle, reference cycles at the TSC rate
 * `tsc_hz`), plus two of its steps (`scale` TSC ticks for the reference
 * clock, one count otherwise). */
double metrics_stop_threshold(enum slot_kind k, double tsc_hz, unsigned scale);
/* The kinds (KIND_BIT) of thread `th` of a core of `n` threads (t[0..n))
 * that stand still while a partner in p->partners advanced past its
 * threshold; a partner on the sibling thread must also pass `skew` TSC
 * ticks, the allowance for reading the siblings apart. */
unsigned metrics_stopped_kinds(const struct plan *p, const struct slot_deltas *t, unsigned n,
    unsigned th, double tsc_hz, double skew);
/* The first kind in `mask` by title ("instructions retired"),
 * untranslated; "" if none. */
const char *metrics_stopped_title(unsigned mask);

/* The pure formulas, exposed for unit tests with hand-checked values. */
uint64_t counter_delta(uint64_t prev, uint64_t cur, unsigned width);
/* Exact split from dTSC, ref0, ref1 (TSC ticks) and any (TSC ticks). */
void split_from_any(double dtsc, double ref0, double ref1, double any,
    double out[4], double *inconsistency);
/* Exact split from ONE_THREAD_ACTIVE on each thread (TSC ticks). */
void split_from_ota(double dtsc, double ref0, double ref1, double ota0, double ota1,
    double out[4], double *inconsistency, double *mismatch);
/* Bound from utilisations only: fills lo[4], hi[4]. */
void split_bound(double u0, double u1, double lo[4], double hi[4]);

#endif
