/* test_identity.c: identity_load() on every CPUID dump in fixtures/cpuid,
 * the base-ratio sources, and machine_load() taking the identity from a
 * topology's info attributes.
 *
 * Every expected value was decoded by hand from the first logical CPU's
 * leaf lines of the dump ("CPUID 0000000A: EAX-EBX-ECX-EDX" in AIDA64
 * files, "basic_cpuid[10]=eax ebx ecx edx" in libcpuid's own format):
 *   leaf 1 EAX: stepping 3:0, model 7:4, family 11:8, ext. model 19:16,
 *     ext. family 27:20. E.g. EMR 000C06F2: family 6, model 0xC<<4 | 0xF =
 *     0xCF, stepping 2. Zen 2 00830F10: family 0xF + 0x08 = 0x17, model
 *     0x3<<4 | 0x1 = 0x31, stepping 0.
 *   leaf 0AH: EAX 7:0 version, 15:8 GP counters, 23:16 GP width; EDX 4:0
 *     fixed counters, 12:5 fixed width, 15 AnyThread deprecated. E.g. SPR
 *     EAX 08300805, EDX 00008604: v5, 8 GP, 0x30 = 48 bits, 4 fixed,
 *     0x8604 >> 5 & 0xff = 0x30 = 48 bits, bit 15 set.
 *   leaf 15H: EAX denominator, EBX numerator, ECX crystal Hz. E.g. SPR w7
 *     00000002-000000D8-016E3600: 216/2, 0x016E3600 = 24000000 Hz.
 *   leaf 16H EAX/EBX: base/max MHz (0x9C4 = 2500, 0xED8 = 3800).
 *   Leaves 15H/16H count only when leaf 0 EAX (max leaf) reaches them: the
 *   old native dumps (max 0BH/0DH) hold junk in basic_cpuid[21], [22].
 *   brand: the 48 bytes of 0x80000002..4 read as little-endian EAX, EBX,
 *   ECX, EDX (checked with a short Python decode), blanks squeezed.
 *   base ratio: 16H base MHz / 100 (2500 -> 25); else the brand's "@ x GHz"
 *   over 100 MHz, or over 133.33 MHz on Nehalem/Westmere (E5520 2.27 GHz ->
 *   17.03 -> 17, X5650 2.67 -> 20.03 -> 20, X5667 3.07 -> 23.03 -> 23).
 */
#include "config.h"

#include "unit/testutil.h"

#include <fcntl.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "machine/machine.h"

struct id_case {
	const char *file;     /* under fixtures/cpuid */
	enum cpu_vendor vendor;
	int family, model, stepping;
	const char *brand;
	unsigned pmu_version, n_gp, gp_width, n_fixed, fixed_width;
	bool anythread_deprecated;
	unsigned tsc_num, tsc_den;
	uint64_t crystal_hz;
	unsigned base_mhz, max_mhz;
	unsigned base_ratio;
	enum base_ratio_source base_src;
	enum uarch_group group;
};

