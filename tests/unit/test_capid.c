/* test_capid.c: CAPID6 from a fake sysfs made by tests/mksysfs.sh.
 *
 * Values (bits 27:0 of CAPID6 are the 28 tile positions of the XCC die,
 * doc/hardware.md section 7):
 *   0x0FFFFFFF   all 28 set: a full die, as on an 8280.
 *   0x0DFEFDF7   24 of 28: bits 3, 9, 16, 25 clear:
 *                0x0FFFFFFF - (0x8 + 0x200 + 0x10000 + 0x2000000 = 0x02010208).
 *   0x07FFBF7E   24 of 28: bits 0, 7, 14, 27 clear:
 *                0x0FFFFFFF - (0x1 + 0x80 + 0x4000 + 0x8000000 = 0x08004081).
 *   0xF0000001   the upper nibble is not a tile: read as 0x00000001, 1 tile.
 * mksysfs.sh gives sockets buses 0x16, 0x85, 0x97, 0xa9, ... and numa
 * nodes 0, 1, 2, ...; its decoys (8086:2088 at 0000:16:1e.2, and
 * 8086:a1c3 at 0000:00:1e.3, whose CAPID6 offset holds 0xFFFFFFFF) must
 * not be counted.
 */
#include "config.h"

#include "unit/testutil.h"

#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#include "machine/capid.h"

/* A fresh directory with mksysfs.sh run on it with `args`. */
static void
mksysfs(char *dir, size_t size, const char *args)
{
	char cmd[8192];

	/* tmpfs when there is one: quicker than a disk-backed /tmp */
	snprintf(dir, size, "%s/httop-capid-XXXXXX",
	    access("/dev/shm", W_OK | X_OK) == 0 ? "/dev/shm" : "/tmp");
	assert_non_null(mkdtemp(dir));
	snprintf(cmd, sizeof cmd, "sh '%s' '%s' %s", srcfile("tests/mksysfs.sh"), dir, args);
	assert_int_equal(system(cmd), 0);
}

