/* cores.h: the cores view's layout arithmetic, apart from curses so the
 * unit tests can check how many columns fit. */
#ifndef HTTOP_CORES_H
#define HTTOP_CORES_H

#include <stdbool.h>

struct plan;

/* Row formats, widest first. */
enum core_fmt {
	CF_FULL = 0,       /* core, cpus, bar, every figure, status */
	CF_MEDIUM,         /* core, bar, both (or util), util, thr, CPI, GHz */
	CF_COMPACT,        /* core, bar, both (or util), GHz (or thr; util where
			    * the source gives no GHz) */
	CF_COUNT
};

/* The figures a row may show after the bar, the watched job's own split
 * last; CC_BIT(c): a bit of a set of them. */
enum cores_col { CC_BOTH, CC_T0, CC_T1, CC_NEITHER, CC_UTIL, CC_THR, CC_CPI, CC_GHZ,
	CC_JBOTH, CC_JALONE, CC_JSHARED, CC_JNONE, CC_COUNT };
#define CC_BIT(c) (1u << (c))

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

/* The columns whose figure a run of plan `p` never gives (CC_BIT set):
 * the figures table's (metrics/figures.h, figure_read), known when the
 * source opens. They are left out of every row format: a source without
 * counters (sched, bpf, procstat) has no CPI or GHz, and its narrow rows
 * keep util% where a dash would have been. */
unsigned cores_unread(const struct plan *p);
/* Fixed width of a row format (all but the bar); `split` machines show
 * the four shares, the others utilisation and active threads; `job`: and
 * the watched job's own split (jboth% jalone% jshared% jnone%, 35 cells);
 * the columns in `unread` (cores_unread) left out. */
int cores_fmt_fixed(enum core_fmt f, bool split, bool job, unsigned unread);
/* Narrowest bar for a format. */
int cores_fmt_minbar(enum core_fmt f);
/* Lay out `npkg` packages of pkgcores[i] cores in width x height cells
 * (height includes the column heads' row): the fewest columns that fit,
 * else as many as the width allows (and the view scrolls). */
void cores_layout(int width, int height, const unsigned *pkgcores, unsigned npkg, bool split,
    bool job, unsigned unread, struct cores_layout *l);

#endif