#define I CPU_VENDOR_INTEL
#define A CPU_VENDOR_AMD
static const struct id_case cases[] = {
	/* 000906A2; 0A 07300605/00008603; 15H 2/0x8C/0x0249F000; 16H 0xA8C/0x125C */
	{ "adl-p-i7-12700h-6p8e.cpuid.txt", I, 6, 0x9a, 2,
	  "12th Gen Intel(R) Core(TM) i7-12700H", 5, 6, 48, 3, 48, true,
	  140, 2, 38400000, 2700, 4700, 27, BASE_CPUID16, UARCH_UNKNOWN },
	/* 00090672; same 0A; 15H 2/0xA6; 16H 0xC80/0x1450 */
	{ "adl-s-i9-12900k-8p8e.cpuid.txt", I, 6, 0x97, 2,
	  "12th Gen Intel(R) Core(TM) i9-12900K", 5, 6, 48, 3, 48, true,
	  166, 2, 38400000, 3200, 5200, 32, BASE_CPUID16, UARCH_UNKNOWN },
	/* 000406F1; 0A 07300403/00000603; max leaf 14H: no 15H/16H */
	{ "bdw-e-i7-6950x-1s-10c-ht.cpuid.txt", I, 6, 0x4f, 1,
	  "Intel(R) Core(TM) i7-6950X CPU @ 3.00GHz", 3, 4, 48, 3, 48, false,
	  0, 0, 0, 0, 0, 30, BASE_BRAND, UARCH_SNB },
	/* 00050657; 0A 07300404/00000603; 15H 2/0xC8/0; 16H 0x9C4/0xD48 */
	{ "clx-5215-1s-10c-ht.cpuid.txt", I, 6, 0x55, 7,
	  "Intel(R) Xeon(R) Gold 5215 CPU @ 2.50GHz", 4, 4, 48, 3, 48, false,
	  200, 2, 0, 2500, 3400, 25, BASE_CPUID16, UARCH_SKX },
	/* native: 00050656; 16H 0x9C4/0xED8 */
	{ "clx-8269c-1cpu.cpuid.txt", I, 6, 0x55, 6,
	  "Intel(R) Xeon(R) Platinum 8269C CPU @ 2.50GHz", 4, 4, 48, 3, 48, false,
	  200, 2, 0, 2500, 3800, 25, BASE_CPUID16, UARCH_SKX },
	/* 000C06F2; 0A 08300805/00008604; 15H 2/0xA8/0x017D7840; 16H 0x834/0xFA0 */
	{ "emr-8570-partial-56cpus.cpuid.txt", I, 6, 0xcf, 2,
	  "INTEL(R) XEON(R) PLATINUM 8570", 5, 8, 48, 4, 48, true,
	  168, 2, 25000000, 2100, 4000, 21, BASE_CPUID16, UARCH_ICX },
	/* 000606C1; 15H 2/0xD0/25 MHz; 16H all zero -> brand 2.60 GHz */
	{ "icx-d-1718t-1s-4c-ht.cpuid.txt", I, 6, 0x6c, 1,
	  "Intel(R) Xeon(R) D-1718T CPU @ 2.60GHz", 5, 8, 48, 4, 48, true,
	  208, 2, 25000000, 0, 0, 26, BASE_BRAND, UARCH_ICX },
	/* native-all: 000306e4; max leaf 0DH */
	{ "ivb-e-i7-4930k-1s-6c-ht.native-all.cpuid.txt", I, 6, 0x3e, 4,
	  "Intel(R) Core(TM) i7-4930K CPU @ 3.40GHz", 3, 4, 48, 3, 48, false,
	  0, 0, 0, 0, 0, 34, BASE_BRAND, UARCH_SNB },
	{ "ivb-ep-e5-2697v2-1cpu.cpuid.txt", I, 6, 0x3e, 4,
	  "Intel(R) Xeon(R) CPU E5-2697 v2 @ 2.70GHz", 3, 4, 48, 3, 48, false,
	  0, 0, 0, 0, 0, 27, BASE_BRAND, UARCH_SNB },
	/* 000106a5; 0A 07300403/00000603; max leaf 0BH; 133.33 MHz bus */
	{ "nhm-ep-e5520-1cpu.cpuid.txt", I, 6, 0x1a, 5,
	  "Intel(R) Xeon(R) CPU E5520 @ 2.27GHz", 3, 4, 48, 3, 48, false,
	  0, 0, 0, 0, 0, 17, BASE_BRAND, UARCH_NHM },
	/* 00050654; 0A 07300804: 8 GP counters without HT */
	{ "skx-3104-2s-6c-noht.cpuid.txt", I, 6, 0x55, 4,
	  "Intel(R) Xeon(R) Bronze 3104 CPU @ 1.70GHz", 4, 8, 48, 3, 48, false,
	  136, 2, 0, 1700, 1700, 17, BASE_CPUID16, UARCH_SKX },
	{ "skx-4108-2s-8c-ht.cpuid.txt", I, 6, 0x55, 4,
	  "Intel(R) Xeon(R) Silver 4108 CPU @ 1.80GHz", 4, 4, 48, 3, 48, false,
	  144, 2, 0, 1800, 3000, 18, BASE_CPUID16, UARCH_SKX },
	{ "skx-6154-2s-18c-ht.cpuid.txt", I, 6, 0x55, 4,
	  "Intel(R) Xeon(R) Gold 6154 CPU @ 3.00GHz", 4, 4, 48, 3, 48, false,
	  240, 2, 0, 3000, 3700, 30, BASE_CPUID16, UARCH_SKX },
	{ "skx-8180-2s-28c-ht.cpuid.txt", I, 6, 0x55, 4,
	  "Intel(R) Xeon(R) Platinum 8180 CPU @ 2.50GHz", 4, 4, 48, 3, 48, false,
	  200, 2, 0, 2500, 3800, 25, BASE_CPUID16, UARCH_SKX },
	/* 000206d7 */
	{ "snb-ep-e5-2687w-1cpu.cpuid.txt", I, 6, 0x2d, 7,
	  "Intel(R) Xeon(R) CPU E5-2687W 0 @ 3.10GHz", 3, 4, 48, 3, 48, false,
	  0, 0, 0, 0, 0, 31, BASE_BRAND, UARCH_SNB },
	/* 000806F8; 15H 2/0xD8/0x016E3600; 16H 0xA28/0x12C0 */
	{ "spr-w7-2475x-1s-20c-ht.cpuid.txt", I, 6, 0x8f, 8,
	  "Intel(R) Xeon(R) w7-2475X", 5, 8, 48, 4, 48, true,
	  216, 2, 24000000, 2600, 4800, 26, BASE_CPUID16, UARCH_ICX },
	{ "spr-w9-3475x-1s-36c-ht.cpuid.txt", I, 6, 0x8f, 8,
	  "Intel(R) Xeon(R) w9-3475X", 5, 8, 48, 4, 48, true,
	  176, 2, 25000000, 2200, 4800, 22, BASE_CPUID16, UARCH_ICX },
	/* 000206c2 */
	{ "wsm-ep-x5650-1cpu.cpuid.txt", I, 6, 0x2c, 2,
	  "Intel(R) Xeon(R) CPU X5650 @ 2.67GHz", 3, 4, 48, 3, 48, false,
	  0, 0, 0, 0, 0, 20, BASE_BRAND, UARCH_NHM },
	/* aida-nosl, first CPU is in package 1: 000206C1 */
	{ "wsm-ep-x5667-2s-4c-ht.cpuid.txt", I, 6, 0x2c, 1,
	  "Intel(R) Xeon(R) CPU X5667 @ 3.07GHz", 3, 4, 48, 3, 48, false,
	  0, 0, 0, 0, 0, 23, BASE_BRAND, UARCH_NHM },
	/* AMD: no 0AH (all zero), max leaf 10H, no "@" in the brand */
	{ "zen2-epyc7742-2s-64c-smt.cpuid.txt", A, 23, 0x31, 0,
	  "AMD EPYC 7742 64-Core Processor", 0, 0, 0, 0, 0, false,
	  0, 0, 0, 0, 0, 0, BASE_NONE, UARCH_ZEN },
	/* 00A00F11 */
	{ "zen3-epyc7713-1s-64c-smt.cpuid.txt", A, 25, 0x01, 1,
	  "AMD EPYC 7713 64-Core Processor", 0, 0, 0, 0, 0, false,
	  0, 0, 0, 0, 0, 0, BASE_NONE, UARCH_ZEN },
	/* 00A10F11 */
	{ "zen4-epyc9124-1s-16c-smt.cpuid.txt", A, 25, 0x11, 1,
	  "AMD EPYC 9124 16-Core Processor", 0, 0, 0, 0, 0, false,
	  0, 0, 0, 0, 0, 0, BASE_NONE, UARCH_ZEN },
	/* 00B00F21: 0xF + 0xB = 0x1A */
	{ "zen5-epyc9655-partial-64cpus-nosmt.cpuid.txt", A, 26, 0x02, 1,
	  "AMD EPYC 9655 96-Core Processor", 0, 0, 0, 0, 0, false,
	  0, 0, 0, 0, 0, 0, BASE_NONE, UARCH_ZEN },
};
#undef I
#undef A
#define NCASES (sizeof cases / sizeof cases[0])

