/* dielayout.c: where each core sits, for the die grid view and the batch
 * outputs. One grid per package, in topology package order. Which rule
 * builds it, first match wins:
 *
 *   1. --die-map FILE: the map's grid (physical); a map that does not load
 *      or does not fit the machine is a fatal error.
 *   2. Xeon Phi: tiles (core id / 2) in number order (logical: the tile
 *      geometry is not sourced, doc/hardware.md section 7).
 *   3. Skylake-SP/Cascade Lake XCC with CAPID6 readable: the shipped XCC
 *      map, enabled tiles from CAPID6 (physical).
 *   4. Anything else: package / die / L3 group / core id (logical).
 *
 * Everything is allocated here, once; nothing changes afterwards. */
#include "config.h"
#include "machine/dielayout.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/i18n.h"
#include "util/xalloc.h"

/* The logical grid wraps a group wider than this onto more rows. */
#define LOGICAL_MAX_COLS 16
/* Xeon Phi: the tile count of the die (38 tiles of 2 cores) and the
 * width of the logical grid. */
#define KNL_TILES 38
#define KNL_COLS 8
/* The largest die with fewer tiles than XCC: HCC has 18 (LCC 10), so more
 * than 18 enabled tiles or cores means the 28-tile XCC die. So does a set
 * CAPID6 bit above bit 17: CAPID6 has one bit per tile position of the
 * die, and a die of 18 positions has no bit 18 to set. (An inference from
 * the die sizes, not a documented rule; it is what tells an 18-core XCC
 * part, such as the Gold 6154, from a whole HCC die.) */
#define HCC_TILES 18

static bool
xcc_die(uint32_t capid6, unsigned bits, unsigned ncores)
{
	return bits > HCC_TILES || ncores > HCC_TILES || (capid6 & CAPID6_MASK) >> HCC_TILES != 0;
}

/* The cores of one package: a run of topology.cores (ordered by package,
 * then core id). */
struct pkg_range {
	unsigned package;
	unsigned first, n;
};

/* What a build works with. */
struct build {
	struct die_layout *l;
	const struct topology *t;
	struct pkg_range *pr;
	unsigned np;
	const struct capid6_given *given;   /* CAPID6 given, not read; NULL: read */
};

/* --- grids and cells ------------------------------------------------- */

static void
grid_init(struct die_grid *g, unsigned package, unsigned rows, unsigned cols)
{
	unsigned i;

	memset(g, 0, sizeof *g);
	g->package = package;
	g->rows = rows;
	g->cols = cols;
	g->cells = xcalloc(rows * cols > 0 ? (size_t)rows * cols : 1, sizeof *g->cells);
	for (i = 0; i < rows * cols; i++) {
		g->cells[i].kind = DM_EMPTY;
		g->cells[i].slot = -1;
		g->cells[i].cha = -1;
	}
}

/* Put topology core `core` into cell `cell` of grid `gi`; false if the
 * cell is full. */
static bool
place(struct die_layout *l, unsigned gi, unsigned cell, unsigned core)
{
	struct die_grid *g = &l->grids[gi];
	struct die_cell *c = &g->cells[cell];
	struct core_place *p = &l->cores[core];

	if (c->ncores >= DIE_CELL_MAX_CORES)
		return false;
	c->cores[c->ncores++] = core;
	p->placed = true;
	p->grid = gi;
	p->row = cell / g->cols;
	p->col = cell % g->cols;
	p->slot = c->slot;
	p->cha = c->cha;
	return true;
}

static void
count_tiles(struct die_grid *g)
{
	unsigned i;

	g->ntiles = g->nenabled = 0;
	for (i = 0; i < g->rows * g->cols; i++) {
		if (g->cells[i].kind != DM_TILE)
			continue;
		g->ntiles++;
		if (g->cells[i].enabled)
			g->nenabled++;
	}
}

static void
free_grids(struct die_layout *l)
{
	unsigned i;

	for (i = 0; i < l->ngrids; i++)
		free(l->grids[i].cells);
	free(l->grids);
	l->grids = NULL;
	l->ngrids = 0;
	for (i = 0; i < l->ncores; i++) {
		memset(&l->cores[i], 0, sizeof l->cores[i]);
		l->cores[i].slot = l->cores[i].cha = -1;
	}
}

static void
alloc_grids(struct build *b)
{
	b->l->ngrids = b->np;
	b->l->grids = xcalloc(b->np ? b->np : 1, sizeof *b->l->grids);
}

/* --- logical: package / die / L3 group ------------------------------- */

