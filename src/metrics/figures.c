/* figures.c: the table of figures (figures.h). A row per figure, in the
 * order of the CSV columns; at each level its place in the JSON and
 * OpenMetrics orders. The definitions are httop(1)'s FIGURES. */
#include "config.h"
#include "metrics/figures.h"

#include <string.h>

#include "metrics/metrics.h"
#include "util/i18n.h"

/* The JSON member names and their lengths, made at compile time. */
#define NAMES(n) n, ",\"" n "\":", ",\"" n "_lo\":", ",\"" n "_hi\":", \
	sizeof(n) + 3, sizeof(n) + 6, sizeof(n) + 6, n "_lo", n "_hi"

#define AGG(f, j, o, h) [FIG_AGG] = { offsetof(struct agg_fig, f), j, o, h }
#define CORE(f, j, o, h) [FIG_CORE] = { offsetof(struct core_fig, f), j, o, h }
#define THR(f, j, o, h) [FIG_THREAD] = { offsetof(struct thread_fig, f), j, o, h }

#define SHARE_AGG_HELP "Share of core time with neither SMT thread, thread 0 only, thread 1 " \
	"only or both active (label state)."
#define SHARE_CORE_HELP "Share of the interval with neither SMT thread, thread 0 only, " \
	"thread 1 only or both active (label state)."

#define JOB_BOTH_HELP "Share of the interval with two threads of a core running the " \
	"watched job's tasks."
#define JOB_ALONE_HELP "Share of the interval with one thread running the watched job's " \
	"tasks, its sibling idle."
#define JOB_SHARED_HELP "Share of the interval with one thread running the watched job's " \
	"tasks while a sibling ran another task."
/* The schema's word on where the job's figures are (httop(1), JOBS). */
#define JOB_NOTE ": --source sched with a watched job only (its tasks told apart by the " \
	"scheduler's record); null, with absent \"no-job\", without"
#define JOB_NONE_HELP "Share of the interval with no task of the watched job on the core."

