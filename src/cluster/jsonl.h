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

#include "util/errmsg.h"

enum jtype { J_NULL = 0, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };

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
};

/* `max_tokens`: the limit (0: one per two bytes of the line, which no
 * JSON can exceed). */
void jdoc_init(struct jdoc *d, unsigned max_tokens);
/* Parse `text` (len bytes, no NUL needed) as one JSON value with nothing
 * after it but blanks. The tokens point into `text`, which must outlive
 * them. 0, or -1 with "byte N: what". */
int jdoc_parse(struct jdoc *d, const char *text, size_t len, struct errmsg *e);
void jdoc_free(struct jdoc *d);

/* The value of member `key` of object token `obj`, or -1 (no such member,
 * or obj not an object). Keys are compared as written. */
int jget(const struct jdoc *d, int obj, const char *key);
/* The first element of array token `arr` (-1 if empty); the next one is
 * at d->t[i].next. */
int jfirst(const struct jdoc *d, int arr);
/* An object's members by name, found in one pass: a lookup is then
 * O(1) whatever the members' order (a core has some 40). */
#define JOBJ_SLOTS 128
#define JOBJ_MEMBERS_MAX 96
struct jobj {
	const struct jdoc *d;
	int slot[JOBJ_SLOTS];      /* the member's key token + 1, 0 empty */
};
/* Index object token `obj`: 0, or -1 when it is not an object or has
 * more than JOBJ_MEMBERS_MAX members. */
int jobj_open(struct jobj *o, const struct jdoc *d, int obj);
/* The value of member `key`, or -1. */
int jobj_get(const struct jobj *o, const char *key);

/* Does string token i hold exactly `s` (as written)? */
bool jstr_is(const struct jdoc *d, int i, const char *s);
/* String token i unescaped into buf (cut to len - 1 bytes, NUL-ended);
 * "" for any other token. */
const char *jstr(const struct jdoc *d, int i, char *buf, size_t len);

#endif
