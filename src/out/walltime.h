/* walltime.h: an interval's wall-clock time (interval.wall) as the batch
 * formats write it, formatted once per interval: Unix seconds to the
 * microsecond (json, csv, openmetrics) and to the millisecond (text,
 * summary), and ISO 8601 in the local zone (json). */
#ifndef HTTOP_WALLTIME_H
#define HTTOP_WALLTIME_H

#include <stdbool.h>
#include <stddef.h>

struct walltime {
	bool known;            /* false: the wall time is not known (0) */
	char unix6[32];        /* "1732480000.123456" */
	char unix3[32];        /* "1732480000.123" */
	/* "2024-11-24T21:40:00.123456+01:00": the local zone's offset at
	 * that moment, as strftime's %z gives it, with a colon. */
	char iso[48];
	size_t unix6_len, unix3_len, iso_len;
};

/* `wall`: seconds since the Unix epoch; 0, negative or not finite is
 * "not known" (every string then "-"). The three strings name the same
 * instant: the microsecond is rounded once, the millisecond from it. */
void walltime_format(struct walltime *w, double wall);

#endif
