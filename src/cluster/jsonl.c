/* jsonl.c: a strict JSON parser into a flat token array (jsonl.h). */
#include "config.h"
#include "cluster/jsonl.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/i18n.h"
#include "util/textesc.h"
#include "util/utf8.h"
#include "util/xalloc.h"

struct parser {
	struct jdoc *d;
	const char *s;
	size_t len, pos;
	struct errmsg *e;
	const char *const *skip;   /* the top-level members passed over, or NULL */
	bool tail;                 /* the first of them and all after it */
};

void
jdoc_init(struct jdoc *d, unsigned max_tokens)
{
	memset(d, 0, sizeof *d);
	d->max = max_tokens;
}

void
jdoc_free(struct jdoc *d)
{
	free(d->t);
	memset(d, 0, sizeof *d);
}

static int
fail(struct parser *p, const char *what)
{
	return errmsg_set(p->e, _("byte %zu: %s"), p->pos + 1, what);
}

static inline void
blanks(struct parser *p)
{
	if (p->pos < p->len && (unsigned char)p->s[p->pos] > ' ')
		return;
	while (p->pos < p->len && (p->s[p->pos] == ' ' || p->s[p->pos] == '\t' ||
	    p->s[p->pos] == '\n' || p->s[p->pos] == '\r'))
		p->pos++;
}

static int
token(struct parser *p, enum jtype type)
{
	struct jdoc *d = p->d;
	struct jtok *t;

	if (d->n >= d->max)
		return fail(p, _("too many values"));
	if (d->n == d->cap) {
		d->cap = d->cap > 0 ? 2 * d->cap : 256;
		if (d->cap > d->max)
			d->cap = d->max;
		d->t = xreallocarray(d->t, d->cap, sizeof *d->t);
	}
	t = &d->t[d->n];
	t->type = type;
	t->start = (unsigned)p->pos;
	t->len = t->size = 0;
	t->escaped = t->b = false;
	return (int)d->n++;
}

static int
hex4(const char *s)
{
	int i, v = 0;

	for (i = 0; i < 4; i++) {
		char c = s[i];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= c - '0';
		else if (c >= 'a' && c <= 'f')
			v |= c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			v |= c - 'A' + 10;
		else
			return -1;
	}
	return v;
}

/* Bytes a string holds as they are: printable ASCII but '"' and '\\'. */
static const unsigned char plain[256] = {
#define R4(x) x, x, x, x
#define R16(x) R4(x), R4(x), R4(x), R4(x)
	R16(0), R16(0),                       /* 0x00-0x1f */
	1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,   /* 0x20-0x2f: '"' */
	R16(1),                               /* 0x30-0x3f */
	R16(1),                               /* 0x40-0x4f */
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1,   /* 0x50-0x5f: '\\' */
	R16(1), R16(1),                       /* 0x60-0x7f */
	R16(0), R16(0), R16(0), R16(0), R16(0), R16(0), R16(0), R16(0),
#undef R16
#undef R4
};

static int
string(struct parser *p)
{
	int i = token(p, J_STR);
	const unsigned char *s = (const unsigned char *)p->s;
	size_t n;

	if (i < 0)
		return -1;
	p->pos++;    /* the quote */
	p->d->t[i].start = (unsigned)p->pos;
	for (;;) {
		/* the plain bytes at once: names and codes are all of them */
		while (p->pos < p->len && plain[s[p->pos]])
			p->pos++;
		if (p->pos >= p->len)
			return fail(p, _("a string is not closed"));
		if (s[p->pos] == '"')
			break;
		if (s[p->pos] < 0x20)
			return fail(p, _("a control character in a string"));
		if (s[p->pos] == '\\') {
			p->d->t[i].escaped = true;
			if (p->pos + 1 >= p->len)
				return fail(p, _("a string is not closed"));
			if (s[p->pos + 1] == 'u') {
				if (p->pos + 6 > p->len || hex4(p->s + p->pos + 2) < 0)
					return fail(p, _("a bad \\u escape"));
				p->pos += 6;
				continue;
			}
			if (strchr("\"\\/bfnrt", s[p->pos + 1]) == NULL || s[p->pos + 1] == '\0')
				return fail(p, _("a bad escape"));
			p->pos += 2;
			continue;
		}
		if (s[p->pos] < 0x80) {
			p->pos++;
			continue;
		}
		/* utf8_len may look at up to 4 bytes: only inside the line. */
		n = p->len - p->pos >= 4 ? utf8_len(s + p->pos) : 0;
		if (n == 0 && p->len - p->pos < 4) {
			unsigned char tmp[5] = { 0 };

			memcpy(tmp, s + p->pos, p->len - p->pos);
			n = utf8_len(tmp);
		}
		if (n == 0)
			return fail(p, _("a string that is not UTF-8"));
		p->pos += n;
	}
	p->d->t[i].len = (unsigned)(p->pos - p->d->t[i].start);
	p->pos++;
	p->d->t[i].next = p->d->n;
	return 0;
}

