/* scroll.c: what every view shares: the scrolling keys and the scroll
 * kept within the rows drawn. */
#include "config.h"

#include <curses.h>
#include <stddef.h>
#include <stdio.h>

#include "ui/ui.h"
#include "ui/widgets.h"
#include "util/i18n.h"

void
view_scroll_where(struct ui_ctx *u, int y, const struct ui_area *a, int first, int shown,
    int total)
{
	char more[96];
	int last = first + shown < total ? first + shown : total;

	snprintf(more, sizeof more, _("rows %d-%d of %d: Up, Down, PgUp, PgDn"), first + 1, last,
	    total);
	draw_words(u, y, a->left, a->cols, ROLE_LABEL, more);
}

bool
view_scroll_key(struct view *v, int ch)
{
	int step = v->page > 1 ? v->page - 1 : 1;   /* keep one line of context */

	switch (ch) {
	case KEY_UP: v->scroll--; break;
	case KEY_DOWN: v->scroll++; break;
	case KEY_PPAGE: v->scroll -= step; break;
	case KEY_NPAGE: v->scroll += step; break;
	case KEY_HOME: v->scroll = 0; break;
	case KEY_END: v->scroll = v->maxscroll; break;
	default: return false;
	}
	view_scroll_set(v, v->page, v->maxscroll);
	return true;
}

void
view_scroll_set(struct view *v, int page, int maxscroll)
{
	v->page = page;
	v->maxscroll = maxscroll > 0 ? maxscroll : 0;
	if (v->scroll > v->maxscroll)
		v->scroll = v->maxscroll;
	if (v->scroll < 0)
		v->scroll = 0;
}
