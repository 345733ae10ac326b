/* errmsg.h: one human-readable error, carried up to where it is printed.
 * Lower layers fill it in with the cause and the fix; main prints it once. */
#ifndef HTTOP_ERRMSG_H
#define HTTOP_ERRMSG_H

#include <stddef.h>

struct errmsg {
	char text[512];
};

/* printf-style; always returns -1 so callers can `return errmsg_set(...)`. */
int errmsg_set(struct errmsg *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Prefix the existing message with more context ("loading X: <old>"). */
int errmsg_prefix(struct errmsg *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
