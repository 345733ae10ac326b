/* test_topology.c: topology_load() on every hwloc fixture, and the
 * hand-built topologies (synthetic, add_cpu/finish).
 *
 * How the expected values were worked out (hwloc 2.9.0, on each file or
 * extracted fsroot directory, HWLOC_COMPONENTS=-x86 for the fsroots):
 *   packages, cores, PUs:  hwloc-calc -i F -N package|core|pu all
 *   L3s, dies:             hwloc-calc -i F -N l3|die all
 *   sibling sets:          hwloc-calc -i F --pi pu:N -I core  -> core L;
 *                          hwloc-calc -i F core:L --po -I pu
 *   package 0 core ids:    hwloc-calc -i F package:0 --po -I core | sort -n
 * and cross-checked against PROVENANCE.md (core counts, id holes, sibling
 * numbering "+N"/adjacent), grep of the XML (CPUVendor, CPUModelNumber,...),
 * and for fsroots the sysfs files themselves (cpu/present, cpu/online,
 * cpuN/topology/thread_siblings_list, core_id). Differences from hwloc on
 * purpose: an L3 that is the KNL MCDRAM cache (info MemorySideCache, 16 GB)
 * is not counted (knl-7250f: hwloc says 1 L3, we say 0).
 */
#include "config.h"

#include "unit/testutil.h"

#include <limits.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "machine/topology.h"

struct topo_case {
	const char *file;     /* under fixtures/hwloc */
	const char *topdir;   /* tarball's top directory; NULL for an XML file */
	unsigned npackages, ndies, nl3, ncores, ncpus, noffline, max_smt, min_smt;
	unsigned cpu_a;
	const char *sib_a;    /* CPUs of cpu_a's core, thread 0 first */
	unsigned cpu_b;
	const char *sib_b;
	const char *pkg0_ids; /* core_id of package 0's cores, in order */
	const char *vendor;
	int family, model, stepping;
	const char *brand;    /* CPUModel, blanks squeezed */
};

#define KNL7210_IDS "0,1,2,3,6,7,10,11,12,13,14,15,20,21,22,23,24,25,26,27,28,29,30,31," \
	"32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,52,53,56,57,58,59,60,61," \
	"62,63,64,65,66,67,68,69,70,71,72,73,74,75"
#define SEQ32 "0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25," \
	"26,27,28,29,30,31"
#define SEQ40 SEQ32 ",32,33,34,35,36,37,38,39"
#define SEQ64 SEQ40 ",40,41,42,43,44,45,46,47,48,49,50,51,52,53,54,55,56,57,58,59,60," \
	"61,62,63"
#define SEQ96 SEQ64 ",64,65,66,67,68,69,70,71,72,73,74,75,76,77,78,79,80,81,82,83,84," \
	"85,86,87,88,89,90,91,92,93,94,95"
#define CLX6230_IDS "0,1,2,3,4,8,9,10,11,12,16,17,18,19,20,24,25,26,27,28"

