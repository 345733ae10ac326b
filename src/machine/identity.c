/* identity.c: vendor, family/model, brand and the PMU and clock leaves, from
 * the running CPU or a libcpuid raw dump. libcpuid only reads the raw leaves;
 * the decoding is ours, so it does not depend on libcpuid's model tables. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libcpuid.h>

#include "machine/identity.h"
#include "machine/uarch.h"
#include "util/i18n.h"
#include "util/textesc.h"
#include "util/infile.h"
#include "util/xalloc.h"

enum { R_EAX, R_EBX, R_ECX, R_EDX };

/* The 100 MHz bus clock, and Nehalem/Westmere's 133.33 MHz one (Intel SDM
 * vol. 4, MSR_PLATFORM_INFO: "maximum non-turbo ratio ... the frequency is
 * this ratio times 133.33 MHz" on those parts). */
/* A raw dump is about 100 short lines per logical CPU (the largest fixture,
 * 256 CPUs, is 0.9 MB; report text after the dump has lines of a few
 * hundred bytes). libcpuid reads lines with fgets and would loop forever on
 * a stream of NUL bytes, so the file is checked before libcpuid sees it. */
#define CPUID_MAX_SIZE (16 * 1024 * 1024)
#define CPUID_MAX_LINE 4096

#define BUS_HZ 100e6
#define BUS_HZ_NHM (400e6 / 3)

static unsigned
bits(uint32_t v, unsigned lo, unsigned hi)
{
	return (unsigned)((v >> lo) & ((hi - lo >= 31) ? 0xffffffffu : ((1u << (hi - lo + 1)) - 1)));
}

static void
identity_clear(struct cpu_identity *id)
{
	memset(id, 0, sizeof *id);
	id->family = id->model = id->stepping = -1;
}

static void
set_vendor(struct cpu_identity *id, const char *v)
{
	snprintf(id->vendor_str, sizeof id->vendor_str, "%s", v ? v : "");
	if (strcmp(id->vendor_str, "GenuineIntel") == 0)
		id->vendor = CPU_VENDOR_INTEL;
	else if (strcmp(id->vendor_str, "AuthenticAMD") == 0)
		id->vendor = CPU_VENDOR_AMD;
	else
		id->vendor = CPU_VENDOR_UNKNOWN;
}

const char *
base_ratio_source_name(enum base_ratio_source s)
{
	switch (s) {
	case BASE_NONE:          return "none";
	case BASE_PLATFORM_INFO: return "MSR_PLATFORM_INFO";
	case BASE_CPUID16:       return "CPUID.16H";
	case BASE_BRAND:         return "brand string";
	case BASE_TRACE:         return "trace";
	case BASE_USER:          return "user";
	}
	return "?";
}

double
identity_bus_hz(const struct cpu_identity *id)
{
	return uarch_group_of(id) == UARCH_NHM ? BUS_HZ_NHM : BUS_HZ;
}

double
identity_tsc_hz(const struct cpu_identity *id)
{
	if (id->base_ratio == 0)
		return 0;
	/* AMD: only when a ratio is known (from a trace or the user); it is
	 * then taken in 100 MHz steps like Intel's. */
	return id->base_ratio * identity_bus_hz(id);
}

void
identity_guess_base_from_brand(struct cpu_identity *id)
{
	const char *at = strrchr(id->brand, '@');
	double v, hz;
	char *end;

	if (id->base_src != BASE_NONE || at == NULL)
		return;
	errno = 0;
	v = strtod(at + 1, &end);
	if (errno != 0 || end == at + 1 || v <= 0)
		return;
	while (*end == ' ')
		end++;
	if (strncmp(end, "GHz", 3) == 0)
		hz = v * 1e9;
	else if (strncmp(end, "MHz", 3) == 0)
		hz = v * 1e6;
	else
		return;
	/* "2.67GHz" on a Nehalem is 20 x 133.33 MHz; elsewhere 100 MHz steps. */
	v = floor(hz / identity_bus_hz(id) + 0.5);
	if (v < 1 || v > 255)
		return;
	id->base_ratio = (unsigned)v;
	id->base_src = BASE_BRAND;
}

void
identity_set_platform_info(struct cpu_identity *id, uint64_t msr_ce)
{
	unsigned r = (unsigned)((msr_ce >> 8) & 0xff);

	if (r == 0)
		return;
	id->base_ratio = r;
	id->base_src = BASE_PLATFORM_INFO;
}

