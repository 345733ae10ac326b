/* run.h: one run of httop: a source, the metrics context and the outputs.
 * run_step() is the one place where a refresh happens: read one sample,
 * compute the interval, apply the conflict policy, hand the interval to
 * every output. The run knows nothing about terminals, files or time: the
 * front ends (mode_batch.c, mode_tui.c) decide when to step, through the
 * pacer. */
#ifndef HTTOP_RUN_H
#define HTTOP_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "machine/machine.h"
#include "metrics/history.h"
#include "metrics/metrics.h"
#include "plan/plan.h"
#include "run/conflict.h"
#include "run/output.h"
#include "sample/sample.h"
#include "source/source.h"
#include "util/errmsg.h"
#include "util/phases.h"

#define RUN_MAX_OUTPUTS 8

struct perf_cgroup;

struct run_config {
	bool force;                     /* --force: take a busy PMU over */
	enum conflict_policy on_conflict;
	double calibrate_seconds;       /* how long calibration counts */
	/* A real-time wait of `seconds` (calibration) that returns non-zero
	 * when the run must end instead (an ending signal). */
	int (*sleep)(double seconds);
	struct phases *ph;              /* may be NULL */
	/* > 0: an interval shorter than this has no figures (R_TOO_SHORT);
	 * a command's run sets it for its only interval. */
	double min_dt;
};

/* What run_step() and run_first() return besides -1 (an error or the
 * conflict policy's exit, the message in r->e). */
enum {
	RUN_OK = 0,
	RUN_END = 1,          /* the data ended (a replay) */
	RUN_DONE = 2,         /* an output ended the run normally (EPIPE) */
	RUN_INTERRUPTED = 3,  /* calibration was woken by an ending signal */
};

/* The scheduler's record read beside a counter source while a job is
 * watched (run_set_job_record): its own samples and interval, from which
 * each step takes the job's figures (metrics_take_job). */
struct run_jobrec {
	struct source *src;             /* NULL: none */
	struct plan *plan;
	struct sample s[2];
	struct sample *prev, *cur;
	bool have;                      /* allocated (run_prepare) */
	bool ok;                        /* read, the previous sample in prev */
	struct metrics_ctx mc;
	struct interval iv;
	struct interval wiv;            /* a window of hist (run_job_window) */
	/* R_NONE: the source's own job figures stand; else every step makes
	 * them absent with it (no record, or the record failed). */
	enum reason why;
	struct history *hist;           /* fed the record's intervals (NULL: none) */
	/* The job's cgroup events (perf_cgroup.h: instructions, cycles,
	 * reference cycles), read after the source each step: the job's own
	 * CPI and GHz (NULL: none, absent with cg_why). */
	struct perf_cgroup *cg;
	uint64_t cg_prev[3];
	bool cg_ok;                     /* cg_prev holds the last read */
	enum reason cg_why;
	char note[sizeof ((struct errmsg *)0)->text + 160];   /* said at the start */
};

struct run {
	struct source *src;
	const struct machine *m;        /* src->m */
	struct plan *plan;              /* calibrated, then programmed */
	struct run_config cfg;
	struct sample s[2];
	struct sample *prev, *cur;
	bool have_samples;
	struct metrics_ctx mc;
	struct interval iv;             /* the last interval computed */
	bool have_iv;
	struct conflict_state *conflict;
	struct output out[RUN_MAX_OUTPUTS];
	unsigned nout;
	bool started;                   /* the outputs were started */
	char note[512];                 /* the conflict policy's line, last interval */
	/* A watched job's CPUs (run_set_view), or NULL: every output sees
	 * the intervals narrowed to their cores. */
	const struct cpulist *view;
	/* The job's CPUs at each step (run_set_job_cpus), kept with the
	 * sample so that a recording has them; or, replaying a job's
	 * recording (run_view_from_samples), read back from each sample. */
	const struct cpulist *jobcpus;
	bool view_from_samples;
	struct cpulist sjob;            /* a recorded sample's, read back */
	const struct cpulist *sample_job; /* the last sample's: jobcpus, &sjob or NULL */
	uint64_t steps;                 /* intervals computed */
	struct run_jobrec job;          /* the job's record beside (src NULL: none) */
	struct errmsg e;
};

