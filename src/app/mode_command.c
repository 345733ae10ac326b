/* mode_command.c: the mode of httop [options] -- COMMAND. The command was
 * forked by app.c and waits before its exec; here the counters are
 * programmed and the first sample read, then the command is let go, and
 * the loop steps the run every interval until the command ends, which
 * wakes the one wait (SIGCHLD through the signal module's pipe). A last
 * step covers the command's end; the averaging history over the whole run,
 * narrowed to the CPUs the command's processes could run on, gives the
 * summary. Every interval is narrowed to the command's CPUs of the moment
 * (the run's view), so the history adds each core only while the command
 * could use it.
 *
 * Signals: Ctrl-C, Ctrl-\ and a hang-up reach the command from the
 * terminal itself (the same process group); httop lets them be and waits
 * for the command's end, so that it can still print the summary and put
 * the counters back. SIGTERM sent to httop (kill, a batch system's time
 * limit) is passed on to the command. A hang-up reaches only the session
 * leader: where httop is that (ssh HOST 'httop -- CMD', a login shell's
 * exec), it passes the SIGHUP on to its process group once, as the
 * terminal does to a foreground job (the command ran on, and httop waited
 * for it, after the ssh connection dropped). */
#include "config.h"
#include "app/context.h"

#include <errno.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sys/evloop.h"
#include "metrics/history.h"
#include "out/batch.h"
#include "out/runsum.h"
#include "out/outputs.h"
#include "run/pacer.h"
#include "sys/signals.h"
#include "util/clock.h"
#include "util/i18n.h"
#include "util/textesc.h"
#include "util/xalloc.h"
#include "watch/job.h"

struct cmdrun {
	struct app *a;
	struct run *r;
	struct history *hist;       /* the whole run, through the metrics code */
	struct history *jhist;      /* the same of the job's record beside (NULL: none) */
	struct cpulist seen;        /* the job watch's last reading */
	struct cpulist view;        /* what the outputs see: the last reading with a process */
	struct cpulist ever;        /* every CPU the command's processes could run on */
	bool viewed;                /* view holds a reading */
	FILE *out;                  /* -o FILE, or standard error */
	bool out_lost;              /* a write to standard error failed: nothing more goes there */
	struct batch *b;            /* -b or --format: the intervals */
	struct output_ops b_ops;    /* the batch output, through intervals() */
	char name[96];              /* the command's name, quoted for messages */
	bool hup_passed;            /* a hang-up passed on to the process group */
};

/* Sized for the machine once. */
static void
list_init(struct cpulist *l, unsigned n)
{
	l->n = n;
	l->has = xcalloc(n > 0 ? n : 1, sizeof *l->has);
}

/* The command's CPUs now: the affinity of its processes. Once none is
 * left the last reading stays (the last interval is the command's too). */
static void
watch(struct cmdrun *c)
{
	char note[256];
	size_t i;

	if (job_watch_update(c->a->job, (unsigned)c->view.n, &c->seen, note, sizeof note) == 0)
		return;
	memcpy(c->view.has, c->seen.has, c->view.n * sizeof *c->view.has);
	for (i = 0; i < c->view.n; i++)
		c->ever.has[i] = c->ever.has[i] || c->seen.has[i];
	c->viewed = true;
}

/* A command that ended before httop first looked ran on the CPUs it
 * inherited: httop's own. */
static void
inherited(struct cmdrun *c)
{
	cpu_set_t *set;
	size_t size, i;

	if (c->viewed)
		return;
	set = CPU_ALLOC(c->view.n > 0 ? c->view.n : 1);
	size = CPU_ALLOC_SIZE(c->view.n > 0 ? c->view.n : 1);
	if (set != NULL && sched_getaffinity(0, size, set) == 0) {
		for (i = 0; i < c->view.n; i++)
			c->view.has[i] = c->ever.has[i] = CPU_ISSET_S(i, size, set) != 0;
	} else {
		for (i = 0; i < c->view.n; i++)
			c->view.has[i] = c->ever.has[i] = true;
	}
	if (set != NULL)
		CPU_FREE(set);
	c->viewed = true;
}

/* One step: the command's CPUs, then the interval. RUN_OK, RUN_DONE or -1. */
static int
step(struct cmdrun *c, struct pacer *p)
{
	int rc;

	watch(c);
	if (!c->viewed)
		inherited(c);
	rc = run_step(c->r, pacer_take(p, clock_mono()));
	if (rc == RUN_OK)
		pacer_stepped(p, clock_mono(), c->r->prev->time);
	return rc;
}

/* A signal to httop while the command runs (signals.h, mode_command.c's top). */
static void
signalled(struct cmdrun *c)
{
	int sig = signals_take();

	if (sig == SIGTERM)
		command_signal(&c->a->cmd, SIGTERM);
	/* httop's own copy comes back to it, taken here and let be. */
	if (sig == SIGHUP && !c->hup_passed && getsid(0) == getpid()) {
		c->hup_passed = true;
		kill(0, SIGHUP);
	}
}

