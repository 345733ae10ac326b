/* diemap.h: a die map file (man/httop-diemap.5): a chip's grid of
 * positions, what each position holds, and how the numbers the machine
 * exposes (CAPID6 bits, Xeon Phi tile numbers, core ids) map to positions.
 * Parsed once at start; shipped maps live in data/dies/, a user's comes
 * from --die-map. */
#ifndef HTTOP_DIEMAP_H
#define HTTOP_DIEMAP_H

#include <stdbool.h>
#include <stdio.h>

#include "util/errmsg.h"

/* Largest grid a map may describe: bigger than any mesh shipped so far
 * (Xeon Phi: 6 x 9 stops; Sapphire Rapids: 8 x 8 per die). */
#define DM_MAX_ROWS 32
#define DM_MAX_COLS 32
/* Largest position number (slot) a map may use. */
#define DM_MAX_SLOT 1023

/* What a position of the grid holds. */
enum dm_cell {
	DM_EMPTY = 0,      /* "."  nothing (or nothing known) */
	DM_TILE,           /* a number: a tile (core(s) + CHA/LLC slice) */
	DM_MC,             /* "MC" a memory controller */
	DM_IO,             /* "IO" I/O: PCIe, UPI, ... */
};

/* What the numbers in the grid are. */
enum dm_numbering {
	DM_NUM_CAPID6 = 0, /* CAPID6 bit positions (Skylake-SP/Cascade Lake) */
	DM_NUM_TILE,       /* Xeon Phi tile numbers, tile = core id / 2 */
	DM_NUM_CORE,       /* core ids as Linux shows them (core_id) */
};

struct dm_pos {
	enum dm_cell kind;
	int slot;          /* the number of a DM_TILE position; -1 otherwise */
};

/* A "core" line: where one core sits, as measured by the map's author. */
struct dm_core {
	int package;       /* physical package id, or -1: every package */
	unsigned core_id;
	int slot;          /* the position's number, or -1 when `cha` is given */
	int cha;           /* CHA number (capid6 maps only), or -1 */
	unsigned line;     /* line in the file, for messages */
};

struct diemap {
	char name[128];          /* the "name" line: shown in the view */
	char path[256];          /* the file it came from */
	enum dm_numbering numbering;
	unsigned rows, cols;
	struct dm_pos *pos;      /* rows * cols, row-major */
	unsigned ntiles;         /* DM_TILE positions */
	int max_slot;            /* largest slot number used (-1 if none) */
	struct dm_core *cores;   /* the "core" lines, in file order */
	unsigned ncores;
};

/* Read a map. -1 with "FILE:LINE: what is wrong; the fix" for any error:
 * missing header or unknown version, unknown keyword, a row with the wrong
 * number of cells, a number used twice, a core line naming a slot the grid
 * lacks, a cha line in a map not numbered by capid6, ... A failed load
 * leaves *d empty (diemap_free is still safe). */
int diemap_load(struct diemap *d, const char *path, struct errmsg *e);
/* The same from an open stream; `name` is used in messages. */
int diemap_parse(struct diemap *d, const char *name, FILE *fp, struct errmsg *e);
void diemap_free(struct diemap *d);

/* Index into d->pos of the tile numbered `slot`, or -1 if there is none. */
int diemap_find_slot(const struct diemap *d, int slot);
const char *diemap_numbering_name(enum dm_numbering n);   /* "capid6", "tile", "core" */

#endif
