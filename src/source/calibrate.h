/* calibrate.h: measure the reference-event scale at start and compare it
 * with the table (doc/hardware.md section 4, calibration). */
#ifndef HTTOP_CALIBRATE_H
#define HTTOP_CALIBRATE_H

#include "plan/plan.h"
#include "source/source.h"

/* Programs the calibration plan on `src`, waits `seconds` (by sleeping, or
 * advancing a virtual-clock source), reads twice, and sets plan->scale,
 * scale_measured and scale_note. When the measured ratio disagrees with
 * scale_expected, the measured value is used and the note says so. Leaves
 * the source ready for source_program(main plan). */
int calibrate_scale(struct source *src, struct plan *main_plan, const struct machine *m,
    double seconds, struct errmsg *e);
/* The pure part: scale from summed deltas of fixed counter 2 and REFX.
 * Returns 0 when the data are too few or the ratio is not near an integer. */
unsigned calibrate_ratio(uint64_t sum_ref, uint64_t sum_refx, char *note, size_t notelen,
    unsigned expected);

#endif
