/* test_dielayout.c: the die layout rules (src/machine/dielayout.c) on
 * every Skylake-SP, Cascade Lake and Xeon Phi fixture, on EPYC and
 * Sapphire Rapids for the logical grid, and with die maps.
 *
 * The shipped XCC map (data/dies/skx-xcc.map, grid 5 x 6) places CAPID6
 * bit b at (row, col):
 *     col 0: b0 (0,0)  MC (1,0)  b1 (2,0)  b2 (3,0)  b3 (4,0)
 *     col 1: b4..b8   rows 0..4      col 2: b9..b13  rows 0..4
 *     col 3: b14..b18 rows 0..4      col 4: b19..b23 rows 0..4
 *     col 5: b24 (0,5) MC (1,5) b25 (2,5) b26 (3,5) b27 (4,5)
 * Default rule: the k-th set bit is CHA k, and the k-th core of the
 * package by core id sits at CHA k.
 *
 * Core ids per package were read from the XML files (grep of the Core
 * objects' os_index) and agree with test_topology.c.
 */
#include "config.h"

#include "unit/testutil.h"

#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#include "machine/dielayout.h"

#define XCC_MAP "data/dies/skx-xcc.map"

/* A machine and what was made for it, freed by done(). */
struct rig {
	struct machine m;
	struct die_layout l;
	struct errmsg e;
	char tmp[512];       /* extracted fsroot, "" if none */
	char sysfs[512];     /* fake sysfs, "" if none */
	char map[512];       /* a map file written by the test, "" if none */
	bool built;
};

/* The shipped map's path, in a buffer of its own (srcfile() reuses one). */
static const char *
xcc_path(void)
{
	static char buf[4096];

	snprintf(buf, sizeof buf, "%s", srcfile(XCC_MAP));
	return buf;
}

/* Where temporary trees go: tmpfs when there is one, since unpacking an
 * fsroot (5000+ small files) onto a disk-backed /tmp can take half a
 * minute on a loaded VM. */
static const char *
tmpbase(void)
{
	const char *t = getenv("TMPDIR");

	if (access("/dev/shm", W_OK | X_OK) == 0)
		return "/dev/shm";
	return t != NULL && *t != '\0' ? t : "/tmp";
}

static void
rmtree(const char *dir)
{
	char cmd[600];

	if (dir[0] == '\0')
		return;
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

/* Load fixtures/hwloc/FILE; a tarball is extracted and its `topdir` loaded. */
static void
load(struct rig *r, const char *file, const char *topdir)
{
	char rel[256], path[4200], cmd[8400];

	memset(r, 0, sizeof *r);
	snprintf(rel, sizeof rel, "hwloc/%s", file);
	if (topdir == NULL) {
		snprintf(path, sizeof path, "%s", fixture(rel));
	} else {
		snprintf(r->tmp, sizeof r->tmp, "%s/httop-dl-XXXXXX", tmpbase());
		assert_non_null(mkdtemp(r->tmp));
		snprintf(cmd, sizeof cmd, "tar -xjf '%s' -C '%s'", fixture(rel), r->tmp);
		assert_int_equal(system(cmd), 0);
		snprintf(path, sizeof path, "%s/%s", r->tmp, topdir);
	}
	if (machine_load(&r->m, path, NULL, &r->e) != 0)
		fail_msg("%s: %s", path, r->e.text);
}

/* A Skylake-SP (family 6 model 0x55) built by hand. */
static void
synthetic_skx(struct rig *r, unsigned npkg, unsigned ncores)
{
	memset(r, 0, sizeof *r);
	topology_synthetic(&r->m.topo, npkg, ncores, 2);
	identity_from_fields(&r->m.id, "GenuineIntel", 6, 0x55, 4,
	    "Intel(R) Xeon(R) Platinum 8180 CPU @ 2.50GHz");
	r->m.group = uarch_group_of(&r->m.id);
}

/* A fake sysfs from tests/mksysfs.sh with `args`. */
static const char *
sysfs(struct rig *r, const char *args)
{
	char cmd[8400];

	snprintf(r->sysfs, sizeof r->sysfs, "%s/httop-dls-XXXXXX", tmpbase());
	assert_non_null(mkdtemp(r->sysfs));
	snprintf(cmd, sizeof cmd, "sh '%s' '%s' %s", srcfile("tests/mksysfs.sh"), r->sysfs, args);
	assert_int_equal(system(cmd), 0);
	return r->sysfs;
}

/* A map file with this text. */
static const char *
mapfile(struct rig *r, const char *text)
{
	FILE *fp;
	int fd;

	snprintf(r->map, sizeof r->map, "%s/httop-dlm-XXXXXX", tmpbase());
	fd = mkstemp(r->map);
	assert_true(fd >= 0);
	fp = fdopen(fd, "w");
	assert_non_null(fp);
	fputs(text, fp);
	assert_int_equal(fclose(fp), 0);
	return r->map;
}

/* Every placed core is in the cell it says, in its own package's grid;
 * cells and counts agree. */
static void
check_consistent(const struct die_layout *l, const struct machine *m)
{
	unsigned i, g, c, incells = 0, placed = 0;

	assert_int_equal(l->ncores, m->topo.ncores);
	for (i = 0; i < l->ncores; i++) {
		const struct core_place *p = &l->cores[i];
		const struct die_grid *gr;
		const struct die_cell *cell;
		bool found = false;

		if (!p->placed)
			continue;
		placed++;
		assert_true(p->grid < l->ngrids);
		gr = &l->grids[p->grid];
		assert_int_equal(gr->package, m->topo.cores[i].package);
		assert_true(p->row < gr->rows && p->col < gr->cols);
		cell = &gr->cells[p->row * gr->cols + p->col];
		assert_int_equal(cell->kind, DM_TILE);
		assert_true(cell->enabled);
		assert_int_equal(p->slot, cell->slot);
		assert_int_equal(p->cha, cell->cha);
		for (c = 0; c < cell->ncores; c++)
			if (cell->cores[c] == i)
				found = true;
		assert_true(found);
	}
	for (g = 0; g < l->ngrids; g++) {
		const struct die_grid *gr = &l->grids[g];
		unsigned nt = 0, ne = 0;

		if (g > 0)
			assert_true(gr->package > l->grids[g - 1].package);
		for (c = 0; c < gr->rows * gr->cols; c++) {
			incells += gr->cells[c].ncores;
			if (gr->cells[c].kind == DM_TILE) {
				nt++;
				ne += gr->cells[c].enabled;
			} else {
				assert_int_equal(gr->cells[c].ncores, 0);
				assert_int_equal(gr->cells[c].slot, -1);
			}
		}
		assert_int_equal(gr->ntiles, nt);
		assert_int_equal(gr->nenabled, ne);
	}
	assert_int_equal(incells, placed);
}

static int
build(struct rig *r, const char *sysfs_root, const char *die_map, bool xcc)
{
	struct die_inputs in;
	char map[4096], xccmap[4096];
	int rc;

	/* srcfile() has one static buffer: copy before the next call */
	snprintf(map, sizeof map, "%s", die_map != NULL ? die_map : "");
	snprintf(xccmap, sizeof xccmap, "%s", srcfile(XCC_MAP));
	memset(&in, 0, sizeof in);
	in.sysfs_root = sysfs_root;
	in.die_map = die_map != NULL ? map : NULL;
	in.xcc_map = xcc ? xccmap : NULL;
	rc = die_layout_build(&r->l, &r->m, &in, &r->e);
	r->built = rc == 0;
	if (rc == 0)
		check_consistent(&r->l, &r->m);
	return rc;
}

static void
done(struct rig *r)
{
	if (r->built)
		die_layout_free(&r->l);
	machine_free(&r->m);
	rmtree(r->tmp);
	rmtree(r->sysfs);
	if (r->map[0] != '\0')
		unlink(r->map);
}

/* Index of (package, core_id) in topology.cores. */
static unsigned
core_at(const struct machine *m, unsigned package, unsigned core_id)
{
	unsigned i;

	for (i = 0; i < m->topo.ncores; i++)
		if (m->topo.cores[i].package == package && m->topo.cores[i].core_id == core_id)
			return i;
	fail_msg("no core %u in package %u", core_id, package);
	return 0;
}

static void
assert_place(const struct die_layout *l, unsigned core, unsigned grid, unsigned row,
    unsigned col, int slot, int cha)
{
	const struct core_place *p = &l->cores[core];

	assert_true(p->placed);
	assert_int_equal(p->grid, grid);
	assert_int_equal(p->row, row);
	assert_int_equal(p->col, col);
	assert_int_equal(p->slot, slot);
	assert_int_equal(p->cha, cha);
}

static const struct die_cell *
cell(const struct die_layout *l, unsigned grid, unsigned row, unsigned col)
{
	const struct die_grid *g = &l->grids[grid];

	return &g->cells[row * g->cols + col];
}

/* The disabled tiles of a grid as "slot slot ...". */
static const char *
off_tiles(const struct die_grid *g)
{
	static char buf[256];
	size_t n = 0;
	unsigned i;

	buf[0] = '\0';
	for (i = 0; i < g->rows * g->cols; i++)
		if (g->cells[i].kind == DM_TILE && !g->cells[i].enabled)
			n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%d", n ? " " : "",
			    g->cells[i].slot);
	return buf;
}