static size_t
digits(struct parser *p)
{
	size_t n = 0;

	while (p->pos < p->len && p->s[p->pos] >= '0' && p->s[p->pos] <= '9') {
		p->pos++;
		n++;
	}
	return n;
}

/* A JSON number whose significant digits make an integer of at most 2^53
 * and a small exponent, read exactly: the digits as an integer (exact in
 * a double up to 2^53), then one multiplication or division by an exact
 * power of ten (10^22 at most), so the result is correctly rounded, as
 * strtod's. Anything else (a larger integer, a larger exponent) goes to
 * strtod. httop writes at most 10 decimals, and its "unix_time" 16
 * digits (1.8e15 in 2027, under 2^53 = 9.0e15 until the year 2255):
 * every number it writes takes the fast way. */
/* Digits at s[*i] into *m (leading zeros skipped, `frac` counts the
 * fraction's into *exp10); false past 19 significant digits (10^19 fits
 * in 64 bits). */
static bool
fast_digits(const char *s, size_t n, size_t *i, uint64_t *m, int *digits, int *exp10, bool frac)
{
	for (; *i < n && s[*i] >= '0' && s[*i] <= '9'; (*i)++) {
		if (frac)
			(*exp10)--;
		if (*m == 0 && s[*i] == '0')
			continue;
		if (++*digits > 19)
			return false;
		*m = *m * 10 + (uint64_t)(s[*i] - '0');
	}
	return true;
}

static bool
fast_number(const char *s, size_t n, double *out)
{
	static const double p10[23] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	    1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22 };
	uint64_t m = 0;
	int exp10 = 0, digits = 0, e = 0, esign = 1;
	bool neg = s[0] == '-';
	size_t i = neg ? 1 : 0;

	if (!fast_digits(s, n, &i, &m, &digits, &exp10, false))
		return false;
	i += i < n && s[i] == '.';
	if (!fast_digits(s, n, &i, &m, &digits, &exp10, true))
		return false;
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		i++;
		if (i < n && (s[i] == '+' || s[i] == '-'))
			esign = s[i++] == '-' ? -1 : 1;
		for (; i < n && e <= 400; i++)
			e = e * 10 + (s[i] - '0');
		exp10 += esign * e;
	}
	if (m == 0) {
		*out = neg ? -0.0 : 0.0;
		return true;
	}
	if (exp10 < -22 || exp10 > 22 || m > (UINT64_C(1) << 53))
		return false;
	*out = exp10 < 0 ? (double)m / p10[-exp10] : (double)m * p10[exp10];
	*out = neg ? -*out : *out;
	return true;
}

static int
number(struct parser *p)
{
	int i = token(p, J_NUM);
	size_t start = p->pos, n;
	char buf[64];

	if (i < 0)
		return -1;
	if (p->pos < p->len && p->s[p->pos] == '-')
		p->pos++;
	if (p->pos < p->len && p->s[p->pos] == '0')
		p->pos++;
	else if (digits(p) == 0)
		return fail(p, _("a bad number"));
	if (p->pos < p->len && p->s[p->pos] == '.') {
		p->pos++;
		if (digits(p) == 0)
			return fail(p, _("a bad number"));
	}
	if (p->pos < p->len && (p->s[p->pos] == 'e' || p->s[p->pos] == 'E')) {
		p->pos++;
		if (p->pos < p->len && (p->s[p->pos] == '+' || p->s[p->pos] == '-'))
			p->pos++;
		if (digits(p) == 0)
			return fail(p, _("a bad number"));
	}
	n = p->pos - start;
	p->d->t[i].len = (unsigned)n;
	if (fast_number(p->s + start, n, &p->d->t[i].num)) {
		p->d->t[i].next = p->d->n;
		return 0;
	}
	if (n >= sizeof buf)
		return fail(p, _("a number too long"));
	memcpy(buf, p->s + start, n);
	buf[n] = '\0';
	p->d->t[i].num = strtod(buf, NULL);
	p->d->t[i].next = p->d->n;
	return 0;
}

