/* flow.h: lines of fields that are never cut. A field is one or more
 * pieces of text, each in a role, kept whole on one screen row ("█ both
 * 21.6%", "util 77.5%"); a field of words ("Intel(R) Xeon(R) Gold") may
 * break between them. Fields flow along their logical line and wrap onto
 * the next row, under the line's second field; when the rows they need
 * are more than the room, whole fields go, least important first. The
 * header and the cores view's package lines are drawn this way, so a
 * narrow terminal shows fewer figures, never a figure cut in two. The
 * layout is apart from curses so the unit tests can check it. */
#ifndef HTTOP_FLOW_H
#define HTTOP_FLOW_H

#include <stdbool.h>
#include <stddef.h>

#include "ui/palette.h"

#define FLOW_TEXT 3072          /* bytes of text in all */
#define FLOW_SEGS 160           /* pieces of text */
#define FLOW_CHUNKS 128         /* pieces kept whole */
#define FLOW_GROUPS 64          /* fields (what is dropped together) */

/* Importance of a field: FLOW_KEEP is never dropped; the larger the
 * number, the sooner it goes. */
#define FLOW_KEEP 0

struct flow_seg {
	unsigned off;           /* its text: flow.text + off, NUL-terminated */
	enum ui_role role;
};

struct flow_chunk {
	int seg0, nseg;
	int width;              /* columns */
	int group;
	int line;               /* logical line */
	bool glue;              /* a later word of a field: one blank before it */
	int row, x;             /* where the layout put it; row -1: not shown */
};

struct flow {
	char text[FLOW_TEXT];
	size_t used;
	struct flow_seg seg[FLOW_SEGS];
	int nseg;
	struct flow_chunk ch[FLOW_CHUNKS];
	int nch;
	int prio[FLOW_GROUPS];
	bool dropped[FLOW_GROUPS];
	int ngroups;
	int nlines;
	bool full;              /* something did not fit in the arrays: left out */
};

void flow_init(struct flow *f);
/* The fields that follow start a new logical line (on a new row). */
void flow_line(struct flow *f);
/* A new field of importance `prio`, kept whole; flow_put adds its text. */
void flow_field(struct flow *f, int prio);
/* A further piece of the current field, one blank after the last: the
 * field may break there ("2 sockets," "36 cores," "72 threads"). */
void flow_piece(struct flow *f);
/* Text in a role, appended to the current field (its last piece). */
void flow_put(struct flow *f, enum ui_role r, const char *s);
/* The words of s as further pieces of the current field, one blank
 * apart ("source replay" "17/59" "(18.4 s" ...). */
void flow_put_words(struct flow *f, enum ui_role r, const char *s);
/* A field of words that may break between them (one blank apart). */
void flow_words(struct flow *f, int prio, enum ui_role r, const char *s);
/* A field whose first phrase, up to its first ": ", is kept whole ("1 of 6
 * nodes missing:"), the words after it may break ("down", "h7"). */
void flow_phrase_words(struct flow *f, int prio, enum ui_role r, const char *s);
/* Place the fields in rows of `cols` columns, dropping the least important
 * until they take no more than `max_rows`. Returns the rows used. A field
 * that fits nowhere, or past `max_rows` when nothing more may be dropped,
 * is not shown. */
int flow_layout(struct flow *f, int cols, int max_rows);
/* Draw what the layout placed, its row 0 at screen row `top`. */
void flow_draw(const struct flow *f, struct ui_ctx *u, int top, int left);
/* The text of row `row` as laid out, for the tests: pieces at their
 * columns, blanks between. */
void flow_row_text(const struct flow *f, int row, char *buf, size_t len);

#endif
