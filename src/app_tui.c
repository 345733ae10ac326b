/* app_tui.c: the live view, without -b on a terminal: the screen opened
 * early with a first frame, the loop that waits for the next refresh or a
 * key, a replay's controls (pace, jumps, position) and job watching. The
 * terminal is given back by app_close_screen() before any message, and
 * once more by app_end() in app.c on every way out. */
#include "config.h"
#include "app_priv.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "conflict.h"
#include "metrics/history.h"
#include "out/textfile.h"
#include "record.h"
#include "signals.h"
#include "source/sources.h"
#include "ui/header.h"
#include "ui/screen.h"
#include "ui/settings.h"
#include "ui/tui.h"
#include "util/i18n.h"
#include "watch/job.h"

/* The screen: the first frame comes this soon whatever the interval, so
 * httop -d 10 does not start with ten seconds of nothing. */
#define FIRST_WAIT 0.25
/* Samples a replay counts per pass of the loop while it is idle: a few
 * milliseconds of parsing on a large machine, so keys stay prompt. */
#define REPLAY_SCAN_CHUNK 32

/* The figures the screen shows: the last interval, or the window's. */
static const struct interval *
figures(struct app *a, const struct ui_settings *s, double *covered)
{
	double c;

	*covered = a->iv.dt;
	if (s->window == AVG_LAST)
		return &a->iv;
	c = history_compute(a->hist, &a->mc, s->window, s->avg_seconds, &a->wiv);
	if (!(c > 0.0))
		return &a->iv;
	*covered = c;
	return &a->wiv;
}

static void
draw(struct app *a, const struct ui_settings *s, bool paused)
{
	struct ui_frame f;
	double covered;

	memset(&f, 0, sizeof f);
	f.m = a->src->m;
	f.plan = a->src->plan;
	f.source_name = a->src->name;
	f.iv = figures(a, s, &covered);
	f.window = s->window;
	f.window_seconds = covered;
	f.window_length = s->avg_seconds;
	f.delay = s->delay;
	/* A replay paced by the recording: the interval is the recorded one. */
	if (a->o->source == SRC_REPLAY && !a->o->have_delay && a->iv.dt > 0.0)
		f.delay = a->iv.dt;
	f.paused = paused;
	f.job = a->job != NULL ? &a->jv : NULL;
	f.replay_pos = a->o->source == SRC_REPLAY ? a->replay_pos : NULL;
	f.layout = &a->layout;
	tui_draw(a->tui, &f);
}

/* Re-read the job's CPUs; with nothing left to watch, all cores. */
static void
update_job(struct app *a)
{
	const struct topology *t = &a->src->m->topo;
	int live;

	if (a->job == NULL)
		return;
	live = job_watch_update(a->job, t->max_cpu, &a->jobcpus, a->jv.note, sizeof a->jv.note);
	a->jv.cpus = &a->jobcpus;
	a->jv.only = tui_job_only(a->tui) && live > 0;
	if (live == 0) {
		size_t len = strlen(a->jv.note);

		snprintf(a->jv.note + len, sizeof a->jv.note - len, "%s%s", len ? "; " : "",
		    _("nothing left to watch: all cores shown"));
	}
}

/* Settings: the defaults, then the file, then -d. A file that does not
 * load leaves the defaults and a note for the status line. */
static void
load_settings(struct app *a, struct ui_settings *s, char *note, size_t len)
{
	char path[4096];
	struct errmsg e;

	ui_settings_default(s);
	note[0] = '\0';
	if (ui_config_path(path, sizeof path, &e) == 0 && ui_config_load(path, s, &e) < 0)
		snprintf(note, len, "%s", e.text);
	if (a->o->have_delay)
		s->delay = a->o->delay;
}

/* The terminal back as it was, then the message (if any), so it is seen. */
int
app_close_screen(struct app *a, const struct errmsg *e, int status)
{
	if (a->tui != NULL) {
		tui_close(a->tui);
		signals_set_screen(NULL);
	}
	if (e != NULL)
		app_report(e);
	return status;
}

