/* ommerge.h: the expositions of N intervals as one OpenMetrics exposition
 * (--format openmetrics with -n N): each family once, its header from the
 * first interval that had it; under it each series' samples in time order,
 * one series after the other (a strict parser refuses a family twice, a
 * series whose samples are interleaved with another's, or a series that
 * mixes samples with and without a timestamp).
 *
 * It takes the text openmetrics.c writes for each interval (its own
 * output, one line per sample: "# TYPE|UNIT|HELP name ...", "name{labels}
 * value[ timestamp]") and keeps it until ommerge_write: the memory is the
 * sum of the intervals' sample lines, each kept once, and one copy of each
 * header and series name; it grows with N. A series' samples: those with
 * a timestamp, in the order given (openmetrics.c writes a timestamp only
 * when it is later than the one before); a sample without one (a replay
 * that jumped back, a wall time not known) is dropped after one with a
 * timestamp, and replaces one without. */
#ifndef HTTOP_OMMERGE_H
#define HTTOP_OMMERGE_H

#include <stddef.h>
#include <stdio.h>

struct ommerge;

struct ommerge *ommerge_new(void);
/* One interval's exposition: `len` bytes of whole lines, no "# EOF". */
void ommerge_feed(struct ommerge *m, const char *text, size_t len);
/* Everything fed so far, families in the order they first came; "# EOF"
 * is the caller's. Returns the bytes kept (a measure of the memory). */
size_t ommerge_write(const struct ommerge *m, FILE *fp);
void ommerge_free(struct ommerge *m);
/* The bytes fed so far: the memory kept is at most about this. */
size_t ommerge_fed(const struct ommerge *m);

#endif
