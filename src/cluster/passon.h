/* passon.h: a node's line passed on in the merged JSON lines of batch
 * mode (httop(1), MANY NODES): as the node wrote it, with every character
 * inside a string that a terminal would act on or not show (textesc.h:
 * DEL, C1, the bidirectional controls, the invisible format characters)
 * written as JSON's \u escape, which has the same value, and a tab or a
 * carriage return between values as a blank. A line holding anything else
 * raw that a terminal could act on is not JSON (RFC 8259: a control
 * character in a string must be escaped; only blanks lie between values;
 * the text is UTF-8) and is refused: so no data is lost and nothing
 * reaches a terminal raw. */
#ifndef HTTOP_PASSON_H
#define HTTOP_PASSON_H

#include <stddef.h>

#include "util/errmsg.h"

/* Scan `len` bytes: 0 when the line passes as it is; 1 when it must be
 * re-written, into *need bytes; -1 with "byte N: what" when it is refused
 * (or its re-written form would be longer than `max` bytes). */
int passon_scan(const char *s, size_t len, size_t max, size_t *need, struct errmsg *e);
/* The re-written line (passon_scan gave 1 and its *need bytes) into dst. */
void passon_rewrite(char *dst, const char *s, size_t len);

#endif
