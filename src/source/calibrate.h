/* calibrate.h: measure the reference-event scale at start and compare it
 * with the table (doc/hardware.md section 4, calibration). */
#ifndef HTTOP_CALIBRATE_H
#define HTTOP_CALIBRATE_H

#include "plan/plan.h"
#include "sample/sample.h"
#include "source/source.h"

/* Does the split rest on the scale (the plan reads ANY or OTA counts)?
 * Where it does not, there is nothing to calibrate and nothing to say. */
bool calibrate_scale_used(const struct plan *p);

/* Calibration in two halves around a wait that the caller makes (so that
 * it can be woken by a signal): start programs the calibration plan and
 * takes the first reading; when c->active, the caller waits, then finish
 * takes the second and sets plan->scale, scale_measured and scale_note.
 * Where nothing can be measured start sets the note and leaves c
 * inactive. A PMU the calibration events cannot be programmed on is
 * checked with the main plan (with `force`): its refusal is the error. */
struct calibration {
	struct plan cal;
	struct sample a, b;
	bool active;
	int rc;                    /* the first read's result */
};
int calibrate_start(struct calibration *c, struct source *src, struct plan *main_plan,
    const struct machine *m, bool force, struct errmsg *e);
int calibrate_finish(struct calibration *c, struct source *src, struct plan *main_plan,
    const struct machine *m, struct errmsg *e);
/* Frees what start took (finish does it too); idempotent. */
void calibrate_free(struct calibration *c, struct source *src);

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
