/* jsonstr.c: a string as a JSON string (jsonstr.h). */
#include "config.h"
#include "util/jsonstr.h"

#include <string.h>

#include "util/textesc.h"
#include "util/utf8.h"

static const char hex[] = "0123456789abcdef";

static void
u16(char *e, unsigned long u)
{
	e[0] = '\\';
	e[1] = 'u';
	e[2] = hex[u >> 12 & 15];
	e[3] = hex[u >> 8 & 15];
	e[4] = hex[u >> 4 & 15];
	e[5] = hex[u & 15];
}

size_t
jsonstr_u(char *dst, unsigned long cp)
{
	if (cp < 0x10000) {
		u16(dst, cp);
		return 6;
	}
	cp -= 0x10000;
	u16(dst, 0xd800 + (cp >> 10));
	u16(dst + 6, 0xdc00 + (cp & 0x3ff));
	return 12;
}

/* The writer's output, gathered so that a short string reaches the sink
 * in one piece. */
struct out {
	jsonstr_sink *put;
	void *ctx;
	size_t n;
	char buf[128];
};

static void
flush(struct out *o)
{
	if (o->n > 0)
		o->put(o->ctx, o->buf, o->n);
	o->n = 0;
}

static inline void
add(struct out *o, const char *p, size_t n)
{
	if (o->n + n > sizeof o->buf) {
		flush(o);
		if (n > sizeof o->buf) {
			o->put(o->ctx, p, n);
			return;
		}
	}
	memcpy(o->buf + o->n, p, n);
	o->n += n;
}

/* The character at p, not printable ASCII; the bytes taken. */
static size_t
add_other(struct out *o, const unsigned char *p)
{
	char e[JSONSTR_U_MAX];
	unsigned long cp;
	size_t n;

	if (*p == '"' || *p == '\\') {
		e[0] = '\\';
		e[1] = (char)*p;
		add(o, e, 2);
		return 1;
	}
	if (*p < 0x20 || *p == 0x7f) {
		add(o, e, jsonstr_u(e, *p));
		return 1;
	}
	if ((n = utf8_len(p)) == 0) {
		add(o, "?", 1);
		return 1;
	}
	if (text_char_len((const char *)p, n) == n) {
		add(o, (const char *)p, n);
	} else {
		/* C1, a bidi control, an invisible format character */
		(void)text_utf8((const char *)p, n, &cp);
		add(o, e, jsonstr_u(e, cp));
	}
	return n;
}

void
jsonstr_put(jsonstr_sink *put, void *ctx, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s != NULL ? s : ""), *q;
	struct out o;

	o.put = put;
	o.ctx = ctx;
	o.buf[0] = '"';
	o.n = 1;
	while (*p != '\0') {
		/* a run of plain ASCII (reason codes, names: all of it) at once */
		for (q = p; *q >= 0x20 && *q < 0x7f && *q != '"' && *q != '\\'; q++)
			;
		if (q > p) {
			add(&o, (const char *)p, (size_t)(q - p));
			p = q;
		} else {
			p += add_other(&o, p);
		}
	}
	add(&o, "\"", 1);
	flush(&o);
}

static void
file_sink(void *ctx, const char *p, size_t n)
{
	fwrite(p, 1, n, (FILE *)ctx);
}

void
jsonstr_fput(FILE *fp, const char *s)
{
	jsonstr_put(file_sink, fp, s);
}