static const char *
dump(const char *name)
{
	char rel[512];

	snprintf(rel, sizeof rel, "cpuid/%s", name);
	return fixture(rel);
}

static void
test_dump(void **state)
{
	const struct id_case *k = *state;
	struct cpu_identity id;
	struct errmsg e = { { 0 } };

	assert_int_equal(identity_load(&id, dump(k->file), &e), 0);
	assert_int_equal(id.vendor, k->vendor);
	assert_string_equal(id.vendor_str, k->vendor == CPU_VENDOR_AMD ? "AuthenticAMD" : "GenuineIntel");
	assert_int_equal(id.family, k->family);
	assert_int_equal(id.model, k->model);
	assert_int_equal(id.stepping, k->stepping);
	assert_string_equal(id.brand, k->brand);
	assert_int_equal(id.pmu_version, k->pmu_version);
	assert_int_equal(id.n_gp, k->n_gp);
	assert_int_equal(id.gp_width, k->gp_width);
	assert_int_equal(id.n_fixed, k->n_fixed);
	assert_int_equal(id.fixed_width, k->fixed_width);
	assert_int_equal(id.anythread_deprecated, k->anythread_deprecated);
	assert_int_equal(id.tsc_num, k->tsc_num);
	assert_int_equal(id.tsc_den, k->tsc_den);
	assert_int_equal(id.crystal_hz, k->crystal_hz);
	assert_int_equal(id.base_mhz, k->base_mhz);
	assert_int_equal(id.max_mhz, k->max_mhz);
	assert_int_equal(id.base_ratio, k->base_ratio);
	assert_int_equal(id.base_src, k->base_src);
	assert_int_equal(uarch_group_of(&id), k->group);
	assert_true(id.from_dump);
	assert_string_equal(id.source, dump(k->file));
}

