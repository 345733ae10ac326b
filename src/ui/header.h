/* header.h: the top lines of the screen (machine, source, interval and
 * window, the node's figures with the legend of the four glyphs, the
 * job's summary, the tab bar) and the bottom status line. */
#ifndef HTTOP_HEADER_H
#define HTTOP_HEADER_H

#include "ui/flow.h"
#include "ui/screen.h"
#include "ui/ui.h"

/* Where the tabs were drawn, for mouse clicks. */
struct header_tabs {
	int row;
	int count;                            /* the tabs drawn */
	int x0[VIEW_ALL], x1[VIEW_ALL];       /* [x0, x1) */
};

/* The logical lines above the tabs: machine, source, node, and the job's
 * when one is watched. */
int header_lines(const struct ui_frame *f);
/* Those lines as fields (flow.h), for a frame. */
void header_flow(struct flow *fl, const struct ui_ctx *u, const struct ui_frame *f);
/* Draw the header from the top row in at most `max_rows` rows, the tabs
 * last; returns the rows used. */
int header_draw(struct ui_ctx *u, const struct ui_frame *f, enum view_id active,
    struct header_tabs *tabs, int max_rows);
/* Many nodes (header_nodes.c): the Nodes view's header (the nodes, the
 * job's figures), and the line a node's own views add (which node). */
void header_nodes_flow(struct flow *fl, const struct ui_ctx *u, const struct ui_frame *f);
void header_node_line(struct flow *fl, const struct ui_frame *f);
/* The view whose tab is at (y, x), or -1. */
int header_tab_at(const struct header_tabs *tabs, int y, int x);
/* The tab label of a view ("Cores"), translated. */
const char *header_view_name(enum view_id v);
/* Where a replay stands, as the header shows it. */
struct replay_view {
	unsigned long long pos;   /* the interval shown, 1 = the first (0: none yet) */
	unsigned long long total; /* intervals in the trace (samples - 1), if total_known */
	bool total_known;
	double at, length;        /* s since the first sample; length < 0: unknown */
	int speed;                /* log2 of the speed factor: -2 (x1/4) .. 6 (x64) */
	bool at_end;
};
/* "17/59 (18.4 s of 57.9 s) x2", "... end of replay": what follows the
 * source name in the header; the pause shows as PAUSED, as for any source. */
void header_replay_text(char *buf, size_t len, const struct replay_view *r);
/* "x1/4" .. "x64". */
void header_speed_text(char *buf, size_t len, int speed);
/* "57.9 s", "12:05", "3:02:11": a recorded duration. */
void header_duration_text(char *buf, size_t len, double seconds);
/* "last 1.0 s", "10 s", "run 5 min": what the figures cover. */
void header_window_text(char *buf, size_t len, enum avg_window w, double seconds);
/* The frame's window as the header shows it: "10 s average", with
 * " (4.0 s so far)" while the window fills (not once it is full, when it
 * covers up to an interval less than its length). */
void header_window_label(char *buf, size_t len, const struct ui_frame *f);
/* header_fig.c: "█ both 20.4%": a share after its glyph, in its colour, as a field of
 * importance `prio`; the legend of the bars. */
void header_share(struct flow *fl, const struct ui_ctx *u, int prio, enum ui_role r,
    const char *label, const struct val *v);

/* header_fig.c: the fields both header lines use. The figures' importance
 * among a line's fields (flow.h: the least important go first). */
#define HEADER_PRIO_FIGS 5
/* A field of a label and its value: "util 77.5%". */
void header_labelled(struct flow *fl, int prio, const char *label, const char *value);
struct plan;
/* An aggregate's util (at `util_prio`; < 0: left out), thr, GHz and CPI;
 * GHz and CPI not where plan `p`'s source never gives them (figure_read:
 * no dashes where there can be no figure; NULL: not known, shown). */
void header_figures(struct flow *fl, const struct agg_fig *n, int util_prio,
    const struct plan *p);

#endif
