#include "config.h"
#include "source/source.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/i18n.h"

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

void
source_visit_cpus(const bool *visit, unsigned n)
{
	cpu_set_t old, one;
	unsigned cpu;

	if (sched_getaffinity(0, sizeof old, &old) != 0)
		return;
	for (cpu = 0; cpu < n && cpu < CPU_SETSIZE; cpu++) {
		if (!visit[cpu])
			continue;
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		if (sched_setaffinity(0, sizeof one, &one) == 0)
			sched_yield();
	}
	(void)sched_setaffinity(0, sizeof old, &old);
}

bool
source_cpu_selected(const struct source *s, unsigned cpu)
{
	if (s->selected.n == 0)
		return cpu < s->m->topo.max_cpu && s->m->topo.cpus[cpu].present;
	return cpulist_has(&s->selected, cpu);
}

static int
no_seek(const struct source *s, struct errmsg *e)
{
	return errmsg_set(e, _("the %s source cannot move in its data"), s->name);
}

int
source_peek_time(struct source *s, double *t, struct errmsg *e)
{
	return s->seek != NULL ? s->seek->peek_time(s, t, e) : no_seek(s, e);
}

int
source_scan(struct source *s, unsigned budget, struct errmsg *e)
{
	return s->seek != NULL ? s->seek->scan(s, budget, e) : no_seek(s, e);
}

int
source_rewind(struct source *s, struct errmsg *e)
{
	return s->seek != NULL ? s->seek->rewind(s, e) : no_seek(s, e);
}

int
source_seek_end(struct source *s, struct errmsg *e)
{
	return s->seek != NULL ? s->seek->seek_end(s, e) : no_seek(s, e);
}

void
source_pos(const struct source *s, struct source_pos *p)
{
	memset(p, 0, sizeof *p);
	if (s->seek != NULL)
		s->seek->pos(s, p);
}

bool
source_can_check(const struct source *s)
{
	return s->ops->check != NULL;
}

int
source_check(struct source *s, const struct cpulist *cpus, bool reclaim,
    struct source_diff *d, unsigned max, struct errmsg *e)
{
	if (s->ops->check == NULL)
		return errmsg_set(e, _("the %s source has no registers to read back"), s->name);
	return s->ops->check(s, cpus, reclaim, d, max, e);
}

bool
source_can_read_controls(const struct source *s)
{
	return s->ops->read_control != NULL;
}

int
source_read_control(struct source *s, const struct cpulist *cpus, uint32_t msr, uint64_t *val,
    bool *got, struct errmsg *e)
{
	if (s->ops->read_control == NULL)
		return errmsg_set(e, _("the %s source has no registers to read back"), s->name);
	return s->ops->read_control(s, cpus, msr, val, got, e);
}

const char *
source_msr_name(uint32_t msr, char *buf, size_t len)
{
	if (msr >= MSR_PERFEVTSEL0 && msr < MSR_PERFEVTSEL0 + 8)
		snprintf(buf, len, "PERFEVTSEL%u", (unsigned)(msr - MSR_PERFEVTSEL0));
	else if (msr == MSR_FIXED_CTR_CTRL)
		snprintf(buf, len, "FIXED_CTR_CTRL");
	else if (msr == MSR_PERF_GLOBAL_CTRL)
		snprintf(buf, len, "PERF_GLOBAL_CTRL");
	else if (msr == MSR_PERF_GLOBAL_OVF_CTRL)
		snprintf(buf, len, "PERF_GLOBAL_OVF_CTRL");
	else if (msr == MSR_AMD_HWCR)
		snprintf(buf, len, "HWCR");
	else
		snprintf(buf, len, "MSR 0x%x", (unsigned)msr);
	return buf;
}

bool
source_stats(const struct source *s, char *buf, size_t len)
{
	if (len > 0)
		buf[0] = '\0';
	if (s == NULL || s->ops->stats == NULL || len == 0)
		return false;
	s->ops->stats(s, buf, len);
	return true;
}
