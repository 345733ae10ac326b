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
/* "last 1.0 s", "10 s", "run 5 min": what the figures cover. */
void header_window_text(char *buf, size_t len, enum avg_window w, double seconds);

#endif