static unsigned
ceil_sqrt(unsigned n)
{
	unsigned c = 1;

	while (c * c < n)
		c++;
	return c;
}

static bool
same_group(const struct topo_core *a, const struct topo_core *b)
{
	return a->die == b->die && a->l3 == b->l3;
}

static bool
group_before(const struct topo_core *a, const struct topo_core *b)
{
	return a->die < b->die || (a->die == b->die && a->l3 < b->l3);
}

/* One row (or more, past 16 cores) per (die, L3 group), groups in
 * (die, L3) order, cores in core-id order; a package that is one group
 * gets a square-ish grid instead of one long row. */
static void
logical_package(struct build *b, unsigned gi, unsigned *idx)
{
	const struct pkg_range *r = &b->pr[gi];
	const struct topo_core *tc = b->t->cores;
	struct die_grid *g = &b->l->grids[gi];
	unsigned i, j, ngroups = 0, maxg = 0, run = 0, rows = 0, cols, row, k;

	/* Stable insertion sort by (die, l3): core-id order stays within a
	 * group because the package's cores come in core-id order. */
	for (i = 0; i < r->n; i++) {
		unsigned v = r->first + i;

		for (j = i; j > 0 && group_before(&tc[v], &tc[idx[j - 1]]); j--)
			idx[j] = idx[j - 1];
		idx[j] = v;
	}
	for (i = 0; i < r->n; i++) {
		if (i == 0 || !same_group(&tc[idx[i]], &tc[idx[i - 1]])) {
			ngroups++;
			run = 0;
		}
		if (++run > maxg)
			maxg = run;
	}
	cols = ngroups == 1 ? ceil_sqrt(r->n) : maxg;
	if (cols > LOGICAL_MAX_COLS)
		cols = LOGICAL_MAX_COLS;
	for (i = 0; i < r->n; i++) {
		if (i == 0 || !same_group(&tc[idx[i]], &tc[idx[i - 1]]))
			run = 0;
		if (run++ % cols == 0)
			rows++;
	}

	grid_init(g, r->package, rows, cols);
	row = 0;
	k = 0;
	for (i = 0; i < r->n; i++) {
		struct die_cell *c;
		unsigned cell;

		if (i > 0 && (!same_group(&tc[idx[i]], &tc[idx[i - 1]]) || k == cols)) {
			row++;
			k = 0;
		}
		cell = row * cols + k++;
		c = &g->cells[cell];
		c->kind = DM_TILE;
		c->slot = (int)tc[idx[i]].core_id;
		c->enabled = true;
		place(b->l, gi, cell, idx[i]);
	}
	count_tiles(g);
	if (ngroups == 1)
		snprintf(g->title, sizeof g->title, ngettext("package %u: %u core, one die/L3 group",
		    "package %u: %u cores, one die/L3 group", r->n), r->package, r->n);
	else
		snprintf(g->title, sizeof g->title, ngettext("package %u: %u core in %u die/L3 groups",
		    "package %u: %u cores in %u die/L3 groups", r->n), r->package, r->n, ngroups);
}

static void
build_logical(struct build *b)
{
	unsigned gi, *idx = xcalloc(b->t->ncores ? b->t->ncores : 1, sizeof *idx);

	free_grids(b->l);
	b->l->kind = LAYOUT_LOGICAL;
	b->l->basis = BASIS_TOPOLOGY;
	b->l->cores_assumed = false;
	snprintf(b->l->basis_text, sizeof b->l->basis_text, "%s",
	    _("logical: package / die / L3 group, cores in core-id order"));
	alloc_grids(b);
	for (gi = 0; gi < b->np; gi++)
		logical_package(b, gi, idx);
	free(idx);
}

/* --- Xeon Phi: tiles in number order --------------------------------- */

/* "package 0: 32 of 38 tiles enabled; off: 10 26 27 37", cut with "..."
 * when the list does not fit. */
static void
knl_title(struct die_grid *g)
{
	size_t n, cap = sizeof g->title - 4;
	unsigned i;

	n = (size_t)snprintf(g->title, sizeof g->title, _("package %u: %u of %u tiles enabled"),
	    g->package, g->nenabled, g->ntiles);
	if (n >= cap || g->nenabled == g->ntiles)
		return;
	n += (size_t)snprintf(g->title + n, sizeof g->title - n, "%s", _("; off:"));
	for (i = 0; i < g->ntiles && n < cap; i++) {
		char num[16];
		size_t w;

		if (g->cells[i].enabled)
			continue;
		w = (size_t)snprintf(num, sizeof num, " %d", g->cells[i].slot);
		if (n + w >= cap) {
			snprintf(g->title + n, sizeof g->title - n, " ...");
			return;
		}
		memcpy(g->title + n, num, w + 1);
		n += w;
	}
}