static void
rmtree(const char *dir)
{
	char cmd[4200];

	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

static void
test_count(void **state)
{
	(void)state;
	assert_int_equal(capid6_count(0x0FFFFFFF), 28);
	assert_int_equal(capid6_count(0xFFFFFFFF), 28);
	assert_int_equal(capid6_count(0x0DFEFDF7), 24);
	assert_int_equal(capid6_count(0x07FFBF7E), 24);
	assert_int_equal(capid6_count(0), 0);
}

static void
test_full_die(void **state)
{
	struct capid_info ci;
	char dir[64];

	(void)state;
	mksysfs(dir, sizeof dir, "0x0FFFFFFF 0x0FFFFFFF");
	capid6_read(dir, &ci);
	assert_int_equal(ci.status, CAPID_OK);
	assert_int_equal(ci.nsockets, 2);
	assert_int_equal(ci.capid6[0], 0x0FFFFFFF);
	assert_int_equal(ci.capid6[1], 0x0FFFFFFF);
	assert_int_equal(capid6_count(ci.capid6[0]), 28);
	assert_string_equal(ci.bdf[0], "0000:16:1e.3");
	assert_string_equal(ci.bdf[1], "0000:85:1e.3");
	assert_int_equal(ci.numa_node[0], 0);
	assert_int_equal(ci.numa_node[1], 1);
	rmtree(dir);
}

/* Two 24-of-28 dies with different holes, as on a two-socket 8160. */
static void
test_partial(void **state)
{
	struct capid_info ci;
	char dir[64];

	(void)state;
	mksysfs(dir, sizeof dir, "0x0DFEFDF7 07ffbf7e");
	capid6_read(dir, &ci);
	assert_int_equal(ci.status, CAPID_OK);
	assert_int_equal(ci.nsockets, 2);
	assert_int_equal(ci.capid6[0], 0x0DFEFDF7);
	assert_int_equal(ci.capid6[1], 0x07FFBF7E);
	assert_int_equal(capid6_count(ci.capid6[0]), 24);
	assert_int_equal(capid6_count(ci.capid6[1]), 24);
	assert_int_equal((ci.capid6[0] >> 3) & 1, 0);
	assert_int_equal((ci.capid6[0] >> 25) & 1, 0);
	assert_int_equal((ci.capid6[1] >> 27) & 1, 0);
	assert_int_equal(ci.why[0], '\0');
	rmtree(dir);
}

/* Sockets come in bus order whatever order readdir gives; the 1e.3
 * decoy on bus 00 would come first if it were counted. */
static void
test_bus_order_numa(void **state)
{
	struct capid_info ci;
	char dir[64], path[256];

	(void)state;
	mksysfs(dir, sizeof dir, "0x1 0x3 0x7 0xF");
	snprintf(path, sizeof path, "%s/bus/pci/devices/0000:85:1e.3/numa_node", dir);
	assert_int_equal(unlink(path), 0);
	capid6_read(dir, &ci);
	assert_int_equal(ci.status, CAPID_OK);
	assert_int_equal(ci.nsockets, 4);
	assert_string_equal(ci.bdf[0], "0000:16:1e.3");
	assert_string_equal(ci.bdf[1], "0000:85:1e.3");
	assert_string_equal(ci.bdf[2], "0000:97:1e.3");
	assert_string_equal(ci.bdf[3], "0000:a9:1e.3");
	assert_int_equal(ci.capid6[0], 0x1);
	assert_int_equal(ci.capid6[1], 0x3);
	assert_int_equal(ci.capid6[2], 0x7);
	assert_int_equal(ci.capid6[3], 0xF);
	assert_int_equal(ci.numa_node[0], 0);
	assert_int_equal(ci.numa_node[1], -1);   /* file removed */
	assert_int_equal(ci.numa_node[2], 2);
	assert_int_equal(ci.numa_node[3], 3);
	rmtree(dir);
}

static void
test_mask(void **state)
{
	struct capid_info ci;
	char dir[64];

	(void)state;
	mksysfs(dir, sizeof dir, "0xF0000001");
	capid6_read(dir, &ci);
	assert_int_equal(ci.status, CAPID_OK);
	assert_int_equal(ci.nsockets, 1);
	assert_int_equal(ci.capid6[0], 0x00000001);
	assert_int_equal(capid6_count(ci.capid6[0]), 1);
	rmtree(dir);
}

/* A 64-byte config file is what a non-root reader gets. */
static void
test_need_root(void **state)
{
	struct capid_info ci;
	char dir[64];

	(void)state;
	mksysfs(dir, sizeof dir, "--short 0x0FFFFFFF 0x0FFFFFFF");
	capid6_read(dir, &ci);
	assert_int_equal(ci.status, CAPID_NEED_ROOT);
	assert_int_equal(ci.nsockets, 0);
	assert_int_equal(ci.capid6[0], 0);
	assert_non_null(strstr(ci.why, "root"));
	assert_non_null(strstr(ci.why, "0000:16:1e.3"));
	assert_non_null(strstr(ci.why, "--die-map"));
	rmtree(dir);
}

static void
test_no_device(void **state)
{
	struct capid_info ci;
	char dir[64];

	(void)state;
	capid6_read("/nonexistent-httop-sysfs", &ci);
	assert_int_equal(ci.status, CAPID_NO_DEVICE);
	assert_int_equal(ci.nsockets, 0);
	assert_non_null(strstr(ci.why, "/nonexistent-httop-sysfs/bus/pci/devices"));
	assert_non_null(strstr(ci.why, "--die-map"));

	/* only the decoys */
	mksysfs(dir, sizeof dir, "");
	capid6_read(dir, &ci);
	assert_int_equal(ci.status, CAPID_NO_DEVICE);
	assert_int_equal(ci.nsockets, 0);
	assert_non_null(strstr(ci.why, "8086:2083"));
	rmtree(dir);
}

/* Nine PCUs: more than CAPID_MAX_SOCKETS (8). */
static void
test_too_many(void **state)
{
	struct capid_info ci;
	char dir[64];

	(void)state;
	mksysfs(dir, sizeof dir, "1 1 1 1 1 1 1 1 1");
	capid6_read(dir, &ci);
	assert_int_equal(ci.status, CAPID_ERROR);
	assert_int_equal(ci.nsockets, 0);
	assert_non_null(strstr(ci.why, "8"));
	rmtree(dir);

	/* exactly eight is fine: buses 16, 85, 97, a9, bb, cd, df, f1 */
	mksysfs(dir, sizeof dir, "1 2 4 8 0x10 0x20 0x40 0x80");
	capid6_read(dir, &ci);
	assert_int_equal(ci.status, CAPID_OK);
	assert_int_equal(ci.nsockets, 8);
	assert_string_equal(ci.bdf[7], "0000:f1:1e.3");
	assert_int_equal(ci.capid6[7], 0x80);
	assert_int_equal(ci.numa_node[7], 7);
	rmtree(dir);
}

/* --capid6 and a scenario's capid6 line: hexadecimal, 0x or not (setpci
 * prints "0fafbeff"), one per package, bits 31:28 dropped. */
static void
test_parse_list(void **state)
{
	struct capid6_given g;
	struct errmsg e;

	(void)state;
	assert_int_equal(capid6_parse_list("0x0fafbeff,0bfdff7d", &g, &e), 0);
	assert_int_equal(g.n, 2);
	assert_int_equal(g.v[0], 0x0fafbeff);
	assert_int_equal(g.v[1], 0x0bfdff7d);
	assert_int_equal(capid6_parse_list("ffffffff", &g, &e), 0);
	assert_int_equal(g.v[0], 0x0fffffff);
	assert_int_equal(capid6_parse_list("1,2,3,4,5,6,7,8", &g, &e), 0);
	assert_int_equal(g.n, 8);
	assert_int_equal(capid6_parse_list("1,2,3,4,5,6,7,8,9", &g, &e), -1);
	assert_non_null(strstr(e.text, "more than 8 values"));
	assert_int_equal(capid6_parse_list("1ffffffff", &g, &e), -1);
	assert_non_null(strstr(e.text, "wider than the 32-bit"));
	assert_int_equal(capid6_parse_list("0x10000000", &g, &e), -1);
	assert_non_null(strstr(e.text, "enables no tile"));
	assert_int_equal(capid6_parse_list("", &g, &e), -1);
	assert_int_equal(capid6_parse_list("1,", &g, &e), -1);
	assert_int_equal(capid6_parse_list("-1", &g, &e), -1);
	assert_int_equal(capid6_parse_list("0x1 ", &g, &e), -1);
	assert_non_null(strstr(e.text, "is not a list of CAPID6 values"));
	/* the demo's: 18 of 28 tiles each */
	assert_int_equal(capid6_demo.n, 2);
	assert_int_equal(capid6_count(capid6_demo.v[0]), 18);
	assert_int_equal(capid6_count(capid6_demo.v[1]), 18);
	assert_int_equal(capid6_demo.origin, CAPID6_FROM_DEMO);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_count),
		cmocka_unit_test(test_parse_list),
		cmocka_unit_test(test_full_die),
		cmocka_unit_test(test_partial),
		cmocka_unit_test(test_bus_order_numa),
		cmocka_unit_test(test_mask),
		cmocka_unit_test(test_need_root),
		cmocka_unit_test(test_no_device),
		cmocka_unit_test(test_too_many),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
