/* help.c: the help overlay: a framed box over the screen listing every
 * key. The descriptions wrap to the box; when the lines are more than the
 * box holds, the arrows, PgUp/PgDn, Home/End and the mouse wheel scroll
 * them and the frame says which lines are shown. Any other key closes it. */
#include "config.h"
#include "ui/help.h"

#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "util/i18n.h"

static const struct help_key keys[] = {
	{ "Tab", N_("next view (Shift-Tab: previous)") },
	{ "1 2 3 4", N_("Cores, Threads, Topology, Die grid view") },
	{ N_("5 Enter Esc"), N_("many nodes (--nodes): the Nodes view; Enter opens the node under the "
	    "cursor in views 1 to 4, Esc or 5 goes back") },
	{ "s", N_("Cores, Threads, Nodes view: sort by the next column (Cores: within each "
	    "package); a figure sorts highest first") },
	{ "S", N_("reverse the sort order") },
	{ "f F", N_("Die grid: next / previous figure shown") },
	{ N_("p Space"), N_("pause / resume reading the counters") },
	{ "+ -", N_("refresh interval: longer / shorter, in steps of 1, 2, 5 (0.05 s to 1 day)") },
	{ ". n", N_("replay: one interval forward (pauses)") },
	{ "> <", N_("replay: speed x2 / x1/2 (x1/4 to x64)") },
	{ "[ ]", N_("replay: jump to the start / the last interval") },
	{ "a", N_("figures over: the last interval, the averaging window (avg_seconds in "
	    "httoprc, 10 s by default), the whole run") },
	{ "c", N_("colours on / off") },
	{ "j", N_("watched job's cores only / all cores") },
	{ "w", N_("write the settings to the httoprc file (see FILES in httop(1))") },
	{ N_("Up Down"), N_("scroll one row (also the mouse wheel)") },
	{ N_("PgUp PgDn"), N_("scroll one page") },
	{ N_("Home End"), N_("first / last row") },
	{ N_("Ctrl-L"), N_("repaint the whole screen") },
	{ N_("mouse"), N_("click a view's name to switch to it, a column head of the Threads view "
	    "to sort by it") },
	{ N_("h ? F1"), N_("this help: the arrows and PgUp PgDn scroll it, any other key "
	    "closes it") },
	{ N_("q F10"), N_("quit (also Ctrl-C)") },
};

const struct help_key *
help_keys(size_t *n)
{
	*n = sizeof keys / sizeof keys[0];
	return keys;
}

int
help_layout(int cols, int *keyw, struct help_line *out, int max)
{
	size_t n = sizeof keys / sizeof keys[0], i;
	int kw = 0, dw, nl = 0;

	for (i = 0; i < n; i++) {
		int w = text_width(_(keys[i].keys));

		if (w > kw)
			kw = w;
	}
	kw += 2;
	if (kw > cols / 3)
		kw = cols / 3;
	*keyw = kw;
	dw = cols - kw;
	if (dw < 1)
		dw = 1;
	for (i = 0; i < n && nl < max; i++) {
		const char *s = _(keys[i].what);
		bool first = true;

		do {
			size_t len = text_line_len(s, dw);

			out[nl].keys = first ? _(keys[i].keys) : NULL;
			snprintf(out[nl].text, sizeof out[nl].text, "%.*s", (int)len, s);
			nl++;
			first = false;
			s += len;
			while (*s == ' ')
				s++;
		} while (*s != '\0' && nl < max);
	}
	return nl;
}

void
help_draw(struct ui_ctx *u, struct help *h)
{
	struct help_line *lines = h->lines;
	int w = u->cols < 76 ? u->cols : 76, top, left, inner, kw, n, rows, i, bh;
	char text[160];

	if (w < 12 || u->rows < 5)
		return;
	inner = w - 4;
	n = help_layout(inner, &kw, lines, HELP_MAX_LINES);
	/* Frame, a blank row, the lines, the frame. */
	bh = n + 3 < u->rows ? n + 3 : u->rows;
	rows = bh - 3;
	h->page = rows;
	h->maxscroll = n > rows ? n - rows : 0;
	if (h->scroll > h->maxscroll)
		h->scroll = h->maxscroll;
	if (h->scroll < 0)
		h->scroll = 0;
	top = (u->rows - bh) / 2;
	left = (u->cols - w) / 2;
	draw_box(u, top, left, bh, w, ROLE_LABEL);
	snprintf(text, sizeof text, " %s ", _("httop keys"));
	draw_text(u, top, left + 2, text_width(text) < w - 4 ? text_width(text) : w - 4,
	    ROLE_LABEL, text);
	for (i = 0; i < rows && h->scroll + i < n; i++) {
		const struct help_line *l = &lines[h->scroll + i];

		if (l->keys != NULL)
			draw_text(u, top + 2 + i, left + 2, kw, ROLE_LABEL, l->keys);
		draw_text(u, top + 2 + i, left + 2 + kw, inner - kw, ROLE_PLAIN, l->text);
	}
	if (h->maxscroll > 0)
		/* TRANSLATORS: the help's lines shown: "1-8 of 30: Up Down PgUp PgDn" */
		snprintf(text, sizeof text, _(" %d-%d of %d: Up Down PgUp PgDn "),
		    h->scroll + 1, h->scroll + rows, n);
	else
		snprintf(text, sizeof text, " %s ", _("any key closes this"));
	if (text_width(text) <= w - 4)
		draw_text(u, top + bh - 1, left + 2, text_width(text), ROLE_INVALID, text);
}

bool
help_key(struct help *h, int ch)
{
	int step = h->page > 1 ? h->page - 1 : 1;

	switch (ch) {
	case KEY_UP: h->scroll--; break;
	case KEY_DOWN: h->scroll++; break;
	case KEY_PPAGE: h->scroll -= step; break;
	case KEY_NPAGE: h->scroll += step; break;
	case KEY_HOME: h->scroll = 0; break;
	case KEY_END: h->scroll = HELP_MAX_LINES; break;
	default: return false;
	}
	/* The last first line is known once drawn (help_draw clamps); keys
	 * that came with h itself meet the box not drawn yet. */
	if (h->scroll > h->maxscroll && h->page > 0)
		h->scroll = h->maxscroll;
	if (h->scroll < 0)
		h->scroll = 0;
	return true;
}
