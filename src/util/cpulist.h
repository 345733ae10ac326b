/* cpulist.h: the kernel's CPU list syntax ("0-3,8,10-11"), as used by
 * --cpus, sysfs and cpuset.cpus.effective. */
#ifndef HTTOP_CPULIST_H
#define HTTOP_CPULIST_H

#include <stdbool.h>
#include <stddef.h>

#include "util/errmsg.h"

/* A set of CPU numbers below `n`, one bool each. */
struct cpulist {
	size_t n;
	bool *has;
};

/* Parse `text` into `out` (allocated, size max_cpu+1 of what the text names).
 * Returns 0, or -1 with the offending token in `e`. */
int cpulist_parse(const char *text, struct cpulist *out, struct errmsg *e);
bool cpulist_has(const struct cpulist *l, unsigned cpu);
size_t cpulist_count(const struct cpulist *l);
void cpulist_free(struct cpulist *l);
/* Append "0-17,36" (the CPUs i < n with has[i]) to the string in buf of
 * `len` bytes; when the list does not fit, it ends with "..." after the
 * last whole item. */
void cpulist_append(char *buf, size_t len, const bool *has, size_t n);

#endif