static void
build_knl(struct build *b)
{
	const struct topo_core *tc = b->t->cores;
	unsigned gi, i;

	b->l->kind = LAYOUT_LOGICAL;
	b->l->basis = BASIS_KNL_TILES;
	snprintf(b->l->basis_text, sizeof b->l->basis_text, "%s",
	    _("logical: Xeon Phi tiles (core id / 2) in tile-number order"));
	snprintf(b->l->note, sizeof b->l->note, "%s",
	    _("the physical positions of Xeon Phi tiles are not sourced, so tiles are shown in "
	    "number order; --die-map FILE gives their positions"));
	alloc_grids(b);
	for (gi = 0; gi < b->np; gi++) {
		const struct pkg_range *r = &b->pr[gi];
		struct die_grid *g = &b->l->grids[gi];
		unsigned ntiles = KNL_TILES;

		for (i = 0; i < r->n; i++)
			if (tc[r->first + i].core_id / 2 + 1 > ntiles)
				ntiles = tc[r->first + i].core_id / 2 + 1;
		grid_init(g, r->package, (ntiles + KNL_COLS - 1) / KNL_COLS, KNL_COLS);
		for (i = 0; i < ntiles; i++) {
			g->cells[i].kind = DM_TILE;
			g->cells[i].slot = (int)i;
		}
		for (i = 0; i < r->n; i++) {
			unsigned tile = tc[r->first + i].core_id / 2;

			if (place(b->l, gi, tile, r->first + i))
				g->cells[tile].enabled = true;
		}
		count_tiles(g);
		knl_title(g);
	}
}

/* --- maps ------------------------------------------------------------ */

/* Every package gets the map's grid; tiles start disabled. */
static void
grids_from_map(struct build *b, const struct diemap *dm)
{
	unsigned gi, i;

	alloc_grids(b);
	for (gi = 0; gi < b->np; gi++) {
		struct die_grid *g = &b->l->grids[gi];

		grid_init(g, b->pr[gi].package, dm->rows, dm->cols);
		for (i = 0; i < dm->rows * dm->cols; i++) {
			g->cells[i].kind = dm->pos[i].kind;
			g->cells[i].slot = dm->pos[i].kind == DM_TILE ? dm->pos[i].slot : -1;
		}
	}
}

/* Enable the tiles whose CAPID6 bit is set and number their CHAs (the
 * k-th set bit is CHA k). */
static void
apply_capid6(struct die_grid *g, uint32_t capid6)
{
	int cha_of_bit[28];
	unsigned i;

	capid6_chas(capid6, cha_of_bit);
	g->has_capid6 = true;
	g->capid6 = capid6 & CAPID6_MASK;
	for (i = 0; i < g->rows * g->cols; i++) {
		struct die_cell *c = &g->cells[i];

		if (c->kind == DM_TILE && c->slot >= 0 && c->slot < 28 && cha_of_bit[c->slot] >= 0) {
			c->enabled = true;
			c->cha = cha_of_bit[c->slot];
		}
	}
}

/* Cell index of the tile with this CHA, or -1. */
static int
cell_of_cha(const struct die_grid *g, int cha)
{
	unsigned i;

	for (i = 0; i < g->rows * g->cols; i++)
		if (g->cells[i].kind == DM_TILE && g->cells[i].cha == cha)
			return (int)i;
	return -1;
}

static int
cell_of_slot(const struct die_grid *g, int slot)
{
	unsigned i;

	for (i = 0; i < g->rows * g->cols; i++)
		if (g->cells[i].kind == DM_TILE && g->cells[i].slot == slot)
			return (int)i;
	return -1;
}

/* The default Skylake-SP/Cascade Lake rule for the cores of package gi
 * not placed yet: in core-id order, each takes the lowest enabled CHA
 * that holds no core. With no core lines this is "the k-th core of the
 * package by core id sits at CHA k" (McCalpin found the mapping fixed on
 * Stampede2's 8160s; in general it must be measured, so it is an
 * assumption the view states). Returns how many it placed. */
