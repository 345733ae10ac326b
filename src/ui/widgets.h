/* widgets.h: what the views draw with: text cut to a field (never a cut
 * number), figures, the split bars with eighth-cell ends, bar edges, a
 * frame. All of it into curses' virtual screen, in a role's look. */
#ifndef HTTOP_WIDGETS_H
#define HTTOP_WIDGETS_H

#include <stdbool.h>
#include <stddef.h>

#include "metrics/value.h"
#include "ui/palette.h"

/* Are the n bytes of s printable ASCII only (nothing to escape)? */
bool widgets_plain(const char *s, size_t n);
/* Columns of a UTF-8 string, one a character (the strings httop draws
 * have no wide characters). */
int text_width(const char *s);
/* The first line of `s` broken at blanks into lines of `cols` columns
 * (UTF-8, one column a character; a word longer than a line is cut): its
 * length in bytes, at least one character's. The caller skips the blanks
 * that follow. */
size_t text_line_len(const char *s, int cols);
/* `s` as it fits in `width` columns without cutting a word: whole, or
 * the words that fit and an ellipsis ("\u2026" under UTF-8, else "..."),
 * or nothing. Returns its columns. */
int text_fit(char *dst, size_t len, const char *s, int width, bool utf8);
/* The same for a message said in several forms, longest first, separated
 * by newlines ("j: no job is watched; start httop with ...\nno job: ..."):
 * the first form that fits `width` whole, else the last (the shortest)
 * as text_fit cuts it. A message without a newline is text_fit's. */
int text_fit_forms(char *dst, size_t len, const char *forms, int width, bool utf8);
/* `width` cells at (y, x) in the role's look: `s` cut to the width (UTF-8
 * aware), padded with blanks, what a terminal would act on shown escaped
 * (textesc.h: \xHH). The one way text reaches the screen. */
void draw_text(struct ui_ctx *u, int y, int x, int width, enum ui_role r, const char *s);

/* draw_text of text_fit: a message or a reason in a field that may be
 * too narrow for it. */
void draw_words(struct ui_ctx *u, int y, int x, int width, enum ui_role r, const char *s);

/* A figure as draw_val prints it ("12.3", "10.0-40.0", "-") into buf;
 * returns its length in columns. */
int val_text(char *buf, size_t len, const char *fmt, const struct val *v, double scale);
/* A number right-aligned in `width` cells, "-" when absent, "lo-hi" for a
 * bound (or one number if both ends print the same); too wide, a bound
 * shows "lo+" and anything else stars, never a cut number. */
void draw_val(struct ui_ctx *u, int y, int x, int width, enum ui_role r, const char *fmt,
    const struct val *v, double scale);

/* The bar's cells, worked out without curses (draw_* and the unit tests
 * use it): `n` segments of roles[i] covering fracs[i] of the width, in
 * order; the rest is ROLE_NEITHER. Widths are rounded at eighth-cell
 * boundaries. A cell where a solid run (ROLE_BOTH, ROLE_UTIL) ends gets a
 * left block under UTF-8, 2/8 to 7/8 of the cell (a run ending 1/8 into
 * it shows 2/8: the left one-eighth block is the bar's right edge,
 * BAR_EDGE_RIGHT, and a bar at 1/8 would read as an empty bar's edge);
 * any other mixed cell shows the role that covers most of it. */
struct bar_cell {
	const char *glyph;      /* one column, UTF-8 or ASCII */
	enum ui_role role;      /* its colour */
};
#define BAR_MAX_SEGS 8
void bar_cells(const struct ui_ctx *u, int width, const enum ui_role *roles,
    const double *fracs, int n, struct bar_cell *out);
/* The segments draw_split_bar draws: certain parts solid, the uncertain
 * part of a bound as ROLE_BOUND next to the both run. Returns n. */
int split_segments(const struct val *both, const struct val *t0, const struct val *t1,
    enum ui_role roles[BAR_MAX_SEGS], double fracs[BAR_MAX_SEGS]);
/* Draw the cells (what draw_split_bar does after bar_cells). */
void draw_cells(struct ui_ctx *u, int y, int x, int width, const struct bar_cell *c);
/* A horizontal bar of `width` cells at (y, x): the four fractions of the
 * split in bar order both, t0, t1 (neither is the rest), with eighth-cell
 * resolution under UTF-8. A bound draws its certain part solid and the
 * uncertain part with ROLE_BOUND. */
void draw_split_bar(struct ui_ctx *u, int y, int x, int width, const struct val *both,
    const struct val *t0, const struct val *t1);
/* A one-value bar (0..1). */
void draw_value_bar(struct ui_ctx *u, int y, int x, int width, const struct val *v,
    enum ui_role r);
/* The edges that frame a bar of `width` cells at (y, x): drawn in the cell
 * before x and the cell after the bar, so an idle bar still shows its
 * length without colour. Under UTF-8 the right and left one-eighth
 * blocks, hugging the bar; no cell inside a bar is either. */
#define BAR_EDGE_LEFT "\u2595"
#define BAR_EDGE_RIGHT "\u258f"
void draw_bar_edges(struct ui_ctx *u, int y, int x, int width);
/* A frame of h x w cells at (top, left) in the role's look, box-drawing
 * characters under UTF-8, else - | +; the inside is blanked. */
void draw_box(struct ui_ctx *u, int top, int left, int h, int w, enum ui_role r);

/* Forget what was made for this screen (screen_close). */
void widgets_forget(struct ui_ctx *u);

#endif
