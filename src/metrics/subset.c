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

struct in_package {
	const struct cpulist *cpus;
	unsigned package;
};

static bool
core_in_package(const struct topo_core *tc, const void *arg)
{
	const struct in_package *a = arg;

	return tc->package == a->package && core_in_list(tc, a->cpus);
}

void
metrics_aggregate_subset_package(const struct interval *iv, const struct topology *t,
    const struct cpulist *cpus, unsigned package, struct agg_fig *out)
{
	struct in_package a = { cpus, package };

	aggregate_over(iv, t, core_in_package, &a, out);
}
