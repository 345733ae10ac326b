/* machine.c: topology, CPU identity and plan group, loaded once at start. */
#include "config.h"
#include "machine/machine.h"

#include <string.h>
#include <unistd.h>

#include "util/hostname.h"

int
machine_load(struct machine *m, const char *topology_xml, const char *cpuid_dump,
    struct errmsg *e)
{
	memset(m, 0, sizeof *m);
	if (topology_load(&m->topo, topology_xml, e) != 0)
		return -1;

	/* A dump says most; the live CPU is right only for the live topology;
	 * a recorded topology carries hwloc's CPUVendor/CPUModelNumber info. */
	if (cpuid_dump != NULL || topology_xml == NULL) {
		if (identity_load(&m->id, cpuid_dump, e) != 0) {
			topology_free(&m->topo);
			return -1;
		}
	} else {
		identity_from_fields(&m->id, m->topo.vendor, m->topo.family, m->topo.model,
		    m->topo.stepping, m->topo.brand);
	}
	m->group = uarch_group_of(&m->id);

	if (gethostname(m->hostname, sizeof m->hostname) != 0)
		m->hostname[0] = '\0';
	m->hostname[sizeof m->hostname - 1] = '\0';
	/* A name no trace or node could carry is not shown: unknown, as
	 * when there is none (--host gives one). */
	if (!host_name_ok(m->hostname))
		m->hostname[0] = '\0';
	return 0;
}

void
machine_free(struct machine *m)
{
	topology_free(&m->topo);
}
