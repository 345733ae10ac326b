/* views.c: the views, one table: making a view by its id (each view's
 * constructor) and freeing one. */
#include "config.h"

#include <stddef.h>

#include "ui/ui.h"

static struct view *(*const makers[VIEW_ALL])(struct ui_settings *) = {
	[VIEW_CORES] = view_cores_new,
	[VIEW_THREADS] = view_threads_new,
	[VIEW_TOPOLOGY] = view_topology_new,
	[VIEW_DIE] = view_die_new,
	[VIEW_NODES] = view_nodes_new,
};

struct view *
view_new(enum view_id id, struct ui_settings *s)
{
	if ((unsigned)id >= VIEW_ALL || makers[id] == NULL)
		return NULL;
	return makers[id](s);
}

void
view_free(struct view *v)
{
	if (v != NULL && v->free != NULL)
		v->free(v);
}