void
identity_from_fields(struct cpu_identity *id, const char *vendor, int family, int model,
    int stepping, const char *brand)
{
	identity_clear(id);
	set_vendor(id, vendor);
	id->family = family;
	id->model = model;
	id->stepping = stepping;
	if (brand != NULL)
		text_squeeze(id->brand, sizeof id->brand, brand, strlen(brand));
	snprintf(id->source, sizeof id->source, "topology");
	identity_guess_base_from_brand(id);
}

/* Decode the leaves httop needs from one logical CPU's raw CPUID. */
static void
decode_raw(struct cpu_identity *id, const struct cpu_raw_data_t *raw)
{
	const uint32_t *l0 = raw->basic_cpuid[0], *l1 = raw->basic_cpuid[1];
	unsigned max = l0[R_EAX], fam, mod, ext_max;
	char v[13];

	memcpy(v, &l0[R_EBX], 4);
	memcpy(v + 4, &l0[R_EDX], 4);
	memcpy(v + 8, &l0[R_ECX], 4);
	v[12] = '\0';
	set_vendor(id, v);

	/* Leaf 1 EAX. Intel (SDM vol. 2, CPUID): family 0FH adds the extended
	 * family; families 06H and 0FH add extended model << 4. AMD (APM vol. 3):
	 * both only when the base family is 0FH. */
	if (max >= 1) {
		fam = bits(l1[R_EAX], 8, 11);
		mod = bits(l1[R_EAX], 4, 7);
		id->stepping = (int)bits(l1[R_EAX], 0, 3);
		if (fam == 0xf)
			id->family = (int)(fam + bits(l1[R_EAX], 20, 27));
		else
			id->family = (int)fam;
		if (fam == 0xf || (fam == 6 && id->vendor != CPU_VENDOR_AMD))
			mod += bits(l1[R_EAX], 16, 19) << 4;
		id->model = (int)mod;
	}

	/* Brand: 0x80000002..4, 16 bytes each in EAX, EBX, ECX, EDX order. */
	ext_max = raw->ext_cpuid[0][R_EAX];
	if (ext_max >= 0x80000004 && ext_max <= 0x8000ffff) {
		char b[49];
		unsigned i, r;

		for (i = 0; i < 3; i++)
			for (r = 0; r < 4; r++)
				memcpy(b + 16 * i + 4 * r, &raw->ext_cpuid[2 + i][r], 4);
		b[48] = '\0';
		text_squeeze(id->brand, sizeof id->brand, b, 48);
	}

	/* 0AH architectural perfmon (SDM vol. 3 ch. 20 / CPUID 0AH). The fixed
	 * counter fields are defined from version 2 on. */
	if (max >= 0xa && id->vendor == CPU_VENDOR_INTEL) {
		const uint32_t *a = raw->basic_cpuid[0xa];

		id->pmu_version = bits(a[R_EAX], 0, 7);
		id->n_gp = bits(a[R_EAX], 8, 15);
		id->gp_width = bits(a[R_EAX], 16, 23);
		if (id->pmu_version >= 2) {
			id->n_fixed = bits(a[R_EDX], 0, 4);
			id->fixed_width = bits(a[R_EDX], 5, 12);
		}
		id->anythread_deprecated = bits(a[R_EDX], 15, 15) != 0;
	}
	/* 15H: TSC = crystal * EBX / EAX; EBX = 0 means not enumerated. */
	if (max >= 0x15 && raw->basic_cpuid[0x15][R_EBX] != 0 &&
	    raw->basic_cpuid[0x15][R_EAX] != 0) {
		id->tsc_den = raw->basic_cpuid[0x15][R_EAX];
		id->tsc_num = raw->basic_cpuid[0x15][R_EBX];
		id->crystal_hz = raw->basic_cpuid[0x15][R_ECX];
	}
	/* 16H: base and maximum frequency in MHz, bits 15:0. */
	if (max >= 0x16) {
		id->base_mhz = bits(raw->basic_cpuid[0x16][R_EAX], 0, 15);
		id->max_mhz = bits(raw->basic_cpuid[0x16][R_EBX], 0, 15);
	}
	if (id->base_mhz != 0) {
		id->base_ratio = (id->base_mhz + 50) / 100;
		id->base_src = BASE_CPUID16;
	}
	identity_guess_base_from_brand(id);
}

