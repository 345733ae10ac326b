/* utf8.c: UTF-8 validity, RFC 3629. */
#include "config.h"
#include "util/utf8.h"

#include <string.h>

size_t
utf8_len(const unsigned char *p)
{
	size_t n, i;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		n = 3;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4;
	else
		return 0;
	/* a NUL ends the loop too: it is not a continuation byte */
	for (i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	}
	/* Overlong forms, surrogates, beyond U+10FFFF. */
	if ((p[0] == 0xe0 && p[1] < 0xa0) || (p[0] == 0xed && p[1] >= 0xa0) ||
	    (p[0] == 0xf0 && p[1] < 0x90) || (p[0] == 0xf4 && p[1] >= 0x90))
		return 0;
	return n;
}

void
utf8_copy_whole(char *dst, size_t size, const char *src)
{
	size_t n = strlen(src);

	if (n >= size) {
		n = size - 1;
		/* Back over the continuation bytes of a character cut. */
		while (n > 0 && ((unsigned char)src[n] & 0xc0) == 0x80)
			n--;
	}
	memcpy(dst, src, n);
	dst[n] = '\0';
}
