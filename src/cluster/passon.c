/* passon.c: a node's line made safe to pass on, its value kept (passon.h). */
#include "config.h"
#include "cluster/passon.h"

#include <stdbool.h>
#include <string.h>

#include "util/i18n.h"
#include "util/jsonstr.h"
#include "util/textesc.h"

/* Where a walk writes: nowhere (dst NULL: it counts), at most max bytes. */
struct out {
	char *dst;
	size_t n, max;
	bool changed;
};

static void
put(struct out *o, const char *p, size_t n)
{
	if (o->dst != NULL)
		memcpy(o->dst + o->n, p, n);
	o->n += n;
}

/* Code point cp as JSON's \u escape (util/jsonstr.h). */
static void
put_u(struct out *o, unsigned long cp)
{
	char e[JSONSTR_U_MAX];

	o->changed = true;
	put(o, e, jsonstr_u(e, cp));
}

/* Inside a string: the bytes at s[i] that are not printable ASCII. The
 * bytes taken, or 0 with the reason in e. */
static size_t
in_string(struct out *o, const char *s, size_t i, size_t len, struct errmsg *e)
{
	unsigned long cp;
	size_t n;

	if ((unsigned char)s[i] < 0x20)
		return errmsg_set(e, _("byte %zu: a control character, raw, in a string (JSON "
		    "escapes them)"), i + 1), 0;
	if ((n = text_utf8(s + i, len - i, &cp)) == 0)
		return errmsg_set(e, _("byte %zu: a byte that is not UTF-8"), i + 1), 0;
	if (text_char_len(s + i, len - i) == n)
		put(o, s + i, n);
	else
		put_u(o, cp);
	return n;
}

/* The line through `o`: 0 or 1 (changed), -1 with the reason in e. */
static int
walk(struct out *o, const char *s, size_t len, struct errmsg *e)
{
	size_t i = 0, j, n;
	bool in = false;

	while (i < len) {
		/* a run of printable ASCII but quotes and backslashes at once */
		for (j = i; j < len && s[j] >= 0x20 && s[j] < 0x7f && s[j] != '"' && s[j] != '\\'; j++)
			;
		put(o, s + i, j - i);
		i = j;
		if (o->n > o->max)
			return errmsg_set(e, _("the line with its characters escaped is longer than "
			    "%zu MiB"), o->max >> 20);
		if (i == len)
			break;
		if (s[i] == '"') {
			in = !in;
			put(o, s + i++, 1);
		} else if (s[i] == '\\' && in && i + 1 < len && s[i + 1] >= 0x20 && s[i + 1] < 0x7f) {
			put(o, s + i, 2);
			i += 2;
		} else if (s[i] == '\\' && !in) {
			return errmsg_set(e, _("byte %zu: a backslash outside a string"), i + 1);
		} else if (s[i] == '\\') {
			return errmsg_set(e, _("byte %zu: a backslash before a byte that is not "
			    "printable ASCII"), i + 1);
		} else if (!in && (s[i] == '\t' || s[i] == '\r')) {
			/* JSON's blanks between values: one that moves the cursor
			 * is written as a space */
			o->changed = true;
			put(o, " ", 1);
			i++;
		} else if (!in) {
			return errmsg_set(e, _("byte %zu: a control character or a byte that is not "
			    "ASCII, raw, between values"), i + 1);
		} else if ((n = in_string(o, s, i, len, e)) == 0) {
			return -1;
		} else {
			i += n;
		}
	}
	return o->changed ? 1 : 0;
}

int
passon_scan(const char *s, size_t len, size_t max, size_t *need, struct errmsg *e)
{
	struct out o = { NULL, 0, max, false };
	int rc = walk(&o, s, len, e);

	*need = o.n;
	return rc;
}

void
passon_rewrite(char *dst, const char *s, size_t len)
{
	struct out o = { dst, 0, (size_t)-1, false };
	struct errmsg e;

	walk(&o, s, len, &e);
}
