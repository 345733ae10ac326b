/* view_die.c: the die grid view. Skeleton: being written. */
#include "config.h"

#include "ui/screen.h"
#include "ui/ui.h"
#include "util/i18n.h"

static void
die_draw(struct view *v, struct ui_ctx *u, const struct ui_area *a, const struct ui_frame *f)
{
	(void)v;
	(void)f;
	draw_text(u, a->top, a->left, a->cols, ROLE_LABEL, _("Die grid"));
}

struct view view_die = {
	.id = VIEW_DIE,
	.name = N_("Die"),
	.draw = die_draw,
};
