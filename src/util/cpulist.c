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

static int
parse_num(const char **p, unsigned long *out)
{
	char *end;

	if (!isdigit((unsigned char)**p))
		return -1;
	errno = 0;
	*out = strtoul(*p, &end, 10);
	if (errno != 0 || *out >= CPULIST_MAX)
		return -1;
	*p = end;
	return 0;
}

int
cpulist_parse(const char *text, struct cpulist *out, struct errmsg *e)
{
	const char *p = text;
	unsigned long lo, hi, i;

	out->n = 0;
	out->has = NULL;
	while (isspace((unsigned char)*p))
		p++;
	if (*p == '\0')
		return errmsg_set(e, _("empty CPU list"));
	for (;;) {
		const char *tok = p;

		if (parse_num(&p, &lo) != 0)
			goto bad;
		hi = lo;
		if (*p == '-') {
			p++;
			if (parse_num(&p, &hi) != 0 || hi < lo) {
				p = tok;   /* name the whole range, not what follows it */
				goto bad;
			}
		}
		if (hi + 1 > out->n) {
			out->has = xreallocarray(out->has, hi + 1, sizeof *out->has);
			memset(out->has + out->n, 0, (hi + 1 - out->n) * sizeof *out->has);
			out->n = hi + 1;
		}
		for (i = lo; i <= hi; i++)
			out->has[i] = true;
		while (isspace((unsigned char)*p))
			p++;
		if (*p == '\0')
			return 0;
		if (*p != ',') {
			p = tok;
			goto bad;
		}
		p++;
		continue;
bad:
		cpulist_free(out);
		return errmsg_set(e, _("malformed CPU list '%s' (near '%.20s'): use numbers and ranges such as 0-3,8"),
		    text, p);
	}
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