static int
literal(struct parser *p, const char *word, enum jtype type, bool b)
{
	size_t n = word[4] == '\0' ? 4 : 5, k;
	int i;

	if (p->len - p->pos < n)
		return fail(p, _("not a JSON value"));
	for (k = 1; k < n; k++)
		if (p->s[p->pos + k] != word[k])
			return fail(p, _("not a JSON value"));
	if ((i = token(p, type)) < 0)
		return -1;
	p->d->t[i].len = (unsigned)n;
	p->d->t[i].b = b;
	p->pos += n;
	p->d->t[i].next = p->d->n;
	return 0;
}

static int value(struct parser *p, unsigned depth);

/* The bytes skip_value stops at: quotes and brackets. */
static const unsigned char stop[256] = {
	['"'] = 1, ['['] = 1, [']'] = 1, ['{'] = 1, ['}'] = 1, ['\\'] = 1,
};

/* Is the key just read (the last token) one of the members to pass over? */
static bool
skipped(const struct parser *p)
{
	const struct jtok *t = &p->d->t[p->d->n - 1];
	const char *name = p->s + t->start;
	const char *const *k;

	/* every member's name is looked at: its first byte before the rest */
	for (k = p->skip; k != NULL && *k != NULL; k++)
		if (t->len > 0 && name[0] == (*k)[0] && jstr_is(p->d, (int)p->d->n - 1, *k))
			return true;
	return false;
}

/* Pass over an array or object: its brackets balanced, its strings
 * closed; one J_SKIP token for all of it. */
static int
skip_value(struct parser *p)
{
	const unsigned char *q = (const unsigned char *)p->s + p->pos;
	const unsigned char *end = (const unsigned char *)p->s + p->len;
	int i = token(p, J_SKIP);
	unsigned depth = 0;

	if (i < 0)
		return -1;
	if (q >= end || (*q != '[' && *q != '{')) {
		/* a plain value: parsed, held by the skip token */
		if (value(p, 1) != 0)
			return -1;
		p->d->t[i].next = p->d->n;
		return 0;
	}
	do {
		while (q < end && !stop[*q])
			q++;
		if (q >= end)
			break;
		if (*q == '"') {
			/* to the closing quote, over escaped ones */
			for (q++; q < end && *q != '"'; q++)
				if (*q == '\\')
					q++;
		} else if (*q == '[' || *q == '{') {
			depth++;
		} else if (*q == ']' || *q == '}') {
			depth--;
		}
		q++;
	} while (depth > 0);
	p->pos = (size_t)(q - (const unsigned char *)p->s);
	if (depth > 0 || p->pos > p->len) {
		p->pos = p->len;
		return fail(p, _("a bracket is not closed"));
	}
	p->d->t[i].len = (unsigned)(p->pos - p->d->t[i].start);
	p->d->t[i].next = p->d->n;
	return 0;
}

/* The first member passed over in a head parse: its value and the rest of
 * the object, to the closing brace that ends the line, as one J_SKIP
 * token; nothing in it is looked at. */
static int
skip_tail(struct parser *p)
{
	size_t e = p->len;
	int i = token(p, J_SKIP);

	if (i < 0)
		return -1;
	while (e > p->pos && (p->s[e - 1] == ' ' || p->s[e - 1] == '\t' ||
	    p->s[e - 1] == '\r' || p->s[e - 1] == '\n'))
		e--;
	if (e <= p->pos || p->s[e - 1] != '}') {
		p->pos = p->len;
		return fail(p, _("the line does not end with '}'"));
	}
	p->pos = e - 1;
	p->d->t[i].len = (unsigned)(p->pos - p->d->t[i].start);
	p->d->t[i].next = p->d->n;
	return 0;
}

