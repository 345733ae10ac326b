/* mode_tui.c: the live view, without -b on a terminal. The screen opens
 * with a first frame before calibration; then one loop waits in
 * evloop_wait for a key, a hang-up, an ending signal or the pacer's
 * deadline, and steps the run when the pacer says so. The live view is the
 * run's last output (output_live): it takes notes and figures; this file
 * draws them with what only the front end knows (the pacer's interval,
 * pause, a replay's position, the job's CPUs). */
#include "config.h"
#include "app/context.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sys/evloop.h"
#include "metrics/history.h"
#include "out/outputs.h"
#include "out/record.h"
#include "run/pacer.h"
#include "sys/signals.h"
#include "ui/header.h"
#include "ui/screen.h"
#include "ui/settings.h"
#include "ui/tui.h"
#include "util/clock.h"
#include "util/i18n.h"
#include "watch/job.h"

/* The first figures come this soon whatever the interval, so httop -d 10
 * does not start with ten seconds of nothing. */
#define FIRST_WAIT 0.25
/* Samples a replay counts per pass of the loop while it is idle: a few
 * milliseconds of parsing on a large machine, so keys stay prompt. */
#define REPLAY_SCAN_CHUNK 32

/* The live view's state. */
struct live {
	struct app *a;
	struct run *r;
	struct tui *tui;
	struct ui_settings set;     /* the screen's settings (httoprc, keys) */
	struct history *hist;       /* the averaging window */
	struct history *jhist;      /* the job's record beside, the same (NULL: none) */
	struct interval wiv;        /* figures over the window */
	struct interval first;      /* "no previous sample yet": before the first interval */
	bool have;                  /* the run has shown something: keys redraw */
	bool fresh;                 /* a replay jumped: no interval since (show `first`) */
	struct pacer pacer;
	bool scanning;              /* a replay still counts its samples */
	struct cpulist jobcpus;
	struct job_view jv;
	char replay_pos[160];       /* the replay's position, for the header */
};

/* An interval with every core and thread "no previous sample yet". */
static void
interval_first(struct interval *iv, const struct topology *t)
{
	unsigned i;

	iv->valid = true;
	for (i = 0; i < t->ncores; i++) {
		iv->cores[i].index = i;
		iv->cores[i].selected = true;
		iv->cores[i].reason = R_FIRST;
	}
	for (i = 0; i < t->max_cpu; i++) {
		iv->threads[i].cpu = i;
		iv->threads[i].reason = R_FIRST;
	}
}

/* The figures the screen shows: the last interval, or the window's. */
static const struct interval *
figures(struct live *l, double *covered)
{
	double c;

	if (!l->have || l->fresh) {
		*covered = 0.0;
		return &l->first;
	}
	*covered = l->r->iv.dt;
	if (l->set.window == AVG_LAST || l->hist == NULL)
		return &l->r->iv;
	c = history_compute(l->hist, &l->r->mc, l->set.window, l->set.avg_seconds, &l->wiv);
	if (!(c > 0.0))
		return &l->r->iv;
	run_job_window(l->r, l->set.window, l->set.avg_seconds, &l->wiv);
	*covered = c;
	return &l->wiv;
}

static void
draw(struct live *l)
{
	const struct source *src = l->a->src;
	struct ui_frame f;
	double covered;

	memset(&f, 0, sizeof f);
	f.m = src->m;
	f.plan = src->plan != NULL ? src->plan : &l->a->plan;
	f.source_name = src->name;
	f.source_why = l->a->auto_why;
	f.iv = figures(l, &covered);
	f.window = l->have && !l->fresh ? l->set.window : AVG_LAST;
	f.window_seconds = covered;
	f.window_length = l->set.avg_seconds;
	f.delay = pacer_interval(&l->pacer, l->have && !l->fresh ? l->r->iv.dt : 0.0);
	f.paused = l->pacer.paused;
	f.job = l->jv.active ? &l->jv : NULL;
	f.replay_pos = src->seek != NULL ? l->replay_pos : NULL;
	f.layout = &l->a->layout;
	tui_draw(l->tui, &f);
}

/* Re-read the job's CPUs; with nothing left to watch, all cores. A
 * recorded job's are those of the sample last read. */
