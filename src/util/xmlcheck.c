/* xmlcheck.c: a well-formedness check of XML, for messages (xmlcheck.h).
 * One pass; a stack of open elements (name, line). */
#include "config.h"
#include "util/xmlcheck.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/i18n.h"
#include "util/textesc.h"
#include "util/xalloc.h"

struct open_el {
	const char *name;
	size_t len;
	unsigned long line;
};

struct scan {
	const char *p, *end;
	unsigned long line;          /* of p */
	char *why;
	size_t whylen;
	unsigned long *err_line;
};

static void
adv(struct scan *s, size_t n)
{
	const char *to = (size_t)(s->end - s->p) < n ? s->end : s->p + n, *q = s->p;

	if (to - q == 1) {          /* most steps: one byte */
		s->line += *q == '\n';
		s->p = to;
		return;
	}
	while ((q = memchr(q, '\n', (size_t)(to - q))) != NULL) {
		s->line++;
		q++;
	}
	s->p = to;
}

static bool
at(const struct scan *s, const char *lit)
{
	size_t n = strlen(lit);

	return (size_t)(s->end - s->p) >= n && memcmp(s->p, lit, n) == 0;
}

static int fail(struct scan *s, unsigned long line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int
fail(struct scan *s, unsigned long line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(s->why, s->whylen, fmt, ap);
	va_end(ap);
	*s->err_line = line;
	return -1;
}

/* Skip to just after `lit`; -1 when the buffer ends first. */
static int
skip_past(struct scan *s, const char *lit)
{
	size_t n = strlen(lit);

	while ((size_t)(s->end - s->p) >= n) {
		if (memcmp(s->p, lit, n) == 0) {
			adv(s, n);
			return 0;
		}
		adv(s, 1);
	}
	adv(s, (size_t)(s->end - s->p));
	return -1;
}

static bool
is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static void
skip_space(struct scan *s)
{
	while (s->p < s->end && is_space(*s->p))
		adv(s, 1);
}

/* XML names: ASCII letters, digits, '_', ':', '.', '-', and any byte of a
 * UTF-8 sequence (not checked further). */
static bool
name_start(unsigned char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' || c == ':' ||
	    c >= 0x80;
}

static bool
name_char(unsigned char c)
{
	return name_start(c) || (c >= '0' && c <= '9') || c == '.' || c == '-';
}

static size_t
name_len(const struct scan *s)
{
	const char *q = s->p;

	if (q >= s->end || !name_start((unsigned char)*q))
		return 0;
	while (q < s->end && name_char((unsigned char)*q))
		q++;
	return (size_t)(q - s->p);
}

/* n bytes at p for a message: at most 40, escaped. */
static const char *
cut(const char *p, size_t n, char *buf, size_t size)
{
	char raw[48];

	if (n >= sizeof raw)
		n = sizeof raw - 1;
	memcpy(raw, p, n);
	raw[n] = '\0';
	return text_quote(buf, size, raw, 40);
}

/* The next character, for messages: "end of file" at the end. */
static const char *
next_char(const struct scan *s, char *buf, size_t size)
{
	if (s->p >= s->end)
		return _("the end of the file");
	snprintf(buf, size, "'%c'", *s->p);
	return buf;
}

/* <!DOCTYPE ...>, with an internal subset in [ ] and quoted strings. */
static int
doctype(struct scan *s)
{
	unsigned long line = s->line;
	int depth = 0;
	char q = 0;

	adv(s, 2);
	for (; s->p < s->end; adv(s, 1)) {
		char c = *s->p;

		if (q != 0) {
			if (c == q)
				q = 0;
		} else if (c == '"' || c == '\'') {
			q = c;
		} else if (c == '[') {
			depth++;
		} else if (c == ']') {
			depth--;
		} else if (c == '>' && depth <= 0) {
			adv(s, 1);
			return 0;
		}
	}
	return fail(s, line, "%s", _("the <!DOCTYPE declaration is not closed"));
}

/* An attribute's quoted value at its quote, in <name> (n bytes), of the
 * attribute aname (an bytes): up to and past the closing quote. */
static int
attr_value(struct scan *s, const char *name, size_t n, const char *aname, size_t an)
{
	char nb[64], ab[64];
	char q = *s->p;
	unsigned long vline = s->line;
	const char *e, *lt;

	adv(s, 1);
	e = memchr(s->p, q, (size_t)(s->end - s->p));
	lt = memchr(s->p, '<', (size_t)((e != NULL ? e : s->end) - s->p));
	if (lt != NULL) {
		adv(s, (size_t)(lt - s->p));
		return fail(s, s->line, _("in <%s>: '<' inside the value of "
		    "attribute %s (a quote is missing)"),
		    cut(name, n, nb, sizeof nb), cut(aname, an, ab, sizeof ab));
	}
	adv(s, (size_t)((e != NULL ? e : s->end) - s->p));
	if (s->p >= s->end)
		return fail(s, vline, _("in <%s>: the value of attribute %s does not "
		    "end"), cut(name, n, nb, sizeof nb), cut(aname, an, ab, sizeof ab));
	adv(s, 1);
	return 0;
}

/* A start tag at '<' followed by a name; pushes it unless it is empty. */
static int
start_tag(struct scan *s, struct open_el *stack, unsigned *depth, bool *closed)
{
	unsigned long line = s->line;
	char nb[64], ab[64], cb[8];
	const char *name, *aname;
	size_t n, an;

	adv(s, 1);
	n = name_len(s);
	name = s->p;
	adv(s, n);
	*closed = false;
	for (;;) {
		bool space = s->p < s->end && is_space(*s->p);

		skip_space(s);
		if (s->p >= s->end)
			break;
		if (at(s, "/>")) {
			adv(s, 2);
			*closed = true;
			return 0;
		}
		if (at(s, ">")) {
			adv(s, 1);
			break;
		}
		an = name_len(s);
		if (an == 0 || !space)
			return fail(s, s->line, _("in <%s>: expected an attribute, '>' or '/>', "
			    "found %s"), cut(name, n, nb, sizeof nb), next_char(s, cb, sizeof cb));
		/* Quoted for a message only when there is one: most files
		 * have none, and large ones have many attributes. */
		aname = s->p;
		adv(s, an);
		skip_space(s);
		if (s->p >= s->end)
			break;
		if (!at(s, "="))
			return fail(s, s->line, _("in <%s>: attribute %s has no '=\"value\"'"),
			    cut(name, n, nb, sizeof nb), cut(aname, an, ab, sizeof ab));
		adv(s, 1);
		skip_space(s);
		if (s->p >= s->end)
			break;
		if (*s->p != '"' && *s->p != '\'')
			return fail(s, s->line, _("in <%s>: the value of attribute %s is not in "
			    "quotes"), cut(name, n, nb, sizeof nb), cut(aname, an, ab, sizeof ab));
		if (attr_value(s, name, n, aname, an) != 0)
			return -1;
	}
	if (s->p >= s->end && !(s->p > name && s->p[-1] == '>'))
		return fail(s, line, _("the file ends inside the tag <%s> begun on line %lu (is it "
		    "cut short?)"), cut(name, n, nb, sizeof nb), line);
	if (*depth == XMLCHECK_MAX_DEPTH)
		return fail(s, line, _("elements nested more than %d deep"), XMLCHECK_MAX_DEPTH);
	stack[*depth].name = name;
	stack[*depth].len = n;
	stack[*depth].line = line;
	(*depth)++;
	return 0;
}

static int
end_tag(struct scan *s, struct open_el *stack, unsigned *depth)
{
	unsigned long line = s->line;
	char nb[64], ob[64], cb[8];
	const char *name;
	size_t n;

	adv(s, 2);
	n = name_len(s);
	name = s->p;
	adv(s, n);
	skip_space(s);
	if (n == 0 || !at(s, ">"))
		return fail(s, s->line, _("a closing tag </%s is not closed by '>' (found %s)"),
		    cut(name, n, nb, sizeof nb), next_char(s, cb, sizeof cb));
	adv(s, 1);
	if (*depth == 0)
		return fail(s, line, _("closing tag </%s> with no element open"),
		    cut(name, n, nb, sizeof nb));
	if (stack[*depth - 1].len != n || memcmp(stack[*depth - 1].name, name, n) != 0)
		return fail(s, line, _("closing tag </%s> does not match <%s> opened on line "
		    "%lu"), cut(name, n, nb, sizeof nb),
		    cut(stack[*depth - 1].name, stack[*depth - 1].len, ob, sizeof ob),
		    stack[*depth - 1].line);
	(*depth)--;
	return 0;
}

/* What begins with '<' at s->p: a declaration, a comment, CDATA, a
 * DOCTYPE, an end tag or a start tag. 0 or -1 (why[] set). */
static int
markup(struct scan *s, struct open_el *stack, unsigned *depth, bool *root_done)
{
	unsigned long l = s->line;
	bool closed;
	char cb[8];

	if (at(s, "<?")) {
		if (skip_past(s, "?>") != 0)
			return fail(s, l, "%s", _("a <? processing instruction is not closed by ?>"));
		return 0;
	}
	if (at(s, "<!--")) {
		if (skip_past(s, "-->") != 0)
			return fail(s, l, "%s", _("a comment <!-- is not closed by -->"));
		return 0;
	}
	if (at(s, "<![CDATA[")) {
		if (*depth == 0 || skip_past(s, "]]>") != 0)
			return fail(s, l, "%s", _("a <![CDATA[ section is not closed by ]]>"));
		return 0;
	}
	if (at(s, "<!DOCTYPE")) {
		if (*depth > 0 || *root_done)
			return fail(s, l, "%s", _("<!DOCTYPE inside the document"));
		return doctype(s);
	}
	if (at(s, "</")) {
		if (end_tag(s, stack, depth) != 0)
			return -1;
		*root_done = *depth == 0;
		return 0;
	}
	adv(s, 1);
	if (name_len(s) == 0)
		return fail(s, l, _("'<' not followed by a tag name (found %s)"),
		    next_char(s, cb, sizeof cb));
	s->p--;     /* back to '<' (not a newline: line unchanged) */
	if (*root_done)
		return fail(s, l, "%s", _("a second top-level element"));
	if (start_tag(s, stack, depth, &closed) != 0)
		return -1;
	if (closed && *depth == 0)
		*root_done = true;
	return 0;
}

int
xml_check(const char *buf, size_t len, unsigned long *line, char *why, size_t whylen)
{
	struct scan s = { buf, buf + len, 1, why, whylen, line };
	struct open_el *stack = xcalloc(XMLCHECK_MAX_DEPTH, sizeof *stack);
	unsigned depth = 0;
	bool root_done = false;
	char nb[64];
	int rc = -1;

	if (at(&s, "\xef\xbb\xbf"))
		adv(&s, 3);
	while (s.p < s.end) {
		if (*s.p == '<') {
			if (markup(&s, stack, &depth, &root_done) != 0)
				goto out;
			continue;
		}
		/* Text: anything inside the root element, up to the next tag. */
		if (depth > 0) {
			const char *lt = memchr(s.p, '<', (size_t)(s.end - s.p));

			adv(&s, (size_t)((lt != NULL ? lt : s.end) - s.p));
			continue;
		}
		/* Only blanks outside it. */
		if (!is_space(*s.p)) {
			fail(&s, s.line, "%s", root_done ? _("text after the end of the document") :
			    _("text before the first element"));
			goto out;
		}
		adv(&s, 1);
	}
	if (depth > 0) {
		fail(&s, s.line, _("the file ends inside <%s> opened on line %lu (is it cut "
		    "short?)"), cut(stack[depth - 1].name, stack[depth - 1].len, nb, sizeof nb),
		    stack[depth - 1].line);
		goto out;
	}
	if (!root_done) {
		fail(&s, s.line, "%s", _("no element in the file"));
		goto out;
	}
	rc = 0;
out:
	free(stack);
	return rc;
}