/* The member name just parsed (token `key`) of the object at token `obj`:
 * 0, or -1 when the object has it already or it holds an escape. Readers
 * differ on a name given twice (httop would read the first, jq the last)
 * and on a name written with escapes, so a line with either is not
 * httop's. A 128-bit filter of the names so far (`seen`) spares the
 * comparisons for all but a few. */
/* The name's bit: of its length and its first, middle and last bytes,
 * mixed (httop's 26 top-level names take 24 bits; a name that shares one
 * costs a comparison, not a wrong answer), not of every byte: a line's
 * names are hashed once each, thousands of lines a second. */
static unsigned
name_bit(const char *name, size_t len)
{
	const unsigned char *s = (const unsigned char *)name;
	unsigned h;

	if (len == 0)
		return 0;
	h = (unsigned)len * 0x9e3779b1u ^ s[0] * 0x85ebca6bu ^ s[len - 1] * 0xc2b2ae35u ^
	    s[len / 2] * 0x27d4eb2fu;
	h ^= h >> 15;
	h *= 0x2c1b3c6du;
	h ^= h >> 12;
	return h & 127;
}

static int
new_name(struct parser *p, unsigned obj, unsigned key, uint64_t seen[2])
{
	const struct jtok *t = p->d->t;
	const char *name = p->s + t[key].start;
	unsigned len = t[key].len, k, h;

	if (t[key].escaped)
		return fail(p, _("a member name with an escape"));
	h = name_bit(name, len);
	if ((seen[h >> 6] & (1ull << (h & 63))) == 0) {
		seen[h >> 6] |= 1ull << (h & 63);
		return 0;
	}
	/* the earlier members: key token, then its value, whose next is the
	 * next key */
	for (k = obj + 1; k < key && t[k + 1].next > k; k = t[k + 1].next)
		if (t[k].len == len && memcmp(p->s + t[k].start, name, len) == 0)
			return fail(p, _("a member name given twice"));
	return 0;
}

/* A member's name and its ':' in the object at token `obj`. */
static int
member_name(struct parser *p, unsigned obj, uint64_t seen[2])
{
	unsigned key = p->d->n;

	if (p->pos >= p->len || p->s[p->pos] != '"')
		return fail(p, _("a member name must be a string"));
	if (string(p) != 0 || new_name(p, obj, key, seen) != 0)
		return -1;
	blanks(p);
	if (p->pos >= p->len || p->s[p->pos] != ':')
		return fail(p, _("':' expected"));
	p->pos++;
	return 0;
}

/* An array or object after its opening bracket. */
static int
container(struct parser *p, unsigned depth, bool obj)
{
	int i = token(p, obj ? J_OBJ : J_ARR);
	char close = obj ? '}' : ']';
	uint64_t seen[2] = { 0, 0 };

	if (i < 0)
		return -1;
	if (depth >= JSONL_DEPTH_MAX)
		return fail(p, _("nested too deeply"));
	p->pos++;
	blanks(p);
	if (p->pos < p->len && p->s[p->pos] == close) {
		p->pos++;
		p->d->t[i].next = p->d->n;
		return 0;
	}
	for (;;) {
		blanks(p);
		if (obj && member_name(p, (unsigned)i, seen) != 0)
			return -1;
		if (obj && depth == 0 && skipped(p)) {
			blanks(p);
			if ((p->tail ? skip_tail(p) : skip_value(p)) != 0)
				return -1;
		} else if (value(p, depth + 1) != 0) {
			return -1;
		}
		p->d->t[i].size++;
		blanks(p);
		if (p->pos < p->len && p->s[p->pos] == ',') {
			p->pos++;
			continue;
		}
		if (p->pos < p->len && p->s[p->pos] == close) {
			p->pos++;
			break;
		}
		return fail(p, obj ? _("',' or '}' expected") : _("',' or ']' expected"));
	}
	p->d->t[i].len = (unsigned)(p->pos - p->d->t[i].start);
	p->d->t[i].next = p->d->n;
	if (obj && i == 0) {
		p->d->names[0] = seen[0];
		p->d->names[1] = seen[1];
	}
	return 0;
}