/* Until the command ends; returns 0, or -1 with the reason in r->e. */
static int
loop(struct cmdrun *c)
{
	struct evwait w = { .in_fd = -1, .out_fd = -1 };
	struct pacer p;
	int rc;

	app_pacer_init(c->a, &p, APP_PACE_WALL, c->a->o->delay);
	pacer_start(&p, clock_mono(), p.delay, c->r->prev->time);
	for (;;) {
		if (command_ended(&c->a->cmd)) {
			/* The last interval: up to the end. The only one, shorter
			 * than any interval httop takes: no figures (R_TOO_SHORT). */
			if (c->r->steps == 0)
				c->r->cfg.min_dt = PACER_DELAY_MIN;
			rc = step(c, &p);
			return rc < 0 ? -1 : 0;
		}
		w.deadline = pacer_deadline(&p);
		if (evloop_wait(&w) & WAKE_SIGNAL)
			signalled(c);
		if (!pacer_due(&p, clock_mono()))
			continue;
		rc = step(c, &p);
		if (rc < 0)
			return -1;
		if (rc != RUN_OK)
			return 0;      /* the reader of the intervals went away */
	}
}

/* A write to c->out that failed with `err` (0: none): -1 when it is
 * httop's failure, 0 when not. Standard error (no -o) is where the
 * message would go: a write that fails there (closed, full) cannot be
 * said, and must not turn the command's status into httop's; nothing
 * more is written there. A reader that went away (EPIPE) is a normal
 * end, as in every mode. -o FILE or -o - (the data) keeps its errors. */
static int
out_written(struct cmdrun *c, int err)
{
	if (err == 0)
		return 0;
	if (c->out == stderr) {
		c->out_lost = true;
		return 0;
	}
	return err == EPIPE ? 0 : -1;
}

/* The batch output's interval. On standard error a failed write (a
 * reader gone included) cannot be said, as out_written() says: it stops
 * the intervals there, not the run (--record and --textfile go on). */
static int
intervals(void *self, const struct run_step *st, struct errmsg *e)
{
	struct cmdrun *c = self;
	int rc;

	if (c->out_lost)
		return 0;
	rc = output_batch.interval(c->b, st, e);
	if (rc != 0 && c->out == stderr) {
		c->out_lost = true;
		return 0;
	}
	return rc;
}

/* The batch output's other operations, on c->b. */
static int
b_start(void *self, const struct run *r, struct errmsg *e)
{
	return output_batch.start(((struct cmdrun *)self)->b, r, e);
}

static int
b_event(void *self, const struct run_event *ev, struct errmsg *e)
{
	return output_batch.event(((struct cmdrun *)self)->b, ev, e);
}

static int
b_close(void *self, struct errmsg *e)
{
	return output_batch.close(((struct cmdrun *)self)->b, e);
}

/* The whole run, narrowed to every CPU the command could use, to c->out:
 * one more record in the batch format, or the summary for a person. */
static int
summary(struct cmdrun *c, struct interval *whole, double covered, struct errmsg *e)
{
	const struct command *cmd = &c->a->cmd;
	struct run_summary s;
	char ended[128], cpus[256];
	int err;

	if (c->out_lost)
		return 0;
	if (c->b != NULL && c->a->o->format != FMT_TEXT) {
		batch_set_scope(c->b, OUT_SCOPE_RUN);
		if (batch_write_whole(c->b, whole, e) == 0)
			return 0;
		return out_written(c, batch_errno(c->b));
	}
	command_describe(cmd, ended, sizeof ended);
	cpus[0] = '\0';
	cpulist_append(cpus, sizeof cpus, c->ever.has, c->ever.n);
	memset(&s, 0, sizeof s);
	s.argv = c->a->o->command;
	s.pid = (long)cmd->pid;
	s.ended = ended;
	s.seconds = cmd->ended - cmd->started;
	s.covered = covered;
	s.source = c->a->src->name;
	s.meaning = plan_meaning(c->a->src->plan);
	s.have_cpu = command_cpu_time(cmd, &s.user, &s.system);
	s.cpus = cpus;
	/* The errno of the write that failed, not one an earlier call left. */
	err = out_run_summary(c->out, c->a->src->m, whole, &s);
	if (out_written(c, err) != 0) {
		/* Said here: not once more when -o FILE is closed. */
		clearerr(c->out);
		return errmsg_set(e, _("writing the summary: %s"), strerror(err));
	}
	return 0;
}

