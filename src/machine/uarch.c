/* uarch.c: family/model -> counter-plan group (doc/hardware.md section 4). */
#include "config.h"
#include "machine/uarch.h"

#include <stddef.h>
#include <string.h>

#include "util/i18n.h"

/* Intel family 6 models. Every number was checked against the Linux
 * kernel's arch/x86/include/asm/intel-family.h (INTEL_<name> = IFM(6, n));
 * the kernel name is given for each. Models not listed are UARCH_UNKNOWN:
 * per-thread figures only. */
static const struct {
	unsigned char model;
	enum uarch_group group;
} intel6[] = {
	{ 0x1a, UARCH_NHM },  /* NEHALEM_EP */
	{ 0x1e, UARCH_NHM },  /* NEHALEM */
	{ 0x1f, UARCH_NHM },  /* NEHALEM_G */
	{ 0x2e, UARCH_NHM },  /* NEHALEM_EX */
	{ 0x25, UARCH_NHM },  /* WESTMERE */
	{ 0x2c, UARCH_NHM },  /* WESTMERE_EP */
	{ 0x2f, UARCH_NHM },  /* WESTMERE_EX */

	{ 0x2a, UARCH_SNB },  /* SANDYBRIDGE */
	{ 0x2d, UARCH_SNB },  /* SANDYBRIDGE_X */
	{ 0x3a, UARCH_SNB },  /* IVYBRIDGE */
	{ 0x3e, UARCH_SNB },  /* IVYBRIDGE_X */
	{ 0x3c, UARCH_SNB },  /* HASWELL */
	{ 0x3f, UARCH_SNB },  /* HASWELL_X */
	{ 0x45, UARCH_SNB },  /* HASWELL_L */
	{ 0x46, UARCH_SNB },  /* HASWELL_G */
	{ 0x3d, UARCH_SNB },  /* BROADWELL */
	{ 0x47, UARCH_SNB },  /* BROADWELL_G */
	{ 0x4f, UARCH_SNB },  /* BROADWELL_X */
	{ 0x56, UARCH_SNB },  /* BROADWELL_D */

	{ 0x4e, UARCH_SKX },  /* SKYLAKE_L */
	{ 0x5e, UARCH_SKX },  /* SKYLAKE */
	{ 0x55, UARCH_SKX },  /* SKYLAKE_X, also Cascade Lake and Cooper Lake */
	{ 0x8e, UARCH_SKX },  /* KABYLAKE_L */
	{ 0x9e, UARCH_SKX },  /* KABYLAKE */
	{ 0xa5, UARCH_SKX },  /* COMETLAKE */
	{ 0xa6, UARCH_SKX },  /* COMETLAKE_L */

	{ 0x6a, UARCH_ICX },  /* ICELAKE_X */
	{ 0x6c, UARCH_ICX },  /* ICELAKE_D */
	{ 0x7d, UARCH_ICX },  /* ICELAKE */
	{ 0x7e, UARCH_ICX },  /* ICELAKE_L */
	{ 0xa7, UARCH_ICX },  /* ROCKETLAKE */
	{ 0x8c, UARCH_ICX },  /* TIGERLAKE_L */
	{ 0x8d, UARCH_ICX },  /* TIGERLAKE */
	{ 0x8f, UARCH_ICX },  /* SAPPHIRERAPIDS_X */
	{ 0xcf, UARCH_ICX },  /* EMERALDRAPIDS_X */
	{ 0xad, UARCH_ICX },  /* GRANITERAPIDS_X */
	{ 0xae, UARCH_ICX },  /* GRANITERAPIDS_D */

	{ 0x57, UARCH_KNL },  /* XEON_PHI_KNL */
	{ 0x85, UARCH_KNL },  /* XEON_PHI_KNM */

	/* Hybrid clients: ALDERLAKE 0x97, ALDERLAKE_L 0x9A, RAPTORLAKE 0xB7,
	 * RAPTORLAKE_P 0xBA, RAPTORLAKE_S 0xBF. Their P-cores would fit
	 * UARCH_ICX, but the E-cores (no SMT) have their own PMU and event
	 * list, and one plan for all CPUs cannot serve both. Left UNKNOWN:
	 * per-thread figures from the fixed counters, no split claimed. */
	{ 0x97, UARCH_UNKNOWN },
	{ 0x9a, UARCH_UNKNOWN },
	{ 0xb7, UARCH_UNKNOWN },
	{ 0xba, UARCH_UNKNOWN },
	{ 0xbf, UARCH_UNKNOWN },
};

