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
#include "cluster/cluster.h"
#include "util/cpulist.h"
#include "util/errmsg.h"

enum view_id {
	VIEW_CORES = 0,
	VIEW_THREADS,
	VIEW_TOPOLOGY,
	VIEW_DIE,          /* the die grid: cores where they sit on the chip */
	VIEW_COUNT,        /* the views of one node */
	/* Many nodes only (httop --nodes): a row per node; Enter opens a
	 * node's views above. */
	VIEW_NODES = VIEW_COUNT,
	VIEW_ALL
};

/* The figure the die grid is coloured by (key f). */
enum die_fig { DF_BOTH = 0, DF_UTIL, DF_GHZ, DF_CPI, DF_COUNT };

enum colour_mode {
	COLOUR_AUTO = 0,   /* 256 if the terminal has them, else 8, none under NO_COLOR */
	COLOUR_ON,
	COLOUR_OFF,
};

/* What $XDG_CONFIG_HOME/httop/httoprc holds (ui/config.c): everything
 * the keys change that outlives a run. */
struct ui_settings {
	enum view_id view;
	double delay;           /* seconds */
	enum colour_mode colour;
	int sort_column;        /* threads view: column index; -1 = CPU number */
	bool sort_descending;
	enum avg_window window;
	double avg_seconds;     /* length of AVG_WINDOW */
	enum die_fig die_figure;    /* the die grid's figure */
};

void ui_settings_default(struct ui_settings *s);

/* Job watching (--pid, --cgroup): the CPUs the job may run on. */
struct job_view {
	bool active;            /* a job is being watched */
	bool only;              /* show only the job's cores (key j toggles) */
	bool ended;             /* nothing left to watch: all cores shown */
	const struct cpulist *cpus; /* union of the job's CPUs, re-read each refresh */
	char label[128];        /* "pid 1234, 5678" or the cgroup path */
	char note[256];         /* e.g. "pid 5678 has ended" ("" if none) */
};

/* Everything a view may look at for one frame. */
struct ui_frame {
	const struct machine *m;
	const struct plan *plan;
	const char *source_name;    /* "msr", "sim", "replay" */
	const char *source_why;     /* --source auto: why each source before
	                             * it did not work (NULL: not auto, or
	                             * the first worked) */
	const struct interval *iv;  /* figures over the chosen window */
	enum avg_window window;
	double window_seconds;      /* what the window actually covers */
	double delay;
	bool paused;
	const struct job_view *job;
	const char *replay_pos;     /* "sample 17/58" for replays, else NULL */
	double window_length;       /* AVG_WINDOW: the length asked for, s */
	const struct die_layout *layout; /* where each core sits (die grid view) */
	/* Many nodes: the nodes and the job's last interval; `node` the node
	 * views 1-4 show (m, plan, iv, layout are its own), -1 in the Nodes
	 * view (m and iv are NULL there). NULL for one machine. */
	const struct cluster *cluster;
	int node;
	const char *nodes_label;    /* "c[001-016] via ssh" */
};

/* A rectangle of the screen a view draws into. */
struct ui_area {
	int top, left, rows, cols;
};

struct ui_ctx;   /* the screen: capabilities, colours, glyphs (ui/palette.h) */

/* A view: made by the front end with the settings its keys change, drawn
 * each frame into an area, given the keys and clicks the front end does
 * not take. Each view file defines one and its constructor; the view's
 * own state follows this header in its struct. */
struct view {
	enum view_id id;
	/* Draw the frame into the area. */
	void (*draw)(struct view *v, struct ui_ctx *u, const struct ui_area *a,
	    const struct ui_frame *f);
	/* A key for this view (scrolling, sort, figure). True if it used it. */
	bool (*key)(struct view *v, int ch);
	/* A click at (y, x) of the area last drawn; true if it used it. NULL
	 * when nothing in the view is clickable. */
	bool (*click)(struct view *v, int y, int x);
	void (*free)(struct view *v);
	struct ui_settings *s;      /* the front end's: keys change it */
	int scroll;                 /* first row shown */
	int page;                   /* rows shown by the last draw */
	int maxscroll;              /* the last first row, by the last draw */
};

struct view *view_cores_new(struct ui_settings *s);
struct view *view_threads_new(struct ui_settings *s);
struct view *view_topology_new(struct ui_settings *s);
struct view *view_die_new(struct ui_settings *s);
struct view *view_nodes_new(struct ui_settings *s);
/* The node Enter chose in the Nodes view since the last call, or -1. */
int view_nodes_take(struct view *v);
/* The view of an id, made with those settings. */
struct view *view_new(enum view_id id, struct ui_settings *s);
void view_free(struct view *v);

/* Arrows, PgUp/PgDn (a page of v->page rows, less one), Home and End
 * move v->scroll within [0, v->maxscroll]; false for any other key. */
bool view_scroll_key(struct view *v, int ch);
/* After a draw: the page and the last first row, and the scroll kept
 * within them (the rows can change between frames). */
void view_scroll_set(struct view *v, int page, int maxscroll);
/* "rows 1-34 of 72: Up, Down, PgUp, PgDn" on row y of the area: where a
 * view that scrolls is (first the first row shown, 0-based; shown rows). */
void view_scroll_where(struct ui_ctx *u, int y, const struct ui_area *a, int first, int shown,
    int total);

#endif
