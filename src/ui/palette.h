/* palette.h: how a cell looks. The roles a cell can have (the four SMT
 * categories, labels, warnings, the die grid's heat steps...), their
 * colours on 256, 8 or no colours, and the fill glyphs that carry the
 * bars when there is no colour. Also the screen context every drawing
 * function is given (struct ui_ctx). */
#ifndef HTTOP_PALETTE_H
#define HTTOP_PALETTE_H

#include <stdbool.h>
#include <stdio.h>

/* The die grid's heat scale: HEAT_STEPS steps from cool to hot. With
 * colours a step is a background (8 steps on 256 colours; blue, cyan,
 * green, yellow, red on 8); without, a shade glyph carries it. */
#define HEAT_STEPS 8

/* The four categories, in bar order, then the other roles a cell can
 * have. */
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
	ROLE_PLAIN,         /* text and numbers in the terminal's colours */
	ROLE_HEAT0,         /* the heat steps, cool to hot: ROLE_HEAT0 + step */
	ROLE_COUNT = ROLE_HEAT0 + HEAT_STEPS
};

struct ui_cache;         /* widgets.c: bar cells made once per glyph and colour */

/* The screen as the drawing functions see it. */
struct ui_ctx {
	bool utf8;              /* eighth-block glyphs; else ASCII */
	int colours;            /* 0, 8 or 256 */
	bool colour_on;         /* the user's c key */
	bool colours_started;   /* curses' colour pairs are set up */
	int rows, cols;         /* current size (at most the bound, term.h) */
	/* The terminal's own size when it is larger than the bound in
	 * either direction (rows, cols): drawn at the bound; 0, 0 when not. */
	int big_rows, big_cols;
	/* Fill characters per role, distinct so a bar reads without colour:
	 * UTF-8 or ASCII strings of one column. */
	const char *fill[ROLE_COUNT];
	/* Owned by term.c: the curses screen and /dev/tty when standard
	 * input is not the terminal. */
	void *scr;
	FILE *tty_in;
	struct ui_cache *cache;
};

/* Fill characters for a terminal: UTF-8 or ASCII. */
void screen_glyphs(struct ui_ctx *u, bool utf8);
/* The user's c key: colours on or off (starts curses colours on first
 * use; needs an open screen). */
void screen_set_colour(struct ui_ctx *u, bool on);
/* Curses attribute of a role: its colour pair, or the mono attribute
 * (bold, dim, reverse) without colour. A role out of range is plain. */
int screen_attr(const struct ui_ctx *u, enum ui_role r);

/* The step of a position on the heat scale, 0 (cool) to 1 (hot);
 * clamped, and anything that is not a number is step 0. */
int heat_step(double x);
/* The role of a heat step (clamped to the scale). */
enum ui_role heat_role(int step);
/* Is heat shown as colour (colours on and available)? */
bool screen_heat_colour(const struct ui_ctx *u);
/* The step's shade, one column: UTF-8 light, medium, dark shade, full
 * block; ASCII . : + # (two steps per glyph). */
const char *screen_heat_glyph(const struct ui_ctx *u, int step);

#endif
