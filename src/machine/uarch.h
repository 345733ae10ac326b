/* uarch.h: the microarchitecture groups that decide the counter plan
 * (doc/hardware.md section 4). One table maps family/model to a group. */
#ifndef HTTOP_UARCH_H
#define HTTOP_UARCH_H

#include "machine/identity.h"

enum uarch_group {
	UARCH_UNKNOWN = 0,  /* per-thread figures only, said so */
	UARCH_NHM,          /* Nehalem/Westmere: REF_P + ANY */
	UARCH_SNB,          /* Sandy Bridge..Broadwell: REF_XCLK (100 MHz) + ANY */
	UARCH_SKX,          /* Skylake..Cooper Lake: REF_XCLK (crystal) + ANY */
	UARCH_ICX,          /* Ice Lake..Granite Rapids: ONE_THREAD_ACTIVE per thread */
	UARCH_KNL,          /* Xeon Phi KNL/KNM: 4 threads per core */
	UARCH_ZEN,          /* AMD Zen: APERF/MPERF/IRPerfCount, split as a bound */
	UARCH_NGROUPS
};

enum uarch_group uarch_group_of(const struct cpu_identity *id);
const char *uarch_group_name(enum uarch_group g);   /* short: "skx" */
const char *uarch_group_title(enum uarch_group g);  /* "Skylake..Cooper Lake" */
/* Parse a short name back (trace files, --plan); UARCH_NGROUPS if unknown. */
enum uarch_group uarch_group_parse(const char *name);
/* Instructions the core can issue per cycle, for corestat-style issue
 * utilisation; 0 when not known. */
unsigned uarch_issue_width(enum uarch_group g, const struct cpu_identity *id);

#endif