static unsigned
place_by_cha(struct build *b, unsigned gi)
{
	const struct pkg_range *r = &b->pr[gi];
	struct die_grid *g = &b->l->grids[gi];
	unsigned i, placed = 0, nchas = capid6_count(g->capid6);
	int cha = 0, cell = -1;

	for (i = 0; i < r->n; i++) {
		if (b->l->cores[r->first + i].placed)
			continue;
		/* the next CHA that is on the map and holds no core */
		for (; cha < (int)nchas; cha++) {
			cell = cell_of_cha(g, cha);
			if (cell >= 0 && g->cells[cell].ncores == 0)
				break;
		}
		if (cha >= (int)nchas)
			break;
		place(b->l, gi, (unsigned)cell, r->first + i);
		placed++;
		cha++;
	}
	return placed;
}

static void
capid_title(struct die_grid *g)
{
	snprintf(g->title, sizeof g->title, _("package %u: %u of %u tiles, CAPID6 0x%08x"),
	    g->package, g->nenabled, g->ntiles, (unsigned)g->capid6);
}

/* --- Skylake-SP / Cascade Lake: CAPID6 + the shipped XCC map ---------- */

/* CAPID6 given (--capid6 first, then the machine's own), or NULL. */
static const struct capid6_given *
given_capid6(const struct die_inputs *in, const struct machine *m)
{
	if (in != NULL && in->capid6 != NULL && in->capid6->n > 0)
		return in->capid6;
	if (m->capid6.n > 0)
		return &m->capid6;
	return NULL;
}

/* CAPID6 of every package: the values given, or read under sysfs_root. */
static void
capid_get(const struct build *b, const struct die_inputs *in, struct capid_info *ci)
{
	unsigned i;

	if (b->given == NULL && in->capid_read != NULL) {
		*ci = *in->capid_read;
		return;
	}
	if (b->given == NULL) {
		capid6_read(in->sysfs_root, ci);
		return;
	}
	memset(ci, 0, sizeof *ci);
	ci->status = CAPID_OK;
	ci->nsockets = b->given->n;
	for (i = 0; i < CAPID_MAX_SOCKETS; i++) {
		ci->capid6[i] = i < b->given->n ? b->given->v[i] & CAPID6_MASK : 0;
		ci->numa_node[i] = -1;
	}
}

/* Where the CAPID6 values came from, for the layout's basis line: the
 * reader must be able to tell a chip's registers from given values. */
static const char *
capid_origin_text(const struct capid6_given *g)
{
	if (g == NULL)
		return _("CAPID6");
	switch (g->origin) {
	case CAPID6_FROM_OPTION:
		return _("CAPID6 given with --capid6");
	case CAPID6_FROM_SCENARIO:
		return _("CAPID6 given by the scenario");
	case CAPID6_FROM_DEMO:
		return _("the demo's CAPID6 (made up for it, not read from a chip)");
	}
	return _("CAPID6");
}

static bool
is_skx(const struct machine *m)
{
	return m->id.vendor == CPU_VENDOR_INTEL && m->id.family == 6 && m->id.model == 0x55;
}

/* The shipped map of the XCC die, numbered by CAPID6 bit, into *dm; false
 * (nothing to free) with l->note saying why not. */
static bool
load_xcc_map(struct build *b, const struct die_inputs *in, struct diemap *dm)
{
	struct die_layout *l = b->l;
	struct errmsg e = { { 0 } };

	if (in->xcc_map == NULL) {
		snprintf(l->note, sizeof l->note, "%s",
		    _("the shipped map of the XCC die (dies/skx-xcc.map) was not found: reinstall "
		    "httop or give --die-map; showing the logical layout"));
		return false;
	}
	if (diemap_load(dm, in->xcc_map, &e) != 0) {
		snprintf(l->note, sizeof l->note, _("%s; showing the logical layout"), e.text);
		diemap_free(dm);
		return false;
	}
	if (dm->numbering != DM_NUM_CAPID6) {
		snprintf(l->note, sizeof l->note,
		    _("%s is not numbered by CAPID6 bit: reinstall httop or give --die-map; "
		    "showing the logical layout"), in->xcc_map);
		diemap_free(dm);
		return false;
	}
	return true;
}

/* Do the CAPID6 values read place every package's cores (one XCC die
 * each, a core on each tile it enables)? false with l->note saying why
 * not. */
