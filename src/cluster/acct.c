/* acct.c: the compact form of a job's httop summary in Slurm's accounting
 * (acct.h): written from httop's whole-run JSON line, parsed back,
 * merged, combined into the job's line and printed. */
#include "config.h"
#include "cluster/acct.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cluster/jsonl.h"
#include "util/i18n.h"
#include "util/textesc.h"
#include "util/xalloc.h"

/* A whole-run line with every core of a big node: a few MB at most. */
#define LINE_MAX_BYTES (64u << 20)
/* No figure is larger: a number longer than this is not one of ours. */
#define VALUE_MAX 1e9
#define TOKEN_MAX 64

static const struct {
	const char *key;            /* in the compact form */
	const char *json;           /* in httop's JSON node object */
	double scale;
	int dec;
} figs[AF_N] = {
	[AF_NEITHER] = { "n", "neither", 100.0, 2 },
	[AF_T0] = { "t0", "t0_only", 100.0, 2 },
	[AF_T1] = { "t1", "t1_only", 100.0, 2 },
	[AF_BOTH] = { "b", "both", 100.0, 2 },
	[AF_UTIL] = { "u", "util", 100.0, 2 },
	[AF_BOTH_BUSY] = { "bb", "both_of_busy", 100.0, 2 },
	[AF_GHZ] = { "ghz", "ghz", 1.0, 3 },
	[AF_CPI] = { "cpi", "cpi", 1.0, 3 },
	[AF_THREADS] = { "at", "active_threads", 1.0, 3 },
	/* The node's cpu_s is the job object's (json.c), with its reason. */
	[AF_CPU] = { "cpu", "cpu_s", 1.0, 2 },
};

static bool
name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	    c == '.' || c == '_' || c == '-';
}

/* A word of [a-z0-9-], 1 to max - 1 bytes. */
static bool
word_ok(const char *s, size_t len, size_t max)
{
	size_t i;

	if (len == 0 || len >= max)
		return false;
	for (i = 0; i < len; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '-'))
			return false;
	return true;
}

static bool
name_ok(const char *s, size_t len)
{
	size_t i;

	if (len == 0 || len > ACCT_NAME_MAX)
		return false;
	for (i = 0; i < len; i++)
		if (!name_char(s[i]))
			return false;
	return true;
}

static bool
value_ok(double v)
{
	return isfinite(v) && v >= 0.0 && v <= VALUE_MAX;
}

/* ---- from httop's JSON ---- */

static int
json_num(const struct jdoc *d, int obj, const char *key, double scale, double *v)
{
	int i = jget(d, obj, key);

	if (i < 0 || d->t[i].type != J_NUM || !value_ok(d->t[i].num * scale))
		return -1;
	*v = d->t[i].num * scale;
	return 0;
}

static void
json_fig(const struct jdoc *d, int node, enum acct_fig f, struct acct_val *out)
{
	char key[40], why[40];
	int absent, i;

	memset(out, 0, sizeof *out);
	if (json_num(d, node, figs[f].json, figs[f].scale, &out->v) == 0) {
		out->kind = AV_EXACT;
		return;
	}
	snprintf(key, sizeof key, "%s_lo", figs[f].json);
	if (json_num(d, node, key, figs[f].scale, &out->lo) == 0) {
		snprintf(key, sizeof key, "%s_hi", figs[f].json);
		if (json_num(d, node, key, figs[f].scale, &out->hi) == 0 && out->lo <= out->hi) {
			out->kind = AV_BOUND;
			return;
		}
	}
	out->lo = out->hi = 0.0;
	absent = jget(d, node, "absent");
	i = absent >= 0 ? jget(d, absent, figs[f].json) : -1;
	if (i >= 0 && d->t[i].type == J_STR) {
		jstr(d, i, why, sizeof why);
		if (word_ok(why, strlen(why), sizeof out->why))
			snprintf(out->why, sizeof out->why, "%s", why);
	}
}

