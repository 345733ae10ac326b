/* mode_batch.c: the mode with -b, or when standard output is not a
 * terminal: the batch format (and --record, --textfile) every interval
 * until -n, the end of the data, the end of a watched job or a signal. It
 * waits only in evloop_wait, for the pacer's deadline or an ending signal;
 * a signal is answered at once with a last, partial interval read then
 * and the watched job's whole run up to it (end_by_signal).
 * A watched job (--pid, --cgroup, --job) narrows every interval to its
 * cores, re-read before each step. */
#include "config.h"
#include "app/context.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sys/evloop.h"
#include "metrics/history.h"
#include "out/batch.h"
#include "out/outputs.h"
#include "out/record.h"
#include "out/runsum.h"
#include "run/pacer.h"
#include "sys/signals.h"
#include "util/clock.h"
#include "util/i18n.h"
#include "util/textwrap.h"
#include "util/xalloc.h"
#include "watch/job.h"

/* --pid, --cgroup, --job: every format writes the job's cores (the run's
 * view), and the run ends after the interval in which the job ended. */
struct batch_job {
	struct cpulist seen;        /* the job watch's last reading */
	struct cpulist view;        /* the CPUs of the last reading with a task */
	struct cpulist ever;        /* every CPU the job could use */
	struct history *hist;       /* the whole job, through the metrics code */
	double started;             /* clock_mono() at the first sample */
	bool ended;
	char note[256];
	/* A replay of a job's recording: its CPUs from each sample, its
	 * length by the trace's clock (t0: the first sample's time). */
	bool recorded;
	double t0;
	char label[128];
};

/* Re-read the job's CPUs; once nothing is left the last ones stay for
 * the interval that covers the end. A recorded job: the CPUs the sample
 * last read carries, added to ever. */
static void
job_update(struct app *a, struct run *r, struct batch_job *j)
{
	unsigned n = a->src->m->topo.max_cpu;
	const struct cpulist *rec;
	unsigned i;

	if (j->view.has == NULL) {
		j->view.n = j->ever.n = n;
		j->view.has = xcalloc(n > 0 ? n : 1, sizeof *j->view.has);
		j->ever.has = xcalloc(n > 0 ? n : 1, sizeof *j->ever.has);
	}
	if (j->recorded) {
		if ((rec = run_sample_job(r)) != NULL)
			for (i = 0; i < n; i++)
				j->ever.has[i] = j->ever.has[i] || cpulist_has(rec, i);
		/* the recording says the job ended here (said as its event) */
		if (a->src->job_ended[0] != '\0') {
			j->ended = true;
			snprintf(j->note, sizeof j->note, "%s", a->src->job_ended);
		}
		return;
	}
	if (job_watch_update(a->job, n, &j->seen, j->note, sizeof j->note) == 0) {
		struct errmsg e;

		j->ended = true;
		/* a replay of the recording ends the watch where this did (a
		 * failed write is the next interval's to say) */
		(void)record_job_ended(a->rec, r->prev->time, j->note, &e);
		return;
	}
	memcpy(j->view.has, j->seen.has, n * sizeof *j->view.has);
	for (i = 0; i < n; i++)
		j->ever.has[i] = j->ever.has[i] || j->seen.has[i];
}

/* The whole job, from its first sample to its end, over every CPU it
 * could use: one more record in the batch format (as a command's whole
 * run), or the summary for a person in the text format. */