static bool
capid6_fits(struct build *b, const struct capid_info *ci)
{
	struct die_layout *l = b->l;
	unsigned gi;

	if (ci->status == CAPID_NEED_ROOT) {
		snprintf(l->note, sizeof l->note, "%s",
		    _("the physical die view needs root (CAPID6 is in PCI configuration space): "
		    "run httop as root or give --die-map; showing the logical layout"));
		return false;
	}
	if (ci->status != CAPID_OK) {
		snprintf(l->note, sizeof l->note, _("%s; showing the logical layout"), ci->why);
		return false;
	}
	if (ci->nsockets != b->np && b->given != NULL) {
		snprintf(l->note, sizeof l->note,
		    _("%s: %u values for %u packages, so which is which is unknown; showing the "
		    "logical layout"), capid_origin_text(b->given), ci->nsockets, b->np);
		return false;
	}
	if (ci->nsockets != b->np) {
		snprintf(l->note, sizeof l->note,
		    _("found CAPID6 of %u sockets for %u packages, so which is which is unknown: "
		    "give --die-map; showing the logical layout"), ci->nsockets, b->np);
		return false;
	}
	for (gi = 0; gi < b->np; gi++) {
		unsigned bits = capid6_count(ci->capid6[gi]), n = b->pr[gi].n;

		if (!xcc_die(ci->capid6[gi], bits, n)) {
			snprintf(l->note, sizeof l->note,
			    _("package %u: CAPID6 0x%08x enables %u tiles for %u cores, so the die "
			    "may be an LCC or HCC one, whose layout is not known: --die-map gives it; "
			    "showing the logical layout"), b->pr[gi].package,
			    (unsigned)ci->capid6[gi], bits, n);
			return false;
		}
		if (bits != n) {
			snprintf(l->note, sizeof l->note,
			    _("package %u: CAPID6 0x%08x enables %u tiles but the package has %u "
			    "cores, so where the cores sit is unknown (some tiles have only a CHA): "
			    "--die-map with core lines gives it; showing the logical layout"),
			    b->pr[gi].package, (unsigned)ci->capid6[gi], bits, n);
			return false;
		}
	}
	return true;
}

/* Try the physical CAPID6 layout; false with l->note saying why not (or
 * empty when there is nothing to say). */
static bool
try_capid6(struct build *b, const struct die_inputs *in)
{
	struct die_layout *l = b->l;
	struct diemap dm;
	struct capid_info ci;
	unsigned gi;

	if (!load_xcc_map(b, in, &dm))
		return false;
	capid_get(b, in, &ci);
	if (!capid6_fits(b, &ci)) {
		diemap_free(&dm);
		return false;
	}
	l->kind = LAYOUT_PHYSICAL;
	l->basis = BASIS_CAPID6;
	l->cores_assumed = true;
	snprintf(l->basis_text, sizeof l->basis_text, _("physical: %s and the die map \"%s\""),
	    capid_origin_text(b->given), dm.name);
	grids_from_map(b, &dm);
	for (gi = 0; gi < b->np; gi++) {
		apply_capid6(&l->grids[gi], ci.capid6[gi]);
		place_by_cha(b, gi);
		count_tiles(&l->grids[gi]);
		capid_title(&l->grids[gi]);
	}
	diemap_free(&dm);
	return true;
}

/* --capid6 was given: what try_capid6 would fall back from with a note is
 * an error here, said before any register is touched. */
static int
check_option_capid6(const struct build *b, const struct machine *m, struct errmsg *e)
{
	const struct capid6_given *g = b->given;
	unsigned gi;

	if (!is_skx(m))
		return errmsg_set(e, _("--capid6: this machine is not a Skylake-SP or Cascade Lake "
		    "(family 6, model 85), whose XCC die CAPID6 describes; drop --capid6"));
	if (g->n != b->np)
		return errmsg_set(e, ngettext("--capid6 gives %u value for %u packages; give one "
		    "per package, in package order", "--capid6 gives %u values for %u packages; "
		    "give one per package, in package order", g->n), g->n, b->np);
	for (gi = 0; gi < b->np; gi++) {
		unsigned bits = capid6_count(g->v[gi]), n = b->pr[gi].n;

		if (bits != n)
			return errmsg_set(e, ngettext("--capid6: package %u: 0x%08x enables %u tile "
			    "but the package has %u cores; give that package's CAPID6",
			    "--capid6: package %u: 0x%08x enables %u tiles but the package has %u "
			    "cores; give that package's CAPID6", bits), b->pr[gi].package,
			    (unsigned)g->v[gi], bits, n);
		if (!xcc_die(g->v[gi], bits, n))
			return errmsg_set(e, _("--capid6: package %u: 0x%08x sets no bit above 17 for "
			    "%u cores, so its die may be an LCC or HCC one, whose layout is not known; "
			    "--die-map gives it"), b->pr[gi].package, (unsigned)g->v[gi], n);
	}
	return 0;
}

