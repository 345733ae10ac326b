/* app.c: a run of httop from start to end: the steps in their order
 * (app_run), calibration and programming (prepare), app_end(), and the
 * small steps both refresh loops share. Everything is allocated before the
 * first read; a refresh only reads, computes into the same interval and
 * writes. Every way out after the source exists goes through app_end(),
 * which restores the registers. */
#include "config.h"
#include "app_priv.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "conflict.h"
#include "metrics/history.h"
#include "out/batch.h"
#include "out/textfile.h"
#include "record.h"
#include "signals.h"
#include "source/calibrate.h"
#include "source/sources.h"
#include "trace/trace.h"
#include "ui/tui.h"
#include "util/i18n.h"
#include "watch/job.h"

/* Long enough for the ratio of two counters to be an integer beyond
 * doubt, short enough not to be noticed at start. */
#define CALIBRATE_SECONDS 0.1

/* An error as httop says it, on standard error. */
void
app_report(const struct errmsg *e)
{
	fprintf(stderr, "httop: %s\n", e->text);
}

/* The events a replayed trace recorded before the sample just read
 * ("offline cpu 5", "reprogrammed: ..."); "" if none or not a replay. */
const char *
app_replay_events(struct app *a)
{
	if (a->o->source != SRC_REPLAY)
		return "";
	return replay_source_events(a->src);
}

/* Seconds on a clock that never jumps, for intervals and deadlines. */
double
app_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* A first read in which no selected CPU could be read would only ever
 * show errors: say why once instead (a wrong --msr-path, say). */
int
app_check_first_read(struct app *a, const struct sample *s)
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

/* After an interval's metrics: the --on-conflict policy. `note` gets the
 * line to show (empty if none). Returns 1 when the run must end with
 * status 1, the reason in a->e; the registers are restored by app_end. */
int
app_conflict_check(struct app *a, char *note, size_t len)
{
	enum conflict_action act = CONFLICT_NONE;

	note[0] = '\0';
	if (a->conflict == NULL)
		return 0;
	if (conflict_handle(a->conflict, a->src, &a->iv, &act, note, len, &a->e) != 0) {
		note[0] = '\0';
		return 1;
	}
	if (act == CONFLICT_STOP) {
		if (note[0] != '\0')
			errmsg_set(&a->e, "%s", note);
		else
			errmsg_set(&a->e, _("another program reprogrammed the counters; stopped as "
			    "--on-conflict exit asks"));
		note[0] = '\0';
		return 1;
	}
	if (act != CONFLICT_NOTED)
		note[0] = '\0';
	return 0;
}

/* Calibrate and program the source, then set up what the loops use.
 * Returns 0, or -1 with the reason in a->e. */
static int
prepare(struct app *a)
{
	struct source *src = a->src;
	const struct topology *t = &src->m->topo;
	/* A replay of a simulator's recording brings its truth along. */
	bool truth = strcmp(src->name, "sim") == 0 || (a->o->source == SRC_REPLAY &&
	    trace_has_truth(replay_source_reader(src)));

	if (a->o->source != SRC_REPLAY &&
	    calibrate_scale(src, &a->plan, src->m, CALIBRATE_SECONDS, &a->e) != 0)
		return -1;
	/* The table and the hardware disagree, or the scale could not be
	 * measured: the user must know which number the split rests on. */
	if (a->o->source != SRC_REPLAY && a->plan.scale_expected != 0 &&
	    (!a->plan.scale_measured || a->plan.scale != a->plan.scale_expected)) {
		char msg[sizeof a->plan.scale_note + 64];

		snprintf(msg, sizeof msg, _("reference-clock scale: %s"), a->plan.scale_note);
		if (a->tui != NULL)
			tui_note(a->tui, msg);
		else
			fprintf(stderr, "httop: %s\n", msg);
	}
	if (source_program(src, &a->plan, a->o->force, &a->e) != 0)
		return -1;
	/* A replay too: the trace may hold another program's interference. */
	a->conflict = conflict_new(a->o->on_conflict);
	sample_init(&a->s[0], t->max_cpu, src->plan->nslots, t->ncores, truth);
	sample_init(&a->s[1], t->max_cpu, src->plan->nslots, t->ncores, truth);
	a->have_samples = true;
	metrics_ctx_init(&a->mc, src->m, src->plan);
	interval_init(&a->iv, src->m);
	a->have_iv = true;
	a->out = batch_new(a->o->format, stdout, src->m, src->plan, src->name);
	batch_set_layout(a->out, &a->layout);
	/* A header line would repeat once per node in merged output (pdsh). */
	batch_set_header(a->out, isatty(STDOUT_FILENO));
	if (a->rec != NULL) {
		char note[sizeof src->detail + 64];

		/* The plan as programmed: after calibration, with its scale. */
		snprintf(note, sizeof note, "recorded from the %s source %s", src->name, src->detail);
		if (record_start(a->rec, src->m, src->plan, truth, note, &a->e) != 0)
			return -1;
	}
	return 0;
}

