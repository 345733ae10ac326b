#include "config.h"
#include "sample/sample.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

void
sample_init(struct sample *s, unsigned max_cpu, unsigned nslots, unsigned ncores, bool truth)
{
	memset(s, 0, sizeof *s);
	s->max_cpu = max_cpu;
	s->nslots = nslots;
	s->ncores = ncores;
	s->v = xcalloc((size_t)max_cpu * (nslots ? nslots : 1), sizeof *s->v);
	s->state = xcalloc(max_cpu ? max_cpu : 1, sizeof *s->state);
	s->err = xcalloc(max_cpu ? max_cpu : 1, sizeof *s->err);
	s->scaled = xcalloc(max_cpu ? max_cpu : 1, sizeof *s->scaled);
	s->job = xcalloc(max_cpu ? max_cpu : 1, sizeof *s->job);
	memset(s->state, CPU_NOT_READ, max_cpu);
	if (truth)
		s->truth = xcalloc((size_t)ncores * 4 + 1, sizeof *s->truth);
}

void
sample_free(struct sample *s)
{
	free(s->v);
	free(s->state);
	free(s->err);
	free(s->scaled);
	free(s->job);
	free(s->truth);
	memset(s, 0, sizeof *s);
}

void
sample_copy(struct sample *dst, const struct sample *src)
{
	dst->seq = src->seq;
	dst->time = src->time;
	dst->wall = src->wall;
	memcpy(dst->v, src->v, (size_t)src->max_cpu * src->nslots * sizeof *src->v);
	memcpy(dst->state, src->state, src->max_cpu);
	memcpy(dst->err, src->err, src->max_cpu * sizeof *src->err);
	memcpy(dst->scaled, src->scaled, src->max_cpu);
	dst->has_job = src->has_job && src->job != NULL && dst->job != NULL;
	if (dst->has_job)
		memcpy(dst->job, src->job, src->max_cpu);
	if (src->truth != NULL && dst->truth != NULL)
		memcpy(dst->truth, src->truth, (size_t)src->ncores * 4 * sizeof *src->truth);
}