/* --- capid6_chas ----------------------------------------------------- */

/* 0x0DFEFDF7: bits 3, 9, 16, 25 clear; bit 4 is the 4th set bit (0,1,2,4)
 * so CHA 3; bit 27 the 24th, CHA 23. */
static void
test_chas(void **state)
{
	int cha[28];

	(void)state;
	assert_int_equal(capid6_chas(0x0DFEFDF7, cha), 24);
	assert_int_equal(cha[0], 0);
	assert_int_equal(cha[2], 2);
	assert_int_equal(cha[3], -1);
	assert_int_equal(cha[4], 3);
	assert_int_equal(cha[9], -1);
	assert_int_equal(cha[10], 8);
	assert_int_equal(cha[27], 23);
	assert_int_equal(capid6_chas(0x0FFFFFFF, cha), 28);
	assert_int_equal(cha[27], 27);
	assert_int_equal(capid6_chas(0, cha), 0);
	assert_int_equal(cha[0], -1);
}

/* --- every SKX/CLX fixture ------------------------------------------- */

struct skx_case {
	const char *file, *topdir;
	unsigned ncores;          /* per package */
	unsigned rows, cols;      /* logical grid */
	unsigned last_row, last_col; /* of package 0's last core */
	const char *capid;        /* mksysfs args: ncores low bits set on both sockets */
	bool physical;            /* more than 18: XCC */
};

/* Logical: one die/L3 group per package, so cols = ceil(sqrt(n)):
 *   24 cores: 5 cols, 5 rows; core 23 at (23/5, 23%5) = (4,3)
 *   20 cores: 5 cols, 4 rows; core 19 at (3,4)
 *   18 cores: 5 cols, 4 rows (sqrt 18 = 4.24); core 17 at (3,2)
 *    8 cores: 3 cols, 3 rows; core 7 at (2,1)
 * CAPID6 with n low bits set: 0xFFFFFF (24), 0xFFFFF (20), 0x3FFFF (18),
 * 0xFF (8). 18 and 8 tiles with as many cores may be an HCC/LCC die. */
static const struct skx_case skx_cases[] = {
	{ "skx-8168-2s-24c-ht.v1.xml", NULL, 24, 5, 5, 4, 3, "0xFFFFFF 0xFFFFFF", true },
	{ "clx-8260m-2s-24c-ht.v1.xml", NULL, 24, 5, 5, 4, 3, "0xFFFFFF 0xFFFFFF", true },
	{ "clx-6230-2s-20c-ht.x86.xml", NULL, 20, 4, 5, 3, 4, "0xFFFFF 0xFFFFF", true },
	{ "clx-6230-2s-20c-ht-memsidecache.xml", NULL, 20, 4, 5, 3, 4, "0xFFFFF 0xFFFFF", true },
	{ "clx-6230-2s-20c-ht-memsidecache.fsroot.tar.bz2", "memorysidecaches",
	  20, 4, 5, 3, 4, "0xFFFFF 0xFFFFF", true },
	{ "skx-6140-2s-18c-ht.x86.xml", NULL, 18, 4, 5, 3, 2, "0x3FFFF 0x3FFFF", false },
	{ "skx-4108-2s-8c-ht.fsroot.tar.bz2", "32intel64-2p8co2t+8ve", 8, 3, 3, 2, 1,
	  "0xFF 0xFF", false },
};