static const struct {
	const char *name;
	const char *title;
} groups[UARCH_NGROUPS] = {
	[UARCH_UNKNOWN] = { "unknown", N_("unknown microarchitecture") },
	[UARCH_NHM] = { "nhm", N_("Nehalem..Westmere") },
	[UARCH_SNB] = { "snb", N_("Sandy Bridge..Broadwell") },
	[UARCH_SKX] = { "skx", N_("Skylake..Cooper Lake") },
	[UARCH_ICX] = { "icx", N_("Ice Lake..Granite Rapids") },
	[UARCH_KNL] = { "knl", N_("Xeon Phi Knights Landing/Mill") },
	[UARCH_ZEN] = { "zen", N_("AMD Zen") },
};

enum uarch_group
uarch_group_of(const struct cpu_identity *id)
{
	size_t i;

	if (id->vendor == CPU_VENDOR_AMD) {
		/* 17H Zen/Zen+/Zen 2, 19H Zen 3/Zen 4, 1AH Zen 5 (AMD's
		 * processor programming references for those families). */
		if (id->family == 0x17 || id->family == 0x19 || id->family == 0x1a)
			return UARCH_ZEN;
		return UARCH_UNKNOWN;
	}
	if (id->vendor != CPU_VENDOR_INTEL || id->family != 6)
		return UARCH_UNKNOWN;
	for (i = 0; i < sizeof intel6 / sizeof intel6[0]; i++)
		if (intel6[i].model == id->model)
			return intel6[i].group;
	return UARCH_UNKNOWN;
}

const char *
uarch_group_name(enum uarch_group g)
{
	if ((unsigned)g >= UARCH_NGROUPS)
		g = UARCH_UNKNOWN;
	return groups[g].name;
}

const char *
uarch_group_title(enum uarch_group g)
{
	if ((unsigned)g >= UARCH_NGROUPS)
		g = UARCH_UNKNOWN;
	return _(groups[g].title);
}

enum uarch_group
uarch_group_parse(const char *name)
{
	unsigned g;

	for (g = 0; name != NULL && g < UARCH_NGROUPS; g++)
		if (strcmp(name, groups[g].name) == 0)
			return (enum uarch_group)g;
	return UARCH_NGROUPS;
}

/* Instructions per cycle the core can take in (rename/allocate width), for
 * corestat-style issue utilisation. Sources: Intel 64 and IA-32
 * Architectures Optimization Reference Manual (4-wide allocation from
 * Nehalem through Skylake; Sunny Cove 5-wide); Intel Architecture Day 2021
 * (Golden Cove 6-wide allocation, kept in Raptor/Redwood Cove); Intel's
 * Knights Landing description (2-wide decode and retire). Zen dispatches
 * macro-ops, not instructions, so no honest figure: 0. The width is in
 * uops/macro-ops; counting instructions against it is an approximation,
 * as corestat's was. */
unsigned
uarch_issue_width(enum uarch_group g, const struct cpu_identity *id)
{
	switch (g) {
	case UARCH_NHM:
	case UARCH_SNB:
	case UARCH_SKX:
		return 4;
	case UARCH_ICX:
		if (id != NULL && id->family == 6 &&
		    (id->model == 0x8f || id->model == 0xcf || id->model == 0xad ||
		    id->model == 0xae))
			return 6;
		return 5;
	case UARCH_KNL:
		return 2;
	case UARCH_ZEN:
	case UARCH_UNKNOWN:
	case UARCH_NGROUPS:
		break;
	}
	return 0;
}