/* --- --die-map ------------------------------------------------------- */

/* Index of the topology core (package index gi, core_id), or -1. */
static int
find_core(const struct build *b, unsigned gi, unsigned core_id)
{
	const struct pkg_range *r = &b->pr[gi];
	unsigned i;

	for (i = 0; i < r->n; i++)
		if (b->t->cores[r->first + i].core_id == core_id)
			return (int)(r->first + i);
	return -1;
}

static int
find_package(const struct build *b, int package)
{
	unsigned gi;

	for (gi = 0; gi < b->np; gi++)
		if ((int)b->pr[gi].package == package)
			return (int)gi;
	return -1;
}

/* Place the core of one core line in package gi. Returns 0, 1 when the
 * line cannot be used without CAPID6 (a cha line), or -1 on error. */
static int
place_line(struct build *b, const struct diemap *dm, const struct dm_core *dc, unsigned gi,
    unsigned core, struct errmsg *e)
{
	struct die_grid *g = &b->l->grids[gi];
	int cell;

	if (dc->slot >= 0) {
		cell = cell_of_slot(g, dc->slot);
		if (cell < 0)
			return errmsg_set(e, _("%s:%u: position %d is not in the map's grid; fix the "
			    "core line"), dm->path, dc->line, dc->slot);
	} else {
		if (!g->has_capid6)
			return 1;
		cell = cell_of_cha(g, dc->cha);
		if (cell < 0)
			return errmsg_set(e, _("%s:%u: package %u has no CHA %d (CAPID6 0x%08x enables "
			    "%u): fix the core line"), dm->path, dc->line, g->package, dc->cha,
			    (unsigned)g->capid6, capid6_count(g->capid6));
	}
	if (!place(b->l, gi, (unsigned)cell, core))
		return errmsg_set(e, _("%s:%u: position %d already holds %u cores; fix the core "
		    "lines"), dm->path, dc->line, g->cells[cell].slot, DIE_CELL_MAX_CORES);
	return 0;
}

/* The core lines: those naming a package first, then those for every
 * package (-1) for the cores still free, so a specific line wins. */
static int
place_core_lines(struct build *b, const struct diemap *dm, struct errmsg *e)
{
	unsigned pass, i, gi;

	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < dm->ncores; i++) {
			const struct dm_core *dc = &dm->cores[i];
			bool found = false;

			if ((pass == 0) != (dc->package >= 0))
				continue;
			if (dc->package >= 0 && find_package(b, dc->package) < 0)
				return errmsg_set(e, _("%s:%u: this machine has no package %d; fix the "
				    "core line or use the map on the machine it was made for"),
				    dm->path, dc->line, dc->package);
			for (gi = 0; gi < b->np; gi++) {
				int core;

				if (dc->package >= 0 && (int)b->pr[gi].package != dc->package)
					continue;
				core = find_core(b, gi, dc->core_id);
				if (core < 0)
					continue;
				found = true;
				if (b->l->cores[core].placed)
					continue;
				if (place_line(b, dm, dc, gi, (unsigned)core, e) < 0)
					return -1;
			}
			if (!found && dc->package >= 0)
				return errmsg_set(e, _("%s:%u: package %d has no core %u; fix the core "
				    "line or use the map on the machine it was made for"),
				    dm->path, dc->line, dc->package, dc->core_id);
			if (!found)
				return errmsg_set(e, _("%s:%u: no package has core %u; fix the core line "
				    "or use the map on the machine it was made for"),
				    dm->path, dc->line, dc->core_id);
		}
	}
	return 0;
}

/* Cores without a core line in a map numbered by tile or core id. */
static void
place_by_number(struct build *b, const struct diemap *dm)
{
	unsigned gi, i;

	for (gi = 0; gi < b->np; gi++) {
		const struct pkg_range *r = &b->pr[gi];

		for (i = 0; i < r->n; i++) {
			unsigned core = r->first + i, id = b->t->cores[core].core_id;
			int slot = (int)(dm->numbering == DM_NUM_TILE ? id / 2 : id), cell;

			if (b->l->cores[core].placed)
				continue;
			cell = cell_of_slot(&b->l->grids[gi], slot);
			if (cell >= 0)
				place(b->l, gi, (unsigned)cell, core);
		}
	}
}

static unsigned
count_unplaced(const struct die_layout *l)
{
	unsigned i, n = 0;

	for (i = 0; i < l->ncores; i++)
		if (!l->cores[i].placed)
			n++;
	return n;
}

