/* help.c: the help overlay: a framed box in the middle of the screen
 * listing every key; any key closes it (the front end sees to that). */
#include "config.h"
#include "ui/help.h"

#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "util/i18n.h"

static const struct help_key keys[] = {
	{ "Tab", N_("next view (Shift-Tab: previous)") },
	{ "1 2 3 4", N_("Cores, Threads, Topology, Die grid view") },
	{ "s", N_("sort by the next column (Threads view)") },
	{ "S", N_("reverse the sort order") },
	{ "f F", N_("Die grid: next / previous figure shown") },
	{ "p", N_("pause / resume reading the counters") },
	{ "+ -", N_("refresh interval: double / halve") },
	{ ". n", N_("replay: one interval forward (pauses)") },
	{ "> <", N_("replay: speed x2 / x1/2 (x1/4 to x64)") },
	{ "[ ]", N_("replay: jump to the start / the last interval") },
	{ "a", N_("averaging window: last interval, 10 s, whole run") },
	{ "c", N_("colours on / off") },
	{ "j", N_("watched job's cores only / all cores") },
	{ "w", N_("write these settings to the httoprc file") },
	{ N_("Up Down"), N_("scroll one row") },
	{ N_("PgUp PgDn"), N_("scroll one page") },
	{ N_("Home End"), N_("first / last row") },
	{ N_("Ctrl-L"), N_("repaint the whole screen") },
	{ N_("mouse"), N_("click a view's name to switch to it") },
	{ "h ?", N_("this help; any key closes it") },
	{ "q", N_("quit (also Ctrl-C)") },
};

const struct help_key *
help_keys(size_t *n)
{
	*n = sizeof keys / sizeof keys[0];
	return keys;
}

void
help_draw(struct ui_ctx *u)
{
	size_t n = sizeof keys / sizeof keys[0], i;
	int w = 62, h = (int)n + 4, top, left;
	char line[160];

	if (w > u->cols)
		w = u->cols;
	if (h > u->rows)
		h = u->rows;
	top = (u->rows - h) / 2;
	left = (u->cols - w) / 2;
	draw_box(u, top, left, h, w, ROLE_LABEL);
	snprintf(line, sizeof line, " %s ", _("httop keys"));
	draw_text(u, top, left + 2, (int)strlen(line) < w - 4 ? (int)strlen(line) : w - 4,
	    ROLE_LABEL, line);
	for (i = 0; i < n && (int)i + 2 < h - 1; i++) {
		/* Key names that differ by keyboard (Ctrl, PgUp) are translated. */
		draw_text(u, top + 2 + (int)i, left + 2, 11, ROLE_LABEL, _(keys[i].keys));
		draw_text(u, top + 2 + (int)i, left + 13, w - 15, ROLE_PLAIN, _(keys[i].what));
	}
	if (h - 1 > 1) {
		snprintf(line, sizeof line, " %s ", _("any key closes this"));
		draw_text(u, top + h - 1, left + 2,
		    (int)strlen(line) < w - 4 ? (int)strlen(line) : w - 4, ROLE_INVALID, line);
	}
}
