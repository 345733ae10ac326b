/* batch.h: the non-interactive outputs (-b): text, csv, json. Each takes
 * the figures of an interval; none of them computes a figure. */
#ifndef HTTOP_BATCH_H
#define HTTOP_BATCH_H

#include <stdio.h>

#include "machine/machine.h"
#include "metrics/metrics.h"
#include "plan/plan.h"
#include "util/errmsg.h"

enum out_format {
	FMT_TEXT = 0,
	FMT_CSV,
	FMT_JSON,
};

struct batch;

/* `fp` stays the caller's. `source_name` goes into the header/records. */
struct batch *batch_new(enum out_format f, FILE *fp, const struct machine *m,
    const struct plan *p, const char *source_name);
/* One interval. -1 with a message on a write error (EPIPE, ENOSPC). */
int batch_write(struct batch *b, const struct interval *iv, struct errmsg *e);
void batch_free(struct batch *b);
int out_format_parse(const char *s, enum out_format *f);

#endif
