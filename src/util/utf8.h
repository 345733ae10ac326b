/* utf8.h: is this valid UTF-8? For the outputs that must be (JSON,
 * OpenMetrics labels) and carry strings from outside (a host name). */
#ifndef HTTOP_UTF8_H
#define HTTOP_UTF8_H

#include <stddef.h>

/* Length of the valid UTF-8 sequence at p (1 to 4), or 0 if it is not one
 * (a stray continuation byte, an overlong form, a surrogate, a code point
 * beyond U+10FFFF, a sequence cut by the end of the string). */
size_t utf8_len(const unsigned char *p);
/* src into dst (size bytes, size > 0), cut short, if it must be, where a
 * UTF-8 character ends, not inside one. */
void utf8_copy_whole(char *dst, size_t size, const char *src);

#endif
