/* app.c: start-up and the refresh loop. Everything is allocated before the
 * first read; a refresh only reads, computes into the same interval and
 * writes. Every way out after the source exists goes through app_end(),
 * which restores the registers. */
#include "config.h"
#include "app.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "datadir.h"
#include "machine/machine.h"
#include "metrics/metrics.h"
#include "out/batch.h"
#include "source/calibrate.h"
#include "plan/plan.h"
#include "signals.h"
#include "source/sources.h"
#include "util/i18n.h"
#include "util/xalloc.h"

/* Long enough for the ratio of two counters to be an integer beyond
 * doubt, short enough not to be noticed at start. */
#define CALIBRATE_SECONDS 0.1

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

struct app {
	const struct options *o;
	struct machine m;
	bool have_machine;
	struct plan plan;
	struct source *src;
	struct sample s[2];
	bool have_samples;
	struct interval iv;
	bool have_iv;
	struct metrics_ctx mc;
	struct batch *out;
	struct errmsg e;
};

static void
report(const struct errmsg *e)
{
	fprintf(stderr, "httop: %s\n", e->text);
}

static void
errmsg_append(struct errmsg *e, const char *s)
{
	size_t len = strlen(e->text);

	snprintf(e->text + len, sizeof e->text - len, "%s", s);
}

static int
load_machine(struct app *a)
{
	const struct options *o = a->o;
	char xml[PATH_MAX], dump[PATH_MAX];

	if (o->demo) {
		if (datadir_find("demo-skx.xml", xml, sizeof xml, &a->e) != 0 ||
		    datadir_find("demo-skx.cpuid", dump, sizeof dump, &a->e) != 0)
			return -1;
		if (machine_load(&a->m, xml, dump, &a->e) != 0)
			return -1;
	} else if (machine_load(&a->m, o->topology, o->cpuid, &a->e) != 0) {
		return -1;
	}
	a->have_machine = true;
	return 0;
}

static int
open_source(struct app *a)
{
	const struct options *o = a->o;

	if (o->source == SRC_REPLAY) {
		/* The trace brings its machine and plan. */
		a->src = replay_source_new(o->replay, &a->m, &a->plan, &a->e);
		if (a->src == NULL)
			return -1;
		a->have_machine = true;
		return 0;
	}
	if (load_machine(a) != 0)
		return -1;
	plan_for_machine(&a->plan, &a->m);
	switch (o->source) {
	case SRC_AUTO:
		a->src = msr_source_open(&a->m, o->msr_path, &a->e);
		if (a->src == NULL)
			errmsg_append(&a->e, _(" (or try httop --demo)"));
		break;
	case SRC_MSR:
		a->src = msr_source_open(&a->m, o->msr_path, &a->e);
		break;
	case SRC_SIM:
		a->src = sim_source_new(&a->m, o->scenario, o->seed, &a->e);
		break;
	case SRC_REPLAY:
		break;
	}
	return a->src != NULL ? 0 : -1;
}

/* --cpus names CPUs; whole cores are read, so widen it to every CPU of
 * every core that has one of them. A CPU the machine lacks is a usage
 * error, said before any register is touched. */
static int
select_cpus(struct app *a)
{
	const struct topology *t = &a->src->m->topo;
	const struct cpulist *want = &a->o->cpus;
	struct cpulist sel;
	size_t cpu;
	unsigned i;

	if (!a->o->have_cpus)
		return 0;
	sel.n = t->max_cpu;
	sel.has = xcalloc(t->max_cpu ? t->max_cpu : 1, sizeof *sel.has);
	for (cpu = 0; cpu < want->n; cpu++) {
		const struct topo_core *c;

		if (!want->has[cpu])
			continue;
		if (cpu >= t->max_cpu || !t->cpus[cpu].present) {
			cpulist_free(&sel);
			return errmsg_set(&a->e, _("--cpus: CPU %zu is not in this machine (%u CPUs, "
			    "numbered below %u); give CPUs it has"), cpu, t->ncpus, t->max_cpu);
		}
		c = &t->cores[t->cpus[cpu].core];
		for (i = 0; i < c->nthreads && i < TOPO_MAX_SMT; i++)
			sel.has[c->cpus[i]] = true;
	}
	cpulist_free(&a->src->selected);
	a->src->selected = sel;
	return 0;
}

static int
prepare(struct app *a)
{
	struct source *src = a->src;
	const struct topology *t = &src->m->topo;
	bool truth = strcmp(src->name, "sim") == 0;

	if (a->o->source != SRC_REPLAY &&
	    calibrate_scale(src, &a->plan, src->m, CALIBRATE_SECONDS, &a->e) != 0)
		return -1;
	/* The table and the hardware disagree, or the scale could not be
	 * measured: the user must know which number the split rests on. */
	if (a->o->source != SRC_REPLAY && a->plan.scale_expected != 0 &&
	    (!a->plan.scale_measured || a->plan.scale != a->plan.scale_expected))
		fprintf(stderr, _("httop: reference-clock scale: %s\n"), a->plan.scale_note);
	if (source_program(src, &a->plan, a->o->force, &a->e) != 0)
		return -1;
	sample_init(&a->s[0], t->max_cpu, src->plan->nslots, t->ncores, truth);
	sample_init(&a->s[1], t->max_cpu, src->plan->nslots, t->ncores, truth);
	a->have_samples = true;
	metrics_ctx_init(&a->mc, src->m, src->plan);
	interval_init(&a->iv, src->m);
	a->have_iv = true;
	a->out = batch_new(a->o->format, stdout, src->m, src->plan, src->name);
	return 0;
}

