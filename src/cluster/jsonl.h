/* jsonl.h: one line of JSON (RFC 8259) parsed into a flat array of
 * tokens, for the reader of httop's own JSON lines (nodeiv.h). The array
 * is reused from line to line: no allocation once it has grown to the
 * largest line. Strict: anything that is not JSON is an error with the
 * byte offset; limits on depth and on the number of tokens keep a
 * hostile line from costing more than its length. */
#ifndef HTTOP_JSONL_H
#define HTTOP_JSONL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/errmsg.h"

enum jtype { J_NULL = 0, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ,
	J_SKIP,        /* a value passed over unread (jdoc_parse_skip) */
};

/* Nesting deeper than this is not httop's JSON. */
#define JSONL_DEPTH_MAX 16

struct jtok {
	enum jtype type;
	unsigned start, len;       /* the bytes of a string (inside its quotes), a
				    * number or a literal */
	unsigned size;             /* J_ARR: elements; J_OBJ: members */
	unsigned next;             /* the token after this one and all it holds */
	bool escaped;              /* J_STR: holds a backslash */
	double num;                /* J_NUM */
	bool b;                    /* J_BOOL */
};

struct jdoc {
	const char *text;
	struct jtok *t;
	unsigned n, cap;
	unsigned max;              /* tokens a line may have */
	uint64_t names[2];         /* the top-level object's member names, as
				    * a 128-bit filter: a name it lacks is
				    * known absent without a look at each */
};

/* `max_tokens`: the limit (0: one per two bytes of the line, which no
 * JSON can exceed). */
void jdoc_init(struct jdoc *d, unsigned max_tokens);
/* Parse `text` (len bytes, no NUL needed) as one JSON value with nothing
 * after it but blanks. The tokens point into `text`, which must outlive
 * them. 0, or -1 with "byte N: what". */
int jdoc_parse(struct jdoc *d, const char *text, size_t len, struct errmsg *e);
/* The same, but the values of the top-level members named in `skip` (a
 * list ending in NULL) are only passed over (their brackets and strings
 * followed, nothing else checked) and each stands as one J_SKIP token: a
 * node's cores and threads when its views are not shown cost a scan, not
 * a parse. */
int jdoc_parse_skip(struct jdoc *d, const char *text, size_t len, const char *const *skip,
    struct errmsg *e);
/* The same, but from the first top-level member named in `skip` to the end
 * of the object (which must end the line) all is one J_SKIP token, not
 * even scanned: the members after it are not in the tokens. For httop's
 * own lines, whose cores and threads come last: a node not shown costs
 * the parse of its head only. */
int jdoc_parse_head(struct jdoc *d, const char *text, size_t len, const char *const *skip,
    struct errmsg *e);
void jdoc_free(struct jdoc *d);

/* The value of member `key` of object token `obj`, or -1 (no such member,
 * or obj not an object). Keys are compared as written. */
int jget(const struct jdoc *d, int obj, const char *key);
/* The first element of array token `arr` (-1 if empty); the next one is
 * at d->t[i].next. */
int jfirst(const struct jdoc *d, int arr);
/* An object's members by name, looked for from where the last one was
 * found: asked in the order they are written (httop's own order), each
 * is found at once; in any other order, after a scan of the members. */
struct jobj {
	const struct jdoc *d;
	int obj;                   /* -1: not an object */
	unsigned first;            /* its first key token */
	unsigned at, k;            /* the next key token to look at, and its member number */
};
/* 0, or -1 when token `obj` is not an object (then every get is -1). */
int jobj_open(struct jobj *o, const struct jdoc *d, int obj);
/* The value of member `key`, or -1; the next look starts after it. */
int jobj_get(struct jobj *o, const char *key);
/* The same, without moving where the next look starts. */
int jobj_peek(const struct jobj *o, const char *key);
/* An optional member, looked for only from where the last one was found
 * to the end (where httop writes it): a member it does not have costs
 * one pass over the rest, not over all. */
int jobj_opt(const struct jobj *o, const char *key);

/* Does string token i hold exactly `s` (as written)? */
bool jstr_is(const struct jdoc *d, int i, const char *s);
/* String token i unescaped into buf (cut to len - 1 bytes, NUL-ended);
 * "" for any other token. */
const char *jstr(const struct jdoc *d, int i, char *buf, size_t len);

#endif