/* An interval with every core and thread "no previous sample yet": the
 * first frame, and a replay's right after a jump to its start. */
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

/* The screen opens as soon as the machine and the layout are known, and
 * shows its first frame at once: the header, the views' layout, and every
 * core marked "no previous sample yet". Calibration and the first interval
 * follow; a user on a slow link sees httop at work instead of a blank
 * terminal for the first ~0.4 s. */
int
app_open_screen(struct app *a)
{
	struct interval first;
	struct ui_frame f;

	load_settings(a, &a->set, a->set_note, sizeof a->set_note);
	a->tui = tui_open(&a->set, &a->e);
	if (a->tui == NULL)
		return -1;
	signals_set_screen(screen_emergency_restore);
	if (a->set_note[0] != '\0')
		tui_note(a->tui, a->set_note);
	interval_init(&first, a->src->m);
	interval_first(&first, &a->src->m->topo);
	memset(&f, 0, sizeof f);
	f.m = a->src->m;
	f.plan = a->src->plan != NULL ? a->src->plan : &a->plan;
	f.source_name = a->src->name;
	f.iv = &first;
	f.window = AVG_LAST;
	f.delay = a->set.delay;
	f.layout = &a->layout;
	tui_draw(a->tui, &f);
	interval_free(&first);
	return 0;
}

/* The replay's position for the header, after the sample `cur`. */
static void
replay_status(struct app *a, const struct sample *cur)
{
	struct replay_info ri;
	struct replay_view rv;

	replay_source_info(a->src, &ri);
	memset(&rv, 0, sizeof rv);
	rv.pos = (unsigned long long)ri.pos;
	rv.total = (unsigned long long)ri.total;
	rv.total_known = ri.total_known;
	rv.at = ri.pos > 0 ? cur->time - ri.t_first : 0.0;
	rv.length = ri.total_known ? ri.t_last - ri.t_first : -1.0;
	rv.speed = tui_speed(a->tui);
	rv.at_end = ri.at_end;
	header_replay_text(a->replay_pos, sizeof a->replay_pos, &rv);
}

/* How long a replay shows the sample `cur` before the next one: the next
 * interval's recorded length over the speed, or the interval (-d, + -)
 * over the speed when -d was given or the trace has no times. Sets
 * *ended, with a note, when there is no next sample. See httop(1), REPLAY. */
static double
replay_pace(struct app *a, const struct sample *cur, bool *ended)
{
	struct errmsg e;
	double next, dt = -1.0;
	int rc = replay_source_peek_time(a->src, &next, &e);

	/* An error waits for the read, which reports it. */
	if (rc > 0) {
		*ended = true;
		tui_note(a->tui, _("end of replay: q quits"));
	}
	if (rc == 0 && !a->o->have_delay)
		dt = next - cur->time;
	if (!(dt > 0.0) || !isfinite(dt))
		dt = a->set.delay;
	return ldexp(dt, -tui_speed(a->tui));
}

/* [ and ]: read the first sample again, or the first of the last two.
 * Nothing from before the jump is kept: the averaging history starts
 * afresh and the next interval is computed from two samples after the
 * jump. A jump that cannot be made (the file is gone) leaves the replay
 * as it was, with a note, and returns 1; -1 when the run must end. */