static void
update_job(struct live *l)
{
	int live;

	if (l->a->job == NULL && l->a->src->recorded_job != NULL) {
		/* the recording says where the job ended: from there, as live */
		if (l->a->src->job_ended[0] != '\0') {
			l->jv.ended = true;
			snprintf(l->jv.note, sizeof l->jv.note, "%s", l->a->src->job_ended);
		}
		l->jv.cpus = run_sample_job(l->r);
		l->jv.only = tui_job_only(l->tui) && l->jv.cpus != NULL && !l->jv.ended;
		return;
	}
	if (l->a->job == NULL)
		return;
	live = job_watch_update(l->a->job, l->a->src->m->topo.max_cpu, &l->jobcpus, l->jv.note,
	    sizeof l->jv.note);
	if (live == 0 && !l->jv.ended) {
		struct errmsg e;

		/* recorded: its replay ends the watch here; the samples from
		 * now on carry no job CPUs (all cores are shown) */
		(void)record_job_ended(l->a->rec, l->r->prev->time, l->jv.note, &e);
		run_set_job_cpus(l->r, NULL);
	}
	/* A Slurm job's label says how long it has run. */
	snprintf(l->jv.label, sizeof l->jv.label, "%s", job_watch_label(l->a->job));
	l->jv.cpus = &l->jobcpus;
	l->jv.only = tui_job_only(l->tui) && live > 0;
	l->jv.ended = live == 0;
}

/* The replay's position for the header. */
static void
replay_status(struct live *l)
{
	struct source_pos sp;
	struct replay_view rv;

	if (l->a->src->seek == NULL)
		return;
	source_pos(l->a->src, &sp);
	memset(&rv, 0, sizeof rv);
	/* Intervals, as the recording counted them (-n 3 recorded 3): the
	 * one ending at sample k is the (k - 1)th. */
	rv.pos = sp.pos > 1 ? (unsigned long long)sp.pos - 1 : 0;
	rv.total = sp.total > 1 ? (unsigned long long)sp.total - 1 : 0;
	rv.total_known = sp.total_known;
	rv.at = sp.pos > 0 && l->r->prev != NULL ? l->r->prev->time - sp.t_first : 0.0;
	rv.length = sp.total_known ? sp.t_last - sp.t_first : -1.0;
	rv.speed = tui_speed(l->tui);
	rv.at_end = sp.at_end;
	header_replay_text(l->replay_pos, sizeof l->replay_pos, &rv);
}

/* The live view as the run's output: notes go to the status line, an
 * interval means there are figures to draw (the loop draws them). */
static int
live_interval(void *self, const struct run_step *st, struct errmsg *e)
{
	struct live *l = self;

	(void)e;
	if (st->note[0] != '\0')
		tui_note(l->tui, st->note);
	else if (st->events[0] != '\0')
		tui_note(l->tui, st->events);
	l->have = true;
	l->fresh = false;
	return 0;
}

static int
live_event(void *self, const struct run_event *ev, struct errmsg *e)
{
	struct live *l = self;

	(void)e;
	switch (ev->kind) {
	case RUN_EV_NOTE:
		tui_note(l->tui, ev->text);
		break;
	case RUN_EV_END:
		/* Where the trace is cut off, the reader's words (batch mode
		 * prints them on standard error). */
		if (ev->text != NULL && ev->text[0] != '\0') {
			char note[sizeof ((struct errmsg *)0)->text + 64];

			snprintf(note, sizeof note, _("end of replay: %s; q quits"), ev->text);
			tui_note(l->tui, note);
		} else {
			tui_note(l->tui, _("end of replay: q quits"));
		}
		pacer_set_ended(&l->pacer, true);
		break;
	case RUN_EV_FIRST:
		if (ev->jumped) {
			/* Nothing from before the jump is shown. */
			tui_note(l->tui, "");
			l->have = true;
			l->fresh = true;
		}
		break;
	}
	return 0;
}

static int
live_close(void *self, struct errmsg *e)
{
	struct live *l = self;

	(void)e;
	if (l->tui != NULL) {
		tui_free(l->tui);
		signals_set_screen(NULL);
		signals_hold_winch(false);
		l->tui = NULL;
	}
	return 0;
}

static const struct output_ops output_live = {
	.name = "live",
	.phase = PHASE_COMPUTE,   /* it only takes notes; the loop draws */
	.interval = live_interval,
	.event = live_event,
	.close = live_close,
};

/* Settings: the defaults, then the file, then -d. A file that does not
 * load leaves the defaults and a note for the status line. */
static void
load_settings(struct live *l, char *note, size_t len)
{
	struct ui_settings *s = &l->set;
	char path[4096];
	struct errmsg e;

	ui_settings_default(s);
	note[0] = '\0';
	if (ui_config_path(path, sizeof path, &e) == 0 && ui_config_load(path, s, &e) < 0)
		snprintf(note, len, "%s", e.text);
	if (l->a->o->have_delay)
		s->delay = l->a->o->delay;
}

/* The screen opens as soon as the machine and the layout are known, and
 * shows its first frame at once: the header, the views' layout, and every
 * core marked "no previous sample yet". Calibration and the first interval
 * follow; a user on a slow link sees httop at work instead of a blank
 * terminal for the first ~0.4 s. */