/* Run f with stderr sent to a file; return how many bytes it wrote there. */
static long
stderr_bytes(void (*f)(void))
{
	char path[] = "/tmp/httop-stderr-XXXXXX";
	int fd = mkstemp(path), saved;
	struct stat st;

	assert_true(fd >= 0);
	fflush(stderr);
	saved = dup(2);
	dup2(fd, 2);
	f();
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	assert_int_equal(fstat(fd, &st), 0);
	close(fd);
	unlink(path);
	return (long)st.st_size;
}

static struct errmsg bad_affmask, bad_text;
static int rc_affmask, rc_text;

static void
load_bad(void)
{
	struct cpu_identity id;

	rc_affmask = identity_load(&id,
	    dump("clx-8280-1s-28c-ht.affmask-needs-libcpuid-0.6.4.cpuid.txt"), &bad_affmask);
	rc_text = identity_load(&id, srcfile("HACKING.md"), &bad_text);
}

/* The AffMask dump and a text file fail with one clear error each, and
 * libcpuid's warnings do not reach stderr. */
static void
test_bad_dumps(void **state)
{
	struct cpu_identity id;
	struct errmsg e = { { 0 } };

	(void)state;
	assert_int_equal(stderr_bytes(load_bad), 0);
	assert_int_equal(rc_affmask, -1);
	assert_non_null(strstr(bad_affmask.text, "clx-8280-1s-28c-ht.affmask"));
	assert_non_null(strstr(bad_affmask.text, "libcpuid >= 0.6.4"));
	assert_int_equal(rc_text, -1);
	assert_non_null(strstr(bad_text.text, "HACKING.md"));
	/* the first libcpuid warning is kept: line 1 was not understood */
	assert_non_null(strstr(bad_text.text, "not understood"));

	assert_int_equal(identity_load(&id, "/nonexistent/dump.txt", &e), -1);
	assert_non_null(strstr(e.text, "/nonexistent/dump.txt"));
	assert_non_null(strstr(e.text, "No such file"));
}

/* skx-8180: 25 x 100 MHz = 2.5 GHz. E5520: 17 x 133.33 MHz = 2266.67 MHz.
 * AMD without a ratio: 0 (unknown). */
