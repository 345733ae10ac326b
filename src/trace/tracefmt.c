#include "config.h"
#include "trace/tracefmt.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "sample/sample.h"

void
tracefmt_put_quoted(FILE *fp, const char *s)
{
	const unsigned char *p, *end;

	/* At most TRACE_STR_MAX bytes, so that even a string of control bytes
	 * (4 characters each) stays under TRACE_LINE_MAX. */
	end = (const unsigned char *)s + strnlen(s, TRACE_STR_MAX);
	fputc('"', fp);
	for (p = (const unsigned char *)s; p < end; p++) {
		switch (*p) {
		case '"':  fputs("\\\"", fp); break;
		case '\\': fputs("\\\\", fp); break;
		case '\n': fputs("\\n", fp); break;
		case '\r': fputs("\\r", fp); break;
		case '\t': fputs("\\t", fp); break;
		default:
			if (*p < 0x20 || *p == 0x7f)
				fprintf(fp, "\\x%02x", *p);
			else
				fputc(*p, fp);
		}
	}
	fputc('"', fp);
}

void
tracefmt_put_double(FILE *fp, double d)
{
	char buf[40];
	int prec;

	/* %.17g always reads back exactly; shorter forms are tried first so
	 * that 1.5 stays "1.5" and not "1.5000000000000000". */
	for (prec = 6; prec <= 17; prec++) {
		snprintf(buf, sizeof buf, "%.*g", prec, d);
		if (strtod(buf, NULL) == d)
			break;
	}
	fputs(buf, fp);
}

static int
hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Unescape a quoted string starting after the opening quote at *pp, in
 * place. Leaves *pp after the closing quote. */
static const char *
unquote(char **pp, const char **why)
{
	char *r = *pp, *w = *pp, *start = *pp;
	int h, l;

	for (;;) {
		if (*r == '\0') {
			*why = "unterminated quoted string";
			return NULL;
		}
		if (*r == '"')
			break;
		if (*r != '\\') {
			*w++ = *r++;
			continue;
		}
		r++;
		switch (*r) {
		case '"':  *w++ = '"'; r++; break;
		case '\\': *w++ = '\\'; r++; break;
		case 'n':  *w++ = '\n'; r++; break;
		case 'r':  *w++ = '\r'; r++; break;
		case 't':  *w++ = '\t'; r++; break;
		case 'x':
			h = hexval((unsigned char)r[1]);
			l = h < 0 ? -1 : hexval((unsigned char)r[2]);
			if (l < 0 || (h == 0 && l == 0)) {
				*why = "bad \\x escape in quoted string";
				return NULL;
			}
			*w++ = (char)(h * 16 + l);
			r += 3;
			break;
		default:
			*why = "unknown escape in quoted string";
			return NULL;
		}
	}
	*w = '\0';
	*pp = r + 1;
	return start;
}

int
tracefmt_split_fields(char *p, struct tracefmt_field *f, int max, const char **why)
{
	int n = 0;
	char *key;

	for (;;) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '\0')
			return n;
		if (n == max) {
			*why = "too many fields";
			return -1;
		}
		key = p;
		while (isalnum((unsigned char)*p) || *p == '_' || *p == '-')
			p++;
		if (p == key || *p != '=') {
			*why = "expected key=value";
			return -1;
		}
		*p++ = '\0';
		f[n].key = key;
		if (*p == '"') {
			p++;
			if ((f[n].val = unquote(&p, why)) == NULL)
				return -1;
			if (*p != '\0' && *p != ' ' && *p != '\t') {
				*why = "text after a closing quote";
				return -1;
			}
		} else {
			f[n].val = p;
			while (*p != '\0' && *p != ' ' && *p != '\t' && *p != '"')
				p++;
			if (*p == '"') {
				*why = "quote inside an unquoted value";
				return -1;
			}
		}
		if (*p != '\0')
			*p++ = '\0';
		n++;
	}
}

const char *
tracefmt_get(const struct tracefmt_field *f, int n, const char *key)
{
	int i;

	/* The last occurrence wins, like a later assignment. */
	for (i = n - 1; i >= 0; i--) {
		if (strcmp(f[i].key, key) == 0)
			return f[i].val;
	}
	return NULL;
}

bool
tracefmt_u64(const char *s, int base, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (s == NULL || !isxdigit((unsigned char)*s))
		return false;
	errno = 0;
	v = strtoull(s, &end, base);
	if (errno != 0 || *end != '\0')
		return false;
	*out = v;
	return true;
}

bool
tracefmt_int(const char *s, long lo, long hi, long *out)
{
	char *end;
	long v;

	if (s == NULL || *s == '\0' || isspace((unsigned char)*s))
		return false;
	errno = 0;
	v = strtol(s, &end, 0);
	if (errno != 0 || *end != '\0' || v < lo || v > hi)
		return false;
	*out = v;
	return true;
}

bool
tracefmt_double(const char *s, double *out)
{
	char *end;
	double v;

	if (s == NULL || *s == '\0' || isspace((unsigned char)*s))
		return false;
	errno = 0;
	v = strtod(s, &end);
	/* No NaN or infinity in a trace: a time is a finite number. */
	if (errno != 0 || *end != '\0' || v != v || v - v != 0)
		return false;
	*out = v;
	return true;
}

static const char *const state_names[] = {
	[CPU_READ_OK] = "ok",
	[CPU_NOT_READ] = "notread",
	[CPU_OFFLINE] = "offline",
	[CPU_READ_ERROR] = "error",
	[CPU_LOST] = "lost",
};

const char *
tracefmt_state_name(unsigned state)
{
	if (state < sizeof state_names / sizeof state_names[0])
		return state_names[state];
	return "error";
}

int
tracefmt_state_parse(const char *s)
{
	unsigned i;

	for (i = 0; i < sizeof state_names / sizeof state_names[0]; i++) {
		if (strcmp(s, state_names[i]) == 0)
			return (int)i;
	}
	return -1;
}