static int
open_screen(struct live *l)
{
	char note[512];

	load_settings(l, note, sizeof note);
	l->tui = tui_open(&l->set, &l->a->e);
	if (l->tui == NULL)
		return -1;
	signals_set_screen(screen_emergency_restore);
	signals_hold_winch(true);
	if (note[0] != '\0')
		tui_note(l->tui, note);
	interval_init(&l->first, l->a->src->m);
	interval_first(&l->first, &l->a->src->m->topo);
	/* -d, or the settings file's delay when -d is not given */
	app_pacer_init(l->a, &l->pacer, APP_PACE_SCREEN, l->set.delay);
	draw(l);
	return 0;
}

/* [ and ]: read the first sample again, or the first of the last two;
 * the step that follows at once shows the first or the last interval.
 * Nothing from before the jump is kept. A jump that cannot be made (the
 * file is gone) leaves the replay as it was, with a note, and returns 1;
 * -1 when the run must end. */
static int
jump(struct live *l, int dir)
{
	struct source *src = l->a->src;
	struct errmsg e;
	int rc;

	rc = dir < 0 ? source_rewind(src, &e) : source_seek_end(src, &e);
	if (rc != 0) {
		tui_note(l->tui, e.text);
		return 1;
	}
	/* a recorded job's end is met again going forward */
	l->jv.ended = false;
	l->jv.note[0] = '\0';
	rc = run_first(l->r, dir < 0 ? _("the replay jumped to its start") :
	    _("the replay jumped to its end"), true, 0.0);
	if (rc == RUN_END)
		return errmsg_set(&l->r->e, _("%s: the trace has no samples any more"), src->detail);
	if (rc != RUN_OK)
		return -1;
	pacer_restart(&l->pacer, clock_mono(), l->r->prev->time);
	/* The interval after the sample just read (the first or the last) is
	 * read at once: a jump lands on an interval, never on a sample alone
	 * with no figures. */
	pacer_add_steps(&l->pacer, 1);
	return 0;
}

/* p pressed: pause, or resume. A live run starts afresh from a new sample,
 * so no interval spans the pause; a replay goes on where it was. */
static int
toggle_pause(struct live *l)
{
	struct pacer *p = &l->pacer;
	double now = clock_mono();

	if (p->paused && !l->a->src->recorded &&
	    run_first(l->r, _("resumed after a pause"), false, now - p->last) != RUN_OK)
		return -1;
	pacer_set_pause(p, !p->paused, now);
	return 0;
}

/* Every key that came. Returns 1 to quit, -1 when the run must end with
 * the reason in r->e, else 0 (the frame is drawn again). */
static int
keys(struct live *l)
{
	enum tui_cmd cmd = tui_input(l->tui);
	struct tui_replay_req req;
	bool jumped = false;
	int rc;

	if (cmd == TUI_QUIT)
		return 1;
	if (cmd == TUI_NONE)
		return 0;
	if (tui_paused(l->tui) != l->pacer.paused && toggle_pause(l) != 0)
		return -1;
	if (l->a->src->seek != NULL && tui_replay_take(l->tui, &req)) {
		rc = req.jump != 0 ? jump(l, req.jump) : 0;
		if (rc < 0)
			return -1;
		jumped = req.jump != 0 && rc == 0;
		pacer_add_steps(&l->pacer, req.steps);
	}
	if (cmd == TUI_DELAY)
		pacer_set_delay(&l->pacer, l->set.delay, clock_mono());
	if (cmd == TUI_SPEED)
		pacer_set_speed(&l->pacer, tui_speed(l->tui), clock_mono());
	if (cmd == TUI_JOB)
		update_job(l);
	replay_status(l);
	/* Before the first interval the first frame stays: a view chosen now
	 * shows with its figures. After a jump the interval it landed on is
	 * read at once and drawn then. */
	if (l->have && !jumped)
		draw(l);
	return 0;
}

/* One refresh, when the pacer says it is due. Returns 0, or -1 with the
 * reason in r->e. */
static int
step(struct live *l)
{
	struct pacer *p = &l->pacer;
	struct phases *ph = &l->a->ph;
	int rc;

	/* A live job's CPUs before the read (the sample carries them, as in
	 * batch mode); a recorded job's come with the sample. */
	if (l->a->job != NULL)
		update_job(l);
	rc = run_step(l->r, pacer_take(p, clock_mono()));
	if (rc < 0)
		return -1;
	if (rc == RUN_OK)
		pacer_stepped(p, clock_mono(), l->r->prev->time);
	/* The pacer looked ahead: nothing after this interval. */
	if (rc == RUN_OK && p->ended && run_event(l->r, RUN_EV_END,
	    p->end_note[0] != '\0' ? p->end_note : NULL) != 0)
		return -1;
	replay_status(l);
	if (l->a->job == NULL)
		update_job(l);
	phases_mark(ph);
	draw(l);
	phases_add(ph, PHASE_DRAW);
	return 0;
}