static void
test_skx_fixture(void **state)
{
	const struct skx_case *k = *state;
	struct rig r;
	unsigned g, last = k->ncores - 1;

	load(&r, k->file, k->topdir);
	assert_int_equal(r.m.id.model, 0x55);

	/* no sysfs (a recorded topology, a replay): logical, and why, with
	 * the fix (it said nothing: httop(1) gives a non-physical layout's
	 * reason) */
	assert_int_equal(build(&r, NULL, NULL, true), 0);
	assert_int_equal(r.l.kind, LAYOUT_LOGICAL);
	assert_int_equal(r.l.basis, BASIS_TOPOLOGY);
	assert_non_null(strstr(r.l.note, "is a recorded machine"));
	assert_non_null(strstr(r.l.note, "CAPID6 cannot be read here: give it with --capid6"));
	assert_non_null(strstr(r.l.note, "showing the logical layout"));
	assert_false(r.l.cores_assumed);
	assert_int_equal(r.l.ngrids, 2);
	for (g = 0; g < 2; g++) {
		assert_int_equal(r.l.grids[g].package, g);
		assert_int_equal(r.l.grids[g].rows, k->rows);
		assert_int_equal(r.l.grids[g].cols, k->cols);
		assert_int_equal(r.l.grids[g].ntiles, k->ncores);
		assert_int_equal(r.l.grids[g].nenabled, k->ncores);
	}
	assert_place(&r.l, 0, 0, 0, 0, (int)r.m.topo.cores[0].core_id, -1);
	assert_place(&r.l, last, 0, k->last_row, k->last_col,
	    (int)r.m.topo.cores[last].core_id, -1);
	assert_place(&r.l, k->ncores, 1, 0, 0, (int)r.m.topo.cores[k->ncores].core_id, -1);
	die_layout_free(&r.l);

	/* CAPID6 with as many tiles as cores */
	assert_int_equal(build(&r, sysfs(&r, k->capid), NULL, true), 0);
	if (k->physical) {
		assert_int_equal(r.l.kind, LAYOUT_PHYSICAL);
		assert_int_equal(r.l.basis, BASIS_CAPID6);
		assert_true(r.l.cores_assumed);
		assert_string_equal(r.l.note, "");
		for (g = 0; g < 2; g++) {
			assert_int_equal(r.l.grids[g].rows, 5);
			assert_int_equal(r.l.grids[g].cols, 6);
			assert_int_equal(r.l.grids[g].ntiles, 28);
			assert_int_equal(r.l.grids[g].nenabled, k->ncores);
			assert_true(r.l.grids[g].has_capid6);
		}
		/* core 0 at bit 0 (0,0); the last core at bit n-1: bit 23
		 * (4,4), bit 19 (0,4) */
		assert_place(&r.l, 0, 0, 0, 0, 0, 0);
		if (k->ncores == 24)
			assert_place(&r.l, last, 0, 4, 4, 23, 23);
		else
			assert_place(&r.l, last, 0, 0, 4, 19, 19);
	} else {
		assert_int_equal(r.l.kind, LAYOUT_LOGICAL);
		assert_non_null(strstr(r.l.note, "HCC"));
		assert_non_null(strstr(r.l.note, "--die-map"));
	}
	done(&r);
}

/* --- every KNL fixture ----------------------------------------------- */

struct knl_case {
	const char *file, *topdir;
	unsigned ncores;
	const char *title;
	const char *off;
	unsigned last_core_id;
};

/* Tiles are core id / 2. The core ids missing from each file (between 0
 * and 75) and the tiles that leaves empty:
 *   knl-7210 (64): 4,5 8,9 16,17 18,19 50,51 54,55      -> 2 4 8 9 25 27
 *   knl-7250 (68): 16,17 30,31 54,55 62,63             -> 8 15 27 31
 *   knl-7250f (68): 4,5 16,17 54,55 74,75 (max 73)    -> 2 8 27 37
 *   knl-es (64): 4,5 8,9 16,17 26,27 54,55 74,75 (max 73) -> 2 4 8 13 27 37
 * 38 tiles in 8 columns: 5 rows; tile t at (t/8, t%8). */
static const struct knl_case knl_cases[] = {
	{ "knl-7210-64c-4t-snc4-flat.v1.xml", NULL, 64,
	  "package 0: 32 of 38 tiles enabled; off: 2 4 8 9 25 27", "2 4 8 9 25 27", 75 },
	{ "knl-7210-64c-4t.x86.xml", NULL, 64,
	  "package 0: 32 of 38 tiles enabled; off: 2 4 8 9 25 27", "2 4 8 9 25 27", 75 },
	{ "knl-7210-64c-4t.hwloc-cpuid.tar.bz2", "Intel-KnightsLanding-XeonPhi-7210", 64,
	  "package 0: 32 of 38 tiles enabled; off: 2 4 8 9 25 27", "2 4 8 9 25 27", 75 },
	{ "knl-7250-68c-4t-flat-quadrant.xml", NULL, 68,
	  "package 0: 34 of 38 tiles enabled; off: 8 15 27 31", "8 15 27 31", 75 },
	{ "knl-7250f-68c-4t-cache-quadrant.v1.xml", NULL, 68,
	  "package 0: 34 of 38 tiles enabled; off: 2 8 27 37", "2 8 27 37", 73 },
	{ "knl-es-64c-4t-flat-snc4.xml", NULL, 64,
	  "package 0: 32 of 38 tiles enabled; off: 2 4 8 13 27 37", "2 4 8 13 27 37", 73 },
};

static void
test_knl_fixture(void **state)
{
	const struct knl_case *k = *state;
	struct rig r;
	const struct die_grid *g;
	unsigned i, last = k->ncores - 1, t = k->last_core_id / 2;

	load(&r, k->file, k->topdir);
	assert_int_equal(r.m.group, UARCH_KNL);
	/* a sysfs is given but is not looked at: this is no Skylake-SP */
	assert_int_equal(build(&r, "/nonexistent", NULL, true), 0);
	assert_int_equal(r.l.kind, LAYOUT_LOGICAL);
	assert_int_equal(r.l.basis, BASIS_KNL_TILES);
	assert_false(r.l.cores_assumed);
	assert_non_null(strstr(r.l.note, "not sourced"));
	assert_non_null(strstr(r.l.note, "--die-map"));
	assert_int_equal(r.l.ngrids, 1);
	g = &r.l.grids[0];
	assert_int_equal(g->rows, 5);
	assert_int_equal(g->cols, 8);
	assert_int_equal(g->ntiles, 38);
	assert_int_equal(g->nenabled, k->ncores / 2);
	assert_string_equal(g->title, k->title);
	assert_string_equal(off_tiles(g), k->off);
	/* cells 38, 39 are past the last tile */
	assert_int_equal(g->cells[38].kind, DM_EMPTY);
	assert_int_equal(g->cells[39].kind, DM_EMPTY);
	/* cores 0, 1 share tile 0; the last core is in tile last/2 */
	assert_place(&r.l, 0, 0, 0, 0, 0, -1);
	assert_place(&r.l, 1, 0, 0, 0, 0, -1);
	assert_int_equal(g->cells[0].ncores, 2);
	assert_int_equal(r.l.cores[last].slot, (int)t);
	assert_place(&r.l, last, 0, t / 8, t % 8, (int)t, -1);
	for (i = 0; i < r.l.ncores; i++)
		assert_int_equal(r.l.cores[i].slot, (int)r.m.topo.cores[i].core_id / 2);
	done(&r);
}

