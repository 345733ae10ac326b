#include "config.h"
#include "source/source.h"

#include <stdlib.h>

int
source_program(struct source *s, const struct plan *p, bool force, struct errmsg *e)
{
	if (s->ops->program == NULL) {
		s->plan = p;
		return 0;
	}
	if (s->ops->program(s, p, force, e) != 0)
		return -1;
	s->plan = p;
	return 0;
}

int
source_read(struct source *s, struct sample *out, struct errmsg *e)
{
	return s->ops->read(s, out, e);
}

void
source_advance(struct source *s, double seconds)
{
	if (s->ops->advance != NULL)
		s->ops->advance(s, seconds);
}

int
source_restore(struct source *s, struct errmsg *e)
{
	return s->ops->restore != NULL ? s->ops->restore(s, e) : 0;
}

void
source_emergency_restore(struct source *s)
{
	if (s != NULL && s->ops->emergency_restore != NULL)
		s->ops->emergency_restore(s);
}

void
source_close(struct source *s)
{
	struct errmsg e;

	if (s == NULL)
		return;
	source_restore(s, &e);
	cpulist_free(&s->selected);
	if (s->ops->close != NULL)
		s->ops->close(s);
}

bool
source_cpu_selected(const struct source *s, unsigned cpu)
{
	if (s->selected.n == 0)
		return cpu < s->m->topo.max_cpu && s->m->topo.cpus[cpu].present;
	return cpulist_has(&s->selected, cpu);
}
