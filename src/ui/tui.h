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
};

/* Opens the screen. `s` is the caller's and is updated by keys. */
struct tui *tui_open(struct ui_settings *s, struct errmsg *e);
/* The descriptor to wait on for keys (and resize). */
int tui_fd(const struct tui *t);
/* Handle every key waiting; returns the most important command. */
enum tui_cmd tui_input(struct tui *t);
bool tui_paused(const struct tui *t);
void tui_draw(struct tui *t, const struct ui_frame *f);
/* j's state: show only the watched job's cores (true at start). */
bool tui_job_only(const struct tui *t);
/* A note for the status line until replaced ("" clears it): config file
 * errors, "end of replay". */
void tui_note(struct tui *t, const char *msg);
/* Restores the terminal; idempotent. */
void tui_close(struct tui *t);
/* tui_close, then free it. */
void tui_free(struct tui *t);

#endif