const struct figure figures[] = {
	{ NAMES("neither"), FIG_SHARE, FIG_ALL, 1, false, "share_ratio", NULL, "ratio",
	    .at = { AGG(neither, 1, 1, SHARE_AGG_HELP), CORE(neither, 1, 1, SHARE_CORE_HELP) },
	    .desc = "share of the time with neither SMT thread of the core active" },
	{ NAMES("t0_only"), FIG_SHARE, FIG_ALL, 2, false, "share_ratio", NULL, "ratio",
	    .at = { AGG(t0_only, 2, 0, NULL), CORE(t0_only, 2, 0, NULL) },
	    .desc = "share of the time with thread 0 of the core active, thread 1 not" },
	{ NAMES("t1_only"), FIG_SHARE, FIG_ALL, 3, false, "share_ratio", NULL, "ratio",
	    .at = { AGG(t1_only, 3, 0, NULL), CORE(t1_only, 3, 0, NULL) },
	    .desc = "share of the time with thread 1 of the core active, thread 0 not" },
	{ NAMES("both"), FIG_SHARE, FIG_ALL, 4, false, "share_ratio", NULL, "ratio",
	    .at = { AGG(both, 4, 0, NULL), CORE(both, 4, 0, NULL) },
	    .desc = "share of the time with both threads of the core active" },
	{ NAMES("util"), FIG_SHARE, FIG_ALL, 0, false, "utilization_ratio", NULL, "ratio",
	    .at = { AGG(util, 5, 2, "Share of core time with any thread active."),
	      CORE(util, 5, 2, "Share of the interval with any thread active."),
	      THR(util, 1, 1, "Share of the interval the thread was active (not halted).") },
	    .col = { N_("util%"), NULL, "%.1f", 100.0, 7 } },
	{ NAMES("active_threads"), FIG_RATIO, FIG_ALL, 0, false, "active_threads", NULL, "",
	    .at = { AGG(active_threads, 6, 4, "Mean threads active while a core is active."),
	      CORE(active_threads, 6, 3, "Mean threads active while the core is active.") },
	    .desc = "mean number of threads active while the core is active" },
	{ NAMES("issue_util"), FIG_FRACTION, FIG_ALL, 0, false, "issue_utilization_ratio", NULL, "ratio",
	    .at = { CORE(issue_util, 7, 4, "Instructions per core cycle over the issue width.") },
	    .desc = "share of the issue slots used (a ratio of counts: macro-fused instructions can "
	      "take it above 1)",
	    .needs = FIG_NEED(SLOT_INST) | FIG_NEED(SLOT_CYCLES) },
	{ NAMES("cpi"), FIG_RATIO, FIG_ALL, 0, false, "cpi", NULL, "",
	    .at = { AGG(cpi, 8, 6, "Core cycles per instruction."),
	      CORE(cpi, 8, 5, "Core cycles per instruction."),
	      THR(cpi, 2, 2, "Cycles per instruction while active (non-halted CPI).") },
	    .col = { N_("CPI"), NULL, "%.2f", 1.0, 8 },
	    .desc = "core cycles per instruction while active (non-halted CPI)",
	    .needs = FIG_NEED(SLOT_INST) | FIG_NEED(SLOT_CYCLES) },
	{ NAMES("nominal_cpi"), FIG_RATIO, FIG_ALL, 0, false, "nominal_cpi", NULL, "",
	    .at = { THR(nominal_cpi, 3, 3, "Nominal (TSC) cycles per instruction.") },
	    .col = { N_("nomCPI"), NULL, "%.2f", 1.0, 8 },
	    .desc = "TSC ticks per instruction (nominal CPI)",
	    .needs = FIG_NEED(SLOT_INST) },
	{ NAMES("ghz"), FIG_GHZ, FIG_ALL, 0, false, "frequency_hertz", NULL, "hertz",
	    .at = { AGG(ghz, 7, 5, "Mean core frequency while active."),
	      CORE(ghz, 9, 6, "Mean frequency while active."),
	      THR(ghz, 4, 4, "Mean frequency while active.") },
	    .col = { N_("GHz"), NULL, "%.2f", 1.0, 7 },
	    .desc = "mean clock while active, GHz",
	    .needs = FIG_NEED(SLOT_CYCLES) },
	{ NAMES("net_ghz"), FIG_GHZ, FIG_ALL, 0, false, "net_frequency_hertz", NULL, "hertz",
	    .at = { THR(net_ghz, 5, 5, "Cycles over the whole interval, halted time included.") },
	    .col = { N_("netGHz"), NULL, "%.2f", 1.0, 7 },
	    .desc = "cycles per second of the whole interval, halted time included, GHz",
	    .needs = FIG_NEED(SLOT_CYCLES) },
	{ NAMES("ipc"), FIG_RATIO, FIG_ALL, 0, false, "ipc", NULL, "",
	    .at = { THR(ipc, 6, 6, "Instructions per cycle while active.") },
	    .col = { N_("IPC"), NULL, "%.2f", 1.0, 6 },
	    .desc = "instructions per cycle while active",
	    .needs = FIG_NEED(SLOT_INST) | FIG_NEED(SLOT_CYCLES) },
	{ NAMES("both_of_busy"), FIG_SHARE, FIG_ALL, 0, false, "both_of_busy_ratio", NULL, "ratio",
	    .at = { AGG(both_of_busy, 9, 3, "Share of busy core time with both threads active.") },
	    .desc = "share of the busy core time (any thread active) with both threads active" },
	{ NAMES("steal"), FIG_SHARE, FIG_ALL, 0, true, "steal_ratio", NULL, "ratio",
	    .at = { THR(steal, 7, 7, "Share of the interval a hypervisor ran something else while "
	      "this virtual CPU wanted to run (steal time, from /proc/stat: --source procstat "
	      "only).") },
	    .col = { N_("steal%"), NULL, "%.1f", 100.0, 7 },
	    .desc = "share of the interval a hypervisor ran something else while this virtual CPU "
	      "wanted to run (steal time, /proc/stat): --source procstat only; null, with "
	      "absent steal \"no-steal\", for the other sources",
	    .needs = FIG_NEED(SLOT_STEAL) },
	/* The watched job's own figures (--source sched with a job: its
	 * tasks told apart by the scheduler's record; absent no-job else). */
	{ NAMES("job_both"), FIG_SHARE, FIG_ALL, 0, true, "job_both_ratio", "both_ratio", "ratio",
	    .at = { AGG(job_both, 10, 7, JOB_BOTH_HELP), CORE(job_both, 10, 7, JOB_BOTH_HELP) },
	    .desc = "share of the time with two threads of a core running the watched job's "
	      "tasks" JOB_NOTE,
	    .needs = FIG_NEED(SLOT_JOB) | FIG_NEED(SLOT_JOB_BOTH) },
	{ NAMES("job_alone"), FIG_SHARE, FIG_ALL, 0, true, "job_alone_ratio", "alone_ratio", "ratio",
	    .at = { AGG(job_alone, 11, 8, JOB_ALONE_HELP), CORE(job_alone, 11, 8, JOB_ALONE_HELP) },
	    .desc = "share of the time with one thread of a core running the watched job's tasks, "
	      "its sibling idle" JOB_NOTE,
	    .needs = FIG_NEED(SLOT_JOB) | FIG_NEED(SLOT_JOB_BOTH) },
	{ NAMES("job_shared"), FIG_SHARE, FIG_ALL, 0, true, "job_shared_ratio", "shared_ratio", "ratio",
	    .at = { AGG(job_shared, 12, 9, JOB_SHARED_HELP), CORE(job_shared, 12, 9, JOB_SHARED_HELP) },
	    .desc = "share of the time with one thread of a core running the watched job's tasks "
	      "while a sibling ran another task" JOB_NOTE,
	    .needs = FIG_NEED(SLOT_JOB) | FIG_NEED(SLOT_JOB_BOTH) },
	{ NAMES("job_none"), FIG_SHARE, FIG_ALL, 0, true, "job_none_ratio", "none_ratio", "ratio",
	    .at = { AGG(job_none, 13, 10, JOB_NONE_HELP), CORE(job_none, 13, 10, JOB_NONE_HELP) },
	    .desc = "share of the time with no task of the watched job on the core" JOB_NOTE,
	    .needs = FIG_NEED(SLOT_JOB) | FIG_NEED(SLOT_JOB_BOTH) },
	{ NAMES("job_util"), FIG_SHARE, FIG_ALL, 0, true, "job_utilization_ratio", NULL, "ratio",
	    .at = { THR(job_util, 8, 8, "Share of the interval the watched job's tasks ran on the "
	      "thread.") },
	    .col = { N_("job%"), "job", "%.1f", 100.0, 6 },
	    .desc = "share of the interval the watched job's tasks ran on this thread" JOB_NOTE,
	    .needs = FIG_NEED(SLOT_JOB) },
	{ NAMES("cpu_s"), FIG_RATIO, FIG_ALL, 0, true, "job_cpu_seconds", "interval_cpu_seconds", "seconds",
	    .at = { AGG(cpu_s, 14, 11, "CPU seconds the watched job's tasks ran on these cores' "
	      "threads in the interval.") },
	    .desc = "CPU seconds the watched job's tasks ran on these cores' threads in the "
	      "interval (the run's, in a summary)" JOB_NOTE,
	    .needs = FIG_NEED(SLOT_JOB) },
	/* Instructions retired per second of the interval: the thread's
	 * throughput, IPC x net GHz (util x GHz x IPC). */
	{ NAMES("gips"), FIG_GHZ, FIG_ALL, 0, true, "instructions_per_second", NULL, "",
	    .at = { THR(gips, 9, 9, "Instructions retired per second of the interval, halted "
	      "time included.") },
	    .col = { N_("GIPS"), NULL, "%.2f", 1.0, 7 },
	    .desc = "instructions retired per second of the whole interval, halted time "
	      "included, in billions (GIPS: IPC x net_ghz); null, with the reason in absent, "
	      "where cpi is",
	    .needs = FIG_NEED(SLOT_INST) },
};

