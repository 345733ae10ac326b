/* figures.h: the one table of the figures an interval carries (struct
 * val members of agg_fig, core_fig, thread_fig): each figure's name, its
 * kind, where it lives at each level, and which formats carry it. The
 * JSON, CSV and OpenMetrics writers (src/out/) and the reader of httop's
 * JSON lines (src/cluster/nodeiv.c) are driven by it: a figure is one row
 * (HACKING.md, "Adding a figure"). */
#ifndef HTTOP_FIGURES_H
#define HTTOP_FIGURES_H

#include <stdbool.h>
#include <stddef.h>

#include "metrics/value.h"

/* Where a figure lives: the aggregates (the node, a package, a job: struct
 * agg_fig), a core (struct core_fig), a thread (struct thread_fig). */
enum fig_level { FIG_AGG = 0, FIG_CORE, FIG_THREAD, FIG_NLEVELS };

/* What kind of number it is: how it is written and read back. */
enum fig_kind {
	FIG_SHARE,      /* a share of time, 0..1: 10 decimals (json.c says why),
			 * read back within 0..1 */
	FIG_FRACTION,   /* a fraction that may pass 1 (issue utilisation):
			 * 10 decimals, read back as any rate */
	FIG_RATIO,      /* a ratio or a mean count: 6 significant digits */
	FIG_GHZ,        /* a frequency in GHz: 6 significant digits; hertz in
			 * OpenMetrics */
};

/* The formats that carry it (bits). */
#define FIG_JSON 1u     /* x, x_lo, x_hi members; the compact form's position;
			 * read back by nodeiv.c */
#define FIG_CSV 2u      /* x, x_lo, x_hi columns */
#define FIG_OM 4u       /* an OpenMetrics / Prometheus gauge family */
#define FIG_ALL (FIG_JSON | FIG_CSV | FIG_OM)

/* The most rows the table may have (the writers size arrays by it). */
#define FIG_MAX 24

/* A figure at one level: the offset of its struct val in that level's
 * struct, its place among the level's figures in JSON (and the compact
 * form's positions, and nodeiv's reading) and in OpenMetrics (1, 2, ...;
 * 0: not at this level), and the help of its OpenMetrics family there. */
struct fig_at {
	size_t off;
	unsigned char json, om;
	const char *help;
};

/* Its column in the Threads view (src/ui/view_threads.c), after the
 * bar, in the thread level's JSON order; head NULL: no column. The
 * column's name in the settings file's `sort` key is `key`, else the
 * figure's name. Shown unless the source never gives the figure (the
 * row's `needs`, figure_read): a column of dashes is left out. */
struct fig_col {
	const char *head;          /* marked N_(): the view translates it */
	const char *key;
	const char *fmt;           /* printf format of the number */
	double scale;              /* the value times this (100: a percentage) */
	int width;                 /* at least this many cells, the blank before it included */
};

/* A slot kind (enum slot_kind, plan/plan.h) as a bit of a figure's
 * `needs`. */
#define FIG_NEED(k) (1u << (k))

struct figure {
	const char *name;          /* JSON member and CSV column */
	/* The JSON members, written as they stand: ,"name": ,"name_lo": ,"name_hi": */
	const char *jx, *jlo, *jhi;
	unsigned char njx, njlo, njhi;
	const char *lo, *hi;       /* "name_lo", "name_hi" */
	enum fig_kind kind;
	unsigned formats;          /* FIG_JSON | FIG_CSV | FIG_OM */
	/* 1..4: one of the four shares of the SMT split (neither, t0_only,
	 * t1_only, both), which exist only for a core of two threads and are
	 * one OpenMetrics family (share_ratio) with a label state; 0 else. */
	unsigned char state;
	/* Added after the formats' layouts were first published: its CSV
	 * columns come after every fixed column (a reader that counts columns
	 * still finds the others where they were), its places in the compact
	 * JSON form after the flags, and a line without it (an older httop's)
	 * reads back as absent. A late row comes after every other in JSON
	 * order. */
	bool late;
	const char *om_name;       /* after "httop_<level>_" */
	/* After "httop_job_" in the watched job's own families (the node's
	 * under the job's label), where om_name's own "job_" would double
	 * it (httop_job_job_both_ratio); NULL: om_name. */
	const char *om_job;
	const char *om_unit;       /* its last word, the OpenMetrics unit, or "" */
	struct fig_at at[FIG_NLEVELS];
	struct fig_col col;        /* the Threads view's column (thread level) */
	/* The plan slots it is computed from beyond those every plan has
	 * (the time and the busy time: SLOT_TSC, SLOT_REF), FIG_NEED bits: a
	 * source whose plan lacks one never gives the figure (figure_read),
	 * so a view leaves its column out. The split's shares are the
	 * plan's split method's, not a slot's: 0 here. */
	unsigned needs;
	/* What it is, for the JSON Schema's description of its members
	 * (data/httop.schema.in.json, tools/schema.c); NULL: the level's
	 * OpenMetrics help. */
	const char *desc;
};

