/* topology.h: packages, dies, L3 groups, cores and SMT threads of a machine,
 * from the live system or a recorded hwloc XML (--topology). Built once at
 * start; nothing in here changes per refresh except `online`. */
#ifndef HTTOP_TOPOLOGY_H
#define HTTOP_TOPOLOGY_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "util/errmsg.h"

/* Xeon Phi has 4 threads per core; nothing shipped has more. */
#define TOPO_MAX_SMT 4

/* topo_cpu.core of a CPU that is present but offline: Linux does not say
 * which core it belongs to until it comes online. */
#define TOPO_NO_CORE UINT_MAX
/* topo_cpu.package of such a CPU when no package claims it either. */
#define TOPO_NO_PACKAGE UINT_MAX
/* topo_core.l3 of a core with no L3 (Xeon Phi: only the MCDRAM memory-side
 * cache, which hwloc 1.x recorded as a 16 GB "L3"; it is not counted). */
#define TOPO_NO_L3 UINT_MAX

struct topo_core {
	unsigned package;          /* package os_index (physical socket id) */
	unsigned die;              /* die index within the package (0 if none) */
	unsigned l3;               /* L3 group logical index machine-wide */
	unsigned core_id;          /* Core os_index (sysfs core_id; with holes) */
	unsigned index;            /* position in topology.cores[] */
	unsigned nthreads;         /* SMT threads present in the topology */
	unsigned cpus[TOPO_MAX_SMT]; /* OS CPU numbers, thread 0 first */
};

struct topo_cpu {
	bool present;              /* appears in the topology (maybe offline) */
	bool online;               /* currently usable */
	unsigned core;             /* index into topology.cores[] */
	unsigned thread;           /* position within its core (0 = thread 0) */
	unsigned package;
};

struct topology {
	unsigned npackages;
	unsigned ndies;            /* total dies over all packages */
	unsigned nl3;              /* total L3 groups */
	bool l3_unknown;           /* no L3 groups in what it was built from (a
				    * node's JSON, httop --nodes): nl3 means nothing */
	unsigned ncores;
	unsigned ncpus;            /* CPUs present (online or not) */
	unsigned max_cpu;          /* largest OS CPU number + 1: size of cpus[] */
	unsigned max_smt;          /* largest nthreads over all cores */
	struct topo_core *cores;   /* ordered by package, then core_id */
	struct topo_cpu *cpus;     /* indexed by OS CPU number, max_cpu entries */

	/* CPU identity as recorded by hwloc's info attributes (CPUVendor,
	 * CPUFamilyNumber, CPUModelNumber, CPUModel, CPUStepping): empty/-1 when
	 * the file has none. Used when no --cpuid dump is given. */
	char vendor[16];
	int family, model, stepping;
	char brand[64];

	char source[256];          /* "live" or the file name it came from */

	/* While topology_add_cpu builds it: room in cores[] and cpus[], and
	 * an index of cores[] by (package, die, core_id), so n CPUs cost O(n).
	 * Freed by topology_finish (which reorders cores[]). */
	unsigned cores_cap, cpus_cap;
	unsigned *core_index;      /* open addressing: core index + 1, 0 = empty */
	unsigned core_index_size;  /* a power of two, or 0 */
};

/* Load the live machine (xml_path NULL) or a hwloc XML file (v1 or v2).
 * A directory is taken as an HWLOC_FSROOT-style sysfs/procfs root. */
int topology_load(struct topology *t, const char *xml_path, struct errmsg *e);
/* Build a topology by hand (tests, simulator, replay): `npkg` packages of
 * `ncores_per_pkg` cores of `smt` threads; numbering as Linux does on Intel
 * servers: thread 0 of every core first, then thread 1 (+ncores). */
void topology_synthetic(struct topology *t, unsigned npkg, unsigned ncores_per_pkg, unsigned smt);
/* Start an empty topology for topology_add_cpu() (a zeroed struct works
 * too, but leaves family/model/stepping 0 instead of -1). */
void topology_init(struct topology *t);
/* Append one CPU to a topology under construction (replay, trace files);
 * cores are created as needed, keyed by (package, die, core_id). Call
 * topology_finish() when done. */
void topology_add_cpu(struct topology *t, unsigned cpu, unsigned package, unsigned die,
    unsigned l3, unsigned core_id, unsigned thread, bool online);
void topology_finish(struct topology *t);
void topology_free(struct topology *t);

/* The core a CPU belongs to, or NULL if the CPU is not in the topology. */
const struct topo_core *topology_core_of(const struct topology *t, unsigned cpu);

#endif
