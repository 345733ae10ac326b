/* nodeiv_machine.c: the machine a node's line describes (nodeiv.h):
 * its topology, plan and die layout, built again only when the line
 * describes another one (a hash of what it is built from). */
#include "config.h"
#include "cluster/nodeiv_int.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/i18n.h"
#include "util/textesc.h"
#include "util/xalloc.h"

/* Grid rows and columns a tile may name. */
#define TILE_MAX 256u

/* --- the machine description ------------------------------------------- */

static uint64_t
mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
	return h;
}

static uint64_t
mix_str(uint64_t h, const struct jdoc *d, int i)
{
	unsigned k;

	if (i < 0)
		return mix(h, 1);
	h = mix(h, d->t[i].type);
	for (k = 0; k < d->t[i].len; k++)
		h = mix(h, (unsigned char)d->text[d->t[i].start + k]);
	return h;
}

/* A core's CPUs: 1 to TOPO_MAX_SMT numbers below NODEIV_CPU_MAX. */
static int
core_cpus(const struct jdoc *d, int a, unsigned *cpus, unsigned *n, struct errmsg *e)
{
	int i;

	*n = 0;
	if (!is(d, a, J_ARR) || d->t[a].size == 0 || d->t[a].size > TOPO_MAX_SMT)
		return errmsg_set(e, _("a core's \"cpus\" is not a list of 1 to %d CPUs"),
		    TOPO_MAX_SMT);
	EACH(d, a, i) {
		double x = d->t[i].num;

		if (d->t[i].type != J_NUM || !(x >= 0 && x < NODEIV_CPU_MAX) || x != floor(x))
			return errmsg_set(e, _("a core's \"cpus\" holds something other than a CPU "
			    "number below %u"), NODEIV_CPU_MAX);
		cpus[(*n)++] = (unsigned)x;
	}
	return 0;
}

/* A core's description: its package, core id, CPUs and tile tokens (-1
 * when missing), from a full line's core object or a compact line's
 * core_list element [package, core, [cpus], tile]. */
struct core_desc {
	int pkg, id, cpus, tile;
};

static int
core_desc(const struct jdoc *d, int i, bool compact, struct core_desc *c, struct errmsg *e)
{
	struct jobj o;

	if (compact) {
		if (!is(d, i, J_ARR) || d->t[i].size != 4)
			return errmsg_set(e, _("a core of \"core_list\" is not [package, core, cpus, "
			    "tile]"));
		c->pkg = i + 1;
		c->id = (int)d->t[c->pkg].next;
		c->cpus = (int)d->t[c->id].next;
		c->tile = (int)d->t[c->cpus].next;
		return 0;
	}
	if (jobj_open(&o, d, i) != 0)
		return errmsg_set(e, _("a core is not an object"));
	c->pkg = jobj_get(&o, "package");
	c->id = jobj_get(&o, "core");
	c->cpus = jobj_get(&o, "cpus");
	c->tile = jobj_get(&o, "tile");
	return 0;
}

int
nodeiv_tok_uint(const struct jdoc *d, int i, const char *key, unsigned max, unsigned *v,
    struct errmsg *e)
{
	double x;

	if (!is(d, i, J_NUM))
		return errmsg_set(e, _("\"%s\" is missing or not a number"), key);
	x = d->t[i].num;
	if (!(x >= 0.0 && x <= (double)max && x == floor(x)))
		return errmsg_set(e, _("\"%s\" is not a whole number from 0 to %u"), key, max);
	*v = (unsigned)x;
	return 0;
}

/* The hash of the head's members the machine description is built from. */
static uint64_t
head_shape(const struct jdoc *d, struct jobj *root)
{
	static const char *const top[] = { "host", "group", "split", "basis", "scale",
	    "layout", "layout_basis", "cores_assumed", "layout_note" };
	uint64_t h = 0;
	size_t k;

	for (k = 0; k < sizeof top / sizeof top[0]; k++)
		h = mix_str(h, d, jobj_get(root, top[k]));
	return h;
}

