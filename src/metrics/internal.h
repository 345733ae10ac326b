/* internal.h: what the files of the metrics layer share; not an interface
 * for other layers. */
#ifndef HTTOP_METRICS_INTERNAL_H
#define HTTOP_METRICS_INTERNAL_H

#include "metrics/metrics.h"

/* Highest plausible core clock; more means the counts are not what the plan
 * programmed (a counter was reset or reprogrammed). */
#define METRICS_MAX_HZ 10e9
/* Highest plausible instructions per core cycle, for the same test. */
#define METRICS_MAX_IPC 16.0
/* An `any` count that misses its bounds by more than the tolerance but by
 * less than this fraction of the interval is called read skew (R_SKEW);
 * more than that, a reprogrammed counter (R_REPROGRAMMED). */
#define METRICS_SKEW_LIMIT 0.05

/* The longest a thread can stay unhalted without retiring an instruction,
 * and the time between the reads of two counters of one CPU, with room to
 * spare: httop.1, VALIDITY. A counter still while a partner gained more
 * than this much time's worth was stopped. */
#define METRICS_STOP_WINDOW 20e-6

/* Clamp four fractions to [0,1] and rescale them to sum 1. Returns the
 * largest amount clamped (0 when nothing was out of range). */
double split_clamp(double f[4]);

/* iv->reason for the first bad core: "core 3 (cpus 3,51): <reason>", with
 * "; its split is shown as a bound" when the core is on its fallback. */
void interval_describe(struct interval *iv, const struct topo_core *tc, enum reason r,
    bool fallback);
/* The same for the first bad core `first` (iv->cores[first]), naming
 * every selected core whose reason is the same: "all 2 cores (cpus 0,1):
 * too short to measure", "3 cores (cpus 0,4,9): ...", or the one core as
 * interval_describe does. */
void interval_describe_core(struct interval *iv, const struct topology *t, unsigned first);

/* Fill t's figures from its d_* fields (t->reason must be R_NONE); those
 * of the counters in t->stopped are absent with R_STOPPED. */
void thread_figures(const struct metrics_ctx *c, struct thread_fig *t);
/* iv->stopped and, when any, the interval flagged with the CPUs of each
 * stopped counter (after the cores: a core's own problem comes first). */
void interval_stopped(struct interval *iv);
/* Blank a thread's figures, giving the reason. */
void thread_blank(struct thread_fig *t, enum reason r);

/* Every figure of a core absent with reason `r` (core.c). */
void core_blank(struct core_fig *cf, enum reason r);
/* Everything about core `ci` for the interval prev -> cur (prev may be
 * NULL). Fills iv->cores[ci] and the threads of that core. */
void core_compute(const struct metrics_ctx *c, const struct sample *prev,
    const struct sample *cur, unsigned ci, struct interval *iv);

/* From the cores already computed: the interval's validity and reason
 * (the first bad selected core, then the stopped counters), whether any
 * count was scaled, and the package and node aggregates. */
void interval_judge(const struct metrics_ctx *c, struct interval *iv);
/* Package and node aggregates from the cores already computed. */
void aggregate_all(const struct metrics_ctx *c, struct interval *iv);
/* The same averages as the node's over the cores of `t` for which keep()
 * is true (metrics_aggregate_subset). */
void aggregate_over(const struct interval *iv, const struct topology *t,
    bool (*keep)(const struct topo_core *tc, const void *arg), const void *arg,
    struct agg_fig *out);

/* Why a figure of a counter the plan lacks is absent (metrics_ctx.missing;
 * R_UNAVAILABLE in a context not set up by metrics_ctx_init). */
static inline enum reason
missing_reason(const struct metrics_ctx *c)
{
	return c->missing != R_NONE ? c->missing : R_UNAVAILABLE;
}

#endif
