/* ui.h: the curses interface's shared pieces: the settings a user can
 * save, what a view is given to draw (figures only: a view never touches
 * a source or a register), and the view interface. */
#ifndef HTTOP_UI_H
#define HTTOP_UI_H

#include <stdbool.h>
#include <stddef.h>

#include "machine/dielayout.h"
#include "machine/machine.h"
#include "metrics/history.h"
#include "metrics/metrics.h"
#include "plan/plan.h"
#include "util/cpulist.h"
#include "util/errmsg.h"

enum view_id {
	VIEW_CORES = 0,
	VIEW_THREADS,
	VIEW_TOPOLOGY,
	VIEW_DIE,          /* the die grid: cores where they sit on the chip */
	VIEW_COUNT
};

enum colour_mode {
	COLOUR_AUTO = 0,   /* 256 if the terminal has them, else 8, none under NO_COLOR */
	COLOUR_ON,
	COLOUR_OFF,
};

/* What $XDG_CONFIG_HOME/httop/httoprc holds (ui/config.c). */
struct ui_settings {
	enum view_id view;
	double delay;           /* seconds */
	enum colour_mode colour;
	int sort_column;        /* threads view: column index; -1 = CPU number */
	bool sort_descending;
	enum avg_window window;
	double avg_seconds;     /* length of AVG_WINDOW */
};

void ui_settings_default(struct ui_settings *s);

/* Job watching (--pid, --cgroup): the CPUs the job may run on. */
struct job_view {
	bool active;            /* a job is being watched */
	bool only;              /* show only the job's cores (key j toggles) */
	const struct cpulist *cpus; /* union of the job's CPUs, re-read each refresh */
	char label[128];        /* "pid 1234, 5678" or the cgroup path */
	char note[256];         /* e.g. "pid 5678 has ended" ("" if none) */
};

/* Everything a view may look at for one frame. */
struct ui_frame {
	const struct machine *m;
	const struct plan *plan;
	const char *source_name;    /* "msr", "sim", "replay" */
	const struct interval *iv;  /* figures over the chosen window */
	enum avg_window window;
	double window_seconds;      /* what the window actually covers */
	double delay;
	bool paused;
	const struct job_view *job;
	const char *replay_pos;     /* "sample 17/58" for replays, else NULL */
	double window_length;       /* AVG_WINDOW: the length asked for, s */
	const struct die_layout *layout; /* where each core sits (die grid view) */
};

/* A rectangle of the screen a view draws into. */
struct ui_area {
	int top, left, rows, cols;
};

struct ui_ctx;   /* the screen: capabilities, colours, glyphs (ui/screen.h) */

struct view {
	enum view_id id;
	const char *name;           /* tab label, translatable: "Cores" */
	/* Draw the frame into the area. */
	void (*draw)(struct view *v, struct ui_ctx *u, const struct ui_area *a,
	    const struct ui_frame *f);
	/* A key for this view (scrolling, sort). True if it used the key. */
	bool (*key)(struct view *v, struct ui_ctx *u, int ch, struct ui_settings *s);
	int scroll;                 /* first row shown */
	void *priv;
};

/* Arrows, PgUp/PgDn (a page of `page` rows, less one), Home and End move
 * v->scroll within [0, maxscroll]; false for any other key. */
bool view_scroll_key(struct view *v, int ch, int page, int maxscroll);
void view_scroll_clamp(struct view *v, int maxscroll);

/* The views; each file defines one. */
extern struct view view_cores;
extern struct view view_threads;
extern struct view view_topology;
extern struct view view_die;

#endif
