/* tui.h: the curses front end as the refresh loop sees it: open, draw a
 * frame, handle the keys that arrived, close. It owns the screen and the
 * views; it never reads counters. */
#ifndef HTTOP_TUI_H
#define HTTOP_TUI_H

#include "ui/ui.h"

struct tui;

enum tui_cmd {
	TUI_NONE = 0,
	TUI_QUIT,          /* q */
	TUI_REDRAW,        /* the frame must be drawn again (view, window, resize...) */
	TUI_DELAY,         /* + or -: settings.delay changed */
	TUI_PAUSE,         /* p: settings paused state toggled (tui_paused) */
	TUI_WINDOW,        /* a: settings.window changed: recompute figures */
	TUI_JOB,           /* j: job's cores / all cores toggled (tui_job_only) */
	/* Replay controls, only after tui_set_replay(t, true); the loop takes
	 * what was asked with tui_replay_take. */
	TUI_STEP,          /* . or n: one interval forward (and paused) */
	TUI_SPEED,         /* > or <: tui_speed changed */
	TUI_JUMP,          /* [ or ]: to the start / to the last interval */
};

/* Replay speed, log2 of the factor over the recorded pace. */
#define TUI_SPEED_MIN (-2)  /* x1/4 */
#define TUI_SPEED_MAX 6     /* x64 */

/* What the replay keys asked since the last take, in order: a jump (the
 * last one pressed wins), then that many steps from there. */
struct tui_replay_req {
	int jump;          /* -1 to the start, +1 to the end, 0 none */
	unsigned steps;
};

/* Opens the screen. `s` is the caller's and is updated by keys. */
struct tui *tui_open(struct ui_settings *s, struct errmsg *e);
/* The descriptor to wait on for keys (and resize). */
int tui_fd(const struct tui *t);
/* Handle every key waiting; returns the most important command. */
enum tui_cmd tui_input(struct tui *t);
bool tui_paused(const struct tui *t);
void tui_draw(struct tui *t, const struct ui_frame *f);
/* Many nodes: the Nodes view is there (key 5) and shown first. */
void tui_set_nodes(struct tui *t, bool nodes);
/* The node views 1-4 show (Enter in the Nodes view chose it), or -1 while
 * the Nodes view is shown. */
int tui_node(const struct tui *t);
/* j's state: show only the watched job's cores (true at start). */
bool tui_job_only(const struct tui *t);
/* The replay keys work (a replay is on); elsewhere they say so. A replay
 * paced by its recording (no -d) has no interval for + and - to change:
 * they say so and point to the speed keys. */
void tui_set_replay(struct tui *t, bool replay, bool recorded_pace);
int tui_speed(const struct tui *t);
/* Fills *r with what was asked and forgets it; false if nothing was. */
bool tui_replay_take(struct tui *t, struct tui_replay_req *r);
/* A note for the status line until replaced ("" clears it): config file
 * errors, "end of replay". */
void tui_note(struct tui *t, const char *msg);
/* The next step of the + (dir > 0) and - keys' ladder from d: 0.05, 0.1,
 * 0.2, 0.5, 1, 2, 5 ... s, within the -d limits; d itself at a limit. */
double tui_delay_step(double d, int dir);
/* Restores the terminal; idempotent. */
void tui_close(struct tui *t);
/* A job is watched (--pid, --cgroup, --job, a command): j toggles its
 * cores; without one, j says so. */
void tui_set_job(struct tui *t, bool on);
/* At the close, the last frame stays on the terminal (-n N ran out). */
void tui_keep_frame(struct tui *t);
/* tui_close, then free it. */
void tui_free(struct tui *t);

#endif