static int
json_head(const struct jdoc *d, struct acct_node *out, struct errmsg *e)
{
	char buf[128];
	int i;

	i = jget(d, 0, "window");
	if (i < 0 || !jstr_is(d, i, "run"))
		return errmsg_set(e, _("not a whole run (no \"window\":\"run\")"));
	i = jget(d, 0, "host");
	jstr(d, i, buf, sizeof buf);
	if (i < 0 || d->t[i].type != J_STR || !name_ok(buf, strlen(buf)))
		return errmsg_set(e, _("no host name of letters, digits, '.', '_' and '-' "
		    "(at most %d)"), ACCT_NAME_MAX);
	memcpy(out->name, buf, strlen(buf) + 1);     /* name_ok: it fits */
	i = jget(d, 0, "source");
	jstr(d, i, buf, sizeof buf);
	if (i >= 0 && word_ok(buf, strlen(buf), sizeof out->src))
		snprintf(out->src, sizeof out->src, "%s", buf);
	if (json_num(d, 0, "interval", 1.0, &out->secs) != 0)
		return errmsg_set(e, _("no interval of seconds"));
	return 0;
}

int
acct_from_json(const char *line, size_t len, struct acct_node *out, struct errmsg *e)
{
	static const char *const skip[] = { "packages", "cores", "threads", NULL };
	struct jdoc d;
	double cores;
	int node, f, rc = -1;

	memset(out, 0, sizeof *out);
	jdoc_init(&d, 0);
	if (jdoc_parse_head(&d, line, len, skip, e) != 0)
		goto out;
	if (d.t[0].type != J_OBJ) {
		errmsg_set(e, _("not a JSON object"));
		goto out;
	}
	if (json_head(&d, out, e) != 0)
		goto out;
	node = jget(&d, 0, "node");
	if (node < 0 || d.t[node].type != J_OBJ || json_num(&d, node, "ncores", 1.0, &cores) != 0 ||
	    cores != floor(cores)) {
		errmsg_set(e, _("no node object with its number of cores"));
		goto out;
	}
	out->cores = (unsigned long)cores;
	for (f = 0; f < AF_N; f++)
		json_fig(&d, node, (enum acct_fig)f, &out->fig[f]);
	rc = 0;
out:
	jdoc_free(&d);
	return rc;
}

/* The record's whole-job line is its last: only the file's tail is read,
 * at most a line's limit and its newline, and only from a regular file
 * (/dev/zero, a FIFO or a device named by mistake must neither hang nor
 * exhaust memory; a job's record of days may be gigabytes). */
static int
read_tail(const char *path, char **buf, size_t *len, size_t *skip, struct errmsg *e)
{
	const off_t tail = (off_t)LINE_MAX_BYTES + 2;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	struct stat st;
	off_t from;
	size_t got = 0;

	if (fd < 0)
		return errmsg_set(e, _("%s: %s"), path, strerror(errno));
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return errmsg_set(e, _("%s: not a regular file; give httop's JSON lines of the job"),
		    path);
	}
	from = st.st_size > tail ? st.st_size - tail : 0;
	*len = (size_t)(st.st_size - from);
	*buf = xmalloc(*len + 1);
	while (got < *len) {
		ssize_t n = pread(fd, *buf + got, *len - got, from + (off_t)got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int err = errno;

			close(fd);
			free(*buf);
			*buf = NULL;
			errmsg_set(e, _("%s: %s"), path, strerror(err));
			return -1;
		}
		if (n == 0)
			break;              /* it shrank meanwhile */
		got += (size_t)n;
	}
	close(fd);
	*len = got;
	(*buf)[got] = '\0';
	/* A tail that starts inside a line: that line is not whole. */
	*skip = 0;
	if (from > 0) {
		const char *nl = memchr(*buf, '\n', got);

		*skip = nl != NULL ? (size_t)(nl - *buf) + 1 : got;
	}
	return 0;
}