static int
job_summary(struct app *a, struct run *r, struct batch *b, struct batch_job *j)
{
	struct run_summary s;
	struct interval whole;
	char cpus[256];
	double covered;
	int rc = 0;

	interval_init(&whole, a->src->m);
	covered = history_compute(j->hist, &r->mc, AVG_RUN, 0.0, &whole);
	metrics_restrict(&r->mc, &j->ever, &whole);
	if (covered <= 0.0) {
		interval_free(&whole);
		return 0;
	}
	if (a->o->format != FMT_TEXT) {
		/* a command's recording: its whole run's rows are "run", as
		 * httop -- COMMAND wrote them */
		if (j->recorded && strcmp(a->src->recorded_job->kind, "command") == 0)
			batch_set_scope(b, OUT_SCOPE_RUN);
		rc = batch_write_whole(b, &whole, &r->e);
	} else {
		cpus[0] = '\0';
		cpulist_append(cpus, sizeof cpus, j->ever.has, j->ever.n);
		memset(&s, 0, sizeof s);
		s.job = j->recorded ? j->label : job_watch_label(a->job);
		/* what ended the watch: the job, its recording, or a signal */
		s.ended = j->ended ? _("ended") : j->recorded ? _("its recording ends") :
		    _("still running when httop stopped");
		s.seconds = j->recorded ? r->prev->time - j->t0 : clock_mono() - j->started;
		s.covered = covered;
		s.source = a->src->name;
		s.cpus = cpus;
		out_run_summary(app_out(a), a->src->m, &whole, &s);
	}
	interval_free(&whole);
	return rc;
}

/* An ending signal (SIGTERM from a batch system's epilog, Ctrl-C,
 * SIGHUP): the counters are read once more at once, and that last,
 * partial interval (its real length) goes to every output like any other;
 * then the whole job up to the signal. A recording or the test clock has
 * no real time since the last step: nothing more is read. After a
 * hang-up the reader may be gone with the terminal: a write that fails
 * then is no error of httop's. Returns the exit status. */
static int
end_by_signal(struct app *a, struct run *r, struct batch *b, struct batch_job *j,
    struct pacer *p)
{
	int sig = signals_caught();
	int rc = RUN_OK;

	if (p->mode == PACE_WALL) {
		if (j != NULL)
			job_update(a, r, j);
		/* The only interval, shorter than any httop takes: no figures. */
		if (r->steps == 0)
			r->cfg.min_dt = PACER_DELAY_MIN;
		rc = run_step(r, pacer_take(p, clock_mono()));
		if (rc < 0 && sig != SIGHUP) {
			app_report(&r->e);
			return EXIT_FAIL;
		}
	}
	if (j != NULL && j->ended)
		fprintf(stderr, "httop: %s\n", j->note);
	if (rc == RUN_OK && j != NULL && j->hist != NULL && job_summary(a, r, b, j) != 0 &&
	    sig != SIGHUP) {
		app_report(&r->e);
		return EXIT_FAIL;
	}
	return signals_exit_status(sig);
}

/* What a step's result `rc` means: -1 go on, else the exit status. */
static int
stepped(struct app *a, struct run *r, struct batch *b, struct batch_job *j, struct pacer *p,
    int rc)
{
	if (rc == RUN_END && r->e.text[0] != '\0')
		/* a trace cut off: where */
		text_msgf("httop: %s\n", r->e.text);
	if (rc == RUN_END || rc == RUN_DONE) {
		/* A command's recording ended: its whole run, as httop --
		 * COMMAND wrote it (not where the reader went away: RUN_DONE).
		 * A job's whole run comes where the recording says it ended
		 * (j->ended, below); one stopped by -n or a signal has none, as
		 * the live run had none. */
		if (rc == RUN_END && j != NULL && j->recorded &&
		    strcmp(a->src->recorded_job->kind, "command") == 0 &&
		    job_summary(a, r, b, j) != 0)
			return (app_report(&r->e), EXIT_FAIL);
		return EXIT_OK;
	}
	if (rc < 0 && signals_caught() != 0)
		/* a replayed pipe's wait, woken by the signal: what was read
		 * is out; nothing more comes */
		return end_by_signal(a, r, b, j, p);
	if (rc < 0)
		/* The interval is written first: it shows what happened. */
		return (app_report(&r->e), EXIT_FAIL);
	pacer_stepped(p, clock_mono(), r->prev->time);
	if (j != NULL && j->recorded)
		job_update(a, r, j);
	if (j != NULL && j->ended) {
		if (!j->recorded)
			text_msgf("httop: %s\n", j->note);
		if (j->hist != NULL && job_summary(a, r, b, j) != 0)
			return (app_report(&r->e), EXIT_FAIL);
		return EXIT_OK;
	}
	return -1;
}