static int
value(struct parser *p, unsigned depth)
{
	blanks(p);
	if (p->pos >= p->len)
		return fail(p, _("a value expected"));
	switch (p->s[p->pos]) {
	case '{':
		return container(p, depth, true);
	case '[':
		return container(p, depth, false);
	case '"':
		return string(p);
	case 't':
		return literal(p, "true", J_BOOL, true);
	case 'f':
		return literal(p, "false", J_BOOL, false);
	case 'n':
		return literal(p, "null", J_NULL, false);
	default:
		if (p->s[p->pos] != '-' && (p->s[p->pos] < '0' || p->s[p->pos] > '9'))
			return fail(p, _("not a JSON value"));
		return number(p);
	}
}

static int parse(struct jdoc *d, const char *text, size_t len, const char *const *skip,
    bool tail, struct errmsg *e);

int
jdoc_parse(struct jdoc *d, const char *text, size_t len, struct errmsg *e)
{
	return jdoc_parse_skip(d, text, len, NULL, e);
}

int
jdoc_parse_skip(struct jdoc *d, const char *text, size_t len, const char *const *skip,
    struct errmsg *e)
{
	return parse(d, text, len, skip, false, e);
}

int
jdoc_parse_head(struct jdoc *d, const char *text, size_t len, const char *const *skip,
    struct errmsg *e)
{
	return parse(d, text, len, skip, true, e);
}

static int
parse(struct jdoc *d, const char *text, size_t len, const char *const *skip, bool tail,
    struct errmsg *e)
{
	struct parser p = { d, text, len, 0, e, skip, tail };
	unsigned max = d->max;

	if (len > UINT32_MAX / 2)
		return errmsg_set(e, _("a line of %zu bytes is too long"), len);
	d->text = text;
	d->n = 0;
	d->names[0] = d->names[1] = 0;
	if (d->max == 0 || d->max > len / 2 + 2)
		d->max = (unsigned)(len / 2 + 2);
	if (value(&p, 0) != 0) {
		d->max = max;
		d->n = 0;
		return -1;
	}
	d->max = max;
	blanks(&p);
	if (p.pos != len) {
		d->n = 0;
		return fail(&p, _("more after the value"));
	}
	return 0;
}

int
jget(const struct jdoc *d, int obj, const char *key)
{
	size_t klen = strlen(key);
	unsigned i, k;

	if (obj < 0 || (unsigned)obj >= d->n || d->t[obj].type != J_OBJ)
		return -1;
	i = (unsigned)obj + 1;
	for (k = 0; k < d->t[obj].size; k++) {
		const struct jtok *t = &d->t[i];

		if (t->len == klen && memcmp(d->text + t->start, key, klen) == 0)
			return (int)i + 1;
		i = d->t[i + 1].next;
	}
	return -1;
}

int
jobj_open(struct jobj *o, const struct jdoc *d, int obj)
{
	o->d = d;
	o->at = o->first = (unsigned)obj + 1;
	o->k = 0;
	o->obj = obj >= 0 && (unsigned)obj < d->n && d->t[obj].type == J_OBJ ? obj : -1;
	return o->obj >= 0 ? 0 : -1;
}

static inline bool
key_is(const struct jdoc *d, unsigned i, const char *key, size_t n)
{
	const char *s = d->text + d->t[i].start;

	return d->t[i].len == n && s[0] == key[0] && memcmp(s, key, n) == 0;
}

/* From member k at key token `at` to the end, then (`wrap`) from the
 * first up to where it started: the key token of `key`, or 0; *kk its
 * number. */
static unsigned
look(const struct jobj *o, const char *key, unsigned *kk, bool wrap)
{
	const struct jdoc *d = o->d;
	size_t n = strlen(key);
	unsigned size, i, k, pass;

	if (o->obj < 0)
		return 0;
	/* the top-level object: a name not among its members is not looked
	 * for (thousands of nodes' lines asked for the members they lack) */
	if (o->obj == 0) {
		unsigned h = name_bit(key, n);

		if ((d->names[h >> 6] & (1ull << (h & 63))) == 0)
			return 0;
	}
	size = d->t[o->obj].size;
	for (pass = 0; pass < (wrap ? 2u : 1u); pass++) {
		i = pass == 0 ? o->at : o->first;
		k = pass == 0 ? o->k : 0;
		for (; k < (pass == 0 ? size : o->k); k++) {
			if (key_is(d, i, key, n)) {
				*kk = k;
				return i;
			}
			i = d->t[i + 1].next;
		}
	}
	return 0;
}