static const struct topo_case cases[] = {
	/* file, topdir, pkg, dies, l3, cores, cpus, offline, max_smt, min_smt,
	 * cpu_a, sib_a, cpu_b, sib_b, package 0 core ids, identity */
	{ "bdw-ep-e5-2650lv4-2s-14c-ht.x86.xml", NULL, 2, 2, 2, 28, 56, 0, 2, 2,
	  0, "0,28", 55, "27,55", "0,1,2,3,4,5,6,8,9,10,11,12,13,14",
	  "GenuineIntel", 6, 79, 1, "Intel(R) Xeon(R) CPU E5-2650L v4 @ 1.70GHz" },
	{ "clx-6230-2s-20c-ht-memsidecache.xml", NULL, 2, 2, 2, 40, 80, 0, 2, 2,
	  0, "0,40", 79, "39,79", CLX6230_IDS,
	  "GenuineIntel", 6, 85, 7, "Intel(R) Xeon(R) Gold 6230 CPU @ 2.10GHz" },
	{ "clx-6230-2s-20c-ht-memsidecache.fsroot.tar.bz2", "memorysidecaches",
	  2, 2, 2, 40, 80, 0, 2, 2,
	  0, "0,40", 79, "39,79", CLX6230_IDS,
	  "GenuineIntel", 6, 85, 7, "Intel(R) Xeon(R) Gold 6230 CPU @ 2.10GHz" },
	{ "clx-6230-2s-20c-ht.x86.xml", NULL, 2, 2, 2, 40, 80, 0, 2, 2,
	  0, "0,40", 79, "39,79", CLX6230_IDS,
	  "GenuineIntel", 6, 85, 7, "Intel(R) Xeon(R) Gold 6230 CPU @ 2.10GHz" },
	{ "clx-8260m-2s-24c-ht.v1.xml", NULL, 2, 2, 2, 48, 96, 0, 2, 2,
	  0, "0,48", 95, "47,95",
	  "0,1,2,3,4,5,6,8,9,10,11,12,13,16,17,18,19,20,21,25,26,27,28,29",
	  "GenuineIntel", 6, 85, 7, "Intel(R) Xeon(R) Platinum 8260M CPU @ 2.40GHz" },
	/* present 0-23, online 4-20 (sysfs): 17 cores of 1 thread, 7 offline;
	 * cpu 4 is package 0 core_id 2 (cpu4/topology/core_id). */
	{ "hsw-ep-e5-2680v3-2s-12c-noht-offline.fsroot.tar.bz2", "offline-cpu0-node0",
	  2, 2, 2, 17, 24, 7, 1, 1,
	  4, "4", 20, "20", "2,3,4,5,8,9,10,11,12",
	  "GenuineIntel", 6, 63, 2, "Intel(R) Xeon(R) CPU E5-2680 v3 @ 2.50GHz" },
	/* Cluster-on-Die: 2 L3 per package. */
	{ "hsw-ep-e5-2680v3-2s-12c-noht.x86.xml", NULL, 2, 2, 4, 24, 24, 0, 1, 1,
	  0, "0", 23, "23", "0,1,2,3,4,5,8,9,10,11,12,13",
	  "GenuineIntel", 6, 63, 2, "Intel(R) Xeon(R) CPU E5-2680 v3 @ 2.50GHz" },
	{ "knl-7210-64c-4t-snc4-flat.v1.xml", NULL, 1, 1, 0, 64, 256, 0, 4, 4,
	  0, "0,64,128,192", 255, "63,127,191,255", KNL7210_IDS,
	  "GenuineIntel", 6, 87, 1, "Intel(R) Xeon Phi(TM) CPU 7210 @ 1.30GHz" },
	/* hwloc-gather-cpuid dump, read by hwloc's x86 backend alone. */
	{ "knl-7210-64c-4t.hwloc-cpuid.tar.bz2", "Intel-KnightsLanding-XeonPhi-7210",
	  1, 1, 0, 64, 256, 0, 4, 4,
	  0, "0,64,128,192", 255, "63,127,191,255", KNL7210_IDS,
	  "GenuineIntel", 6, 87, 1, "Intel(R) Xeon Phi(TM) CPU 7210 @ 1.30GHz" },
	{ "knl-7210-64c-4t.x86.xml", NULL, 1, 1, 0, 64, 256, 0, 4, 4,
	  0, "0,64,128,192", 255, "63,127,191,255", KNL7210_IDS,
	  "GenuineIntel", 6, 87, 1, "Intel(R) Xeon Phi(TM) CPU 7210 @ 1.30GHz" },
	/* Group between Core and PU in hwloc 2.9; ids 16,17,30,31,54,55,62,63
	 * missing (PROVENANCE). */
	{ "knl-7250-68c-4t-flat-quadrant.xml", NULL, 1, 1, 0, 68, 272, 0, 4, 4,
	  0, "0,68,136,204", 271, "67,135,203,271",
	  "0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,18,19,20,21,22,23,24,25,26,27,28,29,"
	  "32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50,51,52,53,56,57,58,"
	  "59,60,61,64,65,66,67,68,69,70,71,72,73,74,75",
	  "GenuineIntel", 6, 87, 1, "Intel(R) Xeon Phi(TM) CPU 7250 @ 1.40GHz" },
	/* The 16 GB MemorySideCache "L3" is not an L3: nl3 = 0. Ids 4,5,16,17,
	 * 54,55 missing, max 73 (PROVENANCE). */
	{ "knl-7250f-68c-4t-cache-quadrant.v1.xml", NULL, 1, 1, 0, 68, 272, 0, 4, 4,
	  0, "0,68,136,204", 271, "67,135,203,271",
	  "0,1,2,3,6,7,8,9,10,11,12,13,14,15,18,19,20,21,22,23,24,25,26,27,28,29,30,31,"
	  "32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50,51,52,53,56,57,58,"
	  "59,60,61,62,63,64,65,66,67,68,69,70,71,72,73",
	  "GenuineIntel", 6, 87, 1, "Intel(R) Xeon Phi(TM) CPU 7250F @ 1.40GHz" },
	{ "knl-es-64c-4t-flat-snc4.xml", NULL, 1, 1, 0, 64, 256, 0, 4, 4,
	  0, "0,64,128,192", 255, "63,127,191,255",
	  "0,1,2,3,6,7,10,11,12,13,14,15,18,19,20,21,22,23,24,25,28,29,30,31,32,33,34,"
	  "35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50,51,52,53,56,57,58,59,60,61,"
	  "62,63,64,65,66,67,68,69,70,71,72,73",
	  "GenuineIntel", 6, 87, 1, "Intel(R) Genuine Intel(R) CPU 0000 @ 1.30GHz" },
	{ "nhm-ep-x5550-2s-4c-ht.x86.xml", NULL, 2, 2, 2, 8, 16, 0, 2, 2,
	  0, "0,8", 15, "7,15", "0,1,2,3",
	  "GenuineIntel", 6, 26, 5, "Intel(R) Xeon(R) CPU X5550 @ 2.67GHz" },
	/* Hybrid: 6 P-cores (0-1 ... 10-11, core ids 0,4,..,20) + 8 E-cores
	 * (12..19, core ids 24..31); identity from its /proc/cpuinfo. */
	{ "rpl-i7-1370p-6p8e-hybrid.fsroot.tar.bz2", "20em64t-hybrid-1p6c2t+2ca4co1t",
	  1, 1, 1, 14, 20, 0, 2, 1,
	  0, "0,1", 19, "19", "0,4,8,12,16,20,24,25,26,27,28,29,30,31",
	  "GenuineIntel", 6, 186, 2, "13th Gen Intel(R) Core(TM) i7-1370P" },
	{ "rpl-i7-1370p-6p8e-hybrid.x86.xml", NULL, 1, 1, 1, 14, 20, 0, 2, 1,
	  11, "10,11", 12, "12", "0,4,8,12,16,20,24,25,26,27,28,29,30,31",
	  "GenuineIntel", 6, 186, 2, "13th Gen Intel(R) Core(TM) i7-1370P" },
	{ "skx-4108-2s-8c-ht.fsroot.tar.bz2", "32intel64-2p8co2t+8ve",
	  2, 2, 2, 16, 32, 0, 2, 2,
	  0, "0,16", 31, "15,31", "0,1,2,3,4,5,6,7",
	  "GenuineIntel", 6, 85, 4, "Intel(R) Xeon(R) Silver 4108 CPU @ 1.80GHz" },
	{ "skx-6140-2s-18c-ht.x86.xml", NULL, 2, 2, 2, 36, 72, 0, 2, 2,
	  0, "0,36", 71, "35,71", "0,1,2,3,4,8,9,10,11,16,17,18,19,20,24,25,26,27",
	  "GenuineIntel", 6, 85, 4, "Intel(R) Xeon(R) Gold 6140 CPU @ 2.30GHz" },
	{ "skx-8168-2s-24c-ht.v1.xml", NULL, 2, 2, 2, 48, 96, 0, 2, 2,
	  0, "0,48", 95, "47,95",
	  "0,1,2,3,4,5,8,9,10,11,12,13,16,17,18,19,20,21,24,25,26,27,28,29",
	  "GenuineIntel", 6, 85, 4, "Intel(R) Xeon(R) Platinum 8168 CPU @ 2.70GHz" },
	/* Only CPUModel recorded (Linux backend of 2012): no vendor/family. */
	{ "snb-ep-e5-2650-2s-8c-ht.xml", NULL, 2, 2, 2, 16, 32, 0, 2, 2,
	  0, "0,16", 31, "15,31", "0,1,2,3,4,5,6,7",
	  "", -1, -1, -1, "Intel(R) Xeon(R) CPU E5-2650 0 @ 2.00GHz" },
	/* HT off; possible 0-127 but present 0-15 (sysfs). hwloc 2.9 records
	 * only CPUModel from this old /proc/cpuinfo (lstopo --of xml agrees). */
	{ "snb-ep-e5-2680-2s-8c-noht.fsroot.tar.bz2", "32em64t-2n8c+1mic",
	  2, 2, 2, 16, 16, 0, 1, 1,
	  0, "0", 15, "15", "0,1,2,3,4,5,6,7",
	  "", -1, -1, -1, "Intel(R) Xeon(R) CPU E5-2680 0 @ 2.70GHz" },
	{ "spr-max9460-2s-40c-ht.x86.xml", NULL, 2, 2, 2, 80, 160, 0, 2, 2,
	  0, "0,80", 159, "79,159", SEQ40,
	  "GenuineIntel", 6, 143, 8, "Intel (R) Xeon (R) CPU Max 9460" },
	{ "spr-max9462-2s-32c-ht.xml", NULL, 2, 2, 2, 64, 128, 0, 2, 2,
	  0, "0,64", 127, "63,127", SEQ32,
	  "GenuineIntel", 6, 143, 8, "Intel(R) Xeon(R) CPU Max 9462" },
	{ "wsm-ep-x5650-2s-6c-ht.x86.xml", NULL, 2, 2, 2, 12, 24, 0, 2, 2,
	  0, "0,12", 23, "11,23", "0,1,2,8,9,10",
	  "GenuineIntel", 6, 44, 2, "Intel(R) Xeon(R) CPU X5650 @ 2.67GHz" },
	/* 4 sockets round-robin: cpu 1 is package 1 (cpu1/physical_package_id);
	 * CPUModel only, as above. */
	{ "wsm-ex-e7-4870-4s-10c-noht.fsroot.tar.bz2", "40intel64-2g2n4c+pci",
	  4, 4, 4, 40, 40, 0, 1, 1,
	  0, "0", 39, "39", "0,1,2,8,9,16,17,18,24,25",
	  "", -1, -1, -1, "Intel(R) Xeon(R) CPU E7- 4870 @ 2.40GHz" },
	/* NPS4, 16 CCX of 4 cores per package: 32 L3. */
	{ "zen2-epyc7742-2s-64c-smt.xml", NULL, 2, 2, 32, 128, 256, 0, 2, 2,
	  0, "0,128", 255, "127,255", SEQ64,
	  "AuthenticAMD", 23, 49, 0, "AMD EPYC 7742 64-Core Processor" },
	{ "zen3-epyc7763-2s-64c-nosmt.x86.xml", NULL, 2, 2, 16, 128, 128, 0, 1, 1,
	  0, "0", 127, "127", SEQ64,
	  "AuthenticAMD", 25, 1, 1, "AMD EPYC 7763 64-Core Processor" },
	/* 12 CCD (Die objects) per package. */
	{ "zen4-epyc9654-2s-96c-smt.x86.xml", NULL, 2, 24, 24, 192, 384, 0, 2, 2,
	  0, "0,192", 383, "191,383", SEQ96,
	  "AuthenticAMD", 25, 17, 1, "AMD EPYC 9654 96-Core Processor" },
};
#define NCASES (sizeof cases / sizeof cases[0])