/* The run over `src` (whose machine and plan it uses; the plan is
 * calibrated by run_prepare). Nothing is touched yet. */
void run_init(struct run *r, struct source *src, struct plan *plan, const struct run_config *cfg);
/* Outputs get every interval and event, in the order added. */
void run_add_output(struct run *r, const struct output_ops *ops, void *self);
/* From the next step on, every output sees only the cores with a CPU in
 * `cpus` (metrics_restrict; NULL: all). The list stays the caller's and
 * may change between steps (a job's CPUs). The conflict policy still
 * watches every CPU read. */
void run_set_view(struct run *r, const struct cpulist *cpus);
/* The watched job's CPUs, re-read by the caller before each step (the
 * list stays the caller's): each sample read carries them (sample.h's
 * job) for the recording, the one that needs them (the modes set them
 * only with --record). Independent of the view: the live view narrows
 * in its drawing, batch mode through run_set_view. */
void run_set_job_cpus(struct run *r, const struct cpulist *cpus);
/* Replaying a watched job's recording: every output sees the intervals
 * narrowed to the CPUs each sample recorded for the job (when `narrow`),
 * as the live run's were. */
void run_view_from_samples(struct run *r, bool narrow);
/* The job's CPUs the last sample read carries (a live job's as set, or a
 * recording's), or NULL when it carries none. */
const struct cpulist *run_sample_job(const struct run *r);
/* A watched job under a counter source: each step takes the job's own
 * figures from `rec`, the scheduler's record over the same machine and
 * CPUs, read right after the source (its plan `plan`); the run owns
 * neither. A record that fails later makes them absent (R_NO_RECORD),
 * said once as a note; `note` (what the figures are) is said when the
 * run starts. */
void run_set_job_record(struct run *r, struct source *rec, struct plan *plan,
    const char *note);
/* From the next step on, each of the record's intervals (narrowed to the
 * run's view) also goes into `h`, a history over the record's plan: the
 * job's figures over a window (a command's summary). */
void run_set_job_history(struct run *r, struct history *h);
/* `iv` is window `w` (`seconds`) of the run's own history: its job's
 * figures become the same window of the record's history
 * (run_set_job_history), or absent with the reason the record gives
 * none. Nothing where the source has its own (no record wanted). */
void run_job_window(struct run *r, enum avg_window w, double seconds, struct interval *iv);
/* The job's cgroup events (perf_cgroup_open with instructions, cycles and
 * reference cycles; the run does not own them): each step gives the job's
 * own CPI and GHz (metrics_job_rates). Without them (NULL) they are
 * absent with `why`. A read that fails makes them absent from then on
 * (R_READ_ERROR), said once. */
void run_set_job_counts(struct run *r, struct perf_cgroup *cg, enum reason why);
/* A watched job whose figures no record gives: each step makes them
 * absent with `why` (R_NONE: the source's own stand). */
void run_set_job_absent(struct run *r, enum reason why, const char *note);
/* Calibrate (live sources), program the plan, allocate what a step uses,
 * start the outputs. RUN_OK, RUN_INTERRUPTED, or -1 with r->e. */
int run_prepare(struct run *r);
/* Read the sample a run of intervals starts from, `elapsed` seconds after
 * the last read (a virtual-clock source lets them pass), and tell the
 * outputs (why: NULL at the start, else "resumed after a pause"...;
 * jumped: the data moved, the conflict state starts afresh). At the start
 * a read in which no CPU could be read is an error that says why. RUN_OK,
 * RUN_END, or -1. */
int run_first(struct run *r, const char *why, bool jumped, double elapsed);
/* One refresh, `elapsed` seconds after the last (only a virtual-clock
 * source uses it). RUN_OK, RUN_END, RUN_DONE, or -1. */
int run_step(struct run *r, double elapsed);
/* Tell every output (RUN_EV_NOTE with `text`, RUN_EV_END). */
int run_event(struct run *r, enum run_event_kind kind, const char *text);
/* Close the outputs (in reverse order: the live view gives the terminal
 * back first), put the registers back, free. Each failure is passed to
 * `report` and turns a success into EXIT_FAIL (1). Returns the status. */
int run_finish(struct run *r, int status, void (*report)(const struct errmsg *e));

#endif
