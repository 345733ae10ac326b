/* ommerge.c: N intervals' expositions as one (ommerge.h). Families and
 * their series are looked up by name, first where the last one was found
 * plus one (every interval writes them in the same order), else from the
 * start: linear in the number of families or series only when the order
 * changed (a core or job that came or went). */
#include "config.h"
#include "out/ommerge.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "out/linebuf.h"
#include "util/xalloc.h"

struct series {
	char *key;            /* name{labels} */
	size_t keylen;
	struct linebuf lines; /* its samples, whole lines */
	bool stamped;         /* they carry timestamps */
};

struct family {
	char *name;
	size_t namelen;
	struct linebuf head;  /* TYPE, UNIT, HELP of the first interval */
	bool head_done;       /* a sample came: later headers are repeats */
	struct series *s;
	size_t ns, caps, cur;
};

struct ommerge {
	struct family *f;
	size_t nf, capf, cur;
	bool have_cur;
	size_t fed;           /* bytes fed: a bound of the memory kept */
};

struct ommerge *
ommerge_new(void)
{
	return xcalloc(1, sizeof(struct ommerge));
}

static char *
dup_mem(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

static struct family *
family_of(struct ommerge *m, const char *name, size_t n)
{
	size_t i, k;
	struct family *f;

	for (k = 0; k < m->nf; k++) {
		i = (m->cur + k) % m->nf;
		if (m->f[i].namelen == n && memcmp(m->f[i].name, name, n) == 0) {
			m->cur = i;
			return &m->f[i];
		}
	}
	if (m->nf == m->capf) {
		m->capf = m->capf != 0 ? 2 * m->capf : 64;
		m->f = xrealloc(m->f, m->capf * sizeof *m->f);
	}
	f = &m->f[m->nf];
	memset(f, 0, sizeof *f);
	f->name = dup_mem(name, n);
	f->namelen = n;
	m->cur = m->nf++;
	return f;
}

static struct series *
series_of(struct family *f, const char *key, size_t n)
{
	size_t i, k;
	struct series *s;

	for (k = 0; k < f->ns; k++) {
		i = (f->cur + 1 + k) % f->ns;
		if (f->s[i].keylen == n && memcmp(f->s[i].key, key, n) == 0) {
			f->cur = i;
			return &f->s[i];
		}
	}
	if (f->ns == f->caps) {
		f->caps = f->caps != 0 ? 2 * f->caps : 16;
		f->s = xrealloc(f->s, f->caps * sizeof *f->s);
	}
	s = &f->s[f->ns];
	memset(s, 0, sizeof *s);
	s->key = dup_mem(key, n);
	s->keylen = n;
	f->cur = f->ns++;
	return s;
}

/* "# KIND name text": the family's name. */
static void
meta_line(struct ommerge *m, const char *l, size_t n)
{
	const char *name = memchr(l + 2, ' ', n - 2);
	const char *end;
	struct family *f;

	if (name == NULL)
		return;
	name++;
	end = memchr(name, ' ', (size_t)(l + n - name));
	if (end == NULL)
		end = l + n;
	f = family_of(m, name, (size_t)(end - name));
	m->have_cur = true;
	if (!f->head_done) {
		lb_mem(&f->head, l, n);
		lb_char(&f->head, '\n');
	}
}

/* Where name{labels} ends: after the '}' outside a quoted value. */
static size_t
key_len(const char *l, size_t n)
{
	bool quoted = false;
	size_t i;

	for (i = 0; i < n; i++) {
		if (quoted && l[i] == '\\')
			i++;
		else if (l[i] == '"')
			quoted = !quoted;
		else if (!quoted && (l[i] == '}' || l[i] == ' '))
			return l[i] == '}' ? i + 1 : i;
	}
	return n;
}

static void
sample_line(struct ommerge *m, const char *l, size_t n)
{
	size_t k = key_len(l, n);
	/* " value timestamp": two spaces after the key */
	bool stamped = k < n && memchr(l + k + 1, ' ', n - k - 1) != NULL;
	struct family *f;
	struct series *s;

	if (!m->have_cur) {
		(void)family_of(m, "", 0);
		m->have_cur = true;
	}
	f = &m->f[m->cur];
	f->head_done = true;
	s = series_of(f, l, k);
	if (s->lines.len > 0 && !stamped && s->stamped)
		return;
	if (s->lines.len > 0 && (!stamped || !s->stamped))
		s->lines.len = 0;
	s->stamped = stamped;
	lb_mem(&s->lines, l, n);
	lb_char(&s->lines, '\n');
}

void
ommerge_feed(struct ommerge *m, const char *text, size_t len)
{
	const char *p = text, *end = text + len, *nl;

	m->have_cur = false;
	m->fed += len;
	while (p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (nl == NULL)
			nl = end;
		if (nl - p >= 2 && p[0] == '#' && p[1] == ' ')
			meta_line(m, p, (size_t)(nl - p));
		else if (nl > p)
			sample_line(m, p, (size_t)(nl - p));
		p = nl + 1;
	}
	/* the headers of the next interval are repeats of those kept */
	for (size_t i = 0; i < m->nf; i++)
		m->f[i].head_done = true;
}

size_t
ommerge_write(const struct ommerge *m, FILE *fp)
{
	size_t i, j, kept = 0;

	for (i = 0; i < m->nf; i++) {
		const struct family *f = &m->f[i];

		fwrite(f->head.p, 1, f->head.len, fp);
		kept += f->head.len + f->namelen;
		for (j = 0; j < f->ns; j++) {
			fwrite(f->s[j].lines.p, 1, f->s[j].lines.len, fp);
			kept += f->s[j].lines.len + f->s[j].keylen;
		}
	}
	return kept;
}

void
ommerge_free(struct ommerge *m)
{
	size_t i, j;

	if (m == NULL)
		return;
	for (i = 0; i < m->nf; i++) {
		for (j = 0; j < m->f[i].ns; j++) {
			free(m->f[i].s[j].key);
			lb_free(&m->f[i].s[j].lines);
		}
		free(m->f[i].s);
		free(m->f[i].name);
		lb_free(&m->f[i].head);
	}
	free(m->f);
	free(m);
}

size_t
ommerge_fed(const struct ommerge *m)
{
	return m != NULL ? m->fed : 0;
}
