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
/* The same, but a number no machine has (65536 or more) is not an error:
 * the first one goes to *beyond (0 when there is none) and the list keeps
 * the rest, for a message that says what the machine has instead. */
int cpulist_parse_any(const char *text, struct cpulist *out, unsigned long long *beyond,
    struct errmsg *e);
/* Every CPU of `want`, and `beyond` if not 0, is one of those with
 * present[cpu] (n entries): 0, or -1 with "OPT: CPU N is not in this
 * machine, which has CPUs 0-71; give CPUs it has". */
int cpulist_check_within(const struct cpulist *want, unsigned long long beyond,
    const bool *present, size_t n, const char *opt, struct errmsg *e);
bool cpulist_has(const struct cpulist *l, unsigned cpu);
size_t cpulist_count(const struct cpulist *l);
void cpulist_free(struct cpulist *l);
/* Append "0-17,36" (the CPUs i < n with has[i]) to the string in buf of
 * `len` bytes; when the list does not fit, it ends with "..." after the
 * last whole item. */
void cpulist_append(char *buf, size_t len, const bool *has, size_t n);

#endif
