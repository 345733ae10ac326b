/* nodeiv.h: a node's interval read back from httop's own JSON line
 * (httop.1, OUTPUT FORMATS json; httop.schema.json), so that the
 * views made for this machine's intervals show a remote node's.
 *
 * A line carries figures, not counts: the reader fills struct interval's
 * figures as they were computed on the node (exact, a bound, or absent
 * with the reason code), and the machine the figures are of: the host,
 * the counter plan's group, split method and scale, the packages, cores
 * (package, core id, CPUs thread 0 first, place on the die grid) and the
 * threads. The per-thread counts an interval also holds are not in the
 * line; they are rebuilt from the thread's figures in nanoseconds of a
 * notional 1 GHz clock (d_tsc = interval, d_ref = util x d_tsc, d_cyc =
 * GHz x d_ref, d_inst = IPC x d_cyc), so that weights taken from them are
 * the time, busy time and instructions the node's own aggregates weighed
 * by (metrics_node_weights). What a line does not carry is not shown for
 * a remote node: a die's memory controllers and I/O cells, disabled
 * tiles, L3 groups, the simulator's truth. */
#ifndef HTTOP_NODEIV_H
#define HTTOP_NODEIV_H

#include <stdbool.h>
#include <stdint.h>

#include "cluster/jsonl.h"
#include "machine/dielayout.h"
#include "machine/machine.h"
#include "metrics/metrics.h"
#include "plan/plan.h"
#include "util/errmsg.h"
#include "util/hostname.h"

/* Limits on what a line may describe: far beyond any machine, small
 * enough that a hostile line cannot make the reader allocate more than
 * about 50 MB for its machine and interval (65536 CPUs: the arrays go to
 * the highest CPU named) and 1.8 MB for its die grids (httop(1), MANY
 * NODES, What a node can cost). */
#define NODEIV_CPU_MAX 65536u
#define NODEIV_PACKAGE_MAX 1024u
/* The die grids' cells in all (a node's layout: 28 bytes each, 1.8 MB):
 * one grid of 256 x 256 tiles, the most a tile's row and column name, or
 * any number of smaller ones. A line whose grids would have more has no
 * layout (its Die grid view says so): 1025 packages with a tile at row
 * and column 255 were 1.8 GB. */
#define NODEIV_CELL_MAX 65536u

struct nodeiv {
	struct machine m;          /* from the line: read-only for the views */
	struct plan *plan;         /* group, split and scale; no slots. NULL
				    * while the rows are let go (rows_shed):
				    * split, basis and scale make it again */
	enum split_method split;   /* the plan's, kept while it is let go */
	enum plan_basis basis;
	unsigned scale;            /* 0: none (null) */
	struct die_layout layout;  /* the cores' tiles, when the line has a layout */
	bool have_machine, have_layout, have_iv;
	struct interval iv;        /* the last line's figures */
	char source[16];           /* msr, perf, sim, replay */
	/* The CPU's brand, escaped, as the last line that had one gave it (a
	 * compact stream gives it once, in its first line): kept across
	 * rebuilds of the machine. */
	char brand[64];
	double unix_time;          /* the line's "unix_time", or -1 when it has none */
	bool whole;                /* the line is a whole-run record ("window":"run"):
				    * a watched job's whole run, not an interval */
	bool have_weights;         /* the line's node had "weights" (httop 0.1 and later) */
	struct agg_weights w;      /* and these are they */
	bool threads_unread;       /* the line's threads were passed over */
	bool rows_light;           /* the last line read had its cores and
				    * threads passed over: the next such line
				    * need not clear them (nodeiv.c, clear) */
	bool rows_kept;            /* and this one did not: they are as the
				    * last one left them */
	bool unread_done;          /* nodeiv_cores_unread ran since they were */
	bool rows_shed;            /* the interval's cores, threads and packages
				    * are let go (nodeiv_shed_rows): NULL */
	uint64_t shape;            /* what the machine description was built from */
	uint64_t cores_shape;      /* and its cores' part (a compact line's
				    * "core_list", kept for the lines without) */
	unsigned *core_of;         /* the line's k-th core: its topology index */
	unsigned ncore_of;
	char want_host[HOST_NAME_LEN + 1]; /* the host it was started for, or "" */
};

void nodeiv_init(struct nodeiv *n);
/* The host the node was started for: a line whose "host" is another is
 * refused (nodeiv_read). Without, any host name is taken. */
void nodeiv_expect_host(struct nodeiv *n, const char *host);
/* What nodeiv_read returns besides 0, 1 and -1. */
#define NODEIV_FULL 2

/* The interval of the object `d` holds (token 0). 0 when read; 1 when
 * read and the machine description changed from the last line's (the
 * machine, layout and interval were made anew: pointers into them are
 * stale); -1 with a message naming the member that is wrong (the last
 * interval read stays).
 *
 * A line parsed with its "cores" passed over (jdoc_parse_skip) is read
 * light: the node's, packages' and threads' figures, the cores of the
 * last full line taken as all valid, their own figures not read. That
 * holds only while the node's aggregate counts every one of them valid
 * and its threads are the machine's; otherwise (and before any full
 * line) NODEIV_FULL: parse the line fully and read it again. Its
 * "threads" may be passed over too when its node has "weights" (then the
 * threads' figures are not read); without them, NODEIV_FULL. */
int nodeiv_read(struct nodeiv *n, const struct jdoc *d, struct errmsg *e);
/* After a light line has been weighed: its cores (and threads, when they
 * were passed over) say "no previous sample yet", as they are shown until
 * a full line. */
void nodeiv_cores_unread(struct nodeiv *n);
void nodeiv_free(struct nodeiv *n);
/* A node whose views are not shown keeps its machine and its aggregates,
 * not its interval's cores, threads and packages (48 KB for a node of 72
 * CPUs: most of the memory of thousands of nodes): after a light line
 * whose threads were passed over (nodeiv_cores_unread done), they are let
 * go; they are only what such a line leaves (cores and threads "no
 * previous sample yet", packages absent), which nodeiv_unshed_rows makes
 * again when the node is shown, or nodeiv_read when a line reads them. */
void nodeiv_shed_rows(struct nodeiv *n);
void nodeiv_unshed_rows(struct nodeiv *n);

/* The reason whose code (metrics_reason_code) is `code`; R_NREASONS for
 * none. */
enum reason nodeiv_reason(const char *code);

#endif
