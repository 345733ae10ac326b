/* scroll.c: the scrolling keys every view shares. */
#include "config.h"

#include <curses.h>

#include "ui/ui.h"

bool
view_scroll_key(struct view *v, int ch, int page, int maxscroll)
{
	int step = page > 1 ? page - 1 : 1;   /* keep one line of context */

	switch (ch) {
	case KEY_UP: v->scroll--; break;
	case KEY_DOWN: v->scroll++; break;
	case KEY_PPAGE: v->scroll -= step; break;
	case KEY_NPAGE: v->scroll += step; break;
	case KEY_HOME: v->scroll = 0; break;
	case KEY_END: v->scroll = maxscroll; break;
	default: return false;
	}
	view_scroll_clamp(v, maxscroll);
	return true;
}

void
view_scroll_clamp(struct view *v, int maxscroll)
{
	if (v->scroll > maxscroll)
		v->scroll = maxscroll;
	if (v->scroll < 0)
		v->scroll = 0;
}
