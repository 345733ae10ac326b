/* machine.c: topology, CPU identity and plan group, loaded once at start. */
#include "config.h"
#include "machine/machine.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/hostname.h"
#include "util/i18n.h"


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

const char *
machine_brand(const struct machine *m)
{
	return m->id.brand[0] != '\0' ? m->id.brand : m->topo.brand;
}

void
machine_free(struct machine *m)
{
	topology_free(&m->topo);
}

/* Is `cpu` one of the file's CPUs placed in a core? */
static bool
declared_cpu(const struct topology *t, unsigned cpu)
{
	return cpu < t->max_cpu && t->cpus[cpu].present && t->cpus[cpu].online &&
	    t->cpus[cpu].core != TOPO_NO_CORE;
}

/* The first CPU on which the file and `online` differ (UINT_MAX: none),
 * a CPU of the file that is present here but offline apart; *in_file
 * says which side has it. */
static unsigned
first_difference(const struct topology *t, const struct cpulist *online,
    const struct cpulist *present, bool *in_file)
{
	size_t n = t->max_cpu > online->n ? t->max_cpu : online->n, cpu;

	for (cpu = 0; cpu < n; cpu++) {
		bool f = declared_cpu(t, (unsigned)cpu), o = cpulist_has(online, (unsigned)cpu);

		if (f && !o && present != NULL && cpulist_has(present, (unsigned)cpu))
			continue;
		if (f != o) {
			*in_file = f;
			return (unsigned)cpu;
		}
	}
	return UINT_MAX;
}

int
machine_declare_here(struct machine *m, const struct cpulist *online,
    const struct cpulist *present, const char *what, const char *cpuid_dump, struct errmsg *e)
{
	struct topology *t = &m->topo;
	char here[256] = "", file[256] = "";
	bool in_file = false, *has;
	unsigned cpu = first_difference(t, online, present, &in_file), i;
	struct cpu_identity id;

	if (cpu != UINT_MAX) {
		cpulist_append(here, sizeof here, online->has, online->n);
		has = calloc(t->max_cpu ? t->max_cpu : 1, sizeof *has);
		if (has != NULL) {
			for (i = 0; i < t->max_cpu; i++)
				has[i] = declared_cpu(t, i);
			cpulist_append(file, sizeof file, has, t->max_cpu);
			free(has);
		}
		if (in_file)
			return errmsg_set(e, _("--topology %s: CPU %u of the file is not an online CPU "
			    "of this machine; the file declares which of this machine's CPUs share a "
			    "core, so its CPUs (%s) must be this machine's online CPUs (%s): give a "
			    "file of this machine"), what, cpu, file[0] ? file : "-", here[0] ? here : "-");
		return errmsg_set(e, _("--topology %s: CPU %u is online on this machine but not in "
		    "the file; the file declares which of this machine's CPUs share a core, so "
		    "its CPUs (%s) must be this machine's online CPUs (%s): add it"), what, cpu,
		    file[0] ? file : "-", here[0] ? here : "-");
	}
	/* A CPU of the file that is offline here stays in its core, offline
	 * as a CPU taken down after the start would be. */
	for (i = 0; i < t->max_cpu; i++)
		if (declared_cpu(t, i) && !cpulist_has(online, i))
			t->cpus[i].online = false;
	/* A dump was loaded with the file; else the file's own CPU fields
	 * would describe the machine it was written on. */
	if (cpuid_dump == NULL) {
		if (identity_load(&id, NULL, e) != 0)
			return -1;
		m->id = id;
		m->group = uarch_group_of(&m->id);
	}
	m->declared = true;
	return 0;
}
