/* perf_source.c: counters through perf_event_open(2). Skeleton: being
 * written. */
#include "config.h"

#include "source/sources.h"
#include "util/i18n.h"

struct source *
perf_source_open(struct machine *m, struct plan *plan, struct errmsg *e)
{
	(void)m;
	(void)plan;
	errmsg_set(e, _("--source perf: not available yet"));
	return NULL;
}
