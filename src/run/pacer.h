/* pacer.h: when the next refresh happens. The front ends ask it for the
 * deadline to wait for, tell it when they step, and hand it what the
 * user asked (pause, interval, replay speed and steps); neither computes a
 * deadline itself.
 *
 *   PACE_WALL      a live source: a step every `delay` seconds of real
 *                  time on fixed deadlines, so intervals do not drift; a
 *                  refresh that took longer than the delay skips ahead.
 *   PACE_VIRTUAL   the test clock (HTTOP_CLOCK=virtual) on a simulator in
 *                  batch mode: no waiting, each step is `delay` seconds
 *                  later. (The live view with the test clock keeps
 *                  PACE_WALL's deadlines but steps the simulator by
 *                  exactly `delay`: `fixed_step`.)
 *   PACE_FREE      a replay in batch mode: as fast as it reads.
 *   PACE_RECORDED  a replay in the live view: each interval is shown for
 *                  its recorded length over the speed (or for `delay`
 *                  over the speed when -d was given or the data has no
 *                  times), with pause, single steps and jumps. */
#ifndef HTTOP_PACER_H
#define HTTOP_PACER_H

#include <stdbool.h>

#include "source/source.h"

enum pace_mode { PACE_WALL, PACE_VIRTUAL, PACE_FREE, PACE_RECORDED };

/* The interval between refreshes, seconds (-d, +/-, the settings file):
 * below the minimum the reads' own cost and skew dominate. */
#define PACER_DELAY_MIN 0.05
#define PACER_DELAY_MAX 86400.0

/* Replay speed, log2 of the factor over the recorded pace. */
#define PACER_SPEED_MIN (-2)  /* x1/4 */
#define PACER_SPEED_MAX 6     /* x64 */

struct pacer {
	enum pace_mode mode;
	struct source *src;        /* PACE_RECORDED: asked for the next sample's time */
	double delay;              /* seconds between steps (PACE_RECORDED: see above) */
	bool by_delay;             /* PACE_RECORDED: -d given, the recorded times are not used */
	bool fixed_step;           /* a step is always `delay` seconds of the source's time */
	int speed;                 /* PACE_RECORDED */
	double next;               /* clock_mono() deadline of the next step */
	double last;               /* when the last sample was read */
	double shown;              /* PACE_RECORDED: recorded time of the sample shown last */
	bool paused;
	bool ended;                /* PACE_RECORDED: the data has no next sample */
	char end_note[512];        /* ... and why, where the data does not simply end
				    * (a trace cut off inside a sample); "" */
	unsigned steps;            /* PACE_RECORDED: steps to take now (. n ]) */
	/* PACE_WALL with --align: each step when the wall clock is at a
	 * multiple of `delay`; wall_off is the wall clock less clock_mono(). */
	bool align;
	double wall_off;
};

void pacer_init(struct pacer *p, enum pace_mode mode, double delay, struct source *src,
    bool by_delay);
/* --align (PACE_WALL only): every step at a wall-clock multiple of the
 * delay (..., 12:00:01.0, 12:00:02.0 for -d 1) at least half a delay
 * after the step before, so that every node of a job samples at the same
 * instants (their clocks synchronised) and its intervals are the same
 * windows everywhere. `wall_off`: clock_wall() - clock_mono() now (both
 * advance alike), less the source's cut_lag: a source whose readings end
 * behind the moment they are read (sched) is read that much later. */
void pacer_set_align(struct pacer *p, double wall_off);
/* The first sample was read at `now` (recorded time `t` for a replay);
 * the first step comes `first` seconds later (the live view shows its
 * first figures sooner than a long -d). */
void pacer_start(struct pacer *p, double now, double first, double t);
/* The clock_mono() time to wait for: INFINITY when nothing is due (paused,
 * or a replay at its end with no step asked), a past time to step at once. */
double pacer_deadline(const struct pacer *p);
/* Is a step due at `now`? */
bool pacer_due(const struct pacer *p, double now);
/* A step is taken at `now`: returns the seconds since the last one, for a
 * virtual-clock source to let pass (PACE_VIRTUAL: exactly `delay`). */
double pacer_take(struct pacer *p, double now);
/* The step was taken: the sample now shown was recorded at `t` (replay).
 * Schedules the next deadline. */
void pacer_stepped(struct pacer *p, double now, double t);
/* A fresh first sample after a pause or a jump, read at `now` (recorded
 * at `t`): intervals start from it. */
void pacer_restart(struct pacer *p, double now, double t);
void pacer_set_delay(struct pacer *p, double delay, double now);
void pacer_set_pause(struct pacer *p, bool paused, double now);
void pacer_set_speed(struct pacer *p, int speed, double now);
/* PACE_RECORDED: `n` more intervals to show at once (. n and the end jump). */
void pacer_add_steps(struct pacer *p, unsigned n);
/* The data ended: wait for keys only. */
void pacer_set_ended(struct pacer *p, bool ended);
/* The interval a screen should state: `delay`, or for a replay paced by
 * its recording, the recorded length `dt` of the interval shown. */
double pacer_interval(const struct pacer *p, double dt);

#endif