static int
replay_jump(struct app *a, int dir, struct sample *prev)
{
	struct errmsg e;
	int rc;

	rc = dir < 0 ? replay_source_rewind(a->src, &e) : replay_source_seek_end(a->src, &e);
	if (rc != 0) {
		tui_note(a->tui, e.text);
		return 1;
	}
	tui_note(a->tui, "");
	if ((rc = source_read(a->src, prev, &a->e)) != 0) {
		if (rc > 0)
			errmsg_set(&a->e, _("%s: the trace has no samples any more"), a->src->detail);
		return -1;
	}
	if (*app_replay_events(a) != '\0')
		tui_note(a->tui, app_replay_events(a));
	history_free(a->hist);
	a->hist = history_new(a->src->m, a->src->plan, a->set.avg_seconds, UI_DELAY_MIN);
	if (a->conflict != NULL) {
		conflict_free(a->conflict);
		a->conflict = conflict_new(a->o->on_conflict);
	}
	if (a->rec != NULL && record_first(a->rec, prev, dir < 0 ?
	    _("the replay jumped to its start") : _("the replay jumped to its end"), &a->e) != 0)
		return -1;
	interval_free(&a->iv);
	interval_init(&a->iv, a->src->m);
	interval_first(&a->iv, &a->src->m->topo);
	return 0;
}

/* Without -b on a terminal: wait for the next refresh or a key; keys are
 * handled at once (the frame is drawn again from the same figures), the
 * counters are read only when the interval is over. Returns the exit
 * status; errors are printed after the screen is closed. */
