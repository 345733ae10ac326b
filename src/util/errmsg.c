#include "config.h"
#include "util/errmsg.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "util/textesc.h"

/* Messages quote file names, tokens and lines from files the user named:
 * whatever they hold, the text that reaches the terminal is escaped
 * (textesc.h), so no message can carry a control sequence. */
int
errmsg_set(struct errmsg *e, const char *fmt, ...)
{
	char raw[2 * sizeof e->text];
	va_list ap;

	if (e == NULL)
		return -1;
	va_start(ap, fmt);
	vsnprintf(raw, sizeof raw, fmt, ap);
	va_end(ap);
	text_escape(e->text, sizeof e->text, raw);
	return -1;
}

int
errmsg_prefix(struct errmsg *e, const char *fmt, ...)
{
	char raw[2 * sizeof e->text + 2];
	size_t n;
	va_list ap;

	if (e == NULL)
		return -1;
	va_start(ap, fmt);
	vsnprintf(raw, sizeof e->text, fmt, ap);
	va_end(ap);
	/* Append ": old"; the whole is cut to fit, at a character. */
	n = strlen(raw);
	memcpy(raw + n, ": ", 3);
	memcpy(raw + n + 2, e->text, strlen(e->text) + 1);
	text_escape(e->text, sizeof e->text, raw);
	return -1;
}
