/* pacer.c: the deadlines of a run (pacer.h). */
#include "config.h"
#include "run/pacer.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void
pacer_init(struct pacer *p, enum pace_mode mode, double delay, struct source *src,
    bool by_delay)
{
	memset(p, 0, sizeof *p);
	p->mode = mode;
	p->delay = delay;
	p->src = src;
	p->by_delay = by_delay;
}

/* PACE_RECORDED: how long the sample recorded at `t` stays on screen: the
 * next interval's recorded length, or the delay, over the speed. Notes
 * the end when there is no next sample; an error waits for the read,
 * which reports it. */
static double
recorded_pace(struct pacer *p, double t)
{
	struct errmsg e = { { 0 } };
	double next, dt = -1.0;
	int rc = source_peek_time(p->src, &next, &e);

	if (rc > 0) {
		p->ended = true;
		/* a trace cut off: the reader says where, and what it replayed */
		snprintf(p->end_note, sizeof p->end_note, "%s", e.text);
	}
	if (rc == 0 && !p->by_delay)
		dt = next - t;
	if (!(dt > 0.0) || !isfinite(dt))
		dt = p->delay;
	return ldexp(dt, -p->speed);
}

static void
schedule(struct pacer *p)
{
	if (p->mode == PACE_RECORDED)
		p->next = p->last + recorded_pace(p, p->shown);
	else
		p->next = p->last + p->delay;
}

void
pacer_set_align(struct pacer *p, double wall_off)
{
	p->align = p->mode == PACE_WALL;
	p->wall_off = wall_off;
}

/* --align: the clock_mono() time of the first wall-clock multiple of the
 * delay at least half a delay after `now`. */
static double
grid_next(const struct pacer *p, double now)
{
	double w = now + p->wall_off + p->delay / 2.0;

	return ceil(w / p->delay) * p->delay - p->wall_off;
}

void
pacer_start(struct pacer *p, double now, double first, double t)
{
	p->last = now;
	p->shown = t;
	schedule(p);
	if (p->next > now + first)
		p->next = now + first;
	if (p->align)
		p->next = grid_next(p, now);
}

double
pacer_deadline(const struct pacer *p)
{
	switch (p->mode) {
	case PACE_VIRTUAL:
	case PACE_FREE:
		return -INFINITY;
	case PACE_RECORDED:
		if (p->steps > 0)
			return -INFINITY;
		return p->paused || p->ended ? INFINITY : p->next;
	case PACE_WALL:
		break;
	}
	return p->paused ? INFINITY : p->next;
}

bool
pacer_due(const struct pacer *p, double now)
{
	return now >= pacer_deadline(p);
}

double
pacer_take(struct pacer *p, double now)
{
	double elapsed = p->mode == PACE_VIRTUAL || p->fixed_step ? p->delay : now - p->last;

	if (p->steps > 0)
		p->steps--;
	p->last = now;
	return elapsed > 0 ? elapsed : 0;
}

void
pacer_stepped(struct pacer *p, double now, double t)
{
	p->shown = t;
	switch (p->mode) {
	case PACE_RECORDED:
		p->last = now;
		schedule(p);
		break;
	case PACE_WALL:
		/* Fixed deadlines; after a refresh that took longer than the
		 * delay, the next comes a full delay after now. Aligned: the
		 * next grid point, skipping those the refresh overran. */
		if (p->align) {
			p->next = grid_next(p, now);
			break;
		}
		p->next += p->delay;
		if (p->next < now)
			p->next = now + p->delay;
		break;
	case PACE_VIRTUAL:
	case PACE_FREE:
		break;
	}
}

void
pacer_restart(struct pacer *p, double now, double t)
{
	p->last = now;
	p->shown = t;
	p->ended = false;
	p->end_note[0] = '\0';
	schedule(p);
}

void
pacer_set_delay(struct pacer *p, double delay, double now)
{
	(void)now;
	p->delay = delay;
	schedule(p);
}

void
pacer_set_pause(struct pacer *p, bool paused, double now)
{
	p->paused = paused;
	if (!paused) {
		/* Resumed: the next interval is a whole one from now. */
		p->last = now;
		schedule(p);
	}
}

void
pacer_set_speed(struct pacer *p, int speed, double now)
{
	(void)now;
	if (speed < PACER_SPEED_MIN)
		speed = PACER_SPEED_MIN;
	if (speed > PACER_SPEED_MAX)
		speed = PACER_SPEED_MAX;
	p->speed = speed;
	schedule(p);
}

void
pacer_add_steps(struct pacer *p, unsigned n)
{
	/* . at the end: nothing more to show. */
	if (!p->ended)
		p->steps += n;
}

void
pacer_set_ended(struct pacer *p, bool ended)
{
	p->ended = ended;
	if (ended)
		p->steps = 0;
}

double
pacer_interval(const struct pacer *p, double dt)
{
	if (p->mode == PACE_RECORDED && !p->by_delay && dt > 0.0)
		return dt;
	return p->delay;
}