static void
test_tsc_hz(void **state)
{
	struct cpu_identity id;
	struct errmsg e = { { 0 } };

	(void)state;
	assert_int_equal(identity_load(&id, dump("skx-8180-2s-28c-ht.cpuid.txt"), &e), 0);
	assert_near(identity_tsc_hz(&id), 2.5e9, 1);
	assert_near(identity_bus_hz(&id), 100e6, 0);
	assert_int_equal(identity_load(&id, dump("nhm-ep-e5520-1cpu.cpuid.txt"), &e), 0);
	assert_near(identity_tsc_hz(&id), 17 * 400e6 / 3, 1);
	assert_int_equal(identity_load(&id, dump("zen3-epyc7713-1s-64c-smt.cpuid.txt"), &e), 0);
	assert_near(identity_tsc_hz(&id), 0, 0);
}

/* MSR_PLATFORM_INFO 0x...1500: bits 15:8 = 0x15 = 21, the 8160's base
 * ratio; it wins over CPUID.16H. A zero field changes nothing. */
static void
test_platform_info(void **state)
{
	struct cpu_identity id;
	struct errmsg e = { { 0 } };

	(void)state;
	assert_int_equal(identity_load(&id, dump("skx-8180-2s-28c-ht.cpuid.txt"), &e), 0);
	identity_set_platform_info(&id, 0x0000000070011500ULL);
	assert_int_equal(id.base_ratio, 21);
	assert_int_equal(id.base_src, BASE_PLATFORM_INFO);
	assert_near(identity_tsc_hz(&id), 2.1e9, 1);
	identity_set_platform_info(&id, 0x00000000700100ffULL);
	assert_int_equal(id.base_ratio, 21);
	assert_string_equal(base_ratio_source_name(BASE_PLATFORM_INFO), "MSR_PLATFORM_INFO");
	assert_string_equal(base_ratio_source_name(BASE_CPUID16), "CPUID.16H");
	assert_string_equal(base_ratio_source_name(BASE_BRAND), "brand string");
	assert_string_equal(base_ratio_source_name(BASE_NONE), "none");
}

/* "@ 800MHz" -> 8; no "@" -> unknown; an existing ratio is kept. Vendor
 * unknown (topology without CPUVendor): still 100 MHz steps. */
static void
test_brand_guess(void **state)
{
	struct cpu_identity id;

	(void)state;
	identity_from_fields(&id, "GenuineIntel", 6, 0x0f, 1, "Old CPU @ 800MHz");
	assert_int_equal(id.base_ratio, 8);
	assert_int_equal(id.base_src, BASE_BRAND);
	identity_from_fields(&id, "", -1, -1, -1, "  Intel(R)  Xeon(R) CPU E5-2650 0 @ 2.00GHz ");
	assert_string_equal(id.brand, "Intel(R) Xeon(R) CPU E5-2650 0 @ 2.00GHz");
	assert_int_equal(id.vendor, CPU_VENDOR_UNKNOWN);
	assert_int_equal(id.base_ratio, 20);
	identity_from_fields(&id, "AuthenticAMD", 25, 1, 1, "AMD EPYC 7763 64-Core Processor");
	assert_int_equal(id.base_ratio, 0);
	assert_int_equal(id.base_src, BASE_NONE);
	id.base_ratio = 24;
	id.base_src = BASE_USER;
	identity_guess_base_from_brand(&id);
	assert_int_equal(id.base_ratio, 24);
	assert_int_equal(id.base_src, BASE_USER);
}

static void
test_live(void **state)
{
	struct cpu_identity id;
	struct errmsg e = { { 0 } };

	(void)state;
	assert_int_equal(identity_load(&id, NULL, &e), 0);
	assert_string_equal(id.source, "live");
	assert_false(id.from_dump);
	assert_true(id.vendor_str[0] != '\0');
	assert_true(id.family > 0);
}

/* --topology without --cpuid: identity from the XML's Package info
 * (grep CPUVendor/CPUFamilyNumber/CPUModelNumber/CPUStepping/CPUModel):
 * skx-8168: GenuineIntel 6/85/4, "... 8168 CPU @ 2.70GHz" -> ratio 27;
 * knl-7250: 6/87/1 "@ 1.40GHz" -> 14; snb-2650: CPUModel only -> group
 * unknown, ratio 20 from "@ 2.00GHz". */