/* The hash of a compact line's core_list: every token's type and text. */
static uint64_t
list_shape(const struct jdoc *d, int list)
{
	uint64_t h = 0;
	unsigned k;

	for (k = (unsigned)list; k < d->t[list].next; k++)
		h = d->t[k].type == J_ARR || d->t[k].type == J_OBJ ? mix(mix(h, d->t[k].type),
		    d->t[k].size) : mix_str(h, d, (int)k);
	return h;
}

/* The hash of everything a full line's machine description is built from. */
static int
shape_of(const struct jdoc *d, struct jobj *root, uint64_t *h, struct errmsg *e)
{
	int cores = jobj_get(root, "cores"), i;

	*h = 0;
	if (!is(d, cores, J_ARR))
		return errmsg_set(e, _("\"cores\" is missing or not a list"));
	EACH(d, cores, i) {
		struct jobj o;
		int t;

		if (jobj_open(&o, d, i) != 0)
			return errmsg_set(e, _("a core is not an object"));
		*h = mix_str(*h, d, jobj_get(&o, "package"));
		*h = mix_str(*h, d, jobj_get(&o, "core"));
		t = jobj_get(&o, "cpus");
		*h = mix(*h, t >= 0 ? d->t[t].len : 0);
		if (t >= 0)
			*h = mix_str(*h, d, t);
		t = jobj_get(&o, "tile");
		if (t >= 0)
			*h = mix_str(*h, d, t);
	}
	return 0;
}

/* How many cores before one had its package and core id (two dies of a
 * package number their cores alike): counts by (package, core id) in a
 * table of open addressing, at least twice as large as the cores, so
 * that a line of many cores costs time in proportion to them. */
struct dup_table {
	uint32_t *key;             /* package x (NODEIV_CPU_MAX + 1) + core id + 1; 0 empty */
	unsigned *count;
	size_t mask;
};

static void
dup_init(struct dup_table *h, size_t n)
{
	size_t size = 16;

	while (size < 2 * n)
		size *= 2;
	h->key = xcalloc(size, sizeof *h->key);
	h->count = xcalloc(size, sizeof *h->count);
	h->mask = size - 1;
}

static unsigned
dup_count(struct dup_table *h, unsigned pkg, unsigned id)
{
	uint32_t key = pkg * (NODEIV_CPU_MAX + 1) + id + 1;
	size_t i = (size_t)(key * 2654435761u) & h->mask;

	while (h->key[i] != 0 && h->key[i] != key)
		i = (i + 1) & h->mask;
	h->key[i] = key;
	return h->count[i]++;
}

static void
dup_free(struct dup_table *h)
{
	free(h->key);
	free(h->count);
}

/* The topology from the line's cores; core_of[k] their places. */
static int
build_topology(struct nodeiv *n, const struct jdoc *d, int cores, bool compact,
    struct errmsg *e)
{
	struct topology *t = &n->m.topo;
	unsigned k = 0, j, nc, cpus[TOPO_MAX_SMT], pkg, id, dup;
	/* a bit a CPU: 8 KB to clear for each machine made, not 64 */
	uint64_t *used = xcalloc(NODEIV_CPU_MAX / 64, sizeof *used);
	struct dup_table seen;
	int i, rc = 0;