extern const struct figure figures[];
extern const size_t nfigures;

/* The figures of a level that `format` carries (FIG_JSON, FIG_CSV or
 * FIG_OM), in JSON order (FIG_JSON, FIG_CSV) or OpenMetrics order
 * (FIG_OM); the lists are made once, on the first call. */
extern const struct figure *figures_list[FIG_NLEVELS][3][FIG_MAX];
extern size_t figures_count[FIG_NLEVELS][3];
extern bool figures_made;
void figures_make(void);

static inline const struct figure *const *
figures_of(enum fig_level l, unsigned format, size_t *n)
{
	unsigned k = format == FIG_OM ? 2 : format == FIG_CSV ? 1 : 0;

	if (!figures_made)
		figures_make();
	*n = figures_count[l][k];
	return figures_list[l][k];
}

/* The Threads view's figure columns (rows with col.head), in the thread
 * level's JSON order. */
extern const struct figure *figures_cols[FIG_MAX];
extern size_t figures_ncols;

static inline const struct figure *const *
figures_columns(size_t *n)
{
	if (!figures_made)
		figures_make();
	*n = figures_ncols;
	return figures_cols;
}

/* How many of a level's list (figures_of) come before the late ones. */
static inline size_t
figures_early(const struct figure *const *fl, size_t n)
{
	size_t i;

	for (i = 0; i < n && !fl[i]->late; i++)
		;
	return i;
}

/* The figure's value in `obj`, a struct of level l. */
static inline const struct val *
fig_val(const struct figure *f, enum fig_level l, const void *obj)
{
	return (const struct val *)(const void *)((const char *)obj + f->at[l].off);
}

static inline struct val *
fig_val_w(const struct figure *f, enum fig_level l, void *obj)
{
	return (struct val *)(void *)((char *)obj + f->at[l].off);
}

/* The figure as written: a share of the split is absent (R_NO_SPLIT)
 * where the core has none (`split` false): the four-way split exists only
 * for cores of exactly two threads. */
static inline struct val
fig_value(const struct figure *f, enum fig_level l, const void *obj, bool split)
{
	return f->state != 0 && !split ? val_absent(R_NO_SPLIT) : *fig_val(f, l, obj);
}

/* The row named `name` (a JSON member), NULL for none. */
const struct figure *figure_named(const char *name);

struct plan;

/* Whether a run of plan `p` can ever give figure f: the plan has every
 * slot f->needs. A node's plan (httop --nodes: no slots, its figures
 * come computed) is known by its basis only: counters give the counter
 * figures, the scheduler's and the idle accounting's do not; the idle
 * accounting's gives the steal share. NULL: not known, true. Known when
 * the source opens: what it never fills, not what an interval lacks. */
bool figure_read(const struct figure *f, const struct plan *p);
/* Why f is absent in every interval of a plan that cannot give it
 * (figure_read false): the reason its value carries (not-counted: no
 * instructions or cycles at all; unavailable: that counter is missing;
 * no-steal; no-job); R_NONE when the plan gives it. */
enum reason figure_unread_why(const struct figure *f, const struct plan *p);

/* Written with 10 decimals (a share or a fraction), else 6 significant
 * digits. */
static inline bool
fig_is_frac(const struct figure *f)
{
	return f->kind == FIG_SHARE || f->kind == FIG_FRACTION;
}

#endif