static void
test_machine_from_topology(void **state)
{
	struct machine m;
	struct errmsg e = { { 0 } };
	char path[4096];

	(void)state;
	snprintf(path, sizeof path, "%s", fixture("hwloc/skx-8168-2s-24c-ht.v1.xml"));
	assert_int_equal(machine_load(&m, path, NULL, &e), 0);
	assert_int_equal(m.id.vendor, CPU_VENDOR_INTEL);
	assert_int_equal(m.id.family, 6);
	assert_int_equal(m.id.model, 85);
	assert_int_equal(m.id.stepping, 4);
	assert_string_equal(m.id.brand, "Intel(R) Xeon(R) Platinum 8168 CPU @ 2.70GHz");
	assert_int_equal(m.id.base_ratio, 27);
	assert_int_equal(m.id.base_src, BASE_BRAND);
	assert_string_equal(m.id.source, "topology");
	assert_false(m.id.from_dump);
	assert_int_equal(m.group, UARCH_SKX);
	assert_int_equal(m.topo.ncores, 48);
	assert_true(m.hostname[0] != '\0');
	machine_free(&m);

	snprintf(path, sizeof path, "%s", fixture("hwloc/knl-7250-68c-4t-flat-quadrant.xml"));
	assert_int_equal(machine_load(&m, path, NULL, &e), 0);
	assert_int_equal(m.id.family, 6);
	assert_int_equal(m.id.model, 87);
	assert_int_equal(m.id.base_ratio, 14);
	assert_int_equal(m.group, UARCH_KNL);
	machine_free(&m);

	snprintf(path, sizeof path, "%s", fixture("hwloc/snb-ep-e5-2650-2s-8c-ht.xml"));
	assert_int_equal(machine_load(&m, path, NULL, &e), 0);
	assert_int_equal(m.id.family, -1);
	assert_int_equal(m.group, UARCH_UNKNOWN);
	assert_int_equal(m.id.base_ratio, 20);
	machine_free(&m);
}

/* A dump wins over the topology's info; a bad dump fails the whole load
 * (and frees the topology: ASan checks). */
static void
test_machine_with_dump(void **state)
{
	struct machine m;
	struct errmsg e = { { 0 } };
	char xml[4096], cpuid[4096];

	(void)state;
	snprintf(xml, sizeof xml, "%s", fixture("hwloc/skx-8168-2s-24c-ht.v1.xml"));
	snprintf(cpuid, sizeof cpuid, "%s", dump("skx-8180-2s-28c-ht.cpuid.txt"));
	assert_int_equal(machine_load(&m, xml, cpuid, &e), 0);
	assert_true(m.id.from_dump);
	assert_string_equal(m.id.brand, "Intel(R) Xeon(R) Platinum 8180 CPU @ 2.50GHz");
	assert_int_equal(m.id.base_src, BASE_CPUID16);
	assert_int_equal(m.group, UARCH_SKX);
	machine_free(&m);

	assert_int_equal(machine_load(&m, xml, "/nonexistent/dump.txt", &e), -1);
	assert_non_null(strstr(e.text, "/nonexistent/dump.txt"));
	assert_int_equal(machine_load(&m, "/nonexistent/topo.xml", NULL, &e), -1);
	assert_non_null(strstr(e.text, "/nonexistent/topo.xml"));

	assert_int_equal(machine_load(&m, NULL, NULL, &e), 0);
	assert_string_equal(m.topo.source, "live");
	assert_string_equal(m.id.source, "live");
	machine_free(&m);
}

int
main(void)
{
	struct CMUnitTest tests[NCASES + 8];
	const struct CMUnitTest fixed[] = {
		cmocka_unit_test(test_bad_dumps),
		cmocka_unit_test(test_tsc_hz),
		cmocka_unit_test(test_platform_info),
		cmocka_unit_test(test_brand_guess),
		cmocka_unit_test(test_live),
		cmocka_unit_test(test_machine_from_topology),
		cmocka_unit_test(test_machine_with_dump),
	};
	size_t i, n = 0;

	for (i = 0; i < NCASES; i++) {
		memset(&tests[n], 0, sizeof tests[n]);
		tests[n].name = cases[i].file;
		tests[n].test_func = test_dump;
		tests[n].initial_state = (void *)&cases[i];
		n++;
	}
	for (i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
		tests[n++] = fixed[i];
	return _cmocka_run_group_tests("identity", tests, n, NULL, NULL);
}