static const char *
hwfix(const char *name)
{
	char rel[512];

	snprintf(rel, sizeof rel, "hwloc/%s", name);
	return fixture(rel);
}

/* "a,b,c" of a core's CPUs. */
static const char *
core_str(const struct topo_core *c)
{
	static char buf[64];
	size_t n = 0;
	unsigned i;

	buf[0] = '\0';
	for (i = 0; i < c->nthreads; i++)
		n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%u", i ? "," : "", c->cpus[i]);
	return buf;
}

static char *
pkg0_ids(const struct topology *t)
{
	static char buf[1024];
	size_t n = 0;
	unsigned i;

	buf[0] = '\0';
	for (i = 0; i < t->ncores; i++)
		if (t->cores[i].package == 0)
			n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%u", n ? "," : "",
			    t->cores[i].core_id);
	return buf;
}

/* Extract a fixture tarball into a fresh temporary directory. */
static void
extract(const char *tarball, char *dir, size_t size)
{
	char cmd[8192];

	snprintf(dir, size, "/tmp/httop-topo-XXXXXX");
	assert_non_null(mkdtemp(dir));
	snprintf(cmd, sizeof cmd, "tar -xjf '%s' -C '%s'", tarball, dir);
	assert_int_equal(system(cmd), 0);
}

