/* help.h: the help overlay (h, ? or F1): every key, its description
 * wrapped to the width there is; it scrolls when the keys do not fit, so
 * each one is readable on the smallest screen. */
#ifndef HTTOP_HELP_H
#define HTTOP_HELP_H

#include <stdbool.h>
#include <stddef.h>

#include "ui/screen.h"

struct help_key {
	const char *keys;       /* "Tab"; key names that differ by keyboard are translatable */
	const char *what;       /* translatable */
};

/* The keys, in the order the overlay lists them; the unit test checks
 * each key the front end handles appears here. */
const struct help_key *help_keys(size_t *n);

/* One line of the overlay: the key (on an entry's first line only) and
 * a piece of its description. */
struct help_line {
	const char *keys;       /* translated, or NULL on a continuation line */
	char text[256];
};
#define HELP_MAX_LINES 200

/* The lines for an inside width of `cols` columns: the key column as
 * wide as the widest key (at most a third of the width) and the
 * descriptions broken at blanks after it. Returns the lines and the key
 * column's width in *keyw. */
int help_layout(int cols, int *keyw, struct help_line *out, int max);

/* The overlay's state: open, how far it is scrolled, its lines. */
struct help {
	bool open;
	int scroll, page, maxscroll;
	struct help_line lines[HELP_MAX_LINES];
};

/* Draw the overlay over whatever is on the screen. */
void help_draw(struct ui_ctx *u, struct help *h);
/* A key while the help is open: the scrolling keys scroll it (true);
 * any other closes it (false). */
bool help_key(struct help *h, int ch);

#endif
