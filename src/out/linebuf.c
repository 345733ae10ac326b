/* linebuf.c: the growing part of linebuf.h. */
#include "config.h"
#include "out/linebuf.h"

#include <errno.h>
#include <stdlib.h>

#include "util/xalloc.h"

void
lb_grow(struct linebuf *b, size_t n)
{
	size_t cap = b->cap ? b->cap : 4096;

	while (cap - b->len < n)
		cap *= 2;
	b->p = xrealloc(b->p, cap);
	b->cap = cap;
}

void
lb_free(struct linebuf *b)
{
	free(b->p);
	b->p = NULL;
	b->len = b->cap = 0;
}

void
lb_flush(struct linebuf *b, FILE *fp)
{
	if (b->len > 0 && fwrite(b->p, 1, b->len, fp) != b->len && b->err == 0)
		b->err = errno != 0 ? errno : EIO;
	b->len = 0;
}