/* --- logical grids: EPYC, Sapphire Rapids ---------------------------- */

/* EPYC 7742, NPS4: each package has 16 CCX (L3) of 4 cores, core ids
 * 0-63 with CCX k = core ids 4k..4k+3: one row per CCX, 4 columns.
 * So package 0 core 5 at (1,1), core 63 at (15,3); package 1 the same. */
static void
test_logical_epyc(void **state)
{
	struct rig r;

	(void)state;
	load(&r, "zen2-epyc7742-2s-64c-smt.xml", NULL);
	assert_int_equal(build(&r, NULL, NULL, true), 0);
	assert_int_equal(r.l.kind, LAYOUT_LOGICAL);
	assert_int_equal(r.l.ngrids, 2);
	assert_int_equal(r.l.grids[0].rows, 16);
	assert_int_equal(r.l.grids[0].cols, 4);
	assert_int_equal(r.l.grids[1].rows, 16);
	assert_int_equal(r.l.grids[0].ntiles, 64);
	assert_string_equal(r.l.grids[0].title, "package 0: 64 cores in 16 die/L3 groups");
	assert_place(&r.l, core_at(&r.m, 0, 5), 0, 1, 1, 5, -1);
	assert_place(&r.l, core_at(&r.m, 0, 63), 0, 15, 3, 63, -1);
	assert_place(&r.l, core_at(&r.m, 1, 4), 1, 1, 0, 4, -1);
	done(&r);

	/* EPYC 9654: 12 CCDs (Die objects) of 8 cores per package, one L3
	 * each: 12 rows of 8. Core ids 8d'..8d'+7 share a CCD, but the dies
	 * come in the topology's order, which follows the OS CPU numbers:
	 * row r holds CPUs 8r..8r+7 (x86 file: core id 88 is CPU 64, so core
	 * ids 88-95 are row 8; core id 8 is CPU 72, row 9). */
	load(&r, "zen4-epyc9654-2s-96c-smt.x86.xml", NULL);
	assert_int_equal(build(&r, NULL, NULL, true), 0);
	assert_int_equal(r.l.grids[0].rows, 12);
	assert_int_equal(r.l.grids[0].cols, 8);
	assert_place(&r.l, core_at(&r.m, 0, 0), 0, 0, 0, 0, -1);
	assert_place(&r.l, core_at(&r.m, 0, 95), 0, 8, 7, 95, -1);
	assert_place(&r.l, core_at(&r.m, 1, 8), 1, 9, 0, 8, -1);
	assert_int_equal(r.m.topo.cores[core_at(&r.m, 0, 88)].cpus[0], 64);
	assert_int_equal(r.m.topo.cores[core_at(&r.m, 0, 8)].cpus[0], 72);
	done(&r);
}

/* Sapphire Rapids Max 9462: 32 cores, one L3 per package: 6 columns
 * (ceil(sqrt 32)), 6 rows (36 cells, 4 empty); core 31 at (5,1).
 * Max 9460: 40 cores: 7 columns, 6 rows; core 39 at (5,4). Not a
 * Skylake-SP, so a sysfs with CAPID6 is not read. */
static void
test_logical_spr(void **state)
{
	struct rig r;

	(void)state;
	load(&r, "spr-max9462-2s-32c-ht.xml", NULL);
	assert_int_equal(build(&r, sysfs(&r, "0xFFFFFFF 0xFFFFFFF"), NULL, true), 0);
	assert_int_equal(r.l.kind, LAYOUT_LOGICAL);
	assert_string_equal(r.l.note, "");
	assert_int_equal(r.l.grids[0].rows, 6);
	assert_int_equal(r.l.grids[0].cols, 6);
	assert_int_equal(cell(&r.l, 0, 5, 2)->kind, DM_EMPTY);
	assert_place(&r.l, core_at(&r.m, 0, 31), 0, 5, 1, 31, -1);
	assert_place(&r.l, core_at(&r.m, 1, 7), 1, 1, 1, 7, -1);
	assert_string_equal(r.l.grids[1].title, "package 1: 32 cores, one die/L3 group");
	done(&r);

	load(&r, "spr-max9460-2s-40c-ht.x86.xml", NULL);
	assert_int_equal(build(&r, NULL, NULL, true), 0);
	assert_int_equal(r.l.grids[0].rows, 6);
	assert_int_equal(r.l.grids[0].cols, 7);
	assert_place(&r.l, core_at(&r.m, 0, 39), 0, 5, 4, 39, -1);
	done(&r);
}

/* A single group wider than 16 wraps; 56 cores in one group: 8 x 7. */
static void
test_logical_synthetic(void **state)
{
	struct rig r;

	(void)state;
	memset(&r, 0, sizeof r);
	topology_synthetic(&r.m.topo, 1, 56, 2);
	assert_int_equal(build(&r, NULL, NULL, false), 0);
	assert_int_equal(r.l.grids[0].cols, 8);
	assert_int_equal(r.l.grids[0].rows, 7);
	assert_place(&r.l, 55, 0, 6, 7, 55, -1);
	done(&r);
}

/* --- Skylake-SP physical --------------------------------------------- */

/* 2 x 28 cores, CAPID6 0x0FFFFFFF on both: core k at bit k = CHA k.
 * Core 4 at bit 4 (0,1); core 5 at (1,1); core 27 at (4,5); package 1
 * (cores 28..55) the same in grid 1. */
static void
test_synthetic_full(void **state)
{
	struct rig r;
	unsigned g;

	(void)state;
	synthetic_skx(&r, 2, 28);
	assert_int_equal(build(&r, sysfs(&r, "0x0FFFFFFF 0x0FFFFFFF"), NULL, true), 0);
	assert_int_equal(r.l.kind, LAYOUT_PHYSICAL);
	assert_int_equal(r.l.basis, BASIS_CAPID6);
	assert_true(r.l.cores_assumed);
	assert_string_equal(layout_kind_name(r.l.kind), "physical");
	assert_string_equal(layout_basis_name(r.l.basis), "capid6");
	assert_int_equal(r.l.ngrids, 2);
	for (g = 0; g < 2; g++) {
		assert_int_equal(r.l.grids[g].ntiles, 28);
		assert_int_equal(r.l.grids[g].nenabled, 28);
		assert_int_equal(r.l.grids[g].capid6, 0x0FFFFFFF);
		assert_int_equal(cell(&r.l, g, 1, 0)->kind, DM_MC);
		assert_int_equal(cell(&r.l, g, 1, 5)->kind, DM_MC);
		assert_int_equal(cell(&r.l, g, 1, 0)->ncores, 0);
		assert_string_equal(off_tiles(&r.l.grids[g]), "");
	}
	assert_string_equal(r.l.grids[0].title, "package 0: 28 of 28 tiles, CAPID6 0x0fffffff");
	assert_place(&r.l, 0, 0, 0, 0, 0, 0);
	assert_place(&r.l, 1, 0, 2, 0, 1, 1);
	assert_place(&r.l, 4, 0, 0, 1, 4, 4);
	assert_place(&r.l, 5, 0, 1, 1, 5, 5);
	assert_place(&r.l, 27, 0, 4, 5, 27, 27);
	assert_place(&r.l, 28, 1, 0, 0, 0, 0);
	assert_place(&r.l, 55, 1, 4, 5, 27, 27);
	done(&r);
}

