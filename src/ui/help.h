/* help.h: the help overlay (h or ?): every key, one line each. */
#ifndef HTTOP_HELP_H
#define HTTOP_HELP_H

#include <stddef.h>

#include "ui/screen.h"

struct help_key {
	const char *keys;       /* "Tab, 1-4" */
	const char *what;       /* translatable */
};

/* The keys, in the order the overlay lists them; the unit test checks
 * each key the front end handles appears here. */
const struct help_key *help_keys(size_t *n);
/* Draw the overlay over whatever is on the screen. */
void help_draw(struct ui_ctx *u);

#endif
