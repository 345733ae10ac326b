#include "config.h"
#include "util/errmsg.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int
errmsg_set(struct errmsg *e, const char *fmt, ...)
{
	va_list ap;

	if (e == NULL)
		return -1;
	va_start(ap, fmt);
	vsnprintf(e->text, sizeof e->text, fmt, ap);
	va_end(ap);
	return -1;
}

int
errmsg_prefix(struct errmsg *e, const char *fmt, ...)
{
	char old[sizeof e->text];
	size_t n;
	va_list ap;

	if (e == NULL)
		return -1;
	memcpy(old, e->text, sizeof old);
	va_start(ap, fmt);
	vsnprintf(e->text, sizeof e->text, fmt, ap);
	va_end(ap);
	/* Append ": old", truncating rather than overflowing. */
	n = strlen(e->text);
	if (n + 2 < sizeof e->text) {
		memcpy(e->text + n, ": ", 2);
		n += 2;
		strncpy(e->text + n, old, sizeof e->text - n - 1);
		e->text[sizeof e->text - 1] = '\0';
	}
	return -1;
}