/* skx-8168, two 24-of-28 dies. Package core ids (both packages):
 *   k:       0 1 2 3 4 5 6 7 8  9  10 11 12 13 14 15 16 17 18 19 20 21 22 23
 *   core_id: 0 1 2 3 4 5 8 9 10 11 12 13 16 17 18 19 20 21 24 25 26 27 28 29
 * Socket 0, 0x0DFEFDF7, bits 3 9 16 25 clear; set bits in order:
 *   0 1 2 4 5 6 7 8 10 11 12 13 14 15 17 18 19 20 21 22 23 24 26 27
 *   k 0 (id 0) bit 0 (0,0); k 3 (id 3) bit 4 (0,1); k 8 (id 10) bit 10
 *   (1,2); k 12 (id 16) bit 14 (0,3); k 14 (id 18) bit 17 (3,3);
 *   k 23 (id 29) bit 27 (4,5). Off: 3 (4,0), 9 (0,2), 16 (2,3), 25 (2,5).
 * Socket 1, 0x07FFBF7E, bits 0 7 14 27 clear; set bits in order:
 *   1 2 3 4 5 6 8 9 10 11 12 13 15 16 17 18 19 20 21 22 23 24 25 26
 *   k 0 (id 0) bit 1 (2,0); k 5 (id 5) bit 6 (2,1); k 6 (id 8) bit 8
 *   (4,1); k 12 (id 16) bit 15 (1,3); k 23 (id 29) bit 26 (3,5).
 *   Off: 0 (0,0), 7 (3,1), 14 (0,3), 27 (4,5).
 * off_tiles() lists them in row-major order: "9 16 25 3", "0 14 7 27". */
static void
check_8168(const struct rig *r)
{
	const struct die_layout *l = &r->l;

	assert_int_equal(l->grids[0].nenabled, 24);
	assert_int_equal(l->grids[1].nenabled, 24);
	assert_string_equal(off_tiles(&l->grids[0]), "9 16 25 3");
	assert_string_equal(off_tiles(&l->grids[1]), "0 14 7 27");
	assert_false(cell(l, 0, 4, 0)->enabled);
	assert_false(cell(l, 0, 0, 2)->enabled);
	assert_false(cell(l, 0, 2, 3)->enabled);
	assert_false(cell(l, 0, 2, 5)->enabled);
	assert_false(cell(l, 1, 0, 0)->enabled);
	assert_false(cell(l, 1, 3, 1)->enabled);
	assert_false(cell(l, 1, 0, 3)->enabled);
	assert_false(cell(l, 1, 4, 5)->enabled);
	assert_int_equal(cell(l, 0, 4, 0)->cha, -1);

	assert_place(l, core_at(&r->m, 0, 0), 0, 0, 0, 0, 0);
	assert_place(l, core_at(&r->m, 0, 3), 0, 0, 1, 4, 3);
	assert_place(l, core_at(&r->m, 0, 10), 0, 1, 2, 10, 8);
	assert_place(l, core_at(&r->m, 0, 16), 0, 0, 3, 14, 12);
	assert_place(l, core_at(&r->m, 0, 18), 0, 3, 3, 17, 14);
	assert_place(l, core_at(&r->m, 0, 29), 0, 4, 5, 27, 23);

	assert_place(l, core_at(&r->m, 1, 0), 1, 2, 0, 1, 0);
	assert_place(l, core_at(&r->m, 1, 5), 1, 2, 1, 6, 5);
	assert_place(l, core_at(&r->m, 1, 8), 1, 4, 1, 8, 6);
	assert_place(l, core_at(&r->m, 1, 16), 1, 1, 3, 15, 12);
	assert_place(l, core_at(&r->m, 1, 29), 1, 3, 5, 26, 23);
}

static void
test_8168_partial(void **state)
{
	struct rig r;

	(void)state;
	load(&r, "skx-8168-2s-24c-ht.v1.xml", NULL);
	assert_int_equal(build(&r, sysfs(&r, "0x0DFEFDF7 0x07FFBF7E"), NULL, true), 0);
	assert_int_equal(r.l.kind, LAYOUT_PHYSICAL);
	assert_int_equal(r.l.basis, BASIS_CAPID6);
	assert_true(r.l.cores_assumed);
	assert_string_equal(r.l.grids[0].title, "package 0: 24 of 28 tiles, CAPID6 0x0dfefdf7");
	assert_string_equal(r.l.grids[1].title, "package 1: 24 of 28 tiles, CAPID6 0x07ffbf7e");
	check_8168(&r);
	done(&r);
}

/* Without root the config file reads as 64 bytes. */
static void
test_not_root(void **state)
{
	struct rig r;

	(void)state;
	load(&r, "skx-8168-2s-24c-ht.v1.xml", NULL);
	assert_int_equal(build(&r, sysfs(&r, "--short 0x0DFEFDF7 0x07FFBF7E"), NULL, true), 0);
	assert_int_equal(r.l.kind, LAYOUT_LOGICAL);
	assert_int_equal(r.l.basis, BASIS_TOPOLOGY);
	assert_string_equal(r.l.note,
	    "the physical die view needs root (CAPID6 is in PCI configuration space): "
	    "run httop as root or give --die-map; showing the logical layout");
	assert_int_equal(r.l.grids[0].rows, 5);
	done(&r);
}

/* 18 tiles for 18 cores: HCC or XCC cannot be told apart. */
static void
test_hcc_6140(void **state)
{
	struct rig r;

	(void)state;
	load(&r, "skx-6140-2s-18c-ht.x86.xml", NULL);
	assert_int_equal(build(&r, sysfs(&r, "0x3FFFF 0x0003FFFF"), NULL, true), 0);
	assert_int_equal(r.l.kind, LAYOUT_LOGICAL);
	assert_non_null(strstr(r.l.note, "package 0: CAPID6 0x0003ffff enables 18 tiles for "
	    "18 cores"));
	assert_non_null(strstr(r.l.note, "HCC"));
	done(&r);
}

