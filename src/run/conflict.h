/* conflict.h: what httop does when another program reprograms the PMU
 * mid-run (--on-conflict report|reclaim|exit). The metrics see it first
 * (R_REPROGRAMMED: counts impossible for the programmed events); this
 * module then asks the source which registers differ from the plan and
 * applies the policy. Called by the refresh loops once per interval. */
#ifndef HTTOP_CONFLICT_H
#define HTTOP_CONFLICT_H

#include <stdbool.h>
#include <stddef.h>

#include "metrics/metrics.h"
#include "source/source.h"
#include "util/errmsg.h"

enum conflict_policy {
	CONFLICT_REPORT = 0,  /* show the intervals as invalid, say what changed; go on */
	CONFLICT_RECLAIM,     /* say what changed, write the plan back, go on */
	CONFLICT_EXIT,        /* say what changed, restore, exit with status 1 */
};

enum conflict_action {
	CONFLICT_NONE = 0,    /* nothing happened this interval */
	CONFLICT_NOTED,       /* a conflict was found and reported (note filled) */
	CONFLICT_STOP,        /* policy exit: the loop must end with status 1 */
};

struct conflict_state;

struct conflict_state *conflict_new(enum conflict_policy p);
void conflict_free(struct conflict_state *c);
/* After each interval: if `iv` shows reprogramming (or the source reports
 * a change), find which registers differ on which CPUs, fill `note` with
 * one line ("12.0 s: PERFEVTSEL0 changed on CPUs 0-95 (0x4301 3c -> ...);
 * reclaimed"), and apply the policy. -1 with a message on a failure that
 * must end the run (reclaim failed to write). */
int conflict_handle(struct conflict_state *c, struct source *s, const struct interval *iv,
    enum conflict_action *act, char *note, size_t len, struct errmsg *e);
int conflict_policy_parse(const char *s, enum conflict_policy *p);
const char *conflict_policy_name(enum conflict_policy p);

#endif
