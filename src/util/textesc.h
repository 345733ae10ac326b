/* textesc.h: text from a file or a command line made safe for a terminal.
 * A bad input file can hold escape sequences; quoted raw in a message they
 * would be obeyed by the terminal (move the cursor, retitle the window,
 * hide the rest of the line). */
#ifndef HTTOP_TEXTESC_H
#define HTTOP_TEXTESC_H

#include <stdbool.h>
#include <stddef.h>

/* Copy at most `len` bytes of `src` (up to a NUL) into dst, `size` bytes,
 * always NUL-terminated when size > 0. Valid UTF-8 is copied as it is;
 * every control character (C0, DEL, C1), bidirectional control (marks,
 * embeddings, overrides, isolates), line or paragraph separator and
 * invisible format character (textesc.c), and every byte not part of
 * valid UTF-8 is written as \xHH, one per byte.
 * Nothing is cut in the middle of a character or an escape. Returns the
 * number of bytes of src consumed (len, or less when dst was full). */
size_t text_escape_n(char *dst, size_t size, const char *src, size_t len);

/* text_escape_n over the whole string; returns dst. */
char *text_escape(char *dst, size_t size, const char *src);

/* For quoting a token in a message: escaped as above, at most `max`
 * bytes of src, with "..." when src is longer. Returns dst. */
char *text_quote(char *dst, size_t size, const char *src, size_t max);

/* Copy at most `len` bytes of `s` (up to a NUL) into dst, `size` bytes,
 * with runs of blanks squeezed to one space and the ends trimmed: CPU
 * brand strings come padded ("Intel(R) Xeon(R) CPU           X5550  @"),
 * sometimes at the front. */
void text_squeeze(char *dst, size_t size, const char *s, size_t len);

/* The bytes of the character at s (at most avail) when text_escape would
 * copy it as it is; 0 when it would escape it. */
size_t text_char_len(const char *s, size_t avail);

/* The bytes of the valid UTF-8 character at s (at most avail), its code
 * point in *cp; 0 when the bytes there are not valid UTF-8. */
size_t text_utf8(const char *s, size_t avail, unsigned long *cp);

/* True when `s` holds nothing text_escape would change. */
bool text_is_clean(const char *s);

#endif
