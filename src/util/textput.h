/* textput.h: notes built a piece at a time into a fixed buffer. */
#ifndef HTTOP_TEXTPUT_H
#define HTTOP_TEXTPUT_H

#include <stddef.h>

/* Append printf-style text to the string in buf (len bytes); a full
 * buffer just stops growing, always NUL-terminated. */
void text_put(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
