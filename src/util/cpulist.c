#include "config.h"
#include "util/cpulist.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/i18n.h"
#include "util/xalloc.h"

/* Upper bound on CPU numbers accepted: larger than any machine Linux runs on. */
#define CPULIST_MAX 65536

/* 0, -1 not a number, -2 a number of CPULIST_MAX or more, -3 a number too
 * large for an unsigned long. */
static int
parse_num(const char **p, unsigned long *out)
{
	char *end;

	if (!isdigit((unsigned char)**p))
		return -1;
	errno = 0;
	*out = strtoul(*p, &end, 10);
	if (errno != 0)
		return -3;
	*p = end;
	return *out >= CPULIST_MAX ? -2 : 0;
}

int
cpulist_parse(const char *text, struct cpulist *out, struct errmsg *e)
{
	return cpulist_parse_any(text, out, NULL, e);
}

/* One item, "N" or "N-M", at *p: 0 with *lo and *hi; -1 malformed (*p
 * left at the item), -2 a number of CPULIST_MAX or more (in *big; only
 * an error when `any` is false), -3 a number too large for any use, -4
 * a range whose end is below its start. */
static int
parse_item(const char **p, bool any, unsigned long *lo, unsigned long *hi,
    unsigned long *big)
{
	const char *tok = *p;
	int r;

	*big = 0;
	r = parse_num(p, lo);
	if (r == -2)
		*big = *lo;
	*hi = *lo;
	if (r == 0 || (r == -2 && any)) {
		if (**p != '-')
			return 0;
		(*p)++;
		r = parse_num(p, hi);
		if (r == -2 && *big == 0)
			*big = *hi;
		if (r == -2 && any)
			r = 0;
		if (r == 0 && *hi < *lo)
			r = -4;
	}
	if (r != 0)
		*p = tok;   /* name the whole range, not what follows it */
	return r;
}

/* Mark lo..hi in `out`; the part at CPULIST_MAX or above is only noted in
 * *beyond (the first such number). */
static void
mark(struct cpulist *out, unsigned long lo, unsigned long hi, unsigned long long *beyond)
{
	unsigned long i;

	if (hi >= CPULIST_MAX) {
		if (*beyond == 0)
			*beyond = lo >= CPULIST_MAX ? lo : CPULIST_MAX;
		if (lo >= CPULIST_MAX)
			return;
		hi = CPULIST_MAX - 1;
	}
	if (hi + 1 > out->n) {
		out->has = xreallocarray(out->has, hi + 1, sizeof *out->has);
		memset(out->has + out->n, 0, (hi + 1 - out->n) * sizeof *out->has);
		out->n = hi + 1;
	}
	for (i = lo; i <= hi; i++)
		out->has[i] = true;
}

static int
parse_error(const char *text, const char *at, int r, unsigned long big, struct errmsg *e)
{
	if (r == -3)
		return errmsg_set(e, _("CPU list '%s': a number is far too large for a CPU "
		    "(at most %d); give CPUs the machine has"), text, CPULIST_MAX - 1);
	if (r == -2)
		return errmsg_set(e, _("CPU list '%s': CPU %lu is beyond any machine's CPUs "
		    "(at most %d); give CPUs the machine has"), text, big, CPULIST_MAX - 1);
	if (r == -4)
		return errmsg_set(e, _("CPU list '%s': the range '%.*s' runs backwards; give "
		    "the lower CPU first, such as 0-3"), text, (int)strcspn(at, ", "), at);
	return errmsg_set(e, _("malformed CPU list '%s' (near '%.20s'): use numbers and ranges such as 0-3,8"),
	    text, at);
}

int
cpulist_parse_any(const char *text, struct cpulist *out, unsigned long long *beyond,
    struct errmsg *e)
{
	const char *p = text;
	unsigned long lo, hi, big;
	unsigned long long ignore;
	int r;

	out->n = 0;
	out->has = NULL;
	if (beyond == NULL)
		beyond = &ignore;   /* never written: numbers beyond are errors then */
	*beyond = 0;
	while (isspace((unsigned char)*p))
		p++;
	if (*p == '\0')
		return errmsg_set(e, _("empty CPU list"));
	for (;;) {
		const char *tok = p;

		r = parse_item(&p, beyond != &ignore, &lo, &hi, &big);
		if (r != 0)
			break;
		mark(out, lo, hi, beyond);
		while (isspace((unsigned char)*p))
			p++;
		if (*p == '\0')
			return 0;
		if (*p != ',') {
			r = -1;
			p = tok;
			break;
		}
		p++;
	}
	cpulist_free(out);
	return parse_error(text, p, r, big, e);
}

int
cpulist_check_within(const struct cpulist *want, unsigned long long beyond, const bool *present,
    size_t n, const char *opt, struct errmsg *e)
{
	char has[200];
	size_t cpu, k = 0;
	bool out = false;

	/* The lowest CPU it lacks: one in the list first, then the first
	 * number past the list's limit. */
	for (cpu = 0; !out && cpu < want->n; cpu++) {
		if (want->has[cpu] && (cpu >= n || !present[cpu])) {
			beyond = cpu;
			out = true;
		}
	}
	if (!out && beyond == 0)
		return 0;
	has[0] = '\0';
	cpulist_append(has, sizeof has, present, n);
	for (cpu = 0; cpu < n; cpu++)
		k += present[cpu];
	return errmsg_set(e, ngettext("%s: CPU %llu is not in this machine, which has CPU %s; "
	    "give CPUs it has", "%s: CPU %llu is not in this machine, which has CPUs %s; give "
	    "CPUs it has", (unsigned long)k), opt, beyond, has);
}

bool
cpulist_has(const struct cpulist *l, unsigned cpu)
{
	return cpu < l->n && l->has[cpu];
}

size_t
cpulist_count(const struct cpulist *l)
{
	size_t i, c = 0;

	for (i = 0; i < l->n; i++)
		c += l->has[i];
	return c;
}

void
cpulist_free(struct cpulist *l)
{
	free(l->has);
	l->has = NULL;
	l->n = 0;
}

void
cpulist_append(char *buf, size_t len, const bool *has, size_t n)
{
	size_t cpu = 0, first, used;
	unsigned nout = 0;
	char item[48];

	while (cpu < n) {
		if (!has[cpu]) {
			cpu++;
			continue;
		}
		first = cpu;
		while (cpu + 1 < n && has[cpu + 1])
			cpu++;
		if (first == cpu)
			snprintf(item, sizeof item, "%s%zu", nout ? "," : "", first);
		else
			snprintf(item, sizeof item, "%s%zu-%zu", nout ? "," : "", first, cpu);
		used = strlen(buf);
		/* Never half a number: what does not fit whole is "...". */
		if (used + strlen(item) + 4 > len) {
			if (used + 4 <= len)
				memcpy(buf + used, "...", 4);
			return;
		}
		memcpy(buf + used, item, strlen(item) + 1);
		nout++;
		cpu++;
	}
}