/* The loop; returns the exit status, or -1 with the reason in r->e. */
static int
loop(struct live *l)
{
	const struct options *o = l->a->o;
	struct evwait w = { .in_fd = -1, .out_fd = -1 };
	unsigned wake;
	long long n = 0;
	int rc;

	if ((rc = run_first(l->r, NULL, false, 0.0)) != RUN_OK)
		return rc == RUN_END ? EXIT_OK : -1;
	l->hist = history_new(l->a->src->m, l->a->src->plan, l->set.avg_seconds, PACER_DELAY_MIN);
	/* Added now, before the first interval: it had nothing to see yet. */
	run_add_output(l->r, &output_history, l->hist);
	if (l->r->job.src != NULL) {
		l->jhist = history_new(l->r->m, l->r->job.src->plan, l->set.avg_seconds,
		    PACER_DELAY_MIN);
		run_set_job_history(l->r, l->jhist);
	}
	interval_init(&l->wiv, l->a->src->m);
	if (l->a->job != NULL) {
		snprintf(l->jv.label, sizeof l->jv.label, "%s", job_watch_label(l->a->job));
		l->jv.active = true;
		tui_set_job(l->tui, true);
		update_job(l);
	} else if (l->a->src->recorded_job != NULL) {
		app_recorded_job_label(l->a->src->recorded_job, l->jv.label, sizeof l->jv.label);
		l->jv.active = true;
		tui_set_job(l->tui, true);
		update_job(l);
	}
	if (l->a->src->seek != NULL) {
		tui_set_replay(l->tui, true, !l->pacer.by_delay);
		l->scanning = true;
	}
	pacer_start(&l->pacer, clock_mono(), FIRST_WAIT, l->r->prev->time);
	replay_status(l);
	/* Keys and resizes that came while the screen was up but httop was
	 * calibrating: curses holds them, so look before the first wait. */
	wake = WAKE_INPUT;
	for (;;) {
		if (wake & WAKE_SIGNAL)
			break;
		if (wake & (WAKE_INPUT | WAKE_OTHER)) {
			if ((rc = keys(l)) != 0)
				return rc > 0 ? EXIT_OK : -1;
		} else if (l->scanning) {
			struct errmsg se;

			/* A malformed line stops the count; the replay stops there too. */
			if (source_scan(l->a->src, REPLAY_SCAN_CHUNK, &se) != 0) {
				l->scanning = false;
				replay_status(l);
				if (l->have)
					draw(l);
			}
		}
		if (pacer_due(&l->pacer, clock_mono())) {
			if (step(l) != 0)
				return -1;
			if (o->iterations > 0 && ++n >= o->iterations) {
				/* As top -n: the last frame stays on the screen. */
				tui_keep_frame(l->tui);
				break;
			}
		}
		w.in_fd = tui_fd(l->tui);
		w.out_fd = STDOUT_FILENO;
		/* A replay counts its samples while nothing else is to be done. */
		w.deadline = l->scanning ? -INFINITY : pacer_deadline(&l->pacer);
		wake = evloop_wait(&w);
	}
	return signals_exit_status(signals_caught());
}

int
app_run_tui(struct app *a)
{
	struct run_config cfg;
	struct run r;
	struct live l;
	int status, rc;

	memset(&l, 0, sizeof l);
	l.a = a;
	l.r = &r;
	app_run_config(a, &cfg);
	run_init(&r, a->src, &a->plan, &cfg);
	app_job_record(a, &r);
	app_add_common_outputs(a, &r);
	if (a->job != NULL && a->rec != NULL)   /* the recording keeps them */
		run_set_job_cpus(&r, &l.jobcpus);
	if (open_screen(&l) != 0) {
		app_report(&a->e);
		return run_finish(&r, EXIT_FAIL, app_report);
	}
	run_add_output(&r, &output_live, &l);
	/* From here an ending signal ends the loop, which restores. */
	signals_defer();
	rc = run_prepare(&r);
	if (rc == RUN_OK)
		status = loop(&l);
	else
		status = rc == RUN_INTERRUPTED ? signals_exit_status(signals_caught()) : -1;
	/* The terminal back first, so that the message is seen. */
	live_close(&l, NULL);
	if (status < 0) {
		app_report(&r.e);
		status = EXIT_FAIL;
	}
	status = run_finish(&r, status, app_report);
	if (l.hist != NULL)
		history_free(l.hist);
	if (l.jhist != NULL)
		history_free(l.jhist);
	interval_free(&l.wiv);
	interval_free(&l.first);
	cpulist_free(&l.jobcpus);
	return status;
}
