/* replay_source.c: a recorded trace as a counter source. Nothing is
 * programmed or restored; each read is the next complete interval. The
 * clock is virtual: batch mode replays as fast as it can. */
#include "config.h"
#include "source/sources.h"

#include <stdio.h>
#include <stdlib.h>

#include "trace/trace.h"
#include "util/xalloc.h"

/* The trace holds every CPU it recorded; --cpus leaves the others out,
 * as the live sources do by not reading them. */
static int
replay_read(struct source *s, struct sample *out, struct errmsg *e)
{
	unsigned cpu;
	int rc = trace_next(s->priv, out, e);

	if (rc != 0 || s->selected.n == 0)
		return rc;
	for (cpu = 0; cpu < out->max_cpu; cpu++) {
		if (!cpulist_has(&s->selected, cpu)) {
			out->state[cpu] = CPU_NOT_READ;
			out->err[cpu] = 0;
		}
	}
	return 0;
}

static void
replay_close(struct source *s)
{
	trace_close(s->priv);
	free(s);
}

static const struct source_ops replay_ops = {
	.program = NULL,
	.read = replay_read,
	.advance = NULL,
	.restore = NULL,
	.emergency_restore = NULL,
	.close = replay_close,
};

struct source *
replay_source_new(const char *path, struct machine *m, struct plan *plan, struct errmsg *e)
{
	struct trace_reader *r;
	struct source *s;

	if ((r = trace_open(path, m, plan, e)) == NULL)
		return NULL;
	s = xcalloc(1, sizeof *s);
	s->ops = &replay_ops;
	s->priv = r;
	s->name = "replay";
	s->virtual_clock = true;
	s->m = m;
	s->plan = plan;
	snprintf(s->detail, sizeof s->detail, "%s (%s)", path, trace_producer(r));
	return s;
}

/* The reader behind a replay source, for its events and header note. */
struct trace_reader *
replay_source_reader(struct source *s)
{
	return s->priv;
}