/* Put the registers back and free everything; a failed restore turns a
 * success into a failure (the PMU is left as httop set it). */
static int
app_end(struct app *a, int status)
{
	/* The terminal before the registers, on every path. */
	if (a->tui != NULL) {
		tui_free(a->tui);
		signals_set_screen(NULL);
	}
	phases_report(&a->ph);
	if (a->hist != NULL)
		history_free(a->hist);
	if (a->conflict != NULL)
		conflict_free(a->conflict);
	/* The gzip trailer; a close that fails (NFS) is an error too. */
	if (a->rec != NULL && record_close(a->rec, &a->e) != 0) {
		app_report(&a->e);
		if (status == EXIT_OK)
			status = EXIT_FAIL;
	}
	a->rec = NULL;
	if (a->have_wiv)
		interval_free(&a->wiv);
	if (a->job != NULL)
		job_watch_free(a->job);
	cpulist_free(&a->jobcpus);
	batch_free(a->out);
	textfile_free(a->tf);
	if (a->have_iv)
		interval_free(&a->iv);
	if (a->have_samples) {
		sample_free(&a->s[0]);
		sample_free(&a->s[1]);
	}
	if (a->src != NULL) {
		if (source_restore(a->src, &a->e) != 0) {
			app_report(&a->e);
			if (status == EXIT_OK)
				status = EXIT_FAIL;
		}
		/* Not an error: restoring it would break the other program. */
		if (a->src->restore_left[0] != '\0')
			fprintf(stderr, _("httop: left %s as another program set it (it took the "
			    "counters over while httop ran)\n"), a->src->restore_left);
		signals_set_source(NULL);
		source_close(a->src);
	}
	if (a->have_layout)
		die_layout_free(&a->layout);
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
	phases_init(&a.ph);
	/* The screen without -b when standard output is a terminal; else the
	 * batch format, as a pipe or a file expects. */
	a.tui_mode = !o->batch && isatty(STDOUT_FILENO);
	if (o->npids > 0 || o->cgroup != NULL) {
		/* Before any register is touched: a wrong PID is a plain error. */
		a.job = job_watch_new(o->pids, o->npids, o->cgroup, NULL, &a.e);
		if (a.job == NULL) {
			app_report(&a.e);
			return app_end(&a, EXIT_FAIL);
		}
	}
	if (app_open_source(&a) != 0) {
		app_report(&a.e);
		return app_end(&a, EXIT_FAIL);
	}
	/* --host: before anything records or prints the name. */
	if (o->host != NULL)
		snprintf(a.m.hostname, sizeof a.m.hostname, "%s", o->host);
	signals_set_source(a.src);
	if (app_select_cpus(&a) != 0 || app_build_layout(&a) != 0) {
		app_report(&a.e);
		return app_end(&a, EXIT_USAGE);
	}
	if (app_drop_privilege(&a) != 0) {
		app_report(&a.e);
		return app_end(&a, EXIT_FAIL);
	}
	if (o->record != NULL && app_open_record(&a) != 0) {
		app_report(&a.e);
		return app_end(&a, EXIT_FAIL);
	}
	/* With the rights httop keeps, before any register is touched: a
	 * directory it cannot write to is a bad --textfile. The plan is
	 * read only when a file is written. */
	if (o->textfile != NULL &&
	    (a.tf = textfile_open(o->textfile, a.src->m, &a.plan, a.src->name, &a.e)) == NULL) {
		app_report(&a.e);
		return app_end(&a, EXIT_USAGE);
	}
	if (a.tui_mode && app_open_screen(&a) != 0) {
		app_report(&a.e);
		return app_end(&a, EXIT_FAIL);
	}
	if (prepare(&a) != 0)
		return app_end(&a, app_close_screen(&a, &a.e, EXIT_FAIL));
	return app_end(&a, a.tui_mode ? app_run_tui(&a) : app_run_batch(&a));
}
