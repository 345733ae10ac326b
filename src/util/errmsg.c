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
	char old[sizeof e->text], pre[sizeof e->text];
	va_list ap;

	if (e == NULL)
		return -1;
	memcpy(old, e->text, sizeof old);
	va_start(ap, fmt);
	vsnprintf(pre, sizeof pre, fmt, ap);
	va_end(ap);
	snprintf(e->text, sizeof e->text, "%s: %s", pre, old);
	return -1;
}
