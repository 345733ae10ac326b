/* textwrap.c: prose broken at blanks to a width (textwrap.h). */
#include "config.h"
#include "util/textwrap.h"

#include <stdarg.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

unsigned
text_cols(const char *s, size_t n)
{
	unsigned c = 0;
	size_t i;

	for (i = 0; i < n && s[i] != '\0'; i++)
		c += ((unsigned char)s[i] & 0xc0) != 0x80;
	return c;
}

void
text_wrap(FILE *fp, unsigned indent, unsigned width, const char *text)
{
	const char *p = text;
	unsigned col = 0;
	bool words = false;     /* a word is on the line */

	while (*p != '\0') {
		size_t sp = strspn(p, " "), w;

		if (p[sp] == '\n' || p[sp] == '\0') {
			/* Blanks at the end of a line are dropped. */
			if (p[sp] == '\n')
				fputc('\n', fp);
			p += sp + (p[sp] == '\n');
			col = 0;
			words = false;
			continue;
		}
		w = strcspn(p + sp, " \n");
		/* Break before a word that would pass the edge (never at the
		 * start of a line, whose leading blanks are kept). */
		if (words && col + text_cols(p, sp + w) > width) {
			fprintf(fp, "\n%*s", (int)indent, "");
			col = indent;
			p += sp;
			sp = 0;
		}
		fwrite(p, 1, sp + w, fp);
		col += text_cols(p, sp + w);
		words = true;
		p += sp + w;
	}
}

void
text_wrapf(FILE *fp, unsigned indent, const char *fmt, ...)
{
	char buf[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	text_wrap(fp, indent, TEXT_WIDTH, buf);
}

void
text_msgf(const char *fmt, ...)
{
	char buf[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (isatty(STDERR_FILENO))
		text_wrap(stderr, TEXT_MSG_INDENT, TEXT_WIDTH, buf);
	else
		fputs(buf, stderr);
}