/* libcpuid reports parse trouble through its warning hook (stderr by
 * default); keep the first one for our error message instead. */
static char first_warning[256];

static void
catch_warning(const char *msg)
{
	if (first_warning[0] == '\0')
		text_squeeze(first_warning, sizeof first_warning, msg, strlen(msg));
	/* drop the newline libcpuid ends with */
	first_warning[strcspn(first_warning, "\r\n")] = '\0';
}

/* Check the dump within its limits (infile.h) before libcpuid reads it;
 * *affmask: it has the AIDA64 "CPU#000 AffMask:" layout, which came after
 * libcpuid 0.6.2. */
static int
check_dump(struct infile *f, bool *affmask, struct errmsg *e)
{
	char *line = xmalloc(CPUID_MAX_LINE + 2);
	int r;

	*affmask = false;
	while ((r = infile_getline(f, line, CPUID_MAX_LINE + 2, e)) == 1)
		if (!*affmask && strstr(line, " AffMask: ") != NULL)
			*affmask = true;
	free(line);
	return r;
}

static int
load_dump(struct cpu_identity *id, const char *path, struct errmsg *e)
{
	struct cpu_raw_data_array_t all;
	struct cpu_raw_data_t one;
	libcpuid_warn_fn_t old;
	struct infile f;
	char fdpath[64];
	const char *lib_path = path;
	bool affmask;
	int rc = 0;

	if (infile_open(&f, path, _("CPUID dump"), CPUID_MAX_SIZE, CPUID_MAX_LINE, e) != 0)
		return -1;
	if (check_dump(&f, &affmask, e) != 0) {
		infile_close(&f);
		return -1;
	}
	/* libcpuid opens by name: give it the file just checked, through
	 * our descriptor, not whatever the name points at by then. */
	snprintf(fdpath, sizeof fdpath, "/proc/self/fd/%d", fileno(f.fp));
	if (access(fdpath, R_OK) == 0)
		lib_path = fdpath;

	first_warning[0] = '\0';
	old = cpuid_set_warn_function(catch_warning);
	/* Multi-CPU layouts (AIDA64, libcpuid's own all-CPU format) first; the
	 * single-CPU reader would keep the last CPU and warn about headers. */
	memset(&all, 0, sizeof all);
	if (cpuid_deserialize_all_raw_data(&all, lib_path) == 0 && all.num_raw > 0 &&
	    all.raw[0].basic_cpuid[0][R_EAX] != 0) {
		decode_raw(id, &all.raw[0]);
	} else {
		memset(&one, 0, sizeof one);
		first_warning[0] = '\0';
		if (cpuid_deserialize_raw_data(&one, lib_path) != 0 ||
		    one.basic_cpuid[0][R_EAX] == 0)
			rc = -1;
		else
			decode_raw(id, &one);
	}
	cpuid_free_raw_data_array(&all);
	cpuid_set_warn_function(old);
	infile_close(&f);

	if (rc != 0) {
		if (affmask)
			return errmsg_set(e, _("CPUID dump %s is in the AIDA64 \"AffMask\" layout, "
			    "which needs libcpuid >= 0.6.4 (this build uses %s); convert it or "
			    "upgrade libcpuid"), path, cpuid_lib_version());
		return errmsg_set(e, _("CPUID dump %s has no CPUID data libcpuid can read%s%s; "
		    "give a dump written by cpuid_tool --save or AIDA64"), path,
		    first_warning[0] ? ": " : "", first_warning);
	}
	id->from_dump = true;
	snprintf(id->source, sizeof id->source, "%s", path);
	return 0;
}

int
identity_load(struct cpu_identity *id, const char *dump_path, struct errmsg *e)
{
	struct cpu_raw_data_t raw;

	identity_clear(id);
	if (dump_path != NULL)
		return load_dump(id, dump_path, e);
	if (!cpuid_present())
		return errmsg_set(e, _("this CPU has no CPUID instruction; give --cpuid FILE"));
	memset(&raw, 0, sizeof raw);
	if (cpuid_get_raw_data(&raw) != 0)
		return errmsg_set(e, _("cannot read CPUID: %s"), cpuid_error());
	decode_raw(id, &raw);
	snprintf(id->source, sizeof id->source, "live");
	return 0;
}