static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Let one interval pass. A virtual clock in batch mode just advances; a
 * real wait aims at fixed deadlines so the intervals do not drift, and
 * skips ahead when a refresh took longer than the delay. Returns the
 * ending signal, or 0. */
static int
wait_interval(struct app *a, double *deadline)
{
	double delay = a->o->delay, left;
	int sig;

	if (a->src->virtual_clock && a->o->batch) {
		source_advance(a->src, delay);
		return signals_wait(0);
	}
	left = *deadline - now_s();
	if (left < 0) {
		*deadline -= left;
		left = 0;
	}
	sig = signals_wait(left);
	*deadline += delay;
	if (sig == 0)
		source_advance(a->src, delay);
	return sig;
}

/* A first read in which no selected CPU could be read would only ever
 * show errors: say why once instead (a wrong --msr-path, say). */
static int
check_first_read(struct app *a, const struct sample *s)
{
	unsigned cpu, bad = 0, first_bad = 0;

	for (cpu = 0; cpu < s->max_cpu; cpu++) {
		if (!source_cpu_selected(a->src, cpu))
			continue;
		if (s->state[cpu] == CPU_READ_OK)
			return 0;
		if (bad++ == 0)
			first_bad = cpu;
	}
	if (bad == 0)
		return 0;
	if (s->state[first_bad] == CPU_READ_ERROR && s->err[first_bad] != 0)
		return errmsg_set(&a->e, _("no CPU could be read (%s source %s): CPU %u: %s; check the "
		    "device or file it reads"), a->src->name, a->src->detail, first_bad,
		    strerror(s->err[first_bad]));
	return errmsg_set(&a->e, _("no CPU could be read (%s source %s): CPU %u is %s; check the "
	    "device or file it reads"), a->src->name, a->src->detail, first_bad,
	    s->state[first_bad] == CPU_OFFLINE ? _("offline") : _("not readable"));
}

/* The loop proper; returns the exit status. */
static int
run(struct app *a)
{
	struct sample *prev = &a->s[0], *cur = &a->s[1], *tmp;
	long long n;
	double deadline;
	int rc, sig = 0;

	rc = source_read(a->src, prev, &a->e);
	if (rc != 0)
		goto read_end;
	if (check_first_read(a, prev) != 0) {
		report(&a->e);
		return EXIT_FAIL;
	}
	deadline = now_s() + a->o->delay;
	for (n = 0; a->o->iterations < 0 || n < a->o->iterations; n++) {
		if ((sig = signals_caught()) != 0 || (sig = wait_interval(a, &deadline)) != 0)
			break;
		rc = source_read(a->src, cur, &a->e);
		if (rc != 0)
			goto read_end;
		metrics_compute(&a->mc, prev, cur, &a->iv);
		if (batch_write(a->out, &a->iv, &a->e) != 0) {
			/* The reader went away (httop -b | head): a normal end. */
			if (batch_errno(a->out) == EPIPE)
				return EXIT_OK;
			report(&a->e);
			return EXIT_FAIL;
		}
		tmp = prev;
		prev = cur;
		cur = tmp;
	}
	return signals_exit_status(sig);
read_end:
	if (rc > 0)
		return EXIT_OK;     /* end of the trace */
	report(&a->e);
	return EXIT_FAIL;
}

/* Put the registers back and free everything; a failed restore turns a
 * success into a failure (the PMU is left as httop set it). */
static int
app_end(struct app *a, int status)
{
	batch_free(a->out);
	if (a->have_iv)
		interval_free(&a->iv);
	if (a->have_samples) {
		sample_free(&a->s[0]);
		sample_free(&a->s[1]);
	}
	if (a->src != NULL) {
		if (source_restore(a->src, &a->e) != 0) {
			report(&a->e);
			if (status == EXIT_OK)
				status = EXIT_FAIL;
		}
		signals_set_source(NULL);
		source_close(a->src);
	}
	if (a->have_machine)
		machine_free(&a->m);
	return status;
}

int
app_run(const struct options *o)
{
	struct app a;

	memset(&a, 0, sizeof a);
	a.o = o;
	if (open_source(&a) != 0) {
		report(&a.e);
		return app_end(&a, EXIT_FAIL);
	}
	signals_set_source(a.src);
	if (select_cpus(&a) != 0) {
		report(&a.e);
		return app_end(&a, EXIT_USAGE);
	}
	if (prepare(&a) != 0) {
		report(&a.e);
		return app_end(&a, EXIT_FAIL);
	}
	return app_end(&a, run(&a));
}