	n->ncore_of = d->t[cores].size;
	n->core_of = xcalloc(n->ncore_of + 1, sizeof *n->core_of);
	dup_init(&seen, n->ncore_of);
	topology_init(t);
	EACH(d, cores, i) {
		struct core_desc c;

		if (core_desc(d, i, compact, &c, e) != 0 ||
		    nodeiv_tok_uint(d, c.pkg, "package", NODEIV_PACKAGE_MAX, &pkg, e) != 0 ||
		    nodeiv_tok_uint(d, c.id, "core", NODEIV_CPU_MAX, &id, e) != 0 ||
		    core_cpus(d, c.cpus, cpus, &nc, e) != 0) {
			rc = -1;
			break;
		}
		/* Two cores of one package with one core id (two dies) stay two. */
		dup = dup_count(&seen, pkg, id);
		for (j = 0; j < nc; j++) {
			if (used[cpus[j] / 64] & (UINT64_C(1) << (cpus[j] % 64))) {
				rc = errmsg_set(e, _("CPU %u is in two cores"), cpus[j]);
				break;
			}
			used[cpus[j] / 64] |= UINT64_C(1) << (cpus[j] % 64);
			topology_add_cpu(t, cpus[j], pkg, dup, 0, id, j, true);
		}
		if (rc != 0)
			break;
		k++;
	}
	free(used);
	dup_free(&seen);
	topology_finish(t);
	if (rc == 0 && k == 0)
		rc = errmsg_set(e, _("\"cores\" is empty"));
	t->nl3 = 1;
	snprintf(t->source, sizeof t->source, "%s", "json");
	k = 0;
	if (rc == 0) {
		EACH(d, cores, i) {
			struct core_desc c;

			core_desc(d, i, compact, &c, e);
			core_cpus(d, c.cpus, cpus, &nc, e);
			n->core_of[k++] = topology_core_of(t, cpus[0])->index;
		}
	}
	return rc;
}

/* The node's split and what it rests on: "sched" and "ticks" say it, an
 * older httop wrote "any" or "bound" with "basis" beside. */
static void
split_parse(struct nodeiv *n, const char *s, const char *basis)
{
	enum plan_basis b;

	n->basis = PLAN_BASIS_COUNTERS;
	if (plan_split_parse(s, &n->split, &b) != 0) {
		n->split = SPLIT_NONE;
		return;
	}
	if (b == PLAN_NBASES)
		b = plan_basis_parse(basis);
	if (b != PLAN_NBASES)
		n->basis = b;
}

void
nodeiv_make_plan(struct nodeiv *n)
{
	struct plan *p;

	free(n->plan);
	n->plan = p = xcalloc(1, sizeof *p);
	p->group = n->m.group;
	p->split = n->split;
	p->basis = n->basis;
	p->scale = p->scale_expected = n->scale;
	p->scale_measured = true;
	snprintf(p->summary, sizeof p->summary, "%s", _("figures computed on the node"));
}
static enum layout_basis
basis_parse(const char *s)
{
	static const enum layout_basis all[] = { BASIS_TOPOLOGY, BASIS_KNL_TILES, BASIS_CAPID6,
	    BASIS_MAP };
	size_t i;

	for (i = 0; i < sizeof all / sizeof all[0]; i++)
		if (strcmp(layout_basis_name(all[i]), s) == 0)
			return all[i];
	return BASIS_TOPOLOGY;
}

/* A core's tile: row, col (below TILE_MAX), id and cha when there. */
static bool
tile_of(const struct jdoc *d, int tile, unsigned *row, unsigned *col, int *id, int *cha)
{
	struct jobj o;
	unsigned v;

	/* optional members: no message made for one absent (a core's "cha"
	 * is absent on most machines: 36 messages a node's first line) */
	if (tile < 0 || jobj_open(&o, d, tile) != 0 ||
	    !nodeiv_opt_uint(&o, "row", TILE_MAX - 1, row) ||
	    !nodeiv_opt_uint(&o, "col", TILE_MAX - 1, col))
		return false;
	*id = nodeiv_opt_uint(&o, "id", NODEIV_CPU_MAX, &v) ? (int)v : -1;
	*cha = nodeiv_opt_uint(&o, "cha", NODEIV_CPU_MAX, &v) ? (int)v : -1;
	return true;
}

/* The grids' cells from the placed cores (ncores of them), and their
 * titles. */