const size_t nfigures = sizeof figures / sizeof figures[0];

/* The lists by level and format, made once. */
static const unsigned formats[3] = { FIG_JSON, FIG_CSV, FIG_OM };
const struct figure *figures_list[FIG_NLEVELS][3][FIG_MAX];
size_t figures_count[FIG_NLEVELS][3];
const struct figure *figures_cols[FIG_MAX];
size_t figures_ncols;
bool figures_made;

/* Its place at level l in format k's order; 0: not there. */
static unsigned
place(const struct figure *f, unsigned l, unsigned k)
{
	if (!(f->formats & formats[k]))
		return 0;
	return formats[k] == FIG_OM ? f->at[l].om : f->at[l].json;
}

void
figures_make(void)
{
	unsigned l, k, pos;
	size_t i;

	for (l = 0; l < FIG_NLEVELS; l++)
		for (k = 0; k < 3; k++) {
			figures_count[l][k] = 0;
			for (pos = 1; pos <= FIG_MAX; pos++)
				for (i = 0; i < nfigures && i < FIG_MAX; i++)
					if (place(&figures[i], l, k) == pos)
						figures_list[l][k][figures_count[l][k]++] = &figures[i];
		}
	figures_ncols = 0;
	for (i = 0; i < figures_count[FIG_THREAD][0]; i++)
		if (figures_list[FIG_THREAD][0][i]->col.head != NULL)
			figures_cols[figures_ncols++] = figures_list[FIG_THREAD][0][i];
	figures_made = true;
}

