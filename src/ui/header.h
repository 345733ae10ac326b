/* header.h: the top lines of the screen (machine, source, interval and
 * window, the node's figures with the legend of the four glyphs, the
 * job's summary, the tab bar) and the bottom status line. */
#ifndef HTTOP_HEADER_H
#define HTTOP_HEADER_H

#include "ui/screen.h"
#include "ui/ui.h"

/* Where the tabs were drawn, for mouse clicks. */
struct header_tabs {
	int row;
	int x0[VIEW_COUNT], x1[VIEW_COUNT];   /* [x0, x1) */
};

/* Rows the header takes for this frame (4, or 5 with a job). */
int header_rows(const struct ui_frame *f);
/* Draw the header from the top row; returns the rows used. */
int header_draw(struct ui_ctx *u, const struct ui_frame *f, enum view_id active,
    struct header_tabs *tabs);
/* The view whose tab is at (y, x), or -1. */
int header_tab_at(const struct header_tabs *tabs, int y, int x);
/* The tab label of a view ("Cores"), translated. */
const char *header_view_name(enum view_id v);
/* Where a replay stands, as the header shows it. */
struct replay_view {
	unsigned long long pos;   /* the sample shown, 1 = the first (0: none yet) */
	unsigned long long total; /* samples in the trace, if total_known */
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

#endif