static int
map_fail(struct diemap *dm, int rc)
{
	diemap_free(dm);
	return rc;
}

/* A capid6-numbered map needs CAPID6 for the enabled tiles and the cha
 * lines; without it only `core ... slot` lines can place cores. True when
 * *ci holds one value per package; else ci->why says why not. */
static bool
map_capid(const struct build *b, const struct die_inputs *in, const struct diemap *dm,
    struct capid_info *ci)
{
	memset(ci, 0, sizeof *ci);
	if (dm->numbering != DM_NUM_CAPID6)
		return false;
	if (in->sysfs_root == NULL && b->given == NULL) {
		snprintf(ci->why, sizeof ci->why, "%s",
		    _("CAPID6 is read only on the machine httop runs on, or from --sysfs-root; "
		    "--capid6 gives it for another"));
		return false;
	}
	capid_get(b, in, ci);
	if (ci->status == CAPID_OK && ci->nsockets != b->np) {
		snprintf(ci->why, sizeof ci->why,
		    _("found CAPID6 of %u sockets for %u packages"), ci->nsockets, b->np);
		return false;
	}
	return ci->status == CAPID_OK;
}

/* A capid6-numbered map without CAPID6: every core needs a slot line. */
static int
map_without_capid(struct build *b, const struct die_inputs *in, const struct diemap *dm,
    const struct capid_info *ci, struct errmsg *e)
{
	struct die_layout *l = b->l;
	unsigned unplaced = count_unplaced(l);

	/* Root helps only on the machine itself; for another one (a recorded
	 * topology, a replay) only its CAPID6 does. */
	if (unplaced > 0 && in->sysfs_root == NULL)
		return errmsg_set(e,
		    _("%s: this map numbers tiles by CAPID6 bit, and this machine is not the "
		    "one httop runs on, so CAPID6 cannot be read; %u of %u cores have no "
		    "`core ... slot` line: give the machine's CAPID6 with --capid6 (as root "
		    "on it: setpci -s BUS:1e.3 9c.l), or a slot for every core"), dm->path,
		    unplaced, l->ncores);
	if (unplaced > 0)
		return errmsg_set(e,
		    _("%s: this map numbers tiles by CAPID6 bit, and CAPID6 could not be read "
		    "(%s); %u of %u cores have no `core ... slot` line: run httop as root, or "
		    "give a slot for every core"), dm->path, ci->why, unplaced, l->ncores);
	snprintf(l->note, sizeof l->note,
	    _("CAPID6 could not be read (%s): only the tiles holding a core are known to "
	    "be enabled"), ci->why);
	return 0;
}

static int
build_from_map(struct build *b, const struct die_inputs *in, struct errmsg *e)
{
	struct die_layout *l = b->l;
	struct diemap dm;
	struct capid_info ci;
	bool capid = false;
	unsigned gi, unplaced;

	if (diemap_load(&dm, in->die_map, e) != 0)
		return map_fail(&dm, -1);
	l->kind = LAYOUT_PHYSICAL;
	l->basis = BASIS_MAP;
	snprintf(l->basis_text, sizeof l->basis_text, _("physical: die map \"%s\" (%s)"),
	    dm.name, dm.path);
	grids_from_map(b, &dm);

	capid = map_capid(b, in, &dm, &ci);
	if (capid)
		for (gi = 0; gi < b->np; gi++)
			apply_capid6(&l->grids[gi], ci.capid6[gi]);

	if (place_core_lines(b, &dm, e) != 0)
		return map_fail(&dm, -1);

	if (dm.numbering == DM_NUM_CAPID6 && capid) {
		for (gi = 0; gi < b->np; gi++)
			if (place_by_cha(b, gi) > 0)
				l->cores_assumed = true;
	} else if (dm.numbering == DM_NUM_CAPID6) {
		if (map_without_capid(b, in, &dm, &ci, e) != 0)
			return map_fail(&dm, -1);
	} else {
		place_by_number(b, &dm);
	}

	unplaced = count_unplaced(l);
	if (unplaced == l->ncores)
		return map_fail(&dm, errmsg_set(e,
		    _("%s: the map places none of this machine's %u cores: it is for another chip "
		    "(numbered by %s, positions up to %d); check the file or drop --die-map"),
		    dm.path, l->ncores, diemap_numbering_name(dm.numbering), dm.max_slot));

	for (gi = 0; gi < b->np; gi++) {
		struct die_grid *g = &l->grids[gi];
		unsigned i;

		/* Without CAPID6 a tile is known to be there when it holds a core. */
		if (!capid)
			for (i = 0; i < g->rows * g->cols; i++)
				if (g->cells[i].kind == DM_TILE && g->cells[i].ncores > 0)
					g->cells[i].enabled = true;
		count_tiles(g);
		if (capid)
			capid_title(g);
		else
			snprintf(g->title, sizeof g->title, _("package %u: %u of %u tiles hold cores"),
			    g->package, g->nenabled, g->ntiles);
	}
	if (unplaced > 0 && l->note[0] == '\0')
		snprintf(l->note, sizeof l->note,
		    ngettext("%u of %u cores is not on the map (its position is not in its grid): "
		    "add a core line for it",
		    "%u of %u cores are not on the map (their position is not in its grid): "
		    "add core lines for them", unplaced), unplaced, l->ncores);
	diemap_free(&dm);
	return 0;
}