const struct figure *
figure_named(const char *name)
{
	size_t i;

	for (i = 0; i < nfigures; i++)
		if (strcmp(figures[i].name, name) == 0)
			return &figures[i];
	return NULL;
}

/* A node's plan has no slots: what its basis reads. The counters'
 * slots come with counters; the steal time with the idle accounting;
 * the watched job's record is not known there (the Threads view's job%
 * was never shown for a node). */
static bool
basis_reads(enum plan_basis b, unsigned k)
{
	switch (k) {
	case SLOT_TSC:
	case SLOT_REF:
		return true;
	case SLOT_STEAL:
		return b == PLAN_BASIS_TICKS;
	case SLOT_JOB:
	case SLOT_JOB_BOTH:
	case SLOT_JOB_ALONE:
	case SLOT_JOB_SHARED:
		return false;
	default:
		return b == PLAN_BASIS_COUNTERS;
	}
}

/* The first slot f needs that p lacks; SLOT_NKINDS: none. */
static unsigned
first_unread(const struct figure *f, const struct plan *p)
{
	unsigned k;

	for (k = 0; p != NULL && k < SLOT_NKINDS; k++) {
		if (!(f->needs & FIG_NEED(k)))
			continue;
		if (p->nslots > 0 ? plan_slot_index(p, (enum slot_kind)k) < 0 :
		    !basis_reads(p->basis, k))
			return k;
	}
	return SLOT_NKINDS;
}

bool
figure_read(const struct figure *f, const struct plan *p)
{
	return first_unread(f, p) == SLOT_NKINDS;
}

enum reason
figure_unread_why(const struct figure *f, const struct plan *p)
{
	unsigned k = first_unread(f, p);
	bool counts;

	switch (k) {
	case SLOT_NKINDS:
		return R_NONE;
	case SLOT_STEAL:
		return R_NO_STEAL;
	case SLOT_JOB:
	case SLOT_JOB_BOTH:
	case SLOT_JOB_ALONE:
	case SLOT_JOB_SHARED:
		return R_NO_JOB;
	default:
		/* As metrics_ctx_init says it of the values: a plan with
		 * neither instructions nor cycles counts none. */
		counts = p->nslots > 0 ? plan_slot_index(p, SLOT_INST) >= 0 ||
		    plan_slot_index(p, SLOT_CYCLES) >= 0 : p->basis == PLAN_BASIS_COUNTERS;
		return counts ? R_UNAVAILABLE : R_NOT_COUNTED;
	}
}