static void
fill_cells(struct die_layout *l, unsigned ncores)
{
	unsigned g, k;

	for (g = 0; g < l->ngrids; g++) {
		struct die_grid *gr = &l->grids[g];
		unsigned c, ncells = gr->rows * gr->cols;

		gr->cells = xcalloc(ncells > 0 ? ncells : 1, sizeof *gr->cells);
		for (c = 0; c < ncells; c++)
			gr->cells[c].slot = gr->cells[c].cha = -1;
	}
	for (k = 0; k < ncores; k++) {
		const struct core_place *p = &l->cores[k];
		struct die_cell *c;

		if (!p->placed)
			continue;
		c = &l->grids[p->grid].cells[p->row * l->grids[p->grid].cols + p->col];
		if (c->kind != DM_TILE)
			l->grids[p->grid].ntiles++, l->grids[p->grid].nenabled++;
		c->kind = DM_TILE;
		c->enabled = true;
		c->slot = p->slot;
		c->cha = p->cha;
		if (c->ncores < DIE_CELL_MAX_CORES)
			c->cores[c->ncores++] = k;
	}
	for (g = 0; g < l->ngrids; g++)
		snprintf(l->grids[g].title, sizeof l->grids[g].title,
		    ngettext("package %u: %u tile holds cores", "package %u: %u tiles hold cores",
		    l->grids[g].ntiles), l->grids[g].package, l->grids[g].ntiles);
}

/* The die grids from the cores' tiles: one grid per package, as large as
 * its tiles reach; only the tiles that hold cores are known. Grids of
 * more than NODEIV_CELL_MAX cells in all are not made (no layout): a line
 * may name any row and column below TILE_MAX in every package. */
static void
build_layout(struct nodeiv *n, const struct jdoc *d, struct jobj *root, int cores,
    bool compact)
{
	const struct topology *t = &n->m.topo;
	struct die_layout *l = &n->layout;
	unsigned k = 0, g, row, col, *grid_of;
	uint64_t cells = 0;
	char s[64], note[sizeof l->note];
	int i, id, cha;

	memset(l, 0, sizeof *l);
	l->kind = jstr_is(d, jobj_get(root, "layout"), "physical") ? LAYOUT_PHYSICAL : LAYOUT_LOGICAL;
	l->basis = basis_parse(jstr(d, jobj_get(root, "layout_basis"), s, sizeof s));
	i = jobj_get(root, "cores_assumed");
	l->cores_assumed = is(d, i, J_BOOL) && d->t[i].b;
	jstr(d, jobj_get(root, "layout_note"), note, sizeof note);
	text_escape(l->note, sizeof l->note, note);
	snprintf(l->basis_text, sizeof l->basis_text, _("%s: %s, as the node gave it"),
	    l->kind == LAYOUT_PHYSICAL ? _("physical") : _("logical"), layout_basis_name(l->basis));
	l->ngrids = t->npackages;
	l->grids = xcalloc(t->npackages + 1, sizeof *l->grids);
	l->ncores = t->ncores;
	l->cores = xcalloc(t->ncores + 1, sizeof *l->cores);
	/* a package's grid (packages are at most NODEIV_PACKAGE_MAX) */
	grid_of = xcalloc(NODEIV_PACKAGE_MAX + 1, sizeof *grid_of);
	for (k = 0; k < t->ncores; k++)
		l->cores[k].slot = l->cores[k].cha = -1;
	for (g = 0, k = 0; k < t->ncores; k++) {
		if (k > 0 && t->cores[k].package != t->cores[k - 1].package)
			g++;
		l->grids[g].package = t->cores[k].package;
		grid_of[t->cores[k].package] = g;
	}
	/* Sizes first, then the cells. */
	k = 0;
	EACH(d, cores, i) {
		struct core_desc c;
		struct errmsg ignore;
		struct core_place *p = &l->cores[n->core_of[k++]];

		if (core_desc(d, i, compact, &c, &ignore) != 0 ||
		    !tile_of(d, c.tile, &row, &col, &id, &cha))
			continue;
		g = grid_of[t->cores[n->core_of[k - 1]].package];
		p->placed = true;
		p->grid = g;
		p->row = row;
		p->col = col;
		p->slot = id;
		p->cha = cha;
		if (row + 1 > l->grids[g].rows)
			l->grids[g].rows = row + 1;
		if (col + 1 > l->grids[g].cols)
			l->grids[g].cols = col + 1;
	}
	free(grid_of);
	for (g = 0; g < l->ngrids; g++)
		cells += (uint64_t)l->grids[g].rows * l->grids[g].cols;
	if (cells > NODEIV_CELL_MAX) {
		free(l->grids);
		free(l->cores);
		memset(l, 0, sizeof *l);
		return;
	}
	fill_cells(l, t->ncores);
	n->have_layout = true;
}