/* The loop proper; returns the exit status. */
static int
loop(struct app *a, struct run *r, struct batch *b, struct batch_job *j)
{
	struct pacer p;
	struct evwait w = { -1, -1, 0.0, NULL, 0 };
	long long n;
	int rc;

	rc = run_first(r, NULL, false, 0.0);
	if (rc < 0 && signals_caught() != 0)
		/* a replayed pipe's wait, woken by the signal */
		return signals_exit_status(signals_caught());
	if (rc != RUN_OK)
		return rc == RUN_END ? EXIT_OK : (app_report(&r->e), EXIT_FAIL);
	if (j != NULL) {
		/* The whole job (job_summary), from here to its end. */
		j->hist = history_new(a->src->m, a->src->plan, 2.0 * a->o->delay, a->o->delay);
		j->started = clock_mono();
		j->t0 = r->prev->time;
		run_add_output(r, &output_history, j->hist);
	}
	app_pacer_init(a, &p, APP_PACE_BATCH, a->o->delay);
	pacer_start(&p, clock_mono(), p.delay, r->prev->time);
	for (n = 0; a->o->iterations < 0 || n < a->o->iterations;) {
		w.deadline = pacer_deadline(&p);
		if (evloop_wait(&w) & WAKE_SIGNAL)
			return end_by_signal(a, r, b, j, &p);
		if (!pacer_due(&p, clock_mono()))
			continue;
		if (j != NULL && !j->recorded)
			job_update(a, r, j);
		rc = stepped(a, r, b, j, &p, run_step(r, pacer_take(&p, clock_mono())));
		if (rc >= 0)
			return rc;
		n++;
	}
	return signals_exit_status(signals_caught());
}

int
app_run_batch(struct app *a)
{
	struct run_config cfg;
	struct run r;
	struct batch *b;
	struct batch_job job;
	int status, rc;

	memset(&job, 0, sizeof job);
	app_run_config(a, &cfg);
	run_init(&r, a->src, &a->plan, &cfg);
	app_job_record(a, &r);
	app_add_common_outputs(a, &r);
	b = batch_new(a->o->format, app_out(a), a->src->m, &a->plan, a->src->name);
	batch_set_layout(b, &a->layout);
	batch_set_level(b, a->o->level);
	batch_set_compact(b, a->o->compact);
	batch_set_one_exposition(b, a->o->iterations > 0);
	/* A header line would repeat once per node in merged output (pdsh). */
	batch_set_header(b, isatty(fileno(app_out(a))));
	if (a->job != NULL) {
		struct job_ident id;

		job_watch_ident(a->job, &id);
		batch_set_job(b, &id);
	} else if (a->src->recorded_job != NULL) {
		/* A job's recording: its name, and its CPUs from each sample,
		 * as the live run narrowed them. */
		batch_set_job(b, a->src->recorded_job);
		batch_set_scope(b, OUT_SCOPE_JOB);
		run_view_from_samples(&r, true);
		job.recorded = true;
		app_recorded_job_label(a->src->recorded_job, job.label, sizeof job.label);
	}
	run_add_output(&r, &output_batch, b);
	/* From here an ending signal ends the loop, which restores. */
	signals_defer();
	rc = run_prepare(&r);
	if (rc == RUN_OK && a->job != NULL) {
		job_update(a, &r, &job);
		run_set_view(&r, &job.view);
		if (a->rec != NULL)     /* the recording keeps them */
			run_set_job_cpus(&r, &job.view);
		batch_set_scope(b, OUT_SCOPE_JOB);
	}
	if (rc == RUN_OK)
		status = loop(a, &r, b, a->job != NULL || job.recorded ? &job : NULL);
	else if (rc == RUN_INTERRUPTED)
		status = signals_exit_status(signals_caught());
	else
		status = (app_report(&r.e), EXIT_FAIL);
	status = run_finish(&r, status, app_report);
	if (batch_end(b, &r.e) != 0) {
		app_report(&r.e);
		status = EXIT_FAIL;
	}
	batch_free(b);
	cpulist_free(&job.seen);
	cpulist_free(&job.view);
	cpulist_free(&job.ever);
	if (job.hist != NULL)
		history_free(job.hist);
	return status;
}