/* --- entry points ---------------------------------------------------- */

/* The runs of topology.cores that make up each package. */
static unsigned
package_ranges(const struct topology *t, struct pkg_range *pr)
{
	unsigned i, np = 0;

	for (i = 0; i < t->ncores; i++) {
		if (np == 0 || pr[np - 1].package != t->cores[i].package) {
			pr[np].package = t->cores[i].package;
			pr[np].first = i;
			pr[np].n = 0;
			np++;
		}
		pr[np - 1].n++;
	}
	return np;
}

/* A Skylake-SP or Cascade Lake that is not the machine httop runs on (a
 * replay, a recorded topology without --sysfs-root): its CAPID6 cannot be
 * read here, so why the layout is logical, and how to get the physical. */
static void
recorded_note(struct die_layout *l)
{
	snprintf(l->note, sizeof l->note, "%s",
	    _("this Skylake-SP or Cascade Lake is a recorded machine (a replay, or --topology "
	    "without --sysfs-root), whose CAPID6 cannot be read here: give it with --capid6 (as "
	    "root on that machine: setpci -s BUS:1e.3 9c.l), or give --die-map; showing the "
	    "logical layout"));
}

int
die_layout_build(struct die_layout *l, const struct machine *m, const struct die_inputs *in,
    struct errmsg *e)
{
	struct build b;
	int rc = 0;

	memset(l, 0, sizeof *l);
	l->ncores = m->topo.ncores;
	l->cores = xcalloc(l->ncores ? l->ncores : 1, sizeof *l->cores);
	memset(&b, 0, sizeof b);
	b.l = l;
	b.t = &m->topo;
	b.pr = xcalloc(m->topo.ncores ? m->topo.ncores : 1, sizeof *b.pr);
	b.np = package_ranges(&m->topo, b.pr);
	b.given = given_capid6(in, m);
	free_grids(l);

	if (in != NULL && in->die_map != NULL) {
		rc = build_from_map(&b, in, e);
		if (rc != 0)
			die_layout_free(l);
	} else if (m->group == UARCH_KNL) {
		build_knl(&b);
	} else if (b.given != NULL && b.given->origin == CAPID6_FROM_OPTION &&
	    check_option_capid6(&b, m, e) != 0) {
		/* CAPID6 the user gave and httop cannot use is an error: the
		 * user asked for the physical view. */
		rc = -1;
		die_layout_free(l);
	} else if (!(in != NULL && (in->sysfs_root != NULL || b.given != NULL) && is_skx(m) &&
	    try_capid6(&b, in))) {
		build_logical(&b);
		if (is_skx(m) && l->note[0] == '\0')
			recorded_note(l);
	}
	free(b.pr);
	return rc;
}

void
die_layout_free(struct die_layout *l)
{
	unsigned i;

	for (i = 0; i < l->ngrids; i++)
		free(l->grids[i].cells);
	free(l->grids);
	free(l->cores);
	memset(l, 0, sizeof *l);
}

const char *
layout_kind_name(enum layout_kind k)
{
	return k == LAYOUT_PHYSICAL ? "physical" : "logical";
}

const char *
layout_basis_name(enum layout_basis b)
{
	switch (b) {
	case BASIS_TOPOLOGY: return "topology";
	case BASIS_KNL_TILES: return "knl-tiles";
	case BASIS_CAPID6: return "capid6";
	case BASIS_MAP: return "map";
	}
	return "?";
}

unsigned
capid6_chas(uint32_t capid6, int cha_of_bit[28])
{
	unsigned i, n = 0;

	for (i = 0; i < 28; i++)
		cha_of_bit[i] = (capid6 >> i) & 1u ? (int)n++ : -1;
	return n;
}