/* -o FILE or standard error; with -b or --format, the intervals there too. */
static int
open_out(struct cmdrun *c)
{
	const struct options *o = c->a->o;

	/* -o FILE was opened with the rest (app_open_output). */
	c->out = c->a->out != NULL ? c->a->out : o->output != NULL ? stdout : stderr;
	if (o->batch) {
		c->b = batch_new(o->format, c->out, c->a->src->m, &c->a->plan, c->a->src->name);
		batch_set_layout(c->b, &c->a->layout);
		batch_set_level(c->b, o->level);
		batch_set_compact(c->b, o->compact);
		batch_set_header(c->b, isatty(fileno(c->out)));
		batch_set_scope(c->b, OUT_SCOPE_JOB);
		/* The run's end is known (the command's), as with -n N: one
		 * OpenMetrics exposition, its "# EOF" once at the end. */
		batch_set_one_exposition(c->b, true);
		if (c->a->job != NULL) {
			struct job_ident id;

			job_watch_ident(c->a->job, &id);
			batch_set_job(c->b, &id);
		}
	}
	return 0;
}

/* Prepare, read the first sample, let the command go, loop. Returns the
 * exit status httop would have for itself (0, 1), or -2 when the command
 * could not be run (said). */
static int
measure(struct cmdrun *c)
{
	struct run *r = c->r;
	int rc;

	rc = run_prepare(r);
	if (rc == RUN_INTERRUPTED)
		return 128 + signals_caught();
	if (rc == RUN_OK && (rc = run_first(r, NULL, false, 0.0)) == RUN_OK) {
		c->hist = history_new(c->a->src->m, c->a->src->plan, 2.0 * c->a->o->delay,
		    c->a->o->delay);
		run_add_output(r, &output_history, c->hist);
		if (r->job.src != NULL) {
			c->jhist = history_new(r->m, r->job.src->plan, 2.0 * c->a->o->delay,
			    c->a->o->delay);
			run_set_job_history(r, c->jhist);
		}
		if (command_release(&c->a->cmd, c->name, &r->e) != 0) {
			app_report(&r->e);
			return -2;
		}
		rc = loop(c);
	}
	if (rc != 0) {
		app_report(&r->e);
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

int
app_run_command(struct app *a)
{
	struct run_config cfg;
	struct run r;
	struct cmdrun c;
	struct interval whole;
	struct errmsg e;
	double covered = 0.0;
	int status, cstatus;
	unsigned max_cpu = a->src->m->topo.max_cpu;

	memset(&c, 0, sizeof c);
	c.a = a;
	c.r = &r;
	text_quote(c.name, sizeof c.name, a->o->command[0], 64);
	if (open_out(&c) != 0) {
		app_report(&a->e);
		return EXIT_FAIL;
	}
	list_init(&c.view, max_cpu);
	list_init(&c.ever, max_cpu);
	app_run_config(a, &cfg);
	run_init(&r, a->src, &a->plan, &cfg);
	app_job_record(a, &r);
	app_add_common_outputs(a, &r);
	if (c.b != NULL) {
		c.b_ops = output_batch;
		c.b_ops.interval = intervals;
		c.b_ops.start = output_batch.start != NULL ? b_start : NULL;
		c.b_ops.event = output_batch.event != NULL ? b_event : NULL;
		c.b_ops.close = output_batch.close != NULL ? b_close : NULL;
		run_add_output(&r, &c.b_ops, &c);
	}
	run_set_view(&r, &c.view);
	if (a->rec != NULL)             /* the recording keeps them */
		run_set_job_cpus(&r, &c.view);
	/* From here an ending signal is only noted: the loop decides. */
	signals_defer();
	status = measure(&c);
	interval_init(&whole, a->src->m);
	if (status == EXIT_OK && c.hist != NULL) {
		covered = history_compute(c.hist, &r.mc, AVG_RUN, 0.0, &whole);
		run_job_window(&r, AVG_RUN, 0.0, &whole);
		metrics_restrict(&r.mc, &c.ever, &whole);
		if (covered > 0.0 && covered < PACER_DELAY_MIN)
			metrics_too_short(&r.mc, &whole);
	}
	/* The counters back before anything is printed or waited for. */
	status = run_finish(&r, status, app_report);
	command_wait(&a->cmd);
	if (covered > 0.0 && summary(&c, &whole, covered, &e) != 0) {
		app_report(&e);
		status = EXIT_FAIL;
	}
	if (!c.out_lost && batch_end(c.b, &e) != 0 && out_written(&c, batch_errno(c.b)) != 0) {
		app_report(&e);
		status = EXIT_FAIL;
	}
	cstatus = command_status(&a->cmd);
	/* -o FILE is closed by app_end: a write or close that fails is then
	 * httop's failure where the command succeeded. */
	batch_free(c.b);
	interval_free(&whole);
	if (c.hist != NULL)
		history_free(c.hist);
	if (c.jhist != NULL)
		history_free(c.jhist);
	cpulist_free(&c.seen);
	cpulist_free(&c.view);
	cpulist_free(&c.ever);
	/* Never started (an error, a signal before the start): httop's
	 * status. Else the command's own, unless httop failed where the
	 * command succeeded. */
	if (!a->cmd.released || (status != EXIT_OK && status != -2 && cstatus == 0))
		return status;
	return cstatus;
}
