/* identity.h: what CPU this is and the clock/PMU facts httop's formulas
 * depend on (CPUID leaves 0AH, 15H, 16H; MSR_PLATFORM_INFO). */
#ifndef HTTOP_IDENTITY_H
#define HTTOP_IDENTITY_H

#include <stdbool.h>
#include <stdint.h>

#include "util/errmsg.h"

enum cpu_vendor {
	CPU_VENDOR_UNKNOWN = 0,
	CPU_VENDOR_INTEL,
	CPU_VENDOR_AMD,
};

enum base_ratio_source {
	BASE_NONE = 0,        /* unknown: frequencies cannot be given in GHz */
	BASE_PLATFORM_INFO,   /* MSR 0xCE bits 15:8 */
	BASE_CPUID16,         /* CPUID 16H EAX (MHz) / 100 */
	BASE_BRAND,           /* "@ 2.10GHz" in the brand string */
	BASE_TRACE,           /* recorded in a trace file */
	BASE_USER,            /* given on the command line or by the simulator */
};

struct cpu_identity {
	enum cpu_vendor vendor;
	char vendor_str[16];     /* "GenuineIntel", "AuthenticAMD" */
	int family, model, stepping;  /* display family/model (extended fields folded in) */
	char brand[64];

	/* CPUID 0AH (Intel architectural perfmon); zero when absent. */
	unsigned pmu_version;
	unsigned n_gp;           /* programmable counters per thread */
	unsigned gp_width;       /* bits */
	unsigned n_fixed;        /* fixed counters */
	unsigned fixed_width;    /* bits */
	bool anythread_deprecated; /* CPUID.0AH:EDX[15] */

	/* CPUID 15H: TSC = crystal * tsc_num / tsc_den; crystal_hz may be 0. */
	unsigned tsc_num, tsc_den;
	uint64_t crystal_hz;
	/* CPUID 16H: base and max MHz; zero when absent. */
	unsigned base_mhz, max_mhz;

	/* Base (non-turbo, = TSC on invariant-TSC parts) ratio to the 100 MHz bus
	 * clock and where it came from. */
	unsigned base_ratio;
	enum base_ratio_source base_src;

	bool from_dump;          /* loaded from --cpuid FILE */
	char source[256];        /* "live", file name, or "topology" */
};

/* From the running CPU (dump_path NULL) or a libcpuid raw dump. */
int identity_load(struct cpu_identity *id, const char *dump_path, struct errmsg *e);
/* Only vendor/family/model/stepping/brand, e.g. from a topology's info. */
void identity_from_fields(struct cpu_identity *id, const char *vendor, int family, int model,
    int stepping, const char *brand);
/* Fill base_ratio from the brand string's "@ x.xxGHz" when nothing better is known. */
void identity_guess_base_from_brand(struct cpu_identity *id);
const char *base_ratio_source_name(enum base_ratio_source s);

/* Base ratio from MSR_PLATFORM_INFO (0xCE) bits 15:8, for the msr source;
 * a zero field leaves the identity as it was. */
void identity_set_platform_info(struct cpu_identity *id, uint64_t msr_ce);

/* The clock base_ratio multiplies: 100 MHz, or 133.33 MHz on
 * Nehalem/Westmere (UARCH_NHM). */
double identity_bus_hz(const struct cpu_identity *id);
/* Nominal (TSC) frequency in Hz (base_ratio * identity_bus_hz), or 0 if
 * unknown. */
double identity_tsc_hz(const struct cpu_identity *id);

#endif