int
app_run_tui(struct app *a)
{
	struct sample *prev = &a->s[0], *cur = &a->s[1], *tmp;
	struct ui_settings *s = &a->set;
	char cnote[sizeof a->e.text];
	double deadline, last_read;
	long long n = 0;
	bool paused = false, ended = false, have = false, failed = false;
	bool replay = a->o->source == SRC_REPLAY, scanning = replay;
	unsigned steps = 0;         /* replay: intervals to show now (. n ]) */
	int rc, sig = 0;

	rc = source_read(a->src, prev, &a->e);
	if (rc > 0)
		return app_close_screen(a, NULL, EXIT_OK);
	if (rc < 0 || app_check_first_read(a, prev) != 0)
		return app_close_screen(a, &a->e, EXIT_FAIL);
	if (a->rec != NULL && record_first(a->rec, prev, NULL, &a->e) != 0)
		return app_close_screen(a, &a->e, EXIT_FAIL);
	if (*app_replay_events(a) != '\0')
		tui_note(a->tui, app_replay_events(a));
	a->hist = history_new(a->src->m, a->src->plan, s->avg_seconds, UI_DELAY_MIN);
	interval_init(&a->wiv, a->src->m);
	a->have_wiv = true;
	if (a->job != NULL) {
		snprintf(a->jv.label, sizeof a->jv.label, "%s", job_watch_label(a->job));
		a->jv.active = true;
		update_job(a);
	}
	if (replay) {
		tui_set_replay(a->tui, true);
		replay_status(a, prev);
	}
	last_read = app_now();
	deadline = last_read + (s->delay < FIRST_WAIT ? s->delay : FIRST_WAIT);
	for (bool startup = true;;) {
		double left = -1.0;
		bool ready;

		if ((!paused && !ended) || steps > 0) {
			left = steps > 0 ? 0 : deadline - app_now();
			if (left < 0)
				left = 0;
		}
		/* A replay counts its samples while nothing else is to be done. */
		if (scanning)
			left = 0;
		if (startup) {
			/* Keys and resizes that came while the screen was up but
			 * httop was calibrating: curses holds them, and a SIGWINCH
			 * then interrupted no wait, so look before the first one. */
			startup = false;
			ready = true;
			if ((sig = signals_caught()) != 0)
				break;
		} else if ((sig = signals_wait_fd(left, tui_fd(a->tui), &ready)) != 0)
			break;
		if (scanning && !ready) {
			struct errmsg se;

			/* A malformed line stops the count; the replay stops there too. */
			if (replay_source_scan(a->src, REPLAY_SCAN_CHUNK, &se) != 0) {
				scanning = false;
				replay_status(a, prev);
				if (have)
					draw(a, s, paused);
			}
		}
		if (ready) {
			enum tui_cmd cmd = tui_input(a->tui);
			struct tui_replay_req req;

			if (cmd == TUI_QUIT)
				break;
			if (cmd == TUI_NONE)
				continue;
			if (tui_paused(a->tui) != paused) {
				paused = !paused;
				if (!paused && !replay) {
					/* Start afresh, so no interval spans the pause. */
					source_advance(a->src, app_now() - last_read);
					rc = source_read(a->src, prev, &a->e);
					if (rc < 0 || (a->rec != NULL && record_first(a->rec, prev,
					    _("resumed after a pause"), &a->e) != 0)) {
						failed = true;
						break;
					}
				}
				last_read = app_now();
				deadline = last_read + (replay ? replay_pace(a, prev, &ended) : s->delay);
			}
			if (replay && tui_replay_take(a->tui, &req)) {
				rc = req.jump != 0 ? replay_jump(a, req.jump, prev) : 1;
				if (rc < 0) {
					failed = true;
					break;
				}
				if (rc == 0) {
					/* At the end the last interval is read at once. */
					ended = false;
					have = true;
					steps = req.jump > 0 ? 1 : 0;
					last_read = app_now();
				}
				steps += req.steps;
			}
			if (cmd == TUI_DELAY || cmd == TUI_SPEED || cmd == TUI_JUMP)
				deadline = last_read + (replay ? replay_pace(a, prev, &ended) : s->delay);
			if (cmd == TUI_JOB && a->job != NULL)
				update_job(a);
			if (replay)
				replay_status(a, prev);
			if (have)
				draw(a, s, paused);
			continue;
		}
		if (steps == 0 && (paused || ended || app_now() < deadline))
			continue;
		if (ended) {
			/* . at the end: nothing more to show. */
			steps = 0;
			continue;
		}

		source_advance(a->src, app_now() - last_read);
		last_read = app_now();
		phases_mark(&a->ph);
		rc = source_read(a->src, cur, &a->e);
		phases_add(&a->ph, PHASE_READ);
		if (rc > 0) {
			/* The trace is over: keep the last frame until q. */
			ended = true;
			tui_note(a->tui, _("end of replay: q quits"));
			if (have)
				draw(a, s, paused);
			continue;
		}
		if (rc < 0) {
			failed = true;
			break;
		}
		metrics_compute(&a->mc, prev, cur, &a->iv);
		phases_add(&a->ph, PHASE_COMPUTE);
		if (app_conflict_check(a, cnote, sizeof cnote) != 0) {
			if (a->rec != NULL)
				(void)record_interval(a->rec, cur, &a->iv, a->e.text, NULL);
			failed = true;
			break;
		}
		if (a->rec != NULL && record_interval(a->rec, cur, &a->iv, cnote, &a->e) != 0) {
			failed = true;
			break;
		}
		if (cnote[0] != '\0')
			tui_note(a->tui, cnote);
		else if (*app_replay_events(a) != '\0')
			tui_note(a->tui, app_replay_events(a));
		phases_mark(&a->ph);
		history_add(a->hist, prev, cur, &a->iv);
		phases_add(&a->ph, PHASE_COMPUTE);
		if (a->tf != NULL && textfile_write(a->tf, &a->iv, &a->e) != 0) {
			failed = true;
			break;
		}
		tmp = prev;
		prev = cur;
		cur = tmp;
		have = true;
		n++;
		if (replay) {
			/* Paced by the next interval's recorded length. */
			if (steps > 0)
				steps--;
			deadline = last_read + replay_pace(a, prev, &ended);
			replay_status(a, prev);
		}
		update_job(a);
		phases_mark(&a->ph);
		draw(a, s, paused);
		phases_add(&a->ph, PHASE_DRAW);
		if (!replay) {
			deadline += s->delay;
			if (deadline < app_now())
				deadline = app_now() + s->delay;
		}
		if (a->o->iterations > 0 && n >= a->o->iterations)
			break;
	}
	/* The terminal first, so the message below is seen. */
	if (failed)
		return app_close_screen(a, &a->e, EXIT_FAIL);
	return app_close_screen(a, NULL, signals_exit_status(sig));
}
