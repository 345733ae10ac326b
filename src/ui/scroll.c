/* scroll.c: what every view shares: the scrolling keys, and making and
 * freeing a view by its id. */
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

struct view *
view_new(enum view_id id, struct ui_settings *s)
{
	switch (id) {
	case VIEW_CORES: return view_cores_new(s);
	case VIEW_THREADS: return view_threads_new(s);
	case VIEW_TOPOLOGY: return view_topology_new(s);
	case VIEW_DIE: return view_die_new(s);
	case VIEW_NODES: return view_nodes_new(s);
	default: return NULL;
	}
}

void
view_free(struct view *v)
{
	if (v != NULL && v->free != NULL)
		v->free(v);
}
