/* test_uarch.c: the family/model -> group table, names, issue widths.
 * Expected groups are doc/hardware.md section 4; each model number was checked
 * against the Linux kernel's arch/x86/include/asm/intel-family.h. */
#include "config.h"

#include "unit/testutil.h"

#include <string.h>

#include "machine/uarch.h"

static enum uarch_group
group(enum cpu_vendor v, int family, int model)
{
	struct cpu_identity id;

	memset(&id, 0, sizeof id);
	id.vendor = v;
	id.family = family;
	id.model = model;
	return uarch_group_of(&id);
}

/* Every model of doc/hardware.md section 4, group by group. */
static void
test_intel_table(void **state)
{
	static const int nhm[] = { 0x1a, 0x1e, 0x1f, 0x2e, 0x25, 0x2c, 0x2f };
	static const int snb[] = { 0x2a, 0x2d, 0x3a, 0x3e, 0x3c, 0x45, 0x46, 0x3f, 0x3d,
		0x47, 0x4f, 0x56 };
	static const int skx[] = { 0x4e, 0x5e, 0x8e, 0x9e, 0xa5, 0xa6, 0x55 };
	static const int icx[] = { 0x7d, 0x7e, 0x6a, 0x6c, 0x8c, 0x8d, 0xa7, 0x8f, 0xcf,
		0xad, 0xae };
	static const int knl[] = { 0x57, 0x85 };
	/* hybrid clients, documented as unknown; Atom, Core 2, Cannon Lake */
	static const int unk[] = { 0x97, 0x9a, 0xb7, 0xba, 0xbf, 0x5c, 0x17, 0x66, 0 };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof nhm / sizeof nhm[0]; i++)
		assert_int_equal(group(CPU_VENDOR_INTEL, 6, nhm[i]), UARCH_NHM);
	for (i = 0; i < sizeof snb / sizeof snb[0]; i++)
		assert_int_equal(group(CPU_VENDOR_INTEL, 6, snb[i]), UARCH_SNB);
	for (i = 0; i < sizeof skx / sizeof skx[0]; i++)
		assert_int_equal(group(CPU_VENDOR_INTEL, 6, skx[i]), UARCH_SKX);
	for (i = 0; i < sizeof icx / sizeof icx[0]; i++)
		assert_int_equal(group(CPU_VENDOR_INTEL, 6, icx[i]), UARCH_ICX);
	for (i = 0; i < sizeof knl / sizeof knl[0]; i++)
		assert_int_equal(group(CPU_VENDOR_INTEL, 6, knl[i]), UARCH_KNL);
	for (i = 0; i < sizeof unk / sizeof unk[0]; i++)
		assert_int_equal(group(CPU_VENDOR_INTEL, 6, unk[i]), UARCH_UNKNOWN);
	/* family matters: model 0x55 of family 15 is not Skylake */
	assert_int_equal(group(CPU_VENDOR_INTEL, 15, 0x55), UARCH_UNKNOWN);
	assert_int_equal(group(CPU_VENDOR_INTEL, -1, -1), UARCH_UNKNOWN);
	/* vendor matters */
	assert_int_equal(group(CPU_VENDOR_UNKNOWN, 6, 0x55), UARCH_UNKNOWN);
}

static void
test_amd(void **state)
{
	(void)state;
	assert_int_equal(group(CPU_VENDOR_AMD, 0x17, 0x31), UARCH_ZEN);
	assert_int_equal(group(CPU_VENDOR_AMD, 0x19, 0x01), UARCH_ZEN);
	assert_int_equal(group(CPU_VENDOR_AMD, 0x19, 0x11), UARCH_ZEN);
	assert_int_equal(group(CPU_VENDOR_AMD, 0x1a, 0x02), UARCH_ZEN);
	assert_int_equal(group(CPU_VENDOR_AMD, 0x15, 0x01), UARCH_UNKNOWN);  /* Bulldozer */
	assert_int_equal(group(CPU_VENDOR_AMD, 6, 0x55), UARCH_UNKNOWN);
}

static void
test_names(void **state)
{
	static const char *names[UARCH_NGROUPS] = {
		"unknown", "nhm", "snb", "skx", "icx", "knl", "zen" };
	int g;

	(void)state;
	for (g = 0; g < UARCH_NGROUPS; g++) {
		assert_string_equal(uarch_group_name((enum uarch_group)g), names[g]);
		assert_int_equal(uarch_group_parse(names[g]), g);
		assert_true(strlen(uarch_group_title((enum uarch_group)g)) > 0);
	}
	assert_string_equal(uarch_group_title(UARCH_SKX), "Skylake..Cooper Lake");
	assert_string_equal(uarch_group_title(UARCH_ICX), "Ice Lake..Granite Rapids");
	assert_int_equal(uarch_group_parse("SKX"), UARCH_NGROUPS);
	assert_int_equal(uarch_group_parse(""), UARCH_NGROUPS);
	assert_int_equal(uarch_group_parse(NULL), UARCH_NGROUPS);
	assert_string_equal(uarch_group_name(UARCH_NGROUPS), "unknown");
}

/* 4 through Skylake, 5 Sunny/Willow/Cypress Cove, 6 Golden Cove and later
 * server cores, 2 KNL, 0 where no honest figure (Zen, unknown). */
static void
test_issue_width(void **state)
{
	struct cpu_identity id;

	(void)state;
	memset(&id, 0, sizeof id);
	id.vendor = CPU_VENDOR_INTEL;
	id.family = 6;
	id.model = 0x55;
	assert_int_equal(uarch_issue_width(UARCH_SKX, &id), 4);
	assert_int_equal(uarch_issue_width(UARCH_NHM, NULL), 4);
	assert_int_equal(uarch_issue_width(UARCH_SNB, NULL), 4);
	id.model = 0x6a;
	assert_int_equal(uarch_issue_width(UARCH_ICX, &id), 5);
	id.model = 0x8f;
	assert_int_equal(uarch_issue_width(UARCH_ICX, &id), 6);
	id.model = 0xcf;
	assert_int_equal(uarch_issue_width(UARCH_ICX, &id), 6);
	assert_int_equal(uarch_issue_width(UARCH_KNL, NULL), 2);
	assert_int_equal(uarch_issue_width(UARCH_ZEN, NULL), 0);
	assert_int_equal(uarch_issue_width(UARCH_UNKNOWN, NULL), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_intel_table),
		cmocka_unit_test(test_amd),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_issue_width),
	};

	return cmocka_run_group_tests_name("uarch", tests, NULL, NULL);
}
