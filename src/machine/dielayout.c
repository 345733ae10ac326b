/* dielayout.c: where each core sits. Skeleton: being written. */
#include "config.h"
#include "machine/dielayout.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

int
die_layout_build(struct die_layout *l, const struct machine *m, const struct die_inputs *in,
    struct errmsg *e)
{
	(void)in;
	(void)e;
	memset(l, 0, sizeof *l);
	l->kind = LAYOUT_LOGICAL;
	l->basis = BASIS_TOPOLOGY;
	l->ncores = m->topo.ncores;
	l->cores = xcalloc(l->ncores ? l->ncores : 1, sizeof *l->cores);
	return 0;
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
