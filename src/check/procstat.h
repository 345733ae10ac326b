/* procstat.h: the kernel's own account of each CPU's idle time
 * (/proc/stat), to see whether the CPUs the check uses are idle before it
 * starts and how busy the kernel saw them during each case. */
#ifndef HTTOP_CHECK_PROCSTAT_H
#define HTTOP_CHECK_PROCSTAT_H

#include <stdbool.h>
#include <stdint.h>

#include "util/errmsg.h"

struct procstat {
	unsigned n;                /* CPUs the arrays hold */
	uint64_t *idle;            /* idle + iowait + steal, in clock ticks (USER_HZ) */
	uint64_t *steal;           /* steal: the hypervisor ran something else */
	bool *have;                /* the CPU has a line */
	double time;               /* clock_mono() when read */
};

/* Room for CPUs below max_cpu; nothing is read yet. */
void procstat_init(struct procstat *ps, unsigned max_cpu);
void procstat_free(struct procstat *ps);
/* The "cpuN ..." lines of /proc/stat's text into ps (others ignored).
 * -1 if there is no CPU line at all. */
int procstat_parse(const char *text, struct procstat *ps);
/* Read /proc/stat now; -1 with a message naming the file. */
int procstat_read(struct procstat *ps, struct errmsg *e);
/* CPU's busy share between two readings: 1 - (idle + iowait + steal)
 * time / elapsed time, within [0, 1], as the procstat source counts it;
 * -1 when either reading lacks the CPU or no time passed. `hz` is the
 * ticks per second of the counts. */
double procstat_busy(const struct procstat *a, const struct procstat *b, unsigned cpu, long hz);
/* The share of the elapsed time the hypervisor took from CPU (steal:
 * the vCPU had work but did not run), within [0, 1]; -1 as above, and
 * where the kernel keeps no steal column. */
double procstat_steal(const struct procstat *a, const struct procstat *b, unsigned cpu, long hz);
/* The ticks per second of /proc/stat (sysconf _SC_CLK_TCK, 100 if unknown). */
long procstat_hz(void);

#endif
