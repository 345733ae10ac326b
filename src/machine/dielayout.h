/* dielayout.h: where each core sits on its chip, for the die grid view
 * and the batch outputs. Built once at start from the topology, the CPU
 * identity, CAPID6 (Skylake-SP/Cascade Lake XCC, when privileged) and a
 * die map (shipped in data/dies or given with --die-map).
 *
 * A layout is "physical" only when positions come from the hardware
 * (CAPID6) or from a map; otherwise it is "logical": a grid built from the
 * topology (package, die, L3 group, core id order) or, on Xeon Phi, tiles
 * in tile-number order. The view and the outputs say which. */
#ifndef HTTOP_DIELAYOUT_H
#define HTTOP_DIELAYOUT_H

#include <stdbool.h>
#include <stdint.h>

#include "machine/capid.h"
#include "machine/diemap.h"
#include "machine/machine.h"
#include "util/errmsg.h"

enum layout_kind {
	LAYOUT_LOGICAL = 0,
	LAYOUT_PHYSICAL,
};

/* Where the positions came from. */
enum layout_basis {
	BASIS_TOPOLOGY = 0,  /* logical: package / die / L3 group / core id */
	BASIS_KNL_TILES,     /* logical: Xeon Phi tiles (core id / 2) in number order */
	BASIS_CAPID6,        /* physical: CAPID6 + the shipped XCC map */
	BASIS_MAP,           /* physical: a --die-map file (with CAPID6 if it is capid6-numbered) */
};

/* Two cores per tile on Xeon Phi; one elsewhere. */
#define DIE_CELL_MAX_CORES 2

struct die_cell {
	enum dm_cell kind;       /* DM_TILE, DM_MC, DM_IO or DM_EMPTY */
	int slot;                /* the tile's number (CAPID6 bit, Phi tile, core id), -1 */
	int cha;                 /* CHA number when known, else -1 */
	bool enabled;            /* a tile that is there (CAPID6 bit set, Phi tile with cores) */
	unsigned ncores;         /* cores placed here */
	unsigned cores[DIE_CELL_MAX_CORES]; /* topology core indices */
};

/* One grid per package. */
struct die_grid {
	unsigned package;        /* physical package id (topo_core.package) */
	unsigned rows, cols;
	struct die_cell *cells;  /* rows * cols, row-major */
	unsigned ntiles;         /* DM_TILE cells */
	unsigned nenabled;       /* of which enabled */
	bool has_capid6;
	uint32_t capid6;
	char title[128];         /* "package 0: 24 of 28 tiles (CAPID6 0x0fbfbeff)" */
};

struct core_place {
	bool placed;             /* false: the layout does not know where it is */
	unsigned grid;           /* index into die_layout.grids */
	unsigned row, col;
	int slot;                /* as in die_cell */
	int cha;                 /* -1 when not known */
};

struct die_layout {
	enum layout_kind kind;
	enum layout_basis basis;
	/* Cores placed by the default rule (the k-th core of a package by core
	 * id at the k-th enabled CHA), not by a measured map: said in the view. */
	bool cores_assumed;
	char basis_text[512];    /* one line for the view's title (holds a map path) */
	/* Why the layout is not physical, with the fix ("the physical view
	 * needs root ..."), or what the user should know about it; "" if
	 * nothing. */
	char note[320];
	unsigned ngrids;
	struct die_grid *grids;  /* in topology package order */
	unsigned ncores;
	struct core_place *cores;/* by topology core index */
};

struct die_inputs {
	/* Root of sysfs for CAPID6: "/sys", or --sysfs-root. NULL: do not
	 * read CAPID6 (a recorded topology without --sysfs-root, a replay). */
	const char *sysfs_root;
	/* --die-map FILE, or NULL. */
	const char *die_map;
	/* The shipped XCC map (data/dies/skx-xcc.map), or NULL if not found. */
	const char *xcc_map;
	/* --capid6, or NULL. It, else the machine's own (m->capid6: the demo's
	 * or a scenario's), else what sysfs_root holds gives CAPID6. */
	const struct capid6_given *capid6;
	/* CAPID6 as read from sysfs_root earlier (a privileged httop reads it
	 * before giving the privilege up), or NULL to read it now. */
	const struct capid_info *capid_read;
};

/* Build the layout. Fails (-1, message naming FILE:LINE) only for a
 * --die-map that does not load or does not fit the machine; everything
 * else falls back to a logical layout with a note. */
int die_layout_build(struct die_layout *l, const struct machine *m, const struct die_inputs *in,
    struct errmsg *e);
void die_layout_free(struct die_layout *l);

const char *layout_kind_name(enum layout_kind k);     /* "physical", "logical" */
const char *layout_basis_name(enum layout_basis b);   /* "topology", "knl-tiles", "capid6", "map" */

/* The default Skylake-SP/Cascade Lake rule as a pure function, for tests:
 * CHA numbers of the enabled CAPID6 bits (the k-th set bit is CHA k);
 * cha_of_bit[i] = -1 for a clear bit. Returns the number of CHAs. */
unsigned capid6_chas(uint32_t capid6, int cha_of_bit[28]);

#endif
