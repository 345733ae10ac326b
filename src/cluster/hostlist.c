/* hostlist.c: Slurm's hostlist syntax, expanded (hostlist.h). An item is
 * text and bracket groups; each group is a comma-separated list of
 * numbers and ranges. The item's names are every combination of its
 * groups' numbers, the first group varying slowest, as Slurm writes them. */
#include "config.h"
#include "cluster/hostlist.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/i18n.h"
#include "util/xalloc.h"

/* The largest number a range may hold: nine digits. */
#define NUM_MAX 999999999ul
/* Bracket groups in one item. */
#define GROUPS_MAX 8

int
hostlist_name_ok(const char *name)
{
	size_t n = strlen(name), i;

	if (n == 0 || n > HOSTLIST_NAME_MAX || name[0] == '-')
		return 0;
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)name[i];

		if (!isalnum(c) && c != '.' && c != '-' && c != '_')
			return 0;
	}
	return 1;
}

static size_t
hash(const char *s)
{
	size_t x = 5381;

	while (*s != '\0')
		x = x * 33 + (unsigned char)*s++;
	return x;
}

/* The slot of `name` in the index: where it is, or the empty one where
 * it would go. */
static size_t
slot(const struct hostlist *h, const char *name)
{
	size_t i = hash(name) & (h->nindex - 1);

	while (h->index[i] != 0 && strcmp(h->names[h->index[i] - 1], name) != 0)
		i = (i + 1) & (h->nindex - 1);
	return i;
}

/* Room for one more name in the index (kept under half full). */
static void
grow_index(struct hostlist *h)
{
	size_t i;

	if (2 * (h->n + 1) < h->nindex)
		return;
	free(h->index);
	h->nindex = h->nindex > 0 ? 2 * h->nindex : 64;
	h->index = xcalloc(h->nindex, sizeof *h->index);
	for (i = 0; i < h->n; i++)
		h->index[slot(h, h->names[i])] = i + 1;
}

int
hostlist_add(struct hostlist *h, const char *name, struct errmsg *e)
{
	size_t i;

	if (!hostlist_name_ok(name))
		return errmsg_set(e, _("'%.64s' is not a node name: give letters, digits, '.', '-' "
		    "and '_' (not '-' first), at most %d characters"), name, HOSTLIST_NAME_MAX);
	grow_index(h);
	i = slot(h, name);
	if (h->index[i] != 0)
		return 0;
	if (h->n >= HOSTLIST_MAX)
		return errmsg_set(e, _("more than %d nodes: give a shorter list"), HOSTLIST_MAX);
	if (h->n == h->cap) {
		h->cap = h->cap > 0 ? 2 * h->cap : 16;
		h->names = xreallocarray(h->names, h->cap, sizeof *h->names);
	}
	h->names[h->n++] = xstrdup(name);
	h->index[i] = h->n;
	return 0;
}

void
hostlist_free(struct hostlist *h)
{
	size_t i;

	for (i = 0; i < h->n; i++)
		free(h->names[i]);
	free(h->names);
	free(h->index);
	memset(h, 0, sizeof *h);
}

/* One range of a group: lo..hi printed `width` digits wide (0: as is). */
struct range {
	unsigned long lo, hi;
	int width;
};

struct group {
	size_t at;                 /* where in the item's text it stands */
	struct range *r;
	size_t nr;
};

struct item {
	char text[HOSTLIST_NAME_MAX + 1];  /* the item without its groups */
	size_t len;
	struct group g[GROUPS_MAX];
	size_t ng;
};

static int
bad(struct errmsg *e, const char *spec, const char *why)
{
	return errmsg_set(e, _("'%.80s' is not a node list (%s); give names such as "
	    "c001,c002 or Slurm's c[001-128,200]"), spec, why);
}

/* A number of a range at *p: digits; its width when written with a
 * leading zero. */
static int
number(const char **p, unsigned long *v, int *width)
{
	const char *s = *p;
	size_t n = strspn(s, "0123456789");

	if (n == 0 || n > 9)
		return -1;
	*v = strtoul(s, NULL, 10);
	*width = n > 1 && s[0] == '0' ? (int)n : 0;
	*p = s + n;
	return 0;
}

/* "001-128,200]" after a '[': the group's ranges, *p after the ']'. */
static int
parse_group(const char **p, struct group *g, const char *spec, struct errmsg *e)
{
	const char *s = *p;
	struct range r;
	int w2;

	for (;;) {
		if (number(&s, &r.lo, &r.width) != 0)
			return bad(e, spec, _("a bracket needs numbers of 1 to 9 digits"));
		r.hi = r.lo;
		if (*s == '-') {
			s++;
			if (number(&s, &r.hi, &w2) != 0)
				return bad(e, spec, _("a range needs a number after '-'"));
			if (r.hi < r.lo)
				return bad(e, spec, _("a range runs downwards"));
		}
		g->r = xreallocarray(g->r, g->nr + 1, sizeof *g->r);
		g->r[g->nr++] = r;
		if (*s == ']')
			break;
		if (*s != ',')
			return bad(e, spec, _("a bracket is not closed"));
		s++;
	}
	*p = s + 1;
	return 0;
}

static void
item_free(struct item *it)
{
	size_t i;

	for (i = 0; i < it->ng; i++)
		free(it->g[i].r);
	memset(it, 0, sizeof *it);
}

