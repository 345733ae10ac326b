/* mode_check.c: the mode of httop --check (httop(1), CHECK). It runs
 * loads whose answer is known on the two SMT threads of a core and judges
 * the figures httop computes from the counters against them.
 *
 * It is a run like the others (run.h): run_prepare() calibrates and
 * programs, run_first() and run_step() read and compute, and the interval
 * goes to this file's output, which keeps the figures of the cores being
 * checked; run_finish() puts the registers back. It waits only in
 * evloop_wait() (the interval, by the pacer) and signals_sleep() (the
 * background measurement and the load's settling), so an ending signal
 * stops it at once, load threads included.
 *
 * Who plays a case's schedule:
 *   - on this machine (a live source, no --topology), httop's own load
 *     threads (check/load.h), one case after the other on each core;
 *   - on the simulator, the simulator, from a scenario built here in which
 *     every core plays a case (open.c, open_check_sim), all in one interval;
 *   - on a machine described by --topology (a device behind --msr-path),
 *     that device: each core must play the case the simulator would give
 *     it, or the --check-case given. */
#include "config.h"
#include "app/context.h"

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/beside.h"
#include "check/cases.h"
#include "check/load.h"
#include "check/measure.h"
#include "check/procstat.h"
#include "check/ran.h"
#include "check/report.h"
#include "check/simcase.h"
#include "sys/evloop.h"
#include "run/pacer.h"
#include "sys/signals.h"
#include "sim/sim.h"
#include "source/calibrate.h"
#include "source/sched/sched_source.h"
#include "util/clock.h"
#include "util/i18n.h"
#include "util/numparse.h"
#include "util/xalloc.h"

/* The CPUs to be used must be this idle, over this long, before the load
 * starts: other work would show as error in every figure. A machine
 * shared with other work (the test suite's) may raise the limit with
 * HTTOP_CHECK_BUSY_MAX (httop(1), ENVIRONMENT). */
#define CHECK_BG_MAX 0.10
#define CHECK_BG_SECONDS 0.5
/* From starting the load to the first read: the threads are in their
 * windows by then. */
#define CHECK_LOAD_DELAY_S 0.005
#define CHECK_SETTLE_S 0.05

/* A core of the round in progress, the case it plays, what was measured. */
struct slot {
	unsigned core;
	const struct check_case *cs;
	struct check_meas m;
	struct check_meas mb;       /* the scheduler's record beside (rb) */
};

/* The load's counts around the two reads: before and after each. */
struct snaps {
	struct load_counts a0[2], a1[2], b0[2], b1[2];
};

struct chk {
	struct app *a;
	const struct topology *t;
	struct run r;
	struct plan plan;           /* the main plan, APERF and MPERF after it */
	struct check_extra_slots x;
	enum check_load_mode mode;
	const struct check_case *only;
	unsigned *cores, ncores;    /* topology indices, in order */
	struct check_report rep;
	cpu_set_t saved;            /* this thread's CPUs before the check */
	bool have_saved;
	long hz;                    /* /proc/stat's ticks per second */
	/* The round in progress. */
	struct slot *slots;
	unsigned nslots;
	double t_first0, t_first1;  /* clock_mono() around the first read */
	double t_step;              /* clock_mono() before the second read */
	double t_read;              /* clock_mono() when the interval arrived */
	bool got;
	bool gone[2];               /* the load could not start: the CPU was offline */
	char note[256];
	/* The scheduler's record read beside the source (app_open_beside):
	 * its own run, read right after the source at both ends. */
	struct run rb;
	bool beside, rb_ready;
	bool got_b;
	double span_b;              /* from the source's read to the end of the scheduler's, s */
	char note_b[256];
	/* The text report goes out as the check goes: its head, then each
	 * case when judged (a core takes 15 s; a user sees it run and
	 * keeps what was done on Ctrl-C). */
	bool head_out;
	unsigned cases_out;
	int out_errno;              /* a failed write, said at the end */
};

/* ---- the output: keeps the figures of the round's cores ------------------ */

static int
collect(void *self, const struct run_step *st, struct errmsg *e)
{
	struct chk *c = self;
	unsigned i;

	(void)e;
	c->t_read = clock_mono();
	for (i = 0; i < c->nslots; i++)
		check_meas_from_interval(&c->slots[i].m, st->iv, &c->r.mc, c->t, c->slots[i].core,
		    st->prev, st->cur, &c->x);
	/* The conflict line, and what the source said of the interval
	 * (records lost, silent tasks: a disturbance's cause). */
	snprintf(c->note, sizeof c->note, "%s%s%.200s", st->note,
	    st->note[0] != '\0' && st->events != NULL && st->events[0] != '\0' ? "; " : "",
	    st->events != NULL ? st->events : "");
	c->got = true;
	return 0;
}

static const struct output_ops check_output = {
	.name = "check",
	.phase = PHASE_DRAW,
	.interval = collect,
};

