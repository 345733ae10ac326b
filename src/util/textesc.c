/* textesc.c: escape what a terminal would obey (textesc.h). */
#include "config.h"
#include "util/textesc.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* Length of the valid UTF-8 sequence at s (at most avail bytes), its code
 * point in *cp; 0 when the bytes there are not valid UTF-8 (RFC 3629:
 * no overlong forms, no surrogates, nothing above U+10FFFF). */
static size_t
utf8_seq(const unsigned char *s, size_t avail, uint32_t *cp)
{
	unsigned char c = s[0];
	size_t n, i;
	uint32_t v, min;

	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c >= 0xc2 && c <= 0xdf) {
		n = 2;
		v = c & 0x1f;
		min = 0x80;
	} else if (c >= 0xe0 && c <= 0xef) {
		n = 3;
		v = c & 0x0f;
		min = 0x800;
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 4;
		v = c & 0x07;
		min = 0x10000;
	} else {
		return 0;
	}
	if (avail < n)
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		v = v << 6 | (s[i] & 0x3f);
	}
	if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
		return 0;
	*cp = v;
	return n;
}

/* Characters a terminal acts on rather than shows, or that show as
 * nothing: C0, DEL, C1; the bidirectional marks, embeddings, overrides and
 * isolates (they reorder what follows them on the line); the line and
 * paragraph separators; and the other invisible format characters (soft
 * hyphen, zero-width space and joiners, word joiner and invisible
 * operators, the byte order mark, interlinear annotation, tags), which
 * would hide a difference between two strings that look the same. */
static bool
is_control(uint32_t cp)
{
	static const uint32_t range[][2] = {
		{ 0x00, 0x1f }, { 0x7f, 0x9f }, { 0xad, 0xad }, { 0x061c, 0x061c },
		{ 0x180e, 0x180e }, { 0x200b, 0x200f }, { 0x2028, 0x202e }, { 0x2060, 0x206f },
		{ 0xfeff, 0xfeff }, { 0xfff9, 0xfffb }, { 0xe0000, 0xe007f },
	};
	size_t i;

	if (cp >= 0x20 && cp < 0x7f)
		return false;
	for (i = 0; i < sizeof range / sizeof range[0]; i++)
		if (cp >= range[i][0] && cp <= range[i][1])
			return true;
	return false;
}

size_t
text_escape_n(char *dst, size_t size, const char *src, size_t len)
{
	const unsigned char *s = (const unsigned char *)src;
	size_t in = 0, out = 0, n, i;
	uint32_t cp;

	if (size == 0)
		return 0;
	while (in < len && s[in] != '\0') {
		n = utf8_seq(s + in, len - in, &cp);
		if (n > 0 && !is_control(cp)) {
			if (out + n >= size)
				break;
			memcpy(dst + out, s + in, n);
			out += n;
			in += n;
			continue;
		}
		/* A control character is escaped whole (all its bytes); an
		 * invalid byte alone. */
		if (n == 0)
			n = 1;
		if (out + 4 * n >= size)
			break;
		for (i = 0; i < n; i++) {
			snprintf(dst + out, 5, "\\x%02x", s[in + i]);
			out += 4;
		}
		in += n;
	}
	dst[out] = '\0';
	return in;
}

char *
text_escape(char *dst, size_t size, const char *src)
{
	text_escape_n(dst, size, src, strlen(src));
	return dst;
}

char *
text_quote(char *dst, size_t size, const char *src, size_t max)
{
	size_t len = strlen(src), room;

	if (size == 0)
		return dst;
	if (len <= max) {
		/* whole, if it fits escaped */
		if (text_escape_n(dst, size, src, len) == len)
			return dst;
	}
	/* Cut: keep room for "..." after the escaped part. */
	if (size <= 4) {
		dst[0] = '\0';
		return dst;
	}
	/* never half a character: back to the start of the one at max */
	if (len > max)
		while (max > 0 && ((unsigned char)src[max] & 0xc0) == 0x80)
			max--;
	room = size - 3;
	text_escape_n(dst, room, src, len < max ? len : max);
	memcpy(dst + strlen(dst), "...", 4);
	return dst;
}

size_t
text_char_len(const char *s, size_t avail)
{
	uint32_t cp;
	size_t n = avail > 0 ? utf8_seq((const unsigned char *)s, avail, &cp) : 0;

	return n > 0 && !is_control(cp) ? n : 0;
}

size_t
text_utf8(const char *s, size_t avail, unsigned long *cp)
{
	uint32_t v = 0;
	size_t n = avail > 0 ? utf8_seq((const unsigned char *)s, avail, &v) : 0;

	*cp = v;
	return n;
}

bool
text_is_clean(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t len = strlen(s), n;
	uint32_t cp;

	while (*p != '\0') {
		n = utf8_seq(p, len - (size_t)(p - (const unsigned char *)s), &cp);
		if (n == 0 || is_control(cp))
			return false;
		p += n;
	}
	return true;
}

void
text_squeeze(char *dst, size_t size, const char *s, size_t len)
{
	size_t i, n = 0;
	bool blank = false;

	if (size == 0)
		return;
	for (i = 0; s != NULL && i < len && s[i] != '\0'; i++) {
		if (s[i] == ' ' || s[i] == '\t') {
			blank = n > 0;
			continue;
		}
		if (blank && n + 1 < size)
			dst[n++] = ' ';
		blank = false;
		if (n + 1 < size)
			dst[n++] = s[i];
	}
	dst[n] = '\0';
}