/* 28 tiles, 24 cores: four tiles are CHA-only, which ones is unknown. */
static void
test_count_mismatch(void **state)
{
	struct rig r;

	(void)state;
	load(&r, "skx-8168-2s-24c-ht.v1.xml", NULL);
	assert_int_equal(build(&r, sysfs(&r, "0x0FFFFFFF 0x0FFFFFFF"), NULL, true), 0);
	assert_int_equal(r.l.kind, LAYOUT_LOGICAL);
	assert_non_null(strstr(r.l.note, "package 0: CAPID6 0x0fffffff enables 28 tiles but "
	    "the package has 24 cores"));
	assert_non_null(strstr(r.l.note, "core lines"));
	done(&r);
}

/* Other reasons to stay logical, each said in the note. */
static void
test_fallbacks(void **state)
{
	struct rig r;

	(void)state;
	load(&r, "skx-8168-2s-24c-ht.v1.xml", NULL);
	/* only the decoys: no PCU */
	assert_int_equal(build(&r, sysfs(&r, ""), NULL, true), 0);
	assert_int_equal(r.l.kind, LAYOUT_LOGICAL);
	assert_non_null(strstr(r.l.note, "8086:2083"));
	assert_non_null(strstr(r.l.note, "showing the logical layout"));
	die_layout_free(&r.l);
	rmtree(r.sysfs);

	/* one PCU for two packages */
	assert_int_equal(build(&r, sysfs(&r, "0x0DFEFDF7"), NULL, true), 0);
	assert_int_equal(r.l.kind, LAYOUT_LOGICAL);
	assert_non_null(strstr(r.l.note, "found CAPID6 of 1 sockets for 2 packages"));
	die_layout_free(&r.l);

	/* no shipped map */
	assert_int_equal(build(&r, r.sysfs, NULL, false), 0);
	assert_int_equal(r.l.kind, LAYOUT_LOGICAL);
	assert_non_null(strstr(r.l.note, "skx-xcc.map"));
	die_layout_free(&r.l);

	/* no sysfs at all */
	assert_int_equal(build(&r, "/nonexistent-httop", NULL, true), 0);
	assert_int_equal(r.l.kind, LAYOUT_LOGICAL);
	assert_non_null(strstr(r.l.note, "/nonexistent-httop/bus/pci/devices"));
	done(&r);
}

/* --- die maps -------------------------------------------------------- */

/* The KNL example map (tests/data/diemap/knl-example.map, invented
 * positions), numbering tile, 6 x 7:
 *   row 0: IO 0 1 2 3 4 IO      row 3: 17..23
 *   row 1: 5..11                row 4: 24..30
 *   row 2: MC 12 13 14 15 16 MC row 5: 31..37
 * on knl-7250 (tiles 8 15 27 31 empty): core ids 0, 1 at tile 0 (0,1)
 * (core lines); 24 -> tile 12 (2,1); 40 -> tile 20 (3,3); 75 -> tile 37
 * (5,6). Off: 8 (1,3), 15 (2,4), 27 (4,3), 31 (5,0). */
static void
test_map_knl(void **state)
{
	struct rig r;
	const struct die_grid *g;

	(void)state;
	load(&r, "knl-7250-68c-4t-flat-quadrant.xml", NULL);
	assert_int_equal(build(&r, NULL, srcfile("tests/data/diemap/knl-example.map"), true), 0);
	assert_int_equal(r.l.kind, LAYOUT_PHYSICAL);
	assert_int_equal(r.l.basis, BASIS_MAP);
	assert_false(r.l.cores_assumed);
	assert_string_equal(r.l.note, "");
	g = &r.l.grids[0];
	assert_int_equal(g->rows, 6);
	assert_int_equal(g->cols, 7);
	assert_int_equal(g->ntiles, 38);
	assert_int_equal(g->nenabled, 34);
	assert_false(g->has_capid6);
	assert_string_equal(g->title, "package 0: 34 of 38 tiles hold cores");
	assert_string_equal(off_tiles(g), "8 15 27 31");
	assert_false(cell(&r.l, 0, 1, 3)->enabled);
	assert_false(cell(&r.l, 0, 5, 0)->enabled);
	assert_int_equal(cell(&r.l, 0, 0, 0)->kind, DM_IO);
	assert_int_equal(cell(&r.l, 0, 2, 6)->kind, DM_MC);
	assert_place(&r.l, core_at(&r.m, 0, 0), 0, 0, 1, 0, -1);
	assert_place(&r.l, core_at(&r.m, 0, 1), 0, 0, 1, 0, -1);
	assert_place(&r.l, core_at(&r.m, 0, 24), 0, 2, 1, 12, -1);
	assert_place(&r.l, core_at(&r.m, 0, 40), 0, 3, 3, 20, -1);
	assert_place(&r.l, core_at(&r.m, 0, 75), 0, 5, 6, 37, -1);
	assert_non_null(strstr(r.l.basis_text, "knl-example.map"));
	done(&r);
}

#define KNL_GRID "httop-diemap 1\nname t\nnumbering tile\ngrid 1 3\nrow 0 1 2\n"

/* Core lines naming what the machine lacks are fatal, with FILE:LINE.
 * knl-7250 has no core id 16 (tile 8 is empty) and one package. */
static void
test_map_missing_core(void **state)
{
	struct rig r;
	char want[700];

	(void)state;
	load(&r, "knl-7250-68c-4t-flat-quadrant.xml", NULL);
	mapfile(&r, KNL_GRID "core 0 slot 0\ncore 0:16 slot 1\n");
	assert_int_equal(build(&r, NULL, r.map, true), -1);
	snprintf(want, sizeof want, "%s:7: package 0 has no core 16", r.map);
	assert_non_null(strstr(r.e.text, want));
	unlink(r.map);

	mapfile(&r, KNL_GRID "core 1:0 slot 0\n");
	assert_int_equal(build(&r, NULL, r.map, true), -1);
	snprintf(want, sizeof want, "%s:6: this machine has no package 1", r.map);
	assert_non_null(strstr(r.e.text, want));
	unlink(r.map);

	mapfile(&r, KNL_GRID "\n# all packages\ncore 17 slot 2\n");
	assert_int_equal(build(&r, NULL, r.map, true), -1);
	snprintf(want, sizeof want, "%s:8: no package has core 17", r.map);
	assert_non_null(strstr(r.e.text, want));
	unlink(r.map);

	/* a map that does not load: the parser's message */
	assert_int_equal(build(&r, NULL, srcfile("tests/data/diemap/bad-no-header.map"), true),
	    -1);
	assert_non_null(strstr(r.e.text, "bad-no-header.map"));
	r.map[0] = '\0';
	done(&r);
}