/* The scheduler's record of the same cores, beside. */
static int
collect_beside(void *self, const struct run_step *st, struct errmsg *e)
{
	static const struct check_extra_slots none = { -1, -1 };
	struct chk *c = self;
	unsigned i;

	(void)e;
	for (i = 0; i < c->nslots; i++)
		check_meas_from_interval(&c->slots[i].mb, st->iv, &c->rb.mc, c->t, c->slots[i].core,
		    st->prev, st->cur, &none);
	snprintf(c->note_b, sizeof c->note_b, "%.250s", st->events != NULL ? st->events : "");
	c->got_b = true;
	return 0;
}

static const struct output_ops beside_output = {
	.name = "check-beside",
	.phase = PHASE_DRAW,
	.interval = collect_beside,
};

/* ---- before the run ------------------------------------------------------- */

static enum check_load_mode
load_mode(const struct app *a)
{
	if (a->src->virtual_clock)
		return CL_SIM;
	/* A description of another machine: its CPUs are not ours to load
	 * (but a source that follows this machine's CPUs whatever the
	 * description only learns from it which are siblings). */
	if (a->o->topology != NULL && !a->src->own_cpus)
		return CL_SOURCE;
	return CL_THREADS;
}

static bool
core_online(const struct topology *t, const struct topo_core *tc)
{
	unsigned i;

	for (i = 0; i < tc->nthreads && i < 2; i++)
		if (tc->cpus[i] >= t->max_cpu || !t->cpus[tc->cpus[i]].online)
			return false;
	return tc->nthreads > 0;
}

/* httop's own load checks one core unless --cpus names more: the last
 * core with two threads (CPU 0's core takes most of the interrupts). */
static int
default_core(const struct topology *t)
{
	int best = -1;
	unsigned i;

	for (i = 0; i < t->ncores; i++) {
		if (!core_online(t, &t->cores[i]))
			continue;
		if (best < 0 || t->cores[i].nthreads >= 2 || t->cores[best].nthreads < 2)
			best = (int)i;
	}
	return best;
}

/* Read only the cores checked: --cpus's, else the default core or (a
 * source that plays the cases) every core. */
static int
choose_cores(struct chk *c)
{
	struct source *src = c->a->src;
	unsigned i, j;
	int d;

	c->cores = xcalloc(c->t->ncores ? c->t->ncores : 1, sizeof *c->cores);
	if (c->mode == CL_THREADS && !c->a->o->have_cpus) {
		if ((d = default_core(c->t)) < 0)
			return errmsg_set(&c->a->e, _("--check: no core with its CPUs online"));
		cpulist_free(&src->selected);
		src->selected.n = c->t->max_cpu;
		src->selected.has = xcalloc(c->t->max_cpu ? c->t->max_cpu : 1, sizeof(bool));
		for (j = 0; j < c->t->cores[d].nthreads; j++)
			src->selected.has[c->t->cores[d].cpus[j]] = true;
	}
	for (i = 0; i < c->t->ncores; i++) {
		const struct topo_core *tc = &c->t->cores[i];

		if (tc->nthreads > 0 && source_cpu_selected(src, tc->cpus[0]) && core_online(c->t, tc))
			c->cores[c->ncores++] = i;
	}
	if (c->ncores == 0)
		return errmsg_set(&c->a->e, _("--check: none of the cores chosen has its CPUs online; "
		    "give online CPUs with --cpus"));
	/* A case of both threads on cores of one would check nothing and
	 * pass. */
	for (i = 0; i < c->ncores; i++)
		if (c->t->cores[c->cores[i]].nthreads >= 2)
			return 0;
	if (c->only != NULL && check_case_uses_sibling(c->only))
		return errmsg_set(&c->a->e, _("--check-case %s needs a core's second thread, and "
		    "each core checked here has one thread: choose a core with two (--cpus), or "
		    "where the machine has no SMT declare which CPUs share a core with --topology "
		    "FILE (httop(1), --topology)"), c->only->name);
	return 0;
}

static double
busy_max(void)
{
	const char *s = secure_getenv("HTTOP_CHECK_BUSY_MAX");
	double v;

	return s != NULL && num_double(s, 0, 0.0, 1.0, &v) == NUM_OK ? v : CHECK_BG_MAX;
}

/* The CPUs must be idle before the load starts. -1 with a message when
 * one is not, 1 when an ending signal came. */