static int
build(struct nodeiv *n, const struct jdoc *d, struct jobj *root, int cores, bool compact,
    struct errmsg *e)
{
	char s[64], b[32], brand[64];
	unsigned scale;

	nodeiv_drop_machine(n);
	memset(&n->m, 0, sizeof n->m);
	n->have_machine = true;
	if (build_topology(n, d, cores, compact, e) != 0) {
		nodeiv_drop_machine(n);
		return -1;
	}
	jstr(d, jobj_get(root, "host"), n->m.hostname, sizeof n->m.hostname);
	/* the node's CPU for its header (absent from an older httop's lines,
	 * and from a compact stream's after its first); text from the node:
	 * escaped */
	if (is(d, jobj_get(root, "brand"), J_STR))
		text_escape(n->brand, sizeof n->brand,
		    jstr(d, jobj_get(root, "brand"), brand, sizeof brand));
	snprintf(n->m.topo.brand, sizeof n->m.topo.brand, "%s", n->brand);
	n->m.group = uarch_group_parse(jstr(d, jobj_get(root, "group"), s, sizeof s));
	if (n->m.group >= UARCH_NGROUPS)
		n->m.group = UARCH_UNKNOWN;
	n->m.id.family = n->m.id.model = -1;
	n->m.remote = true;
	n->m.topo.l3_unknown = true;
	jstr(d, jobj_get(root, "basis"), b, sizeof b);
	split_parse(n, jstr(d, jobj_get(root, "split"), s, sizeof s), b);
	/* null: a source without counters (sched, procstat) has no scale;
	 * plan_has_scale() then says so from the basis. */
	n->scale = 0;
	if (!is(d, jobj_get(root, "scale"), J_NULL) &&
	    nodeiv_get_uint(root, "scale", 1u << 20, &scale, e) == 0)
		n->scale = scale;
	nodeiv_make_plan(n);
	if (is(d, jobj_get(root, "layout"), J_STR))
		build_layout(n, d, root, cores, compact);
	interval_init(&n->iv, &n->m);
	n->have_iv = true;
	return 0;
}

/* The machine the line's figures are of: that of the last line (0), made
 * anew (1), NODEIV_FULL (a light full line before any machine), or -1.
 * A compact line's "core_list" describes it when it changes; one without
 * is of the machine of the last line, whose head must not have changed. */
int
nodeiv_machine_of(struct nodeiv *n, const struct jdoc *d, struct jobj *root, struct errmsg *e)
{
	int list = jobj_peek(root, "core_list");
	bool compact = list >= 0 || jobj_peek(root, "core_figs") >= 0;
	uint64_t cores, shape;

	if (list < 0 && passed_over(d, root))
		return n->have_machine ? 0 : NODEIV_FULL;
	if (compact && list < 0) {
		if (!n->have_machine)
			return errmsg_set(e, _("a compact line without \"core_list\" before any line "
			    "that had one: its cores are not known"));
		if (mix(head_shape(d, root), n->cores_shape) != n->shape)
			return errmsg_set(e, _("the node's machine changed without a \"core_list\""));
		return 0;
	}
	if (compact) {
		if (!is(d, list, J_ARR))
			return errmsg_set(e, _("\"core_list\" is not a list"));
		cores = list_shape(d, list);
	} else if (shape_of(d, root, &cores, e) != 0) {
		return -1;
	}
	shape = mix(head_shape(d, root), cores);
	if (n->have_machine && shape == n->shape)
		return 0;
	if (build(n, d, root, compact ? list : jobj_peek(root, "cores"), compact, e) != 0)
		return -1;
	n->shape = shape;
	n->cores_shape = cores;
	return 1;
}
