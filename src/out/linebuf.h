/* linebuf.h: one output line built in memory and written with one fwrite
 * (json, csv): no stdio call per field. The buffer grows to the longest
 * line once and is reused, so a steady run allocates nothing. */
#ifndef HTTOP_LINEBUF_H
#define HTTOP_LINEBUF_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "util/numfmt.h"

struct linebuf {
	char *p;
	size_t len, cap;
	int err;        /* errno of a failed write, until the caller takes it */
};

/* Room for n more bytes. */
void lb_grow(struct linebuf *b, size_t n);
void lb_free(struct linebuf *b);
/* Write the line and empty the buffer. A failed write leaves fp's error
 * flag set and its errno in err (the caller's fflush has nothing left to
 * fail with). */
void lb_flush(struct linebuf *b, FILE *fp);

static inline void
lb_room(struct linebuf *b, size_t n)
{
	if (b->cap - b->len < n)
		lb_grow(b, n);
}

static inline void
lb_mem(struct linebuf *b, const char *s, size_t n)
{
	lb_room(b, n);
	memcpy(b->p + b->len, s, n);
	b->len += n;
}

static inline void
lb_str(struct linebuf *b, const char *s)
{
	lb_mem(b, s, strlen(s));
}

/* A string literal, its length known at compile time. */
#define lb_lit(b, s) lb_mem((b), "" s, sizeof(s) - 1)

static inline void
lb_char(struct linebuf *b, char c)
{
	lb_room(b, 1);
	b->p[b->len++] = c;
}

static inline void
lb_u64(struct linebuf *b, uint64_t u)
{
	lb_room(b, NUMFMT_MAX);
	b->len = (size_t)(numfmt_u64(b->p + b->len, u) - b->p);
}

static inline void
lb_fixed(struct linebuf *b, double x, unsigned decimals)
{
	lb_room(b, NUMFMT_MAX);
	b->len = (size_t)(numfmt_fixed(b->p + b->len, x, decimals) - b->p);
}

static inline void
lb_fixed_all(struct linebuf *b, double x, unsigned decimals)
{
	lb_room(b, NUMFMT_MAX);
	b->len = (size_t)(numfmt_fixed_all(b->p + b->len, x, decimals) - b->p);
}

static inline void
lb_sig(struct linebuf *b, double x, unsigned digits)
{
	lb_room(b, NUMFMT_MAX);
	b->len = (size_t)(numfmt_sig(b->p + b->len, x, digits) - b->p);
}

#endif