int
jobj_get(struct jobj *o, const char *key)
{
	unsigned k, i;

	/* asked in the order written: the member at hand */
	if (o->obj >= 0 && o->k < o->d->t[o->obj].size && key_is(o->d, o->at, key, strlen(key))) {
		i = o->at;
		k = o->k;
	} else {
		i = look(o, key, &k, true);
	}
	if (i == 0)
		return -1;
	o->k = k + 1;
	o->at = o->k < o->d->t[o->obj].size ? o->d->t[i + 1].next : o->first;
	if (o->k == o->d->t[o->obj].size)
		o->k = 0;
	return (int)i + 1;
}

int
jobj_peek(const struct jobj *o, const char *key)
{
	unsigned k, i = look(o, key, &k, true);

	return i == 0 ? -1 : (int)i + 1;
}

int
jobj_opt(const struct jobj *o, const char *key)
{
	unsigned k, i = look(o, key, &k, false);

	return i == 0 ? -1 : (int)i + 1;
}

int
jfirst(const struct jdoc *d, int arr)
{
	if (arr < 0 || (unsigned)arr >= d->n || d->t[arr].type != J_ARR || d->t[arr].size == 0)
		return -1;
	return arr + 1;
}

bool
jstr_is(const struct jdoc *d, int i, const char *s)
{
	size_t n = strlen(s);

	return i >= 0 && (unsigned)i < d->n && d->t[i].type == J_STR && d->t[i].len == n &&
	    memcmp(d->text + d->t[i].start, s, n) == 0;
}

/* One code point as UTF-8 into out (room for 4); returns its length. */
static size_t
put_utf8(unsigned long c, char *out)
{
	if (c < 0x80) {
		out[0] = (char)c;
		return 1;
	}
	if (c < 0x800) {
		out[0] = (char)(0xc0 | (c >> 6));
		out[1] = (char)(0x80 | (c & 0x3f));
		return 2;
	}
	if (c < 0x10000) {
		out[0] = (char)(0xe0 | (c >> 12));
		out[1] = (char)(0x80 | ((c >> 6) & 0x3f));
		out[2] = (char)(0x80 | (c & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | (c >> 18));
	out[1] = (char)(0x80 | ((c >> 12) & 0x3f));
	out[2] = (char)(0x80 | ((c >> 6) & 0x3f));
	out[3] = (char)(0x80 | (c & 0x3f));
	return 4;
}

const char *
jstr(const struct jdoc *d, int i, char *buf, size_t len)
{
	const char *s, *end;
	size_t o = 0;

	if (len == 0)
		return buf;
	buf[0] = '\0';
	if (i < 0 || (unsigned)i >= d->n || d->t[i].type != J_STR)
		return buf;
	s = d->text + d->t[i].start;
	end = s + d->t[i].len;
	while (s < end) {
		char tmp[4], c = *s;
		size_t n = 1;
		unsigned long cp;

		if (c != '\\') {
			tmp[0] = c;
			s++;
		} else {
			c = s[1];
			s += 2;
			switch (c) {
			case 'b': tmp[0] = '\b'; break;
			case 'f': tmp[0] = '\f'; break;
			case 'n': tmp[0] = '\n'; break;
			case 'r': tmp[0] = '\r'; break;
			case 't': tmp[0] = '\t'; break;
			case 'u':
				cp = (unsigned long)hex4(s);
				s += 4;
				/* a surrogate pair, else a lone one as '?' */
				if (cp >= 0xd800 && cp < 0xdc00 && end - s >= 6 && s[0] == '\\' &&
				    s[1] == 'u' && hex4(s + 2) >= 0xdc00 && hex4(s + 2) < 0xe000) {
					cp = 0x10000 + ((cp - 0xd800) << 10) + ((unsigned long)hex4(s + 2) - 0xdc00);
					s += 6;
				} else if (cp >= 0xd800 && cp < 0xe000) {
					cp = '?';
				}
				n = put_utf8(cp, tmp);
				break;
			default: tmp[0] = c; break;
			}
		}
		if (o + n >= len)
			break;
		memcpy(buf + o, tmp, n);
		o += n;
	}
	buf[o] = '\0';
	return buf;
}
