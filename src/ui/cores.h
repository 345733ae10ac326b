/* cores.h: the cores view's layout arithmetic, apart from curses so the
 * unit tests can check how many columns fit. */
#ifndef HTTOP_CORES_H
#define HTTOP_CORES_H

#include <stdbool.h>

/* Row formats, widest first. */
enum core_fmt {
	CF_FULL = 0,       /* core, cpus, bar, every figure, status */
	CF_MEDIUM,         /* core, bar, both (or util), util, thr, CPI, GHz */
	CF_COMPACT,        /* core, bar, both (or util), GHz (or thr) */
	CF_COUNT
};

#define CORES_GAP 2        /* blanks between columns of rows */
#define CORES_BAR_MAX 50   /* a longer bar adds no precision worth the room */

struct cores_layout {
	int ncols;          /* columns of rows */
	int colw;           /* width of one column, gap excluded */
	enum core_fmt fmt;
	int bar;            /* bar cells (edges excluded) */
	int rows;           /* rows of content: a heading per package + its core rows */
	bool fits;          /* rows <= the room below the column heads */
};

/* Fixed width of a row format (all but the bar); `split` machines show
 * the four shares, the others utilisation and active threads; `job`: and
 * the watched job's own split (jboth% jalone% jshared% jnone%, 35 cells). */
int cores_fmt_fixed(enum core_fmt f, bool split, bool job);
/* Narrowest bar for a format. */
int cores_fmt_minbar(enum core_fmt f);
/* Lay out `npkg` packages of pkgcores[i] cores in width x height cells
 * (height includes the column heads' row): the fewest columns that fit,
 * else as many as the width allows (and the view scrolls). */
void cores_layout(int width, int height, const unsigned *pkgcores, unsigned npkg, bool split,
    bool job, struct cores_layout *l);

#endif
