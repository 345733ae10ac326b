/* history.h: figures over longer windows (the last N seconds, the whole
 * run) through the same metrics code. Counter deltas of valid intervals
 * are accumulated into 64-bit running sums (so no wrap is ever lost), and
 * a ring of snapshots of those sums gives any window up to the longest
 * kept. A core's invalid intervals are left out of its sums, so its
 * window figures cover the time it was valid; the time left out is kept
 * too (thread_fig.job_unc_s: the job's cpu_s over the window is then a
 * bound). */
#ifndef HTTOP_HISTORY_H
#define HTTOP_HISTORY_H

#include "metrics/metrics.h"
#include "sample/sample.h"

/* The averaging window the figures cover. */
enum avg_window {
	AVG_LAST = 0,      /* the last interval */
	AVG_WINDOW,        /* the last N seconds (10 s by default) */
	AVG_RUN,           /* since the start */
	AVG_COUNT
};

struct history;

/* Keeps enough snapshots for `max_seconds` at refreshes no shorter than
 * `min_delay`. Allocates once. */
struct history *history_new(const struct machine *m, const struct plan *p, double max_seconds,
    double min_delay);
/* After each refresh: the two samples and the interval computed from them
 * (its per-core validity decides what is accumulated). No allocation. */
void history_add(struct history *h, const struct sample *prev, const struct sample *cur,
    const struct interval *last);
/* Forget everything added (a replay jumped): as after history_new. */
void history_reset(struct history *h);
/* The figures over window `w` (AVG_WINDOW covers up to `seconds`) into
 * `iv`; returns the seconds actually covered (0 if nothing yet). */
double history_compute(struct history *h, const struct metrics_ctx *c, enum avg_window w,
    double seconds, struct interval *iv);
void history_free(struct history *h);

#endif