/* How many names an item makes, capped past HOSTLIST_MAX. */
static unsigned long
item_count(const struct item *it)
{
	unsigned long total = 1, n;
	size_t i, k;

	for (i = 0; i < it->ng; i++) {
		for (n = 0, k = 0; k < it->g[i].nr; k++)
			n += it->g[i].r[k].hi - it->g[i].r[k].lo + 1;
		total = total * (n < HOSTLIST_MAX + 1ul ? n : HOSTLIST_MAX + 1ul);
		if (total > HOSTLIST_MAX)
			return HOSTLIST_MAX + 1ul;
	}
	return total;
}

/* The name for the numbers `v` (one per group) into buf. */
static int
item_name(const struct item *it, const unsigned long *v, const int *w, char *buf, size_t len)
{
	size_t at = 0, i, o = 0;
	int n;

	for (i = 0; i <= it->ng; i++) {
		size_t end = i < it->ng ? it->g[i].at : it->len;

		n = snprintf(buf + o, len - o, "%.*s", (int)(end - at), it->text + at);
		if (n < 0 || (size_t)n >= len - o)
			return -1;
		o += (size_t)n;
		at = end;
		if (i == it->ng)
			break;
		n = snprintf(buf + o, len - o, "%0*lu", w[i], v[i]);
		if (n < 0 || (size_t)n >= len - o)
			return -1;
		o += (size_t)n;
	}
	return 0;
}

/* Every name of an item, the first group varying slowest. */
static int
item_expand(const struct item *it, struct hostlist *h, const char *spec, struct errmsg *e)
{
	size_t ri[GROUPS_MAX] = { 0 };
	unsigned long v[GROUPS_MAX];
	int w[GROUPS_MAX];
	char name[HOSTLIST_NAME_MAX + 2];
	size_t i;

	if (item_count(it) + h->n > HOSTLIST_MAX)
		return errmsg_set(e, _("'%.80s' names more than %d nodes: give a shorter list"), spec,
		    HOSTLIST_MAX);
	for (i = 0; i < it->ng; i++) {
		v[i] = it->g[i].r[0].lo;
		w[i] = it->g[i].r[0].width;
	}
	for (;;) {
		if (item_name(it, v, w, name, sizeof name) != 0 || strlen(name) > HOSTLIST_NAME_MAX)
			return bad(e, spec, _("a name is too long"));
		if (hostlist_add(h, name, e) != 0)
			return -1;
		/* the next combination: the last group first, like an odometer */
		for (i = it->ng; i-- > 0;) {
			const struct group *g = &it->g[i];

			if (v[i] < g->r[ri[i]].hi) {
				v[i]++;
				break;
			}
			if (ri[i] + 1 < g->nr) {
				ri[i]++;
				v[i] = g->r[ri[i]].lo;
				w[i] = g->r[ri[i]].width;
				break;
			}
			ri[i] = 0;
			v[i] = g->r[0].lo;
			w[i] = g->r[0].width;
		}
		if (i == (size_t)-1)
			return 0;
	}
}

/* One item from *p up to a top-level comma or the end. */
static int
parse_item(const char **p, struct item *it, const char *spec, struct errmsg *e)
{
	const char *s = *p;

	memset(it, 0, sizeof *it);
	while (*s != '\0' && *s != ',') {
		if (*s == ']')
			return bad(e, spec, _("a ']' without its '['"));
		if (*s == '[') {
			if (it->ng == GROUPS_MAX)
				return bad(e, spec, _("too many brackets in one name"));
			it->g[it->ng].at = it->len;
			s++;
			if (parse_group(&s, &it->g[it->ng++], spec, e) != 0)
				return -1;
			continue;
		}
		if (it->len >= HOSTLIST_NAME_MAX)
			return bad(e, spec, _("a name is too long"));
		it->text[it->len++] = *s++;
	}
	if (it->len == 0 && it->ng == 0)
		return bad(e, spec, _("an empty name"));
	*p = s;
	return 0;
}

int
hostlist_parse(const char *spec, struct hostlist *h, struct errmsg *e)
{
	const char *p = spec;
	struct item it;
	int rc;

	if (*spec == '\0')
		return bad(e, spec, _("it is empty"));
	for (;;) {
		rc = parse_item(&p, &it, spec, e);
		if (rc == 0)
			rc = item_expand(&it, h, spec, e);
		item_free(&it);
		if (rc != 0) {
			hostlist_free(h);
			return -1;
		}
		if (*p == '\0')
			return 0;
		p++;    /* the comma */
		if (*p == '\0') {
			hostlist_free(h);
			return bad(e, spec, _("it ends in a comma"));
		}
	}
}

int
hostlist_from_words(const char *text, struct hostlist *h, struct errmsg *e)
{
	char word[HOSTLIST_NAME_MAX + 2];
	const char *p = text;
	size_t n;

	for (;;) {
		p += strspn(p, " \t\r\n");
		if (*p == '\0')
			break;
		n = strcspn(p, " \t\r\n");
		snprintf(word, sizeof word, "%.*s", (int)(n < sizeof word - 1 ? n : sizeof word - 1), p);
		if (n >= sizeof word - 1 || hostlist_add(h, word, e) != 0) {
			if (n >= sizeof word - 1)
				errmsg_set(e, _("a node name longer than %d characters"), HOSTLIST_NAME_MAX);
			hostlist_free(h);
			return -1;
		}
		p += n;
	}
	if (h->n == 0)
		return errmsg_set(e, _("no node names"));
	return 0;
}