/* A core-numbered map whose slots are none of the machine's core ids. */
static void
test_map_places_none(void **state)
{
	struct rig r;

	(void)state;
	load(&r, "knl-7250-68c-4t-flat-quadrant.xml", NULL);
	mapfile(&r, "httop-diemap 1\nname t\nnumbering core\ngrid 1 2\nrow 100 101\n");
	assert_int_equal(build(&r, NULL, r.map, true), -1);
	assert_non_null(strstr(r.e.text, "places none of this machine's 68 cores"));
	assert_non_null(strstr(r.e.text, r.map));
	done(&r);

	/* slots 0 and 3 exist (core ids 0, 3): two placed, 66 not on the map */
	load(&r, "knl-7250-68c-4t-flat-quadrant.xml", NULL);
	mapfile(&r, "httop-diemap 1\nname t\nnumbering core\ngrid 1 3\nrow 0 . 3\n");
	assert_int_equal(build(&r, NULL, r.map, true), 0);
	assert_place(&r.l, core_at(&r.m, 0, 3), 0, 0, 2, 3, -1);
	assert_false(r.l.cores[core_at(&r.m, 0, 4)].placed);
	assert_non_null(strstr(r.l.note, "66 of 68 cores are not on the map"));
	done(&r);
}

/* The shipped XCC map given as --die-map: the same places as the CAPID6
 * rule when CAPID6 is readable; fatal without it (no core lines). */
static void
test_map_capid6(void **state)
{
	struct rig r;

	(void)state;
	load(&r, "skx-8168-2s-24c-ht.v1.xml", NULL);
	assert_int_equal(build(&r, sysfs(&r, "0x0DFEFDF7 0x07FFBF7E"), xcc_path(), false), 0);
	assert_int_equal(r.l.kind, LAYOUT_PHYSICAL);
	assert_int_equal(r.l.basis, BASIS_MAP);
	assert_true(r.l.cores_assumed);
	check_8168(&r);
	die_layout_free(&r.l);
	rmtree(r.sysfs);

	assert_int_equal(build(&r, sysfs(&r, "--short 0x0DFEFDF7 0x07FFBF7E"), xcc_path(),
	    true), -1);
	assert_non_null(strstr(r.e.text, "skx-xcc.map"));
	assert_non_null(strstr(r.e.text, "run httop as root"));
	assert_non_null(strstr(r.e.text, "48 of 48 cores"));

	/* not the machine httop runs on: root would not help, --capid6 does */
	assert_int_equal(build(&r, NULL, xcc_path(), true), -1);
	assert_non_null(strstr(r.e.text, "give the machine's CAPID6 with --capid6"));
	assert_non_null(strstr(r.e.text, "or a slot for every core"));
	assert_null(strstr(r.e.text, "root,"));
	done(&r);
}

/* build() with CAPID6 given, not read: --capid6 (in.capid6). */
static int
build_given(struct rig *r, const struct capid6_given *g, const char *die_map)
{
	struct die_inputs in;
	char xccmap[4096];
	int rc;

	snprintf(xccmap, sizeof xccmap, "%s", srcfile(XCC_MAP));
	memset(&in, 0, sizeof in);
	in.die_map = die_map;
	in.xcc_map = xccmap;
	in.capid6 = g;
	rc = die_layout_build(&r->l, &r->m, &in, &r->e);
	r->built = rc == 0;
	if (rc == 0)
		check_consistent(&r->l, &r->m);
	return rc;
}

/* The 8168 of check_8168 on a recorded topology: the values given with
 * --capid6, by a scenario (the machine's own) or read from sysfs give the
 * same layout; only the basis line says where they came from. */
static void
test_given_capid6(void **state)
{
	struct capid6_given g = { 2, { 0x0DFEFDF7, 0x07FFBF7E, 0, 0, 0, 0, 0, 0 },
	    CAPID6_FROM_OPTION };
	struct capid6_given one = { 1, { 0x0DFEFDF7, 0, 0, 0, 0, 0, 0, 0 }, CAPID6_FROM_OPTION };
	struct capid6_given few = { 2, { 0x0DFEFDF7, 0x07FFBF7C, 0, 0, 0, 0, 0, 0 },
	    CAPID6_FROM_OPTION };
	struct rig r;
	char map[4096];

	(void)state;
	load(&r, "skx-8168-2s-24c-ht.v1.xml", NULL);
	assert_int_equal(build_given(&r, &g, NULL), 0);
	assert_int_equal(r.l.kind, LAYOUT_PHYSICAL);
	assert_int_equal(r.l.basis, BASIS_CAPID6);
	assert_true(r.l.cores_assumed);
	assert_non_null(strstr(r.l.basis_text, "CAPID6 given with --capid6"));
	check_8168(&r);
	die_layout_free(&r.l);

	/* a capid6-numbered --die-map works on this recorded machine now */
	snprintf(map, sizeof map, "%s", xcc_path());
	assert_int_equal(build_given(&r, &g, map), 0);
	assert_int_equal(r.l.basis, BASIS_MAP);
	check_8168(&r);
	die_layout_free(&r.l);

	/* the machine's own (a scenario's capid6 line) */
	r.m.capid6 = g;
	r.m.capid6.origin = CAPID6_FROM_SCENARIO;
	assert_int_equal(build_given(&r, NULL, NULL), 0);
	assert_non_null(strstr(r.l.basis_text, "CAPID6 given by the scenario"));
	check_8168(&r);
	die_layout_free(&r.l);
	memset(&r.m.capid6, 0, sizeof r.m.capid6);

	/* --capid6 that cannot be this machine's: errors, not a quiet fallback */
	assert_int_equal(build_given(&r, &one, NULL), -1);
	assert_string_equal(r.e.text, "--capid6 gives 1 value for 2 packages; give one per "
	    "package, in package order");
	assert_int_equal(build_given(&r, &few, NULL), -1);
	assert_string_equal(r.e.text, "--capid6: package 1: 0x07ffbf7c enables 23 tiles but the "
	    "package has 24 cores; give that package's CAPID6");
	r.built = false;
	done(&r);

	load(&r, "zen2-epyc7742-2s-64c-smt.xml", NULL);
	assert_int_equal(build_given(&r, &g, NULL), -1);
	assert_non_null(strstr(r.e.text, "not a Skylake-SP or Cascade Lake"));
	r.built = false;
	done(&r);
}

/* The demo machine (data/demo-skx.*: 2 x 18 cores, core ids 0-4, 8-11,
 * 16-20, 24-27 per package) with its made-up CAPID6:
 *   package 0: 0x0adb56dd, set bits 0 2 3 4 6 7 9 10 12 14 16 17 19 20 22
 *     23 25 27 (18): core 0 (k 0) at bit 0 = (0,0) cha 0; core 8 (k 5) at
 *     bit 7 = column 1 (bits 4-8 down rows 0-4) row 3, cha 5; core 27
 *     (k 17) at bit 27 = (4,5) cha 17
 *   package 1: 0x076dabb6, set bits 1 2 4 5 7 8 9 11 13 15 16 18 19 21 22
 *     24 25 26: core 0 at bit 1 = column 0 (bits 0-3 at rows 0, 2, 3, 4)
 *     row 2, cha 0; core 27 (k 17) at bit 26 = (3,5) cha 17
 * An 18-core package could be a whole HCC die, but bits above 17 are set:
 * the XCC die, so the physical grid. */
