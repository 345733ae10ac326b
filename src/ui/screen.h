/* screen.h: the terminal: curses set-up and teardown, what the terminal
 * can do (UTF-8, 256/8/no colours), the glyphs and colours of the four SMT
 * categories, and the drawing helpers every view shares (bars, numbers,
 * bounds, greyed invalid rows). */
#ifndef HTTOP_SCREEN_H
#define HTTOP_SCREEN_H

#include <stdbool.h>
#include <stddef.h>

#include "metrics/value.h"
#include "ui/ui.h"

/* The four categories, in bar order, plus the other roles a cell can have. */
enum ui_role {
	ROLE_BOTH = 0,      /* both threads active */
	ROLE_T0,            /* thread 0 only */
	ROLE_T1,            /* thread 1 only */
	ROLE_NEITHER,       /* neither (the empty part of the bar) */
	ROLE_UTIL,          /* a single-value bar (thread utilisation) */
	ROLE_BOUND,         /* the uncertain part of a bound */
	ROLE_LABEL,         /* column heads, labels */
	ROLE_INVALID,       /* greyed: invalid data and its reason */
	ROLE_WARN,          /* status line warnings */
	ROLE_TAB_ACTIVE,
	ROLE_TAB,
	ROLE_COUNT
};

struct ui_ctx {
	bool utf8;              /* eighth-block glyphs; else ASCII */
	int colours;            /* 0, 8 or 256 */
	bool colour_on;         /* the user's c key */
	int rows, cols;         /* current size */
	/* Fill characters per role, distinct so a bar reads without colour:
	 * UTF-8 or ASCII strings of one column. */
	const char *fill[ROLE_COUNT];
};

/* Start curses on the controlling terminal (saving its modes for
 * screen_restore). -1 with a message when there is no usable terminal. */
int screen_open(struct ui_ctx *u, const struct ui_settings *s, struct errmsg *e);
/* Put the terminal back as it was (endwin; idempotent). */
void screen_close(struct ui_ctx *u);
/* Async-signal-safe terminal restore for fatal signals: the saved termios
 * and the sequences that leave the alternate screen and show the cursor. */
void screen_emergency_restore(void);
/* After SIGWINCH or KEY_RESIZE: re-read the size. */
void screen_resize(struct ui_ctx *u);
/* Colour attribute for a role (A_NORMAL without colour). */
int screen_attr(const struct ui_ctx *u, enum ui_role r);

/* A horizontal bar of `width` cells at (y, x): the four fractions of the
 * split in bar order both, t0, t1 (neither is the rest), with eighth-cell
 * resolution under UTF-8. A bound draws its certain part solid and the
 * uncertain part with ROLE_BOUND. */
void draw_split_bar(struct ui_ctx *u, int y, int x, int width, const struct val *both,
    const struct val *t0, const struct val *t1);
/* A one-value bar (0..1). */
void draw_value_bar(struct ui_ctx *u, int y, int x, int width, const struct val *v,
    enum ui_role r);
/* The first line of `s` broken at blanks into lines of `cols` columns
 * (UTF-8, one column a character; a word longer than a line is cut): its
 * length in bytes, at least one character's. The caller skips the blanks
 * that follow. */
size_t text_line_len(const char *s, int cols);
/* A number right-aligned in `width` cells, "-" when absent, "lo-hi" for a
 * bound (or one number if both ends print the same). */
void draw_val(struct ui_ctx *u, int y, int x, int width, const char *fmt, const struct val *v,
    double scale);

/* The bar's cells, worked out without curses (draw_* and the unit tests
 * use it): `n` segments of roles[i] covering fracs[i] of the width, in
 * order; the rest is ROLE_NEITHER. Widths are rounded at eighth-cell
 * boundaries. A cell where a solid run (ROLE_BOTH, ROLE_UTIL) ends gets a
 * left eighth block under UTF-8; any other mixed cell shows the role that
 * covers most of it. */
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
/* Fill characters for a terminal: UTF-8 or ASCII. */
void screen_glyphs(struct ui_ctx *u, bool utf8);
/* Draw the cells (what draw_split_bar does after bar_cells). */
void draw_cells(struct ui_ctx *u, int y, int x, int width, const struct bar_cell *c);
/* The edges that frame a bar of `width` cells at (y, x): drawn in the cell
 * before x and the cell after the bar, so an idle bar still shows its
 * length without colour. */
void draw_bar_edges(struct ui_ctx *u, int y, int x, int width);
/* A string cut to `width` columns (UTF-8 aware), padded with blanks. */
void draw_text(struct ui_ctx *u, int y, int x, int width, enum ui_role r, const char *s);
/* The user's c key: colours on or off (starts curses colours on first use). */
void screen_set_colour(struct ui_ctx *u, bool on);
/* Force the next refresh to repaint everything (Ctrl-L). */
void screen_repaint(struct ui_ctx *u);
/* The input descriptor curses reads keys from. */
int screen_fd(const struct ui_ctx *u);

/* The die grid's heat scale: HEAT_STEPS steps from cool to hot. With
 * colours a step is a background (8 steps on 256 colours; blue, cyan,
 * green, yellow, red on 8); without, a shade glyph carries it. */
#define HEAT_STEPS 8
/* The step of a position on the scale, 0 (cool) to 1 (hot); clamped, and
 * anything that is not a number is step 0. */
int heat_step(double x);
/* Is heat shown as colour (colours on and available)? */
bool screen_heat_colour(const struct ui_ctx *u);
/* Attribute of a step: its colour pair, A_NORMAL without colour. */
int screen_heat_attr(const struct ui_ctx *u, int step);
/* The step's shade, one column: UTF-8 light, medium, dark shade, full
 * block; ASCII . : + # (two steps per glyph). */
const char *screen_heat_glyph(const struct ui_ctx *u, int step);
/* draw_text in a heat step's colour. */
void draw_heat_text(struct ui_ctx *u, int y, int x, int width, int step, const char *s);

/* A figure as draw_val prints it ("12.3", "10.0-40.0", "-") into buf;
 * returns its length in columns. */
int val_text(char *buf, size_t len, const char *fmt, const struct val *v, double scale);

#endif