static void
remove_tree(const char *dir)
{
	char cmd[4200];

	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

static void
check_case(const struct topo_case *k, const struct topology *t)
{
	unsigned i, off = 0, min_smt = TOPO_MAX_SMT;

	assert_int_equal(t->npackages, k->npackages);
	assert_int_equal(t->ndies, k->ndies);
	assert_int_equal(t->nl3, k->nl3);
	assert_int_equal(t->ncores, k->ncores);
	assert_int_equal(t->ncpus, k->ncpus);
	assert_int_equal(t->max_smt, k->max_smt);
	for (i = 0; i < t->max_cpu; i++)
		if (t->cpus[i].present && !t->cpus[i].online)
			off++;
	assert_int_equal(off, k->noffline);
	for (i = 0; i < t->ncores; i++) {
		const struct topo_core *c = &t->cores[i];
		unsigned j;

		if (c->nthreads < min_smt)
			min_smt = c->nthreads;
		assert_int_equal(c->index, i);
		/* every thread maps back to this core, in order */
		for (j = 0; j < c->nthreads; j++) {
			assert_int_equal(t->cpus[c->cpus[j]].core, i);
			assert_int_equal(t->cpus[c->cpus[j]].thread, j);
			if (j > 0)
				assert_true(c->cpus[j] > c->cpus[j - 1]);
		}
		/* ordered by package, then core_id */
		if (i > 0)
			assert_true(t->cores[i - 1].package < c->package ||
			    (t->cores[i - 1].package == c->package &&
			    t->cores[i - 1].core_id <= c->core_id));
	}
	assert_int_equal(min_smt, k->min_smt);
	assert_non_null(topology_core_of(t, k->cpu_a));
	assert_string_equal(core_str(topology_core_of(t, k->cpu_a)), k->sib_a);
	assert_non_null(topology_core_of(t, k->cpu_b));
	assert_string_equal(core_str(topology_core_of(t, k->cpu_b)), k->sib_b);
	assert_string_equal(pkg0_ids(t), k->pkg0_ids);
	assert_string_equal(t->vendor, k->vendor);
	assert_int_equal(t->family, k->family);
	assert_int_equal(t->model, k->model);
	assert_int_equal(t->stepping, k->stepping);
	assert_string_equal(t->brand, k->brand);
}

static void
test_fixture(void **state)
{
	const struct topo_case *k = *state;
	struct topology t;
	struct errmsg e = { { 0 } };
	char dir[4096], path[8192];

	if (k->topdir == NULL) {
		snprintf(path, sizeof path, "%s", hwfix(k->file));
		assert_int_equal(topology_load(&t, path, &e), 0);
	} else {
		extract(hwfix(k->file), dir, sizeof dir);
		snprintf(path, sizeof path, "%s/%s", dir, k->topdir);
		assert_int_equal(topology_load(&t, path, &e), 0);
		/* the fsroot is for that load only */
		assert_null(getenv("HWLOC_FSROOT"));
		assert_null(getenv("HWLOC_CPUID_PATH"));
		remove_tree(dir);
	}
	check_case(k, &t);
	assert_string_equal(t.source, path);
	topology_free(&t);
}

/* Offline CPUs of the Haswell fsroot: present 0-23, online 4-20. Packages
 * alternate (cpu4 pkg 0, cpu5 pkg 1: cpuN/topology/physical_package_id). */
static void
test_offline(void **state)
{
	struct topology t;
	struct errmsg e = { { 0 } };
	char dir[4096], path[8192];
	unsigned i;

	(void)state;
	extract(hwfix("hsw-ep-e5-2680v3-2s-12c-noht-offline.fsroot.tar.bz2"), dir, sizeof dir);
	snprintf(path, sizeof path, "%s/offline-cpu0-node0", dir);
	assert_int_equal(topology_load(&t, path, &e), 0);
	remove_tree(dir);
	assert_int_equal(t.max_cpu, 24);
	for (i = 0; i < 24; i++) {
		bool on = i >= 4 && i <= 20;

		assert_true(t.cpus[i].present);
		assert_int_equal(t.cpus[i].online, on);
		if (!on) {
			assert_int_equal(t.cpus[i].core, TOPO_NO_CORE);
			assert_null(topology_core_of(&t, i));
		} else {
			assert_int_equal(t.cpus[i].package, i % 2);
		}
	}
	assert_int_equal(topology_core_of(&t, 4)->core_id, 2);
	assert_int_equal(topology_core_of(&t, 5)->package, 1);
	assert_null(topology_core_of(&t, 24));
	assert_null(topology_core_of(&t, 100000));
	topology_free(&t);
}

/* Zen 4: 12 CCDs per package, each its own L3; cpu 0 in die 0 of package 0,
 * and the 8 cores of an L3 share its die (8 cores per CCD on the 9654). */
static void
test_zen4_dies(void **state)
{
	struct topology t;
	struct errmsg e = { { 0 } };
	unsigned i, in_l3_0 = 0, maxdie = 0;

	(void)state;
	assert_int_equal(topology_load(&t, hwfix("zen4-epyc9654-2s-96c-smt.x86.xml"), &e), 0);
	assert_int_equal(topology_core_of(&t, 0)->die, 0);
	for (i = 0; i < t.ncores; i++) {
		if (t.cores[i].die > maxdie)
			maxdie = t.cores[i].die;
		if (t.cores[i].l3 == topology_core_of(&t, 0)->l3) {
			in_l3_0++;
			assert_int_equal(t.cores[i].die, 0);
			assert_int_equal(t.cores[i].package, 0);
		}
	}
	assert_int_equal(maxdie, 11);
	assert_int_equal(in_l3_0, 8);
	topology_free(&t);
}

/* The KNL cache-mode MCDRAM "L3" is ignored: no core has an L3. */
static void
test_knl_memside_l3(void **state)
{
	struct topology t;
	struct errmsg e = { { 0 } };
	unsigned i;

	(void)state;
	assert_int_equal(topology_load(&t, hwfix("knl-7250f-68c-4t-cache-quadrant.v1.xml"), &e), 0);
	for (i = 0; i < t.ncores; i++)
		assert_int_equal(t.cores[i].l3, TOPO_NO_L3);
	topology_free(&t);
}

static void
test_errors(void **state)
{
	struct topology t;
	struct errmsg e = { { 0 } };
	char dir[4096];

	(void)state;
	assert_int_equal(topology_load(&t, "/nonexistent/topo.xml", &e), -1);
	assert_non_null(strstr(e.text, "/nonexistent/topo.xml"));
	assert_non_null(strstr(e.text, "No such file"));

	snprintf(dir, sizeof dir, "%s", srcfile("tests/data/machine/malformed.xml"));
	assert_int_equal(topology_load(&t, dir, &e), -1);
	/* the line where it is cut, and why */
	assert_non_null(strstr(e.text, "malformed.xml:5: the file ends inside the tag <object>"));
	assert_non_null(strstr(e.text, "not well-formed XML"));

	/* not files: refused at once, never read */
	assert_int_equal(topology_load(&t, "/dev/zero", &e), -1);
	assert_non_null(strstr(e.text, "/dev/zero is a device"));

	/* a directory that is not a sysfs root */
	snprintf(dir, sizeof dir, "%s", srcfile("tests/data/machine"));
	assert_int_equal(topology_load(&t, dir, &e), -1);
	assert_non_null(strstr(e.text, "tests/data/machine"));
	assert_non_null(strstr(e.text, "sys/"));
}

/* Write `n` bytes of `text` to `path`. */
static void
put(const char *path, const char *text, size_t n)
{
	FILE *fp = fopen(path, "wb");

	assert_non_null(fp);
	assert_int_equal(fwrite(text, 1, n, fp), n);
	assert_int_equal(fclose(fp), 0);
}

/* `text` with the first `from` replaced by `to` (the caller frees it). */
static char *
subst(const char *text, const char *from, const char *to)
{
	const char *at = strstr(text, from);
	size_t n = strlen(text) + strlen(to) + 1;
	char *out = malloc(n);

	assert_non_null(at);
	assert_non_null(out);
	snprintf(out, n, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
	return out;
}

/* Broken hwloc files, as users make them (cut short by a full disk or a
 * copy, edited by hand): each refusal says where or why, never only
 * hwloc's "Invalid argument". 100 cuts of a real file, then edits. */
static void
test_malformed(void **state)
{
	static const struct {
		const char *from, *to, *want;
	} edits[] = {
		{ "</object>", "</objec>", ": closing tag </objec> does not match <object> opened" },
		{ "type=\"Core\"", "type=\"Bogus\"", "(unrecognized object type string Bogus)" },
		{ "version=\"2.0\"", "version=\"9.0\"", "(cannot import XML version 9.0" },
		{ "os_index=\"0\"", "os_index=\"0", "in <object>:" },
		{ "<topology", "<topology <", "in <topology>: expected an attribute" },
		{ "</topology>", "</topology><topology/>", "a second top-level element" },
		{ "<object", "< object", "'<' not followed by a tag name" },
	};
	struct topology t;
	struct errmsg e = { { 0 } };
	char dir[64], path[128], *text, *bad;
	FILE *fp;
	long len;
	size_t i, distinct = 0;
	char last[sizeof e.text] = "";

	(void)state;
	fp = fopen(hwfix("skx-6140-2s-18c-ht.x86.xml"), "rb");
	assert_non_null(fp);
	fseek(fp, 0, SEEK_END);
	len = ftell(fp);
	rewind(fp);
	text = malloc((size_t)len + 1);
	assert_non_null(text);
	assert_int_equal(fread(text, 1, (size_t)len, fp), (size_t)len);
	text[len] = '\0';
	fclose(fp);
	snprintf(dir, sizeof dir, "/tmp/httop-topo-XXXXXX");
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/t.xml", dir);

	for (i = 1; i <= 100; i++) {
		put(path, text, (size_t)len * i / 101);
		assert_int_equal(topology_load(&t, path, &e), -1);
		if (strstr(e.text, "Invalid argument") != NULL || strstr(e.text, path) == NULL ||
		    strstr(e.text, "XML") == NULL)
			fail_msg("cut %zu: \"%s\"", i, e.text);
		/* a cut file is cut somewhere: the line is named */
		if (strstr(e.text, "t.xml:") == NULL)
			fail_msg("cut %zu names no line: \"%s\"", i, e.text);
		if (strcmp(e.text, last) != 0)
			distinct++;
		snprintf(last, sizeof last, "%s", e.text);
	}
	/* not one message for all: about one per line cut */
	assert_true(distinct >= 50);
	for (i = 0; i < sizeof edits / sizeof edits[0]; i++) {
		bad = subst(text, edits[i].from, edits[i].to);
		put(path, bad, strlen(bad));
		free(bad);
		assert_int_equal(topology_load(&t, path, &e), -1);
		if (strstr(e.text, edits[i].want) == NULL)
			fail_msg("edit %zu: \"%s\", want \"%s\"", i, e.text, edits[i].want);
	}
	/* the file as it was still loads */
	put(path, text, (size_t)len);
	assert_int_equal(topology_load(&t, path, &e), 0);
	assert_int_equal(t.ncores, 36);
	topology_free(&t);

	/* a named pipe is refused at once, not waited on */
	unlink(path);
	assert_int_equal(mkfifo(path, 0600), 0);
	assert_int_equal(topology_load(&t, path, &e), -1);
	assert_non_null(strstr(e.text, "named pipe"));
	unlink(path);
	rmdir(dir);
	free(text);
}

/* A sysfs copy with a named pipe or a device where hwloc reads a file
 * would hang the start or never end: refused before hwloc opens it. */
static void
test_fsroot_special(void **state)
{
	struct topology t;
	struct errmsg e = { { 0 } };
	char dir[4096], path[8192], file[8400];

	(void)state;
	extract(hwfix("skx-4108-2s-8c-ht.fsroot.tar.bz2"), dir, sizeof dir);
	snprintf(path, sizeof path, "%s/32intel64-2p8co2t+8ve", dir);
	snprintf(file, sizeof file, "%s/sys/devices/system/cpu/cpu0/topology/core_id", path);
	assert_int_equal(unlink(file), 0);
	assert_int_equal(mkfifo(file, 0600), 0);
	assert_int_equal(topology_load(&t, path, &e), -1);
	assert_non_null(strstr(e.text, "core_id is a named pipe"));
	assert_int_equal(unlink(file), 0);
	assert_int_equal(symlink("/dev/zero", file), 0);
	assert_int_equal(topology_load(&t, path, &e), -1);
	assert_non_null(strstr(e.text, "core_id is a device"));
	remove_tree(dir);
}

/* An fsroot load leaves a caller's HWLOC_FSROOT as it was. */
static void
test_env_restored(void **state)
{
	struct topology t;
	struct errmsg e = { { 0 } };
	char dir[4096], path[8192];

	(void)state;
	extract(hwfix("skx-4108-2s-8c-ht.fsroot.tar.bz2"), dir, sizeof dir);
	snprintf(path, sizeof path, "%s/32intel64-2p8co2t+8ve", dir);
	setenv("HWLOC_FSROOT", "/before", 1);
	assert_int_equal(topology_load(&t, path, &e), 0);
	assert_string_equal(getenv("HWLOC_FSROOT"), "/before");
	unsetenv("HWLOC_FSROOT");
	remove_tree(dir);
	assert_int_equal(t.ncores, 16);
	topology_free(&t);
}

/* This machine: at least the online CPUs, each in a core. */
static void
test_live(void **state)
{
	struct topology t;
	struct errmsg e = { { 0 } };
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned i, n = 0;

	(void)state;
	assert_int_equal(topology_load(&t, NULL, &e), 0);
	assert_string_equal(t.source, "live");
	assert_true(t.ncores >= 1);
	for (i = 0; i < t.max_cpu; i++)
		if (t.cpus[i].online) {
			n++;
			assert_non_null(topology_core_of(&t, i));
		}
	assert_int_equal(n, online);
	topology_free(&t);
}

/* 2 packages x 4 cores x 2 threads, Linux server numbering: cpu = thread *
 * 8 + package * 4 + core. So cpu 5 = package 1 core 1 thread 0, sibling
 * 5 + 8 = 13; cpu 10 = thread 1 of package 0 core 2, sibling 2. */
static void
test_synthetic(void **state)
{
	struct topology t;

	(void)state;
	topology_synthetic(&t, 2, 4, 2);
	assert_int_equal(t.npackages, 2);
	assert_int_equal(t.ncores, 8);
	assert_int_equal(t.ncpus, 16);
	assert_int_equal(t.max_cpu, 16);
	assert_int_equal(t.max_smt, 2);
	assert_int_equal(t.nl3, 2);
	assert_int_equal(t.ndies, 2);
	assert_string_equal(core_str(topology_core_of(&t, 5)), "5,13");
	assert_int_equal(topology_core_of(&t, 5)->package, 1);
	assert_int_equal(topology_core_of(&t, 5)->core_id, 1);
	assert_int_equal(topology_core_of(&t, 5)->index, 5);
	assert_string_equal(core_str(topology_core_of(&t, 10)), "2,10");
	assert_int_equal(t.cpus[10].thread, 1);
	assert_int_equal(t.family, -1);
	topology_free(&t);

	/* KNL-like: 1 x 2 x 4: core 1 is {1,3,5,7} */
	topology_synthetic(&t, 1, 2, 4);
	assert_string_equal(core_str(topology_core_of(&t, 7)), "1,3,5,7");
	assert_int_equal(t.max_smt, 4);
	topology_free(&t);
}

/* add_cpu in any order; finish sorts cores by (package, core_id), keeps
 * the given thread order, and counts dies and L3s. */
static void
test_add_cpu(void **state)
{
	struct topology t;

	(void)state;
	topology_init(&t);
	topology_add_cpu(&t, 7, 1, 0, 1, 3, 1, true);   /* pkg 1 core 3 thread 1 */
	topology_add_cpu(&t, 3, 1, 0, 1, 3, 0, true);   /* pkg 1 core 3 thread 0 */
	topology_add_cpu(&t, 0, 0, 0, 0, 9, 0, true);   /* pkg 0 core 9 */
	topology_add_cpu(&t, 4, 0, 0, 0, 9, 1, false);  /* its sibling, offline */
	topology_add_cpu(&t, 1, 0, 1, 0, 2, 0, true);   /* pkg 0 die 1 core 2 */
	topology_finish(&t);

	assert_int_equal(t.ncores, 3);
	assert_int_equal(t.npackages, 2);
	assert_int_equal(t.ndies, 3);     /* (0,0) (0,1) (1,0) */
	assert_int_equal(t.nl3, 2);
	assert_int_equal(t.ncpus, 5);
	assert_int_equal(t.max_cpu, 8);
	assert_int_equal(t.max_smt, 2);
	/* order: (0, id 2), (0, id 9), (1, id 3) */
	assert_int_equal(t.cores[0].core_id, 2);
	assert_int_equal(t.cores[1].core_id, 9);
	assert_int_equal(t.cores[2].core_id, 3);
	assert_string_equal(core_str(&t.cores[2]), "3,7");
	assert_string_equal(core_str(&t.cores[1]), "0,4");
	assert_false(t.cpus[4].online);
	assert_int_equal(t.cpus[4].core, 1);
	assert_int_equal(t.cpus[7].thread, 1);
	assert_false(t.cpus[2].present);
	assert_null(topology_core_of(&t, 2));
	topology_free(&t);
}

/* A big machine built CPU by CPU (a replayed trace of 131,072 CPUs, as
 * the importer's fuzzing made): 8 packages x 8,192 cores x 2 threads,
 * Linux numbering, with duplicate adds (dropped) and the core index
 * rebuilt after finish by one more add. Every CPU lands in its core, and
 * the build is linear: well under a second of CPU time here, where the
 * old scan of every core per CPU took minutes. */
static void
test_add_cpu_large(void **state)
{
	enum { NPKG = 8, NCORE = 8192, N = NPKG * NCORE };
	struct topology t;
	clock_t c0 = clock();
	unsigned s, p, c, i;

	(void)state;
	topology_init(&t);
	for (s = 0; s < 2; s++)
		for (p = 0; p < NPKG; p++)
			for (c = 0; c < NCORE; c++) {
				unsigned cpu = s * N + p * NCORE + c;

				topology_add_cpu(&t, cpu, p, 0, p, c * 2, s, true);
				if (c % 1000 == 0)   /* the same position again: dropped */
					topology_add_cpu(&t, cpu + 1, p, 0, p, c * 2, s, true);
			}
	topology_finish(&t);
	assert_true((double)(clock() - c0) / CLOCKS_PER_SEC < 1.0);
	assert_int_equal(t.ncores, N);
	assert_int_equal(t.ncpus, 2 * N);
	assert_int_equal(t.npackages, NPKG);
	assert_int_equal(t.max_smt, 2);
	for (i = 0; i < N; i++) {
		const struct topo_core *k = &t.cores[i];

		assert_int_equal(k->nthreads, 2);
		assert_int_equal(k->package, i / NCORE);
		assert_int_equal(k->core_id, (i % NCORE) * 2);
		assert_int_equal(k->cpus[0], i);
		assert_int_equal(k->cpus[1], N + i);
		assert_int_equal(t.cpus[N + i].core, i);
	}
	/* After finish (cores[] sorted), another core is found or added. */
	topology_add_cpu(&t, 2 * N, 0, 0, 0, 1, 0, true);
	topology_add_cpu(&t, 2 * N + 1, 0, 0, 0, 1, 1, true);
	topology_finish(&t);
	assert_int_equal(t.ncores, N + 1);
	assert_string_equal(core_str(&t.cores[1]), "131072,131073");
	topology_free(&t);
}

int
main(void)
{
	struct CMUnitTest tests[NCASES + 12];
	const struct CMUnitTest fixed[] = {
		cmocka_unit_test(test_offline),
		cmocka_unit_test(test_zen4_dies),
		cmocka_unit_test(test_knl_memside_l3),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_fsroot_special),
		cmocka_unit_test(test_env_restored),
		cmocka_unit_test(test_live),
		cmocka_unit_test(test_synthetic),
		cmocka_unit_test(test_add_cpu),
		cmocka_unit_test(test_add_cpu_large),
	};
	size_t i, n = 0;

	for (i = 0; i < NCASES; i++) {
		memset(&tests[n], 0, sizeof tests[n]);
		tests[n].name = cases[i].file;
		tests[n].test_func = test_fixture;
		tests[n].initial_state = (void *)&cases[i];
		n++;
	}
	for (i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
		tests[n++] = fixed[i];
	return _cmocka_run_group_tests("topology", tests, n, NULL, NULL);
}
