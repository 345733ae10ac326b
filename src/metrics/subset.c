/* subset.c: the aggregate over the cores a watched job may run on, for the
 * header's job summary. A core counts if any of its CPUs is in the job's
 * list: the job shares that core's time with whatever runs on its sibling,
 * and the split is a property of the whole core. */
#include "config.h"
#include "metrics/internal.h"

static bool
core_in_list(const struct topo_core *tc, const void *arg)
{
	const struct cpulist *cpus = arg;
	unsigned k;

	for (k = 0; k < tc->nthreads; k++)
		if (cpulist_has(cpus, tc->cpus[k]))
			return true;
	return false;
}

void
metrics_aggregate_subset(const struct interval *iv, const struct topology *t,
    const struct cpulist *cpus, struct agg_fig *out)
{
	aggregate_over(iv, t, core_in_list, cpus, out);
}
