/* machine.h: everything httop knows about the machine before it reads a
 * counter: topology, CPU identity, the plan group. Built once at start. */
#ifndef HTTOP_MACHINE_H
#define HTTOP_MACHINE_H

#include "machine/capid.h"
#include "machine/identity.h"
#include "machine/topology.h"
#include "machine/uarch.h"
#include "util/cpulist.h"
#include "util/errmsg.h"
#include "util/hostname.h"

struct machine {
	struct topology topo;
	struct cpu_identity id;
	enum uarch_group group;
	char hostname[HOST_NAME_LEN + 1]; /* host_name_ok, or "" (unknown) */
	/* CAPID6 that comes with the machine rather than from its PCI space:
	 * the demo's, a scenario's (n 0: none). */
	struct capid6_given capid6;
	/* A node's machine as its JSON line describes it (httop --nodes): the
	 * identity (vendor, model, brand, base ratio, TSC, PMU) is not known
	 * here, only the group, split and scale the node reported. */
	bool remote;
	/* The topology came from --topology FILE as a declaration about this
	 * machine (a source that reads this machine's kernel, not its PMU:
	 * sched, procstat): FILE says which of its CPUs share a core, the
	 * identity is this machine's (machine_declare_here). */
	bool declared;
};

/* Load topology (xml NULL: live) and identity (cpuid NULL: live, or from the
 * topology's info attributes when xml is given), then pick the group. */
int machine_load(struct machine *m, const char *topology_xml, const char *cpuid_dump,
    struct errmsg *e);
void machine_free(struct machine *m);
/* The CPU's brand string: CPUID's, else the topology's ("" when neither
 * says), as the header and the JSON lines give it. */
const char *machine_brand(const struct machine *m);

/* The topology loaded from a file (machine_load with topology_xml) is a
 * declaration about this machine: which of its CPUs share a core. Its
 * CPUs must be exactly `online`, this machine's online CPUs, save those
 * `present` here but offline now (NULL: none), which are kept in their
 * cores and marked offline (the sources read them once they come
 * online); else -1 with a message naming the first CPU that differs,
 * both lists and the fix ("--topology FILE: ..."; `what` names the
 * file). On success the identity is this machine's (unless `cpuid_dump`
 * gives one), and m->declared is set. */
int machine_declare_here(struct machine *m, const struct cpulist *online,
    const struct cpulist *present, const char *what, const char *cpuid_dump, struct errmsg *e);

#endif
