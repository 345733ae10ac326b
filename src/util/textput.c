/* textput.c: notes built a piece at a time (textput.h). */
#include "config.h"
#include "util/textput.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void
text_put(char *buf, size_t len, const char *fmt, ...)
{
	size_t used = strlen(buf);
	va_list ap;

	if (used + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + used, len - used, fmt, ap);
	va_end(ap);
}
