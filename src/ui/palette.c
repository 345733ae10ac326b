/* palette.c: the glyphs and colours of the roles. One table gives every
 * role its colours on 256 and on 8 colours and its attribute without
 * colour; curses' colour pair of a role is its index + 1. Plain text is a
 * pair of the terminal's own colours rather than pair 0: going from a
 * coloured cell back to pair 0 makes curses send a full attribute reset
 * (sgr0) where a colour change is shorter, and a refresh changes many
 * small runs of coloured and plain cells. */
#include "config.h"
#include "ui/palette.h"

#include <curses.h>

void
screen_glyphs(struct ui_ctx *u, bool utf8)
{
	int r;

	u->utf8 = utf8;
	for (r = 0; r < ROLE_COUNT; r++)
		u->fill[r] = " ";
	if (utf8) {
		u->fill[ROLE_BOTH] = "\u2588";     /* full block */
		u->fill[ROLE_T0] = "\u2593";       /* dark shade */
		u->fill[ROLE_T1] = "\u2592";       /* medium shade */
		u->fill[ROLE_UTIL] = "\u2588";
		u->fill[ROLE_BOUND] = "\u2591";    /* light shade: in doubt */
	} else {
		u->fill[ROLE_BOTH] = "#";
		u->fill[ROLE_T0] = "0";
		u->fill[ROLE_T1] = "1";
		u->fill[ROLE_UTIL] = "#";
		u->fill[ROLE_BOUND] = "?";
	}
}

/* The colours: 256-colour palette, then the 8 basic ones; -1 is the
 * terminal's default. */
struct role_colour {
	short fg256, bg256, fg8, bg8;
	int attr8;              /* extra attribute with 8 colours */
};

static const struct role_colour palette[ROLE_COUNT] = {
	[ROLE_BOTH] = { 167, -1, COLOR_RED, -1, 0 },
	[ROLE_T0] = { 68, -1, COLOR_BLUE, -1, A_BOLD },
	[ROLE_T1] = { 179, -1, COLOR_YELLOW, -1, 0 },
	[ROLE_NEITHER] = { -1, -1, -1, -1, 0 },
	[ROLE_UTIL] = { 71, -1, COLOR_GREEN, -1, 0 },
	[ROLE_BOUND] = { 181, -1, COLOR_RED, -1, 0 },
	[ROLE_LABEL] = { 109, -1, COLOR_CYAN, -1, 0 },
	[ROLE_INVALID] = { 243, -1, COLOR_WHITE, -1, A_DIM },
	[ROLE_WARN] = { 214, -1, COLOR_YELLOW, -1, A_BOLD },
	[ROLE_TAB_ACTIVE] = { 16, 109, COLOR_BLACK, COLOR_CYAN, 0 },
	[ROLE_TAB] = { 252, 238, -1, -1, 0 },
	[ROLE_PLAIN] = { -1, -1, -1, -1, 0 },
	/* The heat scale, cool to hot, as backgrounds under dark text; on
	 * 8 colours five colours share the eight steps, and white reads
	 * better than black on blue and red. */
	[ROLE_HEAT0 + 0] = { 16, 33, COLOR_WHITE, COLOR_BLUE, 0 },
	[ROLE_HEAT0 + 1] = { 16, 38, COLOR_WHITE, COLOR_BLUE, 0 },
	[ROLE_HEAT0 + 2] = { 16, 43, COLOR_BLACK, COLOR_CYAN, 0 },
	[ROLE_HEAT0 + 3] = { 16, 78, COLOR_BLACK, COLOR_CYAN, 0 },
	[ROLE_HEAT0 + 4] = { 16, 184, COLOR_BLACK, COLOR_GREEN, 0 },
	[ROLE_HEAT0 + 5] = { 16, 214, COLOR_BLACK, COLOR_YELLOW, 0 },
	[ROLE_HEAT0 + 6] = { 16, 208, COLOR_BLACK, COLOR_YELLOW, 0 },
	[ROLE_HEAT0 + 7] = { 16, 196, COLOR_WHITE, COLOR_RED, 0 },
};

/* Attributes without colour: the fill characters carry the bars, the
 * shade glyphs the heat. */
static const int mono_attr[ROLE_COUNT] = {
	[ROLE_LABEL] = A_BOLD,
	[ROLE_INVALID] = A_DIM,
	[ROLE_WARN] = A_BOLD,
	[ROLE_TAB_ACTIVE] = A_REVERSE,
};

static void
start_colours(struct ui_ctx *u)
{
	int r;

	if (u->colours_started || u->colours == 0)
		return;
	if (start_color() != OK)
		return;
	use_default_colors();
	for (r = 0; r < ROLE_COUNT; r++) {
		const struct role_colour *c = &palette[r];

		if (u->colours >= 256)
			init_pair((short)(r + 1), c->fg256, c->bg256);
		else
			init_pair((short)(r + 1), c->fg8, c->bg8);
	}
	u->colours_started = true;
}

void
screen_set_colour(struct ui_ctx *u, bool on)
{
	if (on)
		start_colours(u);
	u->colour_on = on && u->colours_started;
	/* erase() fills with plain text's pair too: a cell a shorter text
	 * leaves blank costs no attribute reset. */
	if (u->colours_started)
		bkgdset((chtype)' ' | (chtype)screen_attr(u, ROLE_PLAIN));
}

static bool
colour_active(const struct ui_ctx *u)
{
	return u->colour_on && u->colours_started && u->colours > 0;
}

int
screen_attr(const struct ui_ctx *u, enum ui_role r)
{
	if ((int)r < 0 || r >= ROLE_COUNT)
		r = ROLE_PLAIN;
	if (!colour_active(u))
		return mono_attr[r];
	/* The empty part of a bar is plain text to the terminal: one pair,
	 * so no colour change between them. */
	if (r == ROLE_NEITHER)
		r = ROLE_PLAIN;
	return (int)COLOR_PAIR(r + 1) | (u->colours >= 256 ? 0 : palette[r].attr8);
}

int
heat_step(double x)
{
	int s;

	if (!(x > 0.0))
		return 0;
	if (x >= 1.0)
		return HEAT_STEPS - 1;
	s = (int)(x * HEAT_STEPS);
	return s < HEAT_STEPS ? s : HEAT_STEPS - 1;
}

enum ui_role
heat_role(int step)
{
	if (step < 0)
		step = 0;
	if (step >= HEAT_STEPS)
		step = HEAT_STEPS - 1;
	return (enum ui_role)(ROLE_HEAT0 + step);
}

bool
screen_heat_colour(const struct ui_ctx *u)
{
	return colour_active(u);
}

const char *
screen_heat_glyph(const struct ui_ctx *u, int step)
{
	static const char *const shade[4] = { "\u2591", "\u2592", "\u2593", "\u2588" };
	static const char *const ascii[4] = { ".", ":", "+", "#" };
	int g;

	if (step < 0)
		step = 0;
	g = step * 4 / HEAT_STEPS;
	if (g > 3)
		g = 3;
	return u->utf8 ? shade[g] : ascii[g];
}
