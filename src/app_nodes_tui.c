/* app_nodes_tui.c: the live view over many nodes (placeholder until the
 * Nodes view exists). */
#include "config.h"
#include "app_nodes.h"

#include <stdio.h>

#include "app.h"
#include "util/i18n.h"

int
app_nodes_tui(struct nodes_app *na)
{
	(void)na;
	fprintf(stderr, "httop: %s\n", _("the live view of many nodes is not built yet; use -b"));
	return EXIT_FAIL;
}
