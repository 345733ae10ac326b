/* xalloc.h: allocation that cannot fail silently. Out of memory is not a
 * state httop can report anything useful from, so it exits with a message. */
#ifndef HTTOP_XALLOC_H
#define HTTOP_XALLOC_H

#include <stddef.h>

void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *p, size_t n);
void *xreallocarray(void *p, size_t nmemb, size_t size);
char *xstrdup(const char *s);

#endif
