/* jsonstr.h: a string written as a JSON string, the one writer of every
 * output that writes JSON (the batch json lines, check's report) and the
 * \u escape that passing on a node's line uses (cluster/passon.c).
 * Quotes and backslashes are escaped; control bytes (C0, DEL) and every
 * character a terminal would act on or not show (C1, the bidirectional
 * controls, the line and paragraph separators, the invisible format
 * characters: textesc.h) become \u escapes, which keep their value, so no
 * line of httop's holds one raw; a byte that is not part of valid UTF-8 (a
 * host name in another encoding) becomes '?', as in the OpenMetrics
 * output, so the string stays valid JSON. */
#ifndef HTTOP_JSONSTR_H
#define HTTOP_JSONSTR_H

#include <stddef.h>
#include <stdio.h>

/* Where the writer puts its text, in pieces: n bytes at p. */
typedef void jsonstr_sink(void *ctx, const char *p, size_t n);

/* s (NULL: the empty string) as a JSON string, quotes included, through
 * put(ctx, ...): in one piece when it is short (up to 128 bytes
 * escaped), else in pieces of at most that or a run of printable ASCII. */
void jsonstr_put(jsonstr_sink *put, void *ctx, const char *s);

/* jsonstr_put to a stdio stream. */
void jsonstr_fput(FILE *fp, const char *s);

/* The longest \u escape of one code point: a surrogate pair. */
#define JSONSTR_U_MAX 12

/* Code point cp (at most U+10FFFF) as JSON's \uXXXX, above U+FFFF as a
 * surrogate pair, into dst; its length (6 or 12). */
size_t jsonstr_u(char *dst, unsigned long cp);

#endif
