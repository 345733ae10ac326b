/* tracefmt.h: the pieces of the trace syntax shared by the reader and the
 * writer (man/httop-trace.5): quoted strings, key=value fields, CPU states,
 * doubles that read back bit for bit. Private to src/trace. */
#ifndef HTTOP_TRACEFMT_H
#define HTTOP_TRACEFMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Longest line a reader accepts, without its newline. */
#define TRACE_LINE_MAX 4096
/* Longest string value written; longer ones are cut. */
#define TRACE_STR_MAX 1000
/* Most fields on one key=value line. */
#define TRACE_MAX_FIELDS 32

/* Write `s` (its first TRACE_STR_MAX bytes) as a double-quoted string:
 * \" \\ \n \r \t and \xHH for other control bytes, so a value never
 * spans lines. */
void tracefmt_put_quoted(FILE *fp, const char *s);
/* Write `d` with the fewest digits that read back as the same double. */
void tracefmt_put_double(FILE *fp, double d);

/* One parsed key=value field; val is unquoted and unescaped in place. */
struct tracefmt_field {
	const char *key;
	const char *val;
};

/* Split `p` (modified in place) into key=value fields. Returns the count,
 * or -1 with a reason in *why. */
int tracefmt_split_fields(char *p, struct tracefmt_field *f, int max, const char **why);
/* The value of `key`, or NULL. */
const char *tracefmt_get(const struct tracefmt_field *f, int n, const char *key);

/* Strict number parsing: the whole string, no sign for unsigned. */
bool tracefmt_u64(const char *s, int base, uint64_t *out);
bool tracefmt_int(const char *s, long lo, long hi, long *out);
bool tracefmt_double(const char *s, double *out);

/* CPU read states: "ok", "notread", "offline", "error". */
const char *tracefmt_state_name(unsigned state);
int tracefmt_state_parse(const char *s);   /* -1 if unknown */

#endif