static void
test_demo_capid6(void **state)
{
	struct rig r;
	char xml[4096], dump[4096];

	(void)state;
	memset(&r, 0, sizeof r);
	snprintf(xml, sizeof xml, "%s", srcfile("data/demo-skx.xml"));
	snprintf(dump, sizeof dump, "%s", srcfile("data/demo-skx.cpuid"));
	if (machine_load(&r.m, xml, dump, &r.e) != 0)
		fail_msg("%s", r.e.text);
	r.m.capid6 = capid6_demo;
	assert_int_equal(build_given(&r, NULL, NULL), 0);
	assert_int_equal(r.l.kind, LAYOUT_PHYSICAL);
	assert_int_equal(r.l.basis, BASIS_CAPID6);
	assert_true(r.l.cores_assumed);
	assert_non_null(strstr(r.l.basis_text, "made up for it, not read from a chip"));
	assert_int_equal(r.l.grids[0].nenabled, 18);
	assert_int_equal(r.l.grids[1].nenabled, 18);
	assert_string_equal(r.l.grids[0].title, "package 0: 18 of 28 tiles, CAPID6 0x0adb56dd");
	assert_place(&r.l, core_at(&r.m, 0, 0), 0, 0, 0, 0, 0);
	assert_place(&r.l, core_at(&r.m, 0, 8), 0, 3, 1, 7, 5);
	assert_place(&r.l, core_at(&r.m, 0, 27), 0, 4, 5, 27, 17);
	assert_place(&r.l, core_at(&r.m, 1, 0), 1, 2, 0, 1, 0);
	assert_place(&r.l, core_at(&r.m, 1, 27), 1, 3, 5, 26, 17);
	done(&r);
}

#define SMALL_CAPID6 "httop-diemap 1\nname small\nnumbering capid6\ngrid 2 3\n" \
	"row 0 1 2\nrow MC 3 IO\n"

/* A small capid6 map on a 1 x 4 Skylake-SP (core ids 0..3).
 * With CAPID6 0xF (CHA k = bit k) and "core 2 cha 0": core 2 at bit 0
 * (0,0); the others take the free CHAs in order: core 0 CHA 1 (0,1),
 * core 1 CHA 2 (0,2), core 3 CHA 3 (1,1).
 * Without CAPID6, slots for every core: core 0 slot 3 (1,1), 1 slot 2
 * (0,2), 2 slot 1 (0,1), 3 slot 0 (0,0). */
static void
test_map_core_lines(void **state)
{
	struct rig r;

	(void)state;
	synthetic_skx(&r, 1, 4);
	mapfile(&r, SMALL_CAPID6 "core 2 cha 0\n");
	assert_int_equal(build(&r, sysfs(&r, "0xF"), r.map, true), 0);
	assert_true(r.l.cores_assumed);
	assert_int_equal(r.l.grids[0].nenabled, 4);
	assert_place(&r.l, 2, 0, 0, 0, 0, 0);
	assert_place(&r.l, 0, 0, 0, 1, 1, 1);
	assert_place(&r.l, 1, 0, 0, 2, 2, 2);
	assert_place(&r.l, 3, 0, 1, 1, 3, 3);
	die_layout_free(&r.l);
	unlink(r.map);

	/* a cha line needs CAPID6 */
	mapfile(&r, SMALL_CAPID6 "core 0 slot 3\ncore 1 slot 2\ncore 2 slot 1\ncore 3 cha 0\n");
	assert_int_equal(build(&r, NULL, r.map, true), -1);
	assert_non_null(strstr(r.e.text, "1 of 4 cores"));
	unlink(r.map);

	mapfile(&r, SMALL_CAPID6 "core 0 slot 3\ncore 1 slot 2\ncore 2 slot 1\ncore 3 slot 0\n");
	assert_int_equal(build(&r, NULL, r.map, true), 0);
	assert_false(r.l.cores_assumed);
	assert_non_null(strstr(r.l.note, "CAPID6 could not be read"));
	assert_place(&r.l, 0, 0, 1, 1, 3, -1);
	assert_place(&r.l, 1, 0, 0, 2, 2, -1);
	assert_place(&r.l, 2, 0, 0, 1, 1, -1);
	assert_place(&r.l, 3, 0, 0, 0, 0, -1);
	assert_string_equal(r.l.grids[0].title, "package 0: 4 of 4 tiles hold cores");
	done(&r);
}

static void
add_case(struct CMUnitTest *t, const char *name, CMUnitTestFunction f, const void *state)
{
	memset(t, 0, sizeof *t);
	t->name = name;
	t->test_func = f;
	t->initial_state = (void *)(uintptr_t)state;
}

int
main(void)
{
	const struct CMUnitTest fixed[] = {
		cmocka_unit_test(test_chas),
		cmocka_unit_test(test_logical_epyc),
		cmocka_unit_test(test_logical_spr),
		cmocka_unit_test(test_logical_synthetic),
		cmocka_unit_test(test_synthetic_full),
		cmocka_unit_test(test_8168_partial),
		cmocka_unit_test(test_not_root),
		cmocka_unit_test(test_hcc_6140),
		cmocka_unit_test(test_count_mismatch),
		cmocka_unit_test(test_fallbacks),
		cmocka_unit_test(test_map_knl),
		cmocka_unit_test(test_map_missing_core),
		cmocka_unit_test(test_map_places_none),
		cmocka_unit_test(test_map_capid6),
		cmocka_unit_test(test_given_capid6),
		cmocka_unit_test(test_demo_capid6),
		cmocka_unit_test(test_map_core_lines),
	};
#define NSKX (sizeof skx_cases / sizeof skx_cases[0])
#define NKNL (sizeof knl_cases / sizeof knl_cases[0])
	struct CMUnitTest tests[NSKX + NKNL + sizeof fixed / sizeof fixed[0]];
	size_t i, n = 0;

	for (i = 0; i < NSKX; i++)
		add_case(&tests[n++], skx_cases[i].file, test_skx_fixture, &skx_cases[i]);
	for (i = 0; i < NKNL; i++)
		add_case(&tests[n++], knl_cases[i].file, test_knl_fixture, &knl_cases[i]);
	for (i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
		tests[n++] = fixed[i];
	return _cmocka_run_group_tests("dielayout", tests, n, NULL, NULL);
}