static int
background(struct chk *c)
{
	struct check_report *rep = &c->rep;
	struct procstat p0, p1;
	unsigned i, j, n = 0;
	double max = busy_max();
	int rc = 0;

	procstat_init(&p0, c->t->max_cpu);
	procstat_init(&p1, c->t->max_cpu);
	rep->bg_cpu = xcalloc(2 * c->ncores, sizeof *rep->bg_cpu);
	rep->bg_busy = xcalloc(2 * c->ncores, sizeof *rep->bg_busy);
	if (procstat_read(&p0, &c->a->e) != 0)
		rc = -1;
	else if (signals_sleep(CHECK_BG_SECONDS) != 0)
		rc = 1;
	else if (procstat_read(&p1, &c->a->e) != 0)
		rc = -1;
	for (i = 0; rc == 0 && i < c->ncores; i++) {
		const struct topo_core *tc = &c->t->cores[c->cores[i]];

		for (j = 0; j < tc->nthreads && j < 2; j++, n++) {
			rep->bg_cpu[n] = tc->cpus[j];
			rep->bg_busy[n] = procstat_busy(&p0, &p1, tc->cpus[j], c->hz);
			if (rep->bg_busy[n] > max) {
				rc = errmsg_set(&c->a->e, _("CPU %u was %.1f%% busy with other work "
				    "(by /proc/stat over %.1f s), more than the %.1f%% the check allows: "
				    "it needs its CPUs idle; stop that work, or choose idle cores with "
				    "--cpus"), tc->cpus[j], 100.0 * rep->bg_busy[n], CHECK_BG_SECONDS,
				    100.0 * max);
				n++;
				break;
			}
		}
	}
	rep->nbg = n;
	procstat_free(&p0);
	procstat_free(&p1);
	return rc;
}

/* The plan, and APERF and MPERF after its own slots where the source reads
 * any register a plan names (not perf_event's events) and the plan does
 * not read them already: the metrics use the first slot of each kind, so
 * every figure is computed as in any other run. */
static void
check_plan(struct chk *c)
{
	struct plan *p = &c->plan;

	*p = c->a->plan;
	c->x.aperf = c->x.mperf = -1;
	if (c->a->src->force_moot != NULL || p->group == UARCH_UNKNOWN ||
	    p->nslots + 2 > PLAN_MAX_SLOTS)
		return;
	if (plan_slot_index(p, SLOT_CYCLES) < 0 || p->slots[plan_slot_index(p, SLOT_CYCLES)].msr ==
	    MSR_APERF)
		return;
	c->x.aperf = (int)p->nslots;
	p->slots[p->nslots++] = (struct plan_slot){ SLOT_CYCLES, MSR_APERF, 64, THREAD_ALL };
	c->x.mperf = (int)p->nslots;
	p->slots[p->nslots++] = (struct plan_slot){ SLOT_REF, MSR_MPERF, 64, THREAD_ALL };
}

/* ---- one round: a load, two reads ---------------------------------------- */

static void
pin_away(struct chk *c, const struct topo_core *tc)
{
	cpu_set_t set;
	unsigned i;

	if (!c->have_saved)
		return;
	set = c->saved;
	for (i = 0; i < tc->nthreads; i++)
		if (tc->cpus[i] < CPU_SETSIZE)
			CPU_CLR(tc->cpus[i], &set);
	/* With nothing left, this thread shares the core: it sleeps anyway. */
	if (CPU_COUNT(&set) > 0)
		(void)sched_setaffinity(0, sizeof set, &set);
}

static void
snap(struct load *ld, bool on, struct load_counts out[2])
{
	unsigned i;

	for (i = 0; i < 2; i++) {
		if (on)
			load_counts(ld, i, &out[i]);
		else
			memset(&out[i], 0, sizeof out[i]);
	}
}