int
acct_from_file(const char *path, struct acct_node *out, struct errmsg *e)
{
	char *buf = NULL, *p, *end, *last = NULL;
	size_t len = 0, skip = 0, lastlen = 0;

	if (read_tail(path, &buf, &len, &skip, e) != 0)
		return -1;
	end = buf + len;
	for (p = buf + skip; p < end;) {
		char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl != NULL ? nl : end) - p);

		while (n > 0 && p[n - 1] == '\r')
			n--;
		/* The whole run is the last line; keep the last one that may be. */
		if (n <= LINE_MAX_BYTES && memmem(p, n, "\"window\":\"run\"", 14) != NULL) {
			last = p;
			lastlen = n;
		}
		p = nl != NULL ? nl + 1 : end;
	}
	if (last == NULL) {
		free(buf);
		return errmsg_set(e, _("%s: no whole-job line (\"window\":\"run\"): httop did not see "
		    "the job end"), path);
	}
	last[lastlen] = '\0';
	{
		int rc = acct_from_json(last, lastlen, out, e);

		free(buf);
		if (rc != 0)
			errmsg_prefix(e, "%s", path);
		return rc;
	}
}

/* ---- the compact form written ---- */

struct sbuf {
	char *b;
	size_t len, n;
	bool full;
};

static void put(struct sbuf *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
put(struct sbuf *s, const char *fmt, ...)
{
	va_list ap;
	int k;

	if (s->full)
		return;
	va_start(ap, fmt);
	k = vsnprintf(s->b + s->n, s->len - s->n, fmt, ap);
	va_end(ap);
	if (k < 0 || (size_t)k >= s->len - s->n)
		s->full = true;
	else
		s->n += (size_t)k;
}

static void
put_val(struct sbuf *s, const char *key, const struct acct_val *v, int dec)
{
	if (v->kind == AV_EXACT)
		put(s, ",%s=%.*f", key, dec, v->v);
	else if (v->kind == AV_BOUND)
		put(s, ",%s=%.*f-%.*f", key, dec, v->lo, dec, v->hi);
	else
		put(s, ",%s=-%s", key, v->why);
}

int
acct_format_node(const struct acct_node *n, char *buf, size_t len)
{
	struct sbuf s = { buf, len, 0, len == 0 };
	int f;

	put(&s, "%s:c=%lu,s=%.1f", n->name, n->cores, n->secs);
	for (f = 0; f < AF_N; f++)
		put_val(&s, figs[f].key, &n->fig[f], figs[f].dec);
	if (n->src[0] != '\0')
		put(&s, ",src=%s", n->src);
	return s.full ? -1 : (int)s.n;
}

int
acct_format(const struct acct_rec *r, char *buf, size_t len)
{
	size_t i, n;
	int k;

	if (len < sizeof ACCT_VERSION)
		return -1;
	memcpy(buf, ACCT_VERSION, sizeof ACCT_VERSION);
	n = sizeof ACCT_VERSION - 1;
	for (i = 0; i < r->n; i++) {
		if (n + 2 > len)
			return -1;
		buf[n++] = ';';
		if ((k = acct_format_node(&r->nodes[i], buf + n, len - n)) < 0)
			return -1;
		n += (size_t)k;
	}
	return n > ACCT_TEXT_MAX ? -1 : (int)n;
}

/* ---- the compact form read ---- */

struct cursor {
	const char *t;
	size_t len, at;
	struct errmsg *e;
};

static int
bad(struct cursor *c, const char *what)
{
	return errmsg_set(c->e, _("byte %zu: %s"), c->at, what);
}

/* The token up to the next of `stops` (or the end), at most TOKEN_MAX. */
static int
token(struct cursor *c, const char *stops, char *out)
{
	size_t k = 0;

	while (c->at < c->len && strchr(stops, c->t[c->at]) == NULL) {
		if (k + 1 >= TOKEN_MAX || c->t[c->at] == '\0')
			return bad(c, _("a field too long, or not text"));
		out[k++] = c->t[c->at++];
	}
	out[k] = '\0';
	return 0;
}

/* A plain decimal number: digits, then maybe '.' and digits. */
static int
number(const char *s, double *v)
{
	size_t i = 0, dig = 0;

	while (s[i] >= '0' && s[i] <= '9')
		i++, dig++;
	if (s[i] == '.')
		for (i++; s[i] >= '0' && s[i] <= '9'; i++)
			dig++;
	if (dig == 0 || s[i] != '\0' || i > 20)
		return -1;
	*v = strtod(s, NULL);
	return value_ok(*v) ? 0 : -1;
}

static int
parse_val(const char *s, struct acct_val *v)
{
	char lo[TOKEN_MAX];
	const char *dash;

	memset(v, 0, sizeof *v);
	if (s[0] == '-') {
		if (s[1] != '\0' && !word_ok(s + 1, strlen(s + 1), sizeof v->why))
			return -1;
		snprintf(v->why, sizeof v->why, "%s", s + 1);
		return 0;
	}
	if ((dash = strchr(s, '-')) == NULL) {
		v->kind = AV_EXACT;
		return number(s, &v->v);
	}
	snprintf(lo, sizeof lo, "%.*s", (int)(dash - s), s);
	v->kind = AV_BOUND;
	if (number(lo, &v->lo) != 0 || number(dash + 1, &v->hi) != 0 || v->lo > v->hi)
		return -1;
	return 0;
}

/* A field's key: its figure (0..AF_N-1), or AF_N + 0..2 for c, s, src. */
static int
field_index(const char *key)
{
	static const char *const more[] = { "c", "s", "src" };
	int f;

	for (f = 0; f < AF_N; f++)
		if (strcmp(key, figs[f].key) == 0)
			return f;
	for (f = 0; f < 3; f++)
		if (strcmp(key, more[f]) == 0)
			return AF_N + f;
	return -1;
}

static int
set_other(int f, const char *val, struct acct_node *n)
{
	double v;

	if (f == AF_N + 2) {
		if (!word_ok(val, strlen(val), sizeof n->src))
			return -1;
		snprintf(n->src, sizeof n->src, "%s", val);
		return 0;
	}
	if (number(val, &v) != 0)
		return -1;
	if (f == AF_N) {
		if (v != floor(v))
			return -1;
		n->cores = (unsigned long)v;
	} else {
		n->secs = v;
	}
	return 0;
}

static int
field(struct cursor *c, struct acct_node *n, unsigned *seen)
{
	char key[TOKEN_MAX], val[TOKEN_MAX];
	size_t at = c->at;
	int f;

	if (token(c, "=,;", key) != 0)
		return -1;
	f = field_index(key);
	if (f < 0 || c->at >= c->len || c->t[c->at] != '=') {
		c->at = at;
		return bad(c, _("not a field of httop1 (KEY=VALUE)"));
	}
	if (*seen & (1u << f)) {
		c->at = at;
		return bad(c, _("a field given twice"));
	}
	*seen |= 1u << f;
	c->at++;
	at = c->at;
	if (token(c, ",;", val) != 0)
		return -1;
	if (f < AF_N ? parse_val(val, &n->fig[f]) != 0 : set_other(f, val, n) != 0) {
		c->at = at;
		return bad(c, _("not a value of this field"));
	}
	return 0;
}

static int
node(struct cursor *c, struct acct_node *n)
{
	char name[TOKEN_MAX];
	unsigned seen = 0;
	size_t at = c->at;

	memset(n, 0, sizeof *n);
	if (token(c, ":;,", name) != 0)
		return -1;
	if (!name_ok(name, strlen(name)) || c->at >= c->len || c->t[c->at] != ':') {
		c->at = at;
		return bad(c, _("not NODE: (a node name, then ':')"));
	}
	snprintf(n->name, sizeof n->name, "%s", name);
	do {
		c->at++;
		if (field(c, n, &seen) != 0)
			return -1;
	} while (c->at < c->len && c->t[c->at] == ',');
	if (!(seen & (1u << AF_N)) || !(seen & (1u << (AF_N + 1))))
		return bad(c, _("a node without its cores (c=) or seconds (s=)"));
	return 0;
}

static bool
has_node(const struct acct_rec *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		if (strcmp(r->nodes[i].name, name) == 0)
			return true;
	return false;
}

int
acct_parse(const char *text, size_t len, struct acct_rec *r, struct errmsg *e)
{
	struct cursor c = { text, len, 0, e };
	struct acct_node n;
	size_t v = sizeof ACCT_VERSION - 1;

	memset(r, 0, sizeof *r);
	if (len == 0)
		return 0;
	if (len > ACCT_TEXT_MAX)
		return errmsg_set(e, _("%zu bytes: longer than httop writes (%d)"), len,
		    ACCT_TEXT_MAX);
	if (len < v || memcmp(text, ACCT_VERSION, v) != 0 || (len > v && text[v] != ';'))
		return errmsg_set(e, _("not httop's record (it does not start with %s;)"),
		    ACCT_VERSION);
	c.at = v;
	while (c.at < len) {
		if (text[c.at] != ';' && bad(&c, _("not ';' between nodes"))) {
			acct_free(r);
			return -1;
		}
		c.at++;
		if (node(&c, &n) != 0 || (has_node(r, n.name) && bad(&c, _("a node given twice"))) ||
		    (r->n >= ACCT_NODES_MAX && bad(&c, _("too many nodes")))) {
			acct_free(r);
			return -1;
		}
		r->nodes = xreallocarray(r->nodes, r->n + 1, sizeof *r->nodes);
		r->nodes[r->n++] = n;
	}
	return 0;
}

int
acct_merge(struct acct_rec *r, const struct acct_node *n)
{
	size_t i;

	for (i = 0; i < r->n; i++) {
		if (strcmp(r->nodes[i].name, n->name) == 0) {
			r->nodes[i] = *n;
			return 0;
		}
	}
	if (r->n >= ACCT_NODES_MAX)
		return -1;
	r->nodes = xreallocarray(r->nodes, r->n + 1, sizeof *r->nodes);
	r->nodes[r->n++] = *n;
	return 0;
}

void
acct_free(struct acct_rec *r)
{
	free(r->nodes);
	r->nodes = NULL;
	r->n = 0;
}

/* ---- the job ---- */

/* A share or util: weighted by core-seconds; a bound where any node's is. */
static void
combine_weighted(const struct acct_rec *r, enum acct_fig f, struct acct_val *out)
{
	double w = 0.0, lo = 0.0, hi = 0.0, wi;
	bool bound = false;
	size_t i;

	memset(out, 0, sizeof *out);
	for (i = 0; i < r->n; i++) {
		const struct acct_val *v = &r->nodes[i].fig[f];

		if (v->kind == AV_ABSENT) {
			snprintf(out->why, sizeof out->why, "%s", v->why);
			return;
		}
		wi = (double)r->nodes[i].cores * r->nodes[i].secs;
		lo += wi * (v->kind == AV_EXACT ? v->v : v->lo);
		hi += wi * (v->kind == AV_EXACT ? v->v : v->hi);
		bound = bound || v->kind == AV_BOUND;
		w += wi;
	}
	if (r->n == 0 || w <= 0.0)
		return;
	out->kind = bound ? AV_BOUND : AV_EXACT;
	out->lo = lo / w;
	out->hi = hi / w;
	out->v = out->lo;
}

/* A ratio: between the nodes' lowest and highest. */
static void
combine_range(const struct acct_rec *r, enum acct_fig f, struct acct_val *out)
{
	double lo = INFINITY, hi = -INFINITY;
	size_t i;

	memset(out, 0, sizeof *out);
	for (i = 0; i < r->n; i++) {
		const struct acct_val *v = &r->nodes[i].fig[f];

		if (v->kind == AV_ABSENT) {
			snprintf(out->why, sizeof out->why, "%s", v->why);
			return;
		}
		lo = fmin(lo, v->kind == AV_EXACT ? v->v : v->lo);
		hi = fmax(hi, v->kind == AV_EXACT ? v->v : v->hi);
	}
	if (r->n == 0)
		return;
	out->kind = lo == hi ? AV_EXACT : AV_BOUND;
	out->v = out->lo = lo;
	out->hi = hi;
}

/* The job's CPU seconds: the nodes' summed; a bound where any node's is
 * one, absent where any node's is. */
static void
combine_sum(const struct acct_rec *r, enum acct_fig f, struct acct_val *out)
{
	bool bound = false;
	size_t i;

	memset(out, 0, sizeof *out);
	for (i = 0; i < r->n; i++) {
		const struct acct_val *v = &r->nodes[i].fig[f];

		if (v->kind == AV_ABSENT) {
			memset(out, 0, sizeof *out);
			snprintf(out->why, sizeof out->why, "%s", v->why);
			return;
		}
		out->lo += v->kind == AV_EXACT ? v->v : v->lo;
		out->hi += v->kind == AV_EXACT ? v->v : v->hi;
		bound = bound || v->kind == AV_BOUND;
	}
	if (r->n == 0)
		return;
	out->kind = bound ? AV_BOUND : AV_EXACT;
	out->v = out->lo;
}

void
acct_combine(const struct acct_rec *r, struct acct_node *job)
{
	size_t i;
	int f;

	memset(job, 0, sizeof *job);
	snprintf(job->name, sizeof job->name, "job");
	for (i = 0; i < r->n; i++) {
		const struct acct_node *n = &r->nodes[i];

		job->cores += n->cores;
		job->secs = fmax(job->secs, n->secs);
		if (i == 0)
			snprintf(job->src, sizeof job->src, "%s", n->src);
		else if (strcmp(job->src, n->src) != 0)
			snprintf(job->src, sizeof job->src, "mixed");
	}
	for (f = 0; f < AF_N; f++) {
		if (f == AF_CPU)
			combine_sum(r, (enum acct_fig)f, &job->fig[f]);
		else if (f == AF_BOTH_BUSY || f == AF_GHZ || f == AF_CPI)
			combine_range(r, (enum acct_fig)f, &job->fig[f]);
		else
			combine_weighted(r, (enum acct_fig)f, &job->fig[f]);
	}
}

static const char *
val_text(const struct acct_val *v, int dec, char *buf, size_t len)
{
	if (v->kind == AV_EXACT)
		snprintf(buf, len, "%.*f", dec, v->v);
	else if (v->kind == AV_BOUND)
		snprintf(buf, len, "%.*f-%.*f", dec, v->lo, dec, v->hi);
	else
		snprintf(buf, len, "-");
	return buf;
}

static void
print_row(FILE *fp, const struct acct_node *n)
{
	static const int width[AF_N] = { 8, 8, 8, 8, 8, 10, 6, 6, 7, 9 };
	char buf[64], name[ACCT_NAME_MAX * 4 + 1];
	int f;

	fprintf(fp, "%-16s %6lu %9.1f", text_escape(name, sizeof name, n->name), n->cores, n->secs);
	/* Shares in percent with 1 decimal; GHz, CPI, threads and seconds 2. */
	for (f = 0; f < AF_N; f++)
		fprintf(fp, " %*s", width[f], val_text(&n->fig[f],
		    f == AF_CPU || figs[f].dec == 3 ? 2 : 1, buf, sizeof buf));
	fprintf(fp, " %s\n", n->src[0] != '\0' ? n->src : "-");
}

void
acct_print(FILE *fp, const char *jobid, const struct acct_rec *r)
{
	struct acct_node job;
	char id[96];
	size_t i;

	fprintf(fp, _("httop: job %s, from Slurm's accounting (AdminComment): the whole job, "
	    "per node and for the job (shares, util and both/busy in %%; LO-HI: a bound; -: "
	    "absent)\n"), text_quote(id, sizeof id, jobid, 32));
	fprintf(fp, "%-16s %6s %9s %8s %8s %8s %8s %8s %10s %6s %6s %7s %9s %s\n", "NODE",
	    "CORES", "SECONDS", "NEITHER", "T0ONLY", "T1ONLY", "BOTH", "UTIL", "BOTH/BUSY", "GHZ",
	    "CPI", "THREADS", "JOB-CPU", "SOURCE");
	for (i = 0; i < r->n; i++)
		print_row(fp, &r->nodes[i]);
	acct_combine(r, &job);
	print_row(fp, &job);
}