static uint64_t
sub(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

/* What thread i's load did between the reads (bounds, load.h). */
static void
load_meas(struct check_load_meas *l, const struct snaps *s, unsigned i, bool ran)
{
	uint64_t w = sub(s->b1[i].windows, s->a0[i].windows);

	memset(l, 0, sizeof *l);
	l->ran = ran;
	l->loop_known = load_loop_known();
	if (!ran)
		return;
	l->iter_lo = sub(s->b0[i].iterations, s->a1[i].iterations + LOAD_BLOCK);
	l->iter_hi = s->b1[i].iterations + LOAD_BLOCK - s->a0[i].iterations;
	l->busy_s = (double)sub(s->b1[i].busy_ns, s->a0[i].busy_ns) / 1e9;
	if (w > 0) {
		l->late_s = (double)sub(s->b1[i].late_ns, s->a0[i].late_ns) / 1e9 / (double)w;
		l->over_s = (double)sub(s->b1[i].over_ns, s->a0[i].over_ns) / 1e9 / (double)w;
	}
}

/* ---- the scheduler's record beside --------------------------------------- */

static void
quiet(const struct errmsg *e)
{
	(void)e;
}

/* The record stops (a read failed): the cases so far keep theirs, the
 * report says why. */
static void
beside_stop(struct chk *c, const char *why)
{
	snprintf(c->rep.beside_why, sizeof c->rep.beside_why, "%s", why);
	c->beside = false;
}

/* Read the same CPUs as the source, from the same start. */
static void
beside_start(struct chk *c, const struct run_config *cfg)
{
	struct app *a = c->a;
	struct cpulist *sel;

	c->rep.beside_wanted = a->beside_wanted;
	if (!a->beside_wanted)
		return;
	if (a->beside == NULL) {
		snprintf(c->rep.beside_why, sizeof c->rep.beside_why, "%s", a->beside_why.text);
		return;
	}
	sel = &a->beside->selected;
	cpulist_free(sel);
	sel->n = a->src->selected.n;
	if (sel->n > 0) {
		sel->has = xcalloc(sel->n, sizeof(bool));
		memcpy(sel->has, a->src->selected.has, sel->n * sizeof(bool));
	}
	run_init(&c->rb, a->beside, &a->beside_plan, cfg);
	run_add_output(&c->rb, &beside_output, c);
	c->rb_ready = true;
	if (run_prepare(&c->rb) != RUN_OK) {
		snprintf(c->rep.beside_why, sizeof c->rep.beside_why, "%s", c->rb.e.text);
		return;
	}
	c->beside = true;
	c->rep.beside_source = a->beside->name;
}

static void
beside_first(struct chk *c, bool first)
{
	if (c->beside && run_first(&c->rb, first ? NULL : "check: next case", false, 0.0) != RUN_OK)
		beside_stop(c, c->rb.e.text);
}

static void
beside_step(struct chk *c, double elapsed)
{
	c->got_b = false;
	if (c->beside && (run_step(&c->rb, elapsed) != RUN_OK || !c->got_b))
		beside_stop(c, c->rb.e.text[0] != '\0' ? c->rb.e.text : "no interval");
}

/* The scheduler's rows of the case, as the source's were made but for a
 * source that counts any task, and over the span of both reads; then the
 * two side by side. */
static void
beside_judge(struct chk *c, struct slot *sl, struct check_result *x,
    const struct check_context *cx)
{
	struct check_context sx = *cx;
	struct check_row rows[CHECK_MAX_ROWS];
	double steal[2];
	unsigned k, n;

	if (!c->beside || !c->got_b)
		return;
	sx.any_task = true;
	sx.src_floor = SCHED_SILENT_TOL;
	sx.floor_per_thread = true;
	sx.timing.skew = fmax(cx->timing.skew, c->span_b);
	for (k = 0; k < 2; k++)
		sl->mb.t[k].load = sl->m.t[k].load;
	n = check_rows(sl->cs, &sl->mb, &sx, rows, CHECK_MAX_ROWS, &x->beside.dist);
	/* /proc/stat's ticks move the source's figures in steps; counters
	 * and the scheduler count nanoseconds. */
	/* The time a hypervisor took is the task's to the scheduler and
	 * missing from the source (stopped counters, /proc/stat's steal). */
	for (k = 0; k < 2; k++)
		steal[k] = k < x->ncpus && x->steal_known[k] ? x->os_steal[k] : 0.0;
	check_beside_compare(&x->beside, x->rows, x->nrows, rows, n, c->span_b, cx->timing.interval,
	    c->plan.basis == PLAN_BASIS_TICKS ? cx->os_granularity : 0.0, steal);
	snprintf(x->beside.note, sizeof x->beside.note, "%s", c->note_b);
	x->beside.has = true;
}

/* /proc/stat has a line for every online CPU, and none for one that is
 * offline. */
static bool
os_online(const struct procstat *p, unsigned cpu)
{
	return cpu < p->n && p->have[cpu];
}

/* What thread k's load did (load_meas), the kernel's busy share of its
 * CPU, and whether the CPU was away for some of the case. */
static void
thread_load(struct chk *c, struct check_result *x, struct check_load_meas *l, unsigned k,
    const struct snaps *s, bool ran, const struct procstat *p0, const struct procstat *p1)
{
	load_meas(l, s, k, ran);
	if (p0 != NULL && (l->os_busy = procstat_busy(p0, p1, x->cpus[k], c->hz)) >= 0.0)
		l->os_known = true;
	if (p0 != NULL && (l->os_steal = procstat_steal(p0, p1, x->cpus[k], c->hz)) >= 0.0)
		l->steal_known = true;
	l->offline = c->gone[k] || (ran && s->b1[k].moved) ||
	    (p0 != NULL && (!os_online(p0, x->cpus[k]) || !os_online(p1, x->cpus[k])));
}

/* What the load threads ran between the reads (ran.h): the window from
 * the middle of the first read to the middle of the second; unknown when
 * a record is not whole or nothing was loaded. */
static void
ran_window(struct chk *c, struct slot *sl, const struct check_result *x, struct load *ld,
    bool loaded)
{
	const struct load_burst *b[2] = { NULL, NULL };
	size_t n[2] = { 0, 0 };
	int cpu[2] = { -1, -1 };
	bool whole, all = true;
	unsigned k;

	memset(&sl->m.ran, 0, sizeof sl->m.ran);
	if (c->mode != CL_THREADS || !loaded)
		return;
	for (k = 0; k < x->ncpus && k < 2; k++) {
		b[k] = load_bursts(ld, k, &n[k], &whole);
		cpu[k] = (int)x->cpus[k];
		all &= whole;
	}
	if (!all)
		return;
	check_ran_compute(&sl->m.ran, b, n, cpu, 0.5 * (c->t_first0 + c->t_first1),
	    0.5 * (c->t_step + c->t_read), c->t_first1 - c->t_first0, c->t_read - c->t_step);
}

/* The source's own error on a thread's busy share (measure.h). */
static void
source_floor(const struct chk *c, struct check_context *cx)
{
	switch (c->plan.basis) {
	case PLAN_BASIS_SCHED:
		cx->src_floor = SCHED_SILENT_TOL;
		cx->floor_per_thread = true;
		break;
	case PLAN_BASIS_TICKS:
		cx->src_floor = 0.0;
		break;
	default:
		cx->src_floor = CHECK_TOL_FLOOR;
		break;
	}
}

/* Judge every slot of the round and add the results to the report. */
static void
judge_round(struct chk *c, const struct snaps *s, struct load *ld, bool loaded,
    const struct procstat *p0, const struct procstat *p1, double skew)
{
	/* The clock the simulator played the loads at (open.c), GHz; a real
	 * machine's loads run at its own. */
	double ghz = source_kind_row(c->a->o->source)->simulated ? check_sim_ghz(&c->a->m.id) : 0.0;
	unsigned i, k;

	for (i = 0; i < c->nslots; i++) {
		struct slot *sl = &c->slots[i];
		struct check_result *x = check_report_add(&c->rep);
		struct check_context cx;

		memset(&cx, 0, sizeof cx);
		cx.mode = c->mode;
		cx.timing.period = CHECK_PERIOD_S;
		cx.timing.interval = sl->m.dt;
		cx.timing.skew = skew;
		cx.sim_ghz = ghz > 0.0 ? ghz : sl->m.base_hz / 1e9;
		cx.sim_cpi = 1.0 / CHECK_SIM_IPC;
		cx.os_granularity = sl->m.dt > 0.0 ? 2.0 / ((double)c->hz * sl->m.dt) : 0.0;
		/* The scheduler and the tick accounting count any task. */
		cx.any_task = c->a->src->plan != NULL &&
		    c->a->src->plan->basis != PLAN_BASIS_COUNTERS;
		/* Only the scheduler counts the time a hypervisor took from a
		 * running task as the task's. */
		cx.steal_hidden = c->mode == CL_THREADS && (c->a->src->plan == NULL ||
		    c->a->src->plan->basis != PLAN_BASIS_SCHED);
		cx.no_tsc = c->plan.basis != PLAN_BASIS_COUNTERS;
		source_floor(c, &cx);
		x->cs = sl->cs;
		x->package = c->t->cores[sl->core].package;
		x->core = c->t->cores[sl->core].core_id;
		x->ncpus = sl->m.nthreads < 2 ? sl->m.nthreads : 2;
		x->timing = cx.timing;
		for (k = 0; k < x->ncpus; k++) {
			struct check_load_meas *l = &sl->m.t[k].load;

			x->cpus[k] = sl->m.t[k].cpu;
			thread_load(c, x, l, k, s, loaded && check_window_len(&sl->cs->w[k]) > 0.0,
			    p0, p1);
			x->loaded[k] = l->ran;
			x->late_s[k] = l->late_s;
			x->over_s[k] = l->over_s;
			x->os_known[k] = l->os_known;
			x->os_busy[k] = l->os_busy;
			x->steal_known[k] = l->steal_known;
			x->os_steal[k] = l->os_steal;
			/* The scheduler's record saw the CPU go offline: a fact of
			 * the machine, whatever the source saw (a device that
			 * ignores hotplug). */
			l->offline |= c->beside && c->got_b && sl->mb.t[k].offline;
		}
		ran_window(c, sl, x, ld, loaded);
		sl->mb.ran = sl->m.ran;
		x->ran = sl->m.ran;
		snprintf(x->note, sizeof x->note, "%s", c->note);
		x->nrows = check_rows(sl->cs, &sl->m, &cx, x->rows, CHECK_MAX_ROWS, &x->dist);
		beside_judge(c, sl, x, &cx);
	}
}

/* ---- the text report as it goes --------------------------------------------- */

static bool
text_out(const struct chk *c)
{
	return c->a->o->format != FMT_JSON;
}

static void
stream_note(struct chk *c, int rc)
{
	if (rc != 0 && c->out_errno == 0)
		c->out_errno = errno != 0 ? errno : EIO;
}

static void
stream_head(struct chk *c)
{
	if (!text_out(c) || c->head_out)
		return;
	c->head_out = true;
	stream_note(c, check_report_text_head(app_out(c->a), &c->rep));
}

/* The cases judged since the last call. */
static void
stream_cases(struct chk *c)
{
	if (!text_out(c))
		return;
	stream_head(c);
	for (; c->cases_out < c->rep.nres; c->cases_out++) {
		struct check_result *x = &c->rep.res[c->cases_out];

		check_result_finish(x);
		stream_note(c, check_report_text_case(app_out(c->a), &c->rep, x));
	}
}

/* Wait out the interval and take the second reading. RUN_OK, 1 on an
 * ending signal, -1 on an error (r->e). */
static int
interval(struct chk *c, struct load *ld, bool loaded, struct snaps *s, double *elapsed)
{
	struct evwait w = { -1, -1, 0.0, NULL, 0 };
	struct pacer p;
	double now;

	app_pacer_init(c->a, &p, APP_PACE_CHECK, c->a->o->check_seconds);
	pacer_start(&p, clock_mono(), p.delay, c->r.prev->time);
	for (;;) {
		w.deadline = pacer_deadline(&p);
		if (evloop_wait(&w) & WAKE_SIGNAL)
			return 1;
		if (pacer_due(&p, now = clock_mono()))
			break;
	}
	snap(ld, loaded, s->b0);
	*elapsed = pacer_take(&p, now);
	c->got = false;
	c->t_step = clock_mono();
	if (run_step(&c->r, *elapsed) != RUN_OK || !c->got)
		return -1;
	snap(ld, loaded, s->b1);
	beside_step(c, *elapsed);
	c->span_b = fmax(c->span_b, clock_mono() - c->t_step);
	return RUN_OK;
}

/* Settle, read, wait, read. RUN_OK, 1 on a signal, -1 on an error. */
static int
measure(struct chk *c, struct load *ld, bool loaded, bool first, struct procstat *ps)
{
	struct snaps s;
	double t0, t1, tv, elapsed = 0.0, skew;
	int rc;

	if (!c->a->src->virtual_clock && signals_sleep(CHECK_SETTLE_S) != 0)
		return 1;
	snap(ld, loaded, s.a0);
	if (ps != NULL && procstat_read(&ps[0], &c->r.e) != 0)
		return -1;
	t0 = clock_mono();
	rc = run_first(&c->r, first ? NULL : "check: next case", false,
	    c->a->src->virtual_clock ? CHECK_SETTLE_S : 0.0);
	t1 = clock_mono();
	c->t_first0 = t0;
	c->t_first1 = t1;
	if (rc != RUN_OK)
		return -1;
	snap(ld, loaded, s.a1);
	beside_first(c, first);
	c->span_b = clock_mono() - t0;
	tv = c->r.prev->time;
	if ((rc = interval(c, ld, loaded, &s, &elapsed)) != RUN_OK)
		return rc;
	if (ps != NULL && procstat_read(&ps[1], &c->r.e) != 0)
		return -1;
	/* The longest read: by the clock, or by the virtual time a read of the
	 * simulator took (its samples are timed after each read). */
	if (c->a->src->virtual_clock)
		skew = c->r.prev->time - tv - elapsed;
	else
		skew = fmax(t1 - t0, c->t_read - c->t_step);
	skew = skew > 0.0 ? skew : 0.0;
	if (loaded)
		load_stop(ld);
	judge_round(c, &s, ld, loaded, ps != NULL ? &ps[0] : NULL, ps != NULL ? &ps[1] : NULL,
	    skew);
	stream_cases(c);
	return RUN_OK;
}

/* The load could not start: was a CPU it needed offline (CPU hotplug)?
 * Then the case runs without it and is disturbed (c->gone); otherwise
 * the error stands. */
static bool
start_gone(struct chk *c, const struct check_case *cs, const unsigned *cpus, unsigned n)
{
	struct procstat p;
	struct errmsg e;
	unsigned k;
	bool any = false;

	procstat_init(&p, c->t->max_cpu);
	if (procstat_read(&p, &e) == 0)
		for (k = 0; k < n && k < 2; k++)
			if (check_window_len(&cs->w[k]) > 0.0 && !os_online(&p, cpus[k]))
				any = c->gone[k] = true;
	procstat_free(&p);
	return any;
}

/* One case on one core with httop's own load. */
static int
round_threads(struct chk *c, unsigned core, const struct check_case *cs, bool first)
{
	const struct topo_core *tc = &c->t->cores[core];
	unsigned cpus[2] = { tc->cpus[0], tc->nthreads > 1 ? tc->cpus[1] : tc->cpus[0] };
	unsigned n = tc->nthreads < 2 ? 1 : 2;
	struct procstat ps[2];
	struct load ld;
	bool loaded = true;
	int rc;

	memset(c->slots, 0, sizeof *c->slots);
	c->slots[0].core = core;
	c->slots[0].cs = cs;
	c->nslots = 1;
	c->gone[0] = c->gone[1] = false;
	pin_away(c, tc);
	/* The record holds the settling, the interval and a second more. */
	if (load_start(&ld, cs, cpus, n, CHECK_PERIOD_S, CHECK_LOAD_DELAY_S,
	    CHECK_SETTLE_S + c->a->o->check_seconds + 1.0, &c->r.e) != 0) {
		if (!start_gone(c, cs, cpus, n)) {
			load_free(&ld);
			return -1;
		}
		c->r.e.text[0] = '\0';
		loaded = false;
	}
	procstat_init(&ps[0], c->t->max_cpu);
	procstat_init(&ps[1], c->t->max_cpu);
	rc = measure(c, &ld, loaded, first, ps);
	load_stop(&ld);
	load_free(&ld);
	procstat_free(&ps[0]);
	procstat_free(&ps[1]);
	return rc;
}

/* Every core at once, each playing its case (the source plays them). */
static int
round_source(struct chk *c)
{
	struct load ld;
	unsigned i;

	memset(&ld, 0, sizeof ld);
	for (i = 0; i < c->ncores; i++) {
		memset(&c->slots[i], 0, sizeof c->slots[i]);
		c->slots[i].core = c->cores[i];
		c->slots[i].cs = check_sim_case(c->cores[i], c->only);
	}
	c->nslots = c->ncores;
	return measure(c, &ld, false, true, NULL);
}

/* Every round; RUN_OK, 1 on a signal, -1 on an error. */
static int
rounds(struct chk *c)
{
	unsigned i, k;
	bool first = true;
	int rc;

	c->slots = xcalloc(c->ncores, sizeof *c->slots);
	if (c->mode != CL_THREADS)
		return round_source(c);
	for (i = 0; i < c->ncores; i++) {
		const struct topo_core *tc = &c->t->cores[c->cores[i]];

		for (k = 0; k < check_ncases; k++) {
			const struct check_case *cs = &check_cases[k];

			if ((c->only != NULL && cs != c->only) ||
			    (tc->nthreads < 2 && check_case_uses_sibling(cs)))
				continue;
			if ((rc = round_threads(c, c->cores[i], cs, first)) != RUN_OK)
				return rc;
			first = false;
		}
	}
	return RUN_OK;
}

/* ---- the report ------------------------------------------------------------ */

static void
scale_row(struct chk *c)
{
	const struct plan *p = c->r.plan;
	struct check_report *rep = &c->rep;
	struct check_row *row = &rep->scale_row;

	rep->scale_used = calibrate_scale_used(p);
	rep->scale_table = p->scale_expected;
	rep->scale = p->scale;
	rep->scale_measured = p->scale_measured;
	if (!rep->scale_used) {
		rep->unchecked[CF_SCALE] = N_("the split does not rest on it on this CPU");
		return;
	}
	if (!p->scale_measured || p->scale_expected == 0) {
		rep->unchecked[CF_SCALE] = N_("no event measures it on this CPU: the split rests on "
		    "the table's value");
		return;
	}
	memset(row, 0, sizeof *row);
	row->family = CF_SCALE;
	row->figure = "scale";
	row->basis = "table";
	row->thread = -1;
	row->expect = CE_EXACT;
	row->lo = row->hi = p->scale_expected;
	row->measured = val_exact(p->scale);
	check_row_judge(row);
	rep->has_scale_row = true;
}

/* Why a family that has no rows could not be checked here. */
static void
unchecked_reasons(struct chk *c)
{
	const char **u = c->rep.unchecked;
	const char *loop = NULL;
	bool inst = c->r.mc.slot[SLOT_INST] >= 0, base = c->r.mc.base_hz > 0.0;

	/* Where the scheduler or /proc/stat count, one-thread cores are
	 * the usual VM: the user may know which vCPUs share a core. */
	u[CF_SPLIT] = c->plan.basis != PLAN_BASIS_COUNTERS ?
	    N_("the cores checked have one thread each; where you know which CPUs share a "
	    "core, declare them with --topology FILE (httop(1), --topology) to check the split") :
	    N_("httop gives no split on this CPU (the cores do not have two SMT threads, or the "
	    "CPU is not known)");
	if (c->mode == CL_SOURCE)
		loop = N_("the counters' source plays the load: its instructions are not known");
	else if (c->mode == CL_SIM)
		loop = N_("the simulator retires instructions at the rate its scenario says: see CPI");
	else if (!load_loop_known())
		loop = N_("the loop's instructions are known only on x86-64");
	if (!inst)
		loop = c->plan.basis == PLAN_BASIS_SCHED ?
		    N_("no counters: the scheduler source counts time only") :
		    c->plan.basis == PLAN_BASIS_TICKS ?
		    N_("no counters: /proc/stat counts time only") :
		    N_("the plan counts no instructions on this CPU");
	else if (c->plan.slots[c->r.mc.slot[SLOT_INST]].msr == MSR_AMD_IRPERF)
		loop = N_("IRPerfCount counted nothing: it counts only once the kernel sets HWCR bit 30, "
		    "which httop leaves alone");
	u[CF_INST] = loop;
	u[CF_CPI] = c->mode == CL_SIM && inst ? NULL : loop;
	u[CF_GHZ] = c->plan.basis == PLAN_BASIS_SCHED ?
	    N_("no counters: the scheduler source counts time only") :
	    c->plan.basis == PLAN_BASIS_TICKS ? N_("no counters: /proc/stat counts time only") :
	    base ? N_("nothing else here knows the clock (no APERF/MPERF read)") :
	    N_("the nominal clock is not known, so httop gives no GHz");
	u[CF_CLOCK] = c->plan.basis != PLAN_BASIS_COUNTERS ?
	    N_("no TSC: the source times its intervals by the clock the check uses") :
	    base ? NULL : N_("the nominal clock is not known");
}

static void
report_head(struct chk *c)
{
	struct check_report *r = &c->rep;
	const struct machine *m = c->a->src->m;

	r->version = PACKAGE_VERSION;
	r->host = m->hostname;
	r->cpu = m->id.brand[0] != '\0' ? m->id.brand : m->id.vendor_str;
	r->group = uarch_group_name(m->group);
	r->source = c->a->src->name;
	r->split = plan_split_name(&c->plan);
	r->basis = c->plan.basis;
	r->plan = c->plan.summary;
	r->mode = c->mode;
	r->period = CHECK_PERIOD_S;
	r->seconds = c->a->o->check_seconds;
	r->loop_known = load_loop_known();
}

/* The report on standard output; after an error, only the JSON object
 * (the error was said on standard error). */
static int
write_report(struct chk *c)
{
	int rc = 0;

	check_report_finish(&c->rep);
	if (c->a->o->format == FMT_JSON) {
		rc = check_report_json(app_out(c->a), &c->rep);
	} else if (c->rep.outcome != CO_ERROR || c->head_out) {
		/* An error before the head was said on standard error alone. */
		stream_cases(c);
		rc = check_report_text_end(app_out(c->a), &c->rep);
	}
	if (rc != 0 || c->out_errno != 0) {
		errmsg_set(&c->a->e, _("cannot write the check's report: %s"),
		    strerror(c->out_errno != 0 ? c->out_errno : errno));
		app_report(&c->a->e);
		return EXIT_FAIL;
	}
	return check_report_status(&c->rep);
}

/* An error of the check: said once on standard error, and kept for the
 * report (the JSON object's "error"). */
static void
fail(struct chk *c, const struct errmsg *e)
{
	app_report(e);
	snprintf(c->rep.error, sizeof c->rep.error, "%s", e->text);
}

/* An ending signal stopped the check: no verdict, so never status 0 (a
 * script must not take it for a pass); the JSON object says so. */
static int
interrupted(struct chk *c)
{
	int st = signals_exit_status(signals_caught());

	c->rep.interrupted = true;
	(void)write_report(c);
	return st != EXIT_OK ? st : EXIT_FAIL;
}

/* Prepare, run the rounds, finish; returns the exit status. */
static int
run_check(struct chk *c)
{
	struct run_config cfg;
	int rc, status = EXIT_OK;

	app_run_config(c->a, &cfg);
	/* A counter taken mid-run is the check's finding, not a reason to stop. */
	cfg.on_conflict = CONFLICT_REPORT;
	run_init(&c->r, c->a->src, &c->plan, &cfg);
	run_add_output(&c->r, &check_output, c);
	rc = run_prepare(&c->r);
	if (rc == RUN_OK)
		beside_start(c, &cfg);
	if (rc == RUN_OK) {
		scale_row(c);
		unchecked_reasons(c);
		stream_head(c);
		rc = rounds(c);
	}
	if (rc == 1 || rc == RUN_INTERRUPTED)
		c->rep.interrupted = true;
	else if (rc != RUN_OK)
		fail(c, &c->r.e);
	if (c->have_saved)
		(void)sched_setaffinity(0, sizeof c->saved, &c->saved);
	if (c->rb_ready)
		(void)run_finish(&c->rb, EXIT_OK, quiet);
	status = run_finish(&c->r, status, app_report);
	if (c->rep.interrupted)
		return interrupted(c);
	rc = write_report(c);
	return status != EXIT_OK ? status : rc;
}

static int
check_main(struct chk *c)
{
	int rc;

	c->t = &c->a->src->m->topo;
	c->mode = load_mode(c->a);
	c->only = c->a->o->check_case != NULL ? check_case_find(c->a->o->check_case) : NULL;
	c->hz = procstat_hz();
	c->have_saved = sched_getaffinity(0, sizeof c->saved, &c->saved) == 0;
	check_plan(c);
	report_head(c);
	if (choose_cores(c) != 0) {
		app_report(&c->a->e);
		return EXIT_USAGE;
	}
	/* From here an ending signal is noted, and every wait (the
	 * background's, the calibration's, the rounds') ends on it. */
	signals_defer();
	if (c->mode == CL_THREADS && (rc = background(c)) != 0) {
		if (rc > 0)
			return interrupted(c);
		fail(c, &c->a->e);
		(void)write_report(c);
		return EXIT_FAIL;
	}
	return run_check(c);
}

int
app_run_check(struct app *a)
{
	struct chk c;
	locale_t cl = (locale_t)0, old = (locale_t)0;
	int status;

	memset(&c, 0, sizeof c);
	c.a = a;
	check_report_init(&c.rep);
	/* The JSON object is read by programs: its texts, the error among
	 * them, are the same in every locale. */
	if (a->o->format == FMT_JSON && (cl = newlocale(LC_ALL_MASK, "C", (locale_t)0)) !=
	    (locale_t)0)
		old = uselocale(cl);
	status = check_main(&c);
	if (cl != (locale_t)0) {
		uselocale(old);
		freelocale(cl);
	}
	check_report_free(&c.rep);
	free(c.cores);
	free(c.slots);
	return status;
}
