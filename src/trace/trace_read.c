/* trace_read.c: read a trace (man/httop-trace.5). The header rebuilds the
 * machine and the plan; then every complete interval is one sample. Any
 * malformed line is an error naming the file and line; a file that simply
 * stops (a recorder killed mid-write) ends the data at the last complete
 * interval, with a note saying where. The file comes in blocks (tracez.c)
 * and lines are parsed where they lie in the block buffer. */
#include "config.h"
#include "trace/trace.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "trace/tracefmt.h"
#include "trace/tracez.h"
#include "util/hostname.h"
#include "util/i18n.h"
#include "util/textesc.h"
#include "util/utf8.h"
#include "util/xalloc.h"

/* Far above any machine Linux supports (NR_CPUS <= 8192), low enough that a
 * corrupt number cannot make us allocate gigabytes. */
#define TRACE_MAX_CPU 65536u
#define TRACE_MAX_ID  (1L << 24)

/* The block buffer: a line (TRACE_LINE_MAX) and its newline must fit
 * with room to spare, so a refill brings in many lines. TRACE_BUF_TAIL
 * bytes more, zeroed, follow it: hex_word loads sixteen bytes at a time
 * from anywhere in a line, up to fifteen past its terminating NUL. */
#define TRACE_BUF (64u * 1024)
#define TRACE_BUF_TAIL 16u

/* A sample's time= is seconds since the recording began: more than about
 * 31 years is no recording's. */
#define TRACE_MAX_TIME 1e9

enum line_rc { LINE_OK, LINE_EOF, LINE_PARTIAL, LINE_ERR };

struct trace_reader {
	struct tracez *z;
	bool has_truth;            /* a "truth" header line: t lines follow */
	char path[200];
	unsigned long lineno;
	struct machine *m;
	struct plan *plan;
	char *line;                /* the current line, in buf, NUL-terminated */
	char *buf;                 /* TRACE_BUF bytes; [beg, end) not yet read */
	size_t beg, end;
	bool eof;                  /* the file has no more bytes for buf */
	bool done;
	int done_rc;
	uint64_t ncomplete;        /* complete samples read so far (the first
				    * interval comes with the second) */
	bool *seen;                /* per CPU, this interval */
	char events[512];
	/* The header's created time (Unix seconds), 0 when unknown: a sample
	 * without wall= (a trace before 1.3) is given created + time. */
	double created;
	char producer[128];
	char note[512];
	bool has_job;              /* 1.6: a "job" header line */
	struct job_ident job;
	char what[PLAN_MAX_WRITES][128];
};

/* State while the header is read. */
struct header {
	bool have_plan, have_identity;
	unsigned nslots, nwrites;
	bool *cpu_seen;
	unsigned cpu_seen_n;
	unsigned ncpus;
	char vendor[16], brand[64];
	long family, model, stepping;
	struct cpu_identity clk;   /* clock and PMU fields only */
};

static int
bad(struct trace_reader *r, struct errmsg *e, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int
bad(struct trace_reader *r, struct errmsg *e, const char *fmt, ...)
{
	char what[sizeof e->text];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	return errmsg_set(e, "%s:%lu: %s", r->path, r->lineno, what);
}

/* Hex digit values, 16 for anything else. */
static unsigned char hexval[256];

static void
hexval_init(void)
{
	unsigned i;

	if (hexval['1'] == 1)
		return;
	memset(hexval, 16, sizeof hexval);
	for (i = 0; i < 10; i++)
		hexval['0' + i] = (unsigned char)i;
	for (i = 0; i < 6; i++)
		hexval['a' + i] = hexval['A' + i] = (unsigned char)(10 + i);
}

/* Say a line is too long: not a trace (or a damaged one). */
static void
too_long(struct trace_reader *r, struct errmsg *e)
{
	bad(r, e, _("line longer than %d bytes: not a trace line (a trace's lines are "
	    "shorter; give a file written by httop --record or httop-ppc2trace)"),
	    TRACE_LINE_MAX);
}

/* The next line, in place in the buffer, without its newline (and without
 * a CR before it), as r->line. */
static enum line_rc
read_line(struct trace_reader *r, struct errmsg *e)
{
	char *line, *nl;
	size_t n, avail;
	long got;

	r->lineno++;
	for (;;) {
		avail = r->end - r->beg;
		if ((nl = memchr(r->buf + r->beg, '\n', avail)) != NULL)
			break;
		if (avail > TRACE_LINE_MAX) {
			if (memchr(r->buf + r->beg, '\0', TRACE_LINE_MAX + 1) != NULL)
				bad(r, e, _("NUL byte: this is not a text trace file"));
			else
				too_long(r, e);
			return LINE_ERR;
		}
		if (r->eof)
			break;
		/* keep the start of the line, refill behind it (one byte is
		 * left for the terminator of a last line without newline) */
		if (r->beg > 0) {
			memmove(r->buf, r->buf + r->beg, avail);
			r->beg = 0;
			r->end = avail;
		}
		got = tracez_read(r->z, r->buf + r->end, TRACE_BUF - 1 - r->end);
		if (got < 0) {
			if (errno == EBADMSG)
				bad(r, e, _("the gzip data is corrupt here: the file was damaged after "
				    "it was written (what came before was read)"));
			else
				bad(r, e, _("read error: %s"), strerror(errno));
			return LINE_ERR;
		}
		if (got == 0)
			r->eof = true;
		r->end += (size_t)got;
	}
	line = r->buf + r->beg;
	n = nl != NULL ? (size_t)(nl - line) : r->end - r->beg;
	if (memchr(line, '\0', n) != NULL) {
		bad(r, e, _("NUL byte: this is not a text trace file"));
		return LINE_ERR;
	}
	if (n > TRACE_LINE_MAX) {
		too_long(r, e);
		return LINE_ERR;
	}
	r->beg = nl != NULL ? (size_t)(nl + 1 - r->buf) : r->end;
	if (n > 0 && line[n - 1] == '\r')
		n--;
	line[n] = '\0';
	r->line = line;
	if (nl == NULL) {
		/* A last line without its newline was cut off mid-write. */
		if (n == 0 && r->beg == r->end) {
			r->lineno--;
			return LINE_EOF;
		}
		return LINE_PARTIAL;
	}
	return LINE_OK;
}

/* The line type: a word of [a-z0-9-] starting with a letter. Returns a
 * pointer to the rest of the line, or NULL if the line is not a trace line;
 * an empty keyword means a blank or comment line. */
static char *
keyword(char *line, const char **kw)
{
	char *p = line;

	while (*p == ' ' || *p == '\t')
		p++;
	if (*p == '\0' || *p == '#') {
		*kw = "";
		return p;
	}
	*kw = p;
	if (!(*p >= 'a' && *p <= 'z'))
		return NULL;
	while ((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-')
		p++;
	if (*p != '\0' && *p != ' ' && *p != '\t')
		return NULL;
	if (*p != '\0')
		*p++ = '\0';
	return p;
}

/* A required integer field in [lo, hi]. */
static int
need_int(struct trace_reader *r, struct errmsg *e, const char *kw,
    const struct tracefmt_field *f, int n, const char *key, long lo, long hi, long *out)
{
	const char *v = tracefmt_get(f, n, key);

	if (v == NULL)
		return bad(r, e, _("'%s' line without the field %s="), kw, key);
	if (!tracefmt_int(v, lo, hi, out))
		return bad(r, e, _("'%s' line: %s=%s is not a number from %ld to %ld"), kw, key,
		    v, lo, hi);
	return 0;
}

/* An optional integer field; keeps *out when absent. */
static int
opt_int(struct trace_reader *r, struct errmsg *e, const char *kw,
    const struct tracefmt_field *f, int n, const char *key, long lo, long hi, long *out)
{
	if (tracefmt_get(f, n, key) == NULL)
		return 0;
	return need_int(r, e, kw, f, n, key, lo, hi, out);
}

static int
need_u64(struct trace_reader *r, struct errmsg *e, const char *kw,
    const struct tracefmt_field *f, int n, const char *key, bool required, uint64_t *out)
{
	const char *v = tracefmt_get(f, n, key);

	if (v == NULL) {
		if (!required)
			return 0;
		return bad(r, e, _("'%s' line without the field %s="), kw, key);
	}
	if (!tracefmt_u64(v, 0, out))
		return bad(r, e, _("'%s' line: %s=%s is not an unsigned number"), kw, key, v);
	return 0;
}

/* A trace's text (a note, a brand, an event...): from outside, so kept
 * escaped (textesc.h) for whatever shows it. */
static void
copy_str(char *dst, size_t len, const char *src)
{
	text_escape(dst, len, src != NULL ? src : "");
}

/* 1.6 "job": what named the watched job, raw as the outputs take it
 * (each escapes it as its format asks), cut where a character ends. */
static void
header_job(struct trace_reader *r, const struct tracefmt_field *f, int n)
{
	struct job_ident *j = &r->job;
	const char *v;

#define JOB_FIELD(name) \
	utf8_copy_whole(j->name, sizeof j->name, (v = tracefmt_get(f, n, #name)) != NULL ? v : "")
	JOB_FIELD(kind);
	JOB_FIELD(id);
	JOB_FIELD(user);
	JOB_FIELD(name);
	JOB_FIELD(cgroup);
	JOB_FIELD(pid);
#undef JOB_FIELD
	r->has_job = true;
}

/* "host name=": empty (unknown) or a host name (hostname.h); anything else
 * is refused, as a node's line with it is: it would reach every output. */
static int
header_host(struct trace_reader *r, const struct tracefmt_field *f, int n, struct errmsg *e)
{
	const char *v = tracefmt_get(f, n, "name");

	if (v == NULL || *v == '\0') {
		r->m->hostname[0] = '\0';
		return 0;
	}
	if (!host_name_ok(v))
		return bad(r, e, _("'host' line: name=\"%.80s\" is not a host name (1 to %d letters, "
		    "digits, '.', '-' and '_', not '-' first)"), v, HOST_NAME_LEN);
	snprintf(r->m->hostname, sizeof r->m->hostname, "%s", v);
	return 0;
}

static int
header_cpu(struct trace_reader *r, struct header *h, const struct tracefmt_field *f, int n,
    struct errmsg *e)
{
	long cpu, pkg, die, l3, core, thread, online;
	const char *l3s = tracefmt_get(f, n, "l3");
	bool no_l3;

	if (need_int(r, e, "cpu", f, n, "cpu", 0, TRACE_MAX_CPU - 1, &cpu) != 0 ||
	    need_int(r, e, "cpu", f, n, "package", 0, TRACE_MAX_ID, &pkg) != 0 ||
	    need_int(r, e, "cpu", f, n, "core", 0, TRACE_MAX_ID, &core) != 0 ||
	    need_int(r, e, "cpu", f, n, "thread", 0, TOPO_MAX_SMT - 1, &thread) != 0)
		return -1;
	die = 0;
	l3 = pkg;
	online = 1;
	/* No L3 (Xeon Phi): "none"; writers before trace 1.2 put UINT_MAX. */
	no_l3 = l3s != NULL && (strcmp(l3s, "none") == 0 || strcmp(l3s, "4294967295") == 0);
	if (opt_int(r, e, "cpu", f, n, "die", 0, TRACE_MAX_ID, &die) != 0 ||
	    (!no_l3 && opt_int(r, e, "cpu", f, n, "l3", 0, TRACE_MAX_ID, &l3) != 0) ||
	    opt_int(r, e, "cpu", f, n, "online", 0, 1, &online) != 0)
		return -1;
	if ((unsigned)cpu >= h->cpu_seen_n) {
		unsigned nn = (unsigned)cpu + 64;

		h->cpu_seen = xreallocarray(h->cpu_seen, nn, sizeof *h->cpu_seen);
		memset(h->cpu_seen + h->cpu_seen_n, 0, (nn - h->cpu_seen_n) * sizeof *h->cpu_seen);
		h->cpu_seen_n = nn;
	}
	if (h->cpu_seen[cpu])
		return bad(r, e, _("cpu %ld is described twice"), cpu);
	h->cpu_seen[cpu] = true;
	h->ncpus++;
	topology_add_cpu(&r->m->topo, (unsigned)cpu, (unsigned)pkg, (unsigned)die,
	    no_l3 ? TOPO_NO_L3 : (unsigned)l3, (unsigned)core, (unsigned)thread, online != 0);
	/* topology_add_cpu drops a CPU whose thread position is taken. */
	if ((unsigned)cpu >= r->m->topo.max_cpu || !r->m->topo.cpus[cpu].present)
		return bad(r, e, _("cpu %ld: package %ld core %ld thread %ld is another cpu's"),
		    cpu, pkg, core, thread);
	return 0;
}

/* basis= and clock_hz=, both or neither: a plan of the counters without.
 * A split named by its basis (1.5: sched, ticks) needs that basis; 1.4
 * wrote the method (any, bound) beside the basis, and reads the same. */
static int
header_basis(struct trace_reader *r, struct plan *p, const struct tracefmt_field *f, int n,
    enum plan_basis implied, struct errmsg *e)
{
	const char *b = tracefmt_get(f, n, "basis");
	long hz;

	p->basis = PLAN_BASIS_COUNTERS;
	p->clock_hz = 0.0;
	if (b != NULL && (p->basis = plan_basis_parse(b)) == PLAN_NBASES)
		return bad(r, e, _("'plan' line: unknown basis=%s"), b);
	if (implied != PLAN_NBASES && implied != p->basis)
		return bad(r, e, _("'plan' line: split=%s needs basis=%s"),
		    tracefmt_get(f, n, "split"), plan_basis_name(implied));
	if (b == NULL)
		return 0;
	if (need_int(r, e, "plan", f, n, "clock_hz", 1, 1000000000000L, &hz) != 0)
		return -1;
	p->clock_hz = (double)hz;
	return 0;
}

static int
header_plan(struct trace_reader *r, struct header *h, const struct tracefmt_field *f, int n,
    struct errmsg *e)
{
	struct plan *p = r->plan;
	const char *g = tracefmt_get(f, n, "group"), *sp = tracefmt_get(f, n, "split");
	enum plan_basis implied;
	long ns, nw, se, sc, sm = 0;

	if (h->have_plan)
		return bad(r, e, _("a second 'plan' line"));
	if (g == NULL || (p->group = uarch_group_parse(g)) == UARCH_NGROUPS)
		return bad(r, e, _("'plan' line: unknown or missing group=%s"), g ? g : "");
	if (sp == NULL || plan_split_parse(sp, &p->split, &implied) != 0)
		return bad(r, e, _("'plan' line: unknown or missing split=%s"), sp ? sp : "");
	if (need_int(r, e, "plan", f, n, "nslots", 1, PLAN_MAX_SLOTS, &ns) != 0 ||
	    need_int(r, e, "plan", f, n, "nwrites", 0, PLAN_MAX_WRITES, &nw) != 0 ||
	    need_int(r, e, "plan", f, n, "scale_expected", 0, 1L << 20, &se) != 0 ||
	    need_int(r, e, "plan", f, n, "scale", 0, 1L << 20, &sc) != 0 ||
	    opt_int(r, e, "plan", f, n, "scale_measured", 0, 1, &sm) != 0)
		return -1;
	h->nslots = (unsigned)ns;
	h->nwrites = (unsigned)nw;
	p->scale_expected = (unsigned)se;
	p->scale = (unsigned)sc;
	p->scale_measured = sm != 0;
	copy_str(p->scale_note, sizeof p->scale_note, tracefmt_get(f, n, "scale_note"));
	copy_str(p->summary, sizeof p->summary, tracefmt_get(f, n, "summary"));
	if (header_basis(r, p, f, n, implied, e) != 0)
		return -1;
	h->have_plan = true;
	return 0;
}

static int
header_slot(struct trace_reader *r, struct header *h, const struct tracefmt_field *f, int n,
    struct errmsg *e)
{
	struct plan *p = r->plan;
	struct plan_slot *s;
	const char *k = tracefmt_get(f, n, "kind");
	uint64_t msr, threads = THREAD_ALL;
	long width;

	if (!h->have_plan)
		return bad(r, e, _("'slot' line before the 'plan' line"));
	if (p->nslots == h->nslots)
		return bad(r, e, _("more 'slot' lines than the plan's nslots=%u"), h->nslots);
	s = &p->slots[p->nslots];
	if (k == NULL || (s->kind = slot_kind_parse(k)) == SLOT_NKINDS)
		return bad(r, e, _("'slot' line: unknown or missing kind=%s"), k ? k : "");
	if (need_u64(r, e, "slot", f, n, "msr", true, &msr) != 0 ||
	    need_int(r, e, "slot", f, n, "width", 1, 64, &width) != 0 ||
	    need_u64(r, e, "slot", f, n, "threads", false, &threads) != 0)
		return -1;
	if (msr > UINT32_MAX || threads > UINT32_MAX)
		return bad(r, e, _("'slot' line: msr or threads out of range"));
	s->msr = (uint32_t)msr;
	s->width = (unsigned)width;
	s->thread_mask = (unsigned)threads;
	p->nslots++;
	return 0;
}

static int
header_write(struct trace_reader *r, struct header *h, const struct tracefmt_field *f, int n,
    struct errmsg *e)
{
	struct plan *p = r->plan;
	struct plan_write *w;
	uint64_t msr, threads = THREAD_ALL;

	if (!h->have_plan)
		return bad(r, e, _("'write' line before the 'plan' line"));
	if (p->nwrites == h->nwrites)
		return bad(r, e, _("more 'write' lines than the plan's nwrites=%u"), h->nwrites);
	w = &p->writes[p->nwrites];
	if (need_u64(r, e, "write", f, n, "msr", true, &msr) != 0 ||
	    need_u64(r, e, "write", f, n, "value", true, &w->value) != 0 ||
	    need_u64(r, e, "write", f, n, "mask", true, &w->mask) != 0 ||
	    need_u64(r, e, "write", f, n, "busy", false, &w->busy_mask) != 0 ||
	    need_u64(r, e, "write", f, n, "threads", false, &threads) != 0)
		return -1;
	if (msr > UINT32_MAX || threads > UINT32_MAX)
		return bad(r, e, _("'write' line: msr or threads out of range"));
	w->msr = (uint32_t)msr;
	w->thread_mask = (unsigned)threads;
	copy_str(r->what[p->nwrites], sizeof r->what[0], tracefmt_get(f, n, "what"));
	w->what = r->what[p->nwrites];
	p->nwrites++;
	return 0;
}

static int
header_identity(struct trace_reader *r, struct header *h, const struct tracefmt_field *f, int n,
    struct errmsg *e)
{
	copy_str(h->vendor, sizeof h->vendor, tracefmt_get(f, n, "vendor"));
	copy_str(h->brand, sizeof h->brand, tracefmt_get(f, n, "brand"));
	if (opt_int(r, e, "identity", f, n, "family", -1, 0xfff, &h->family) != 0 ||
	    opt_int(r, e, "identity", f, n, "model", -1, 0xfff, &h->model) != 0 ||
	    opt_int(r, e, "identity", f, n, "stepping", -1, 0xfff, &h->stepping) != 0)
		return -1;
	h->have_identity = true;
	return 0;
}

static int
header_clock(struct trace_reader *r, struct header *h, const struct tracefmt_field *f, int n,
    struct errmsg *e)
{
	struct cpu_identity *c = &h->clk;
	long ratio = 0, num = 0, den = 0, bm = 0, mm = 0;
	uint64_t crystal = 0;

	if (opt_int(r, e, "clock", f, n, "base_ratio", 0, 1000, &ratio) != 0 ||
	    opt_int(r, e, "clock", f, n, "tsc_num", 0, UINT32_MAX, &num) != 0 ||
	    opt_int(r, e, "clock", f, n, "tsc_den", 0, UINT32_MAX, &den) != 0 ||
	    opt_int(r, e, "clock", f, n, "base_mhz", 0, 1000000, &bm) != 0 ||
	    opt_int(r, e, "clock", f, n, "max_mhz", 0, 1000000, &mm) != 0 ||
	    need_u64(r, e, "clock", f, n, "crystal_hz", false, &crystal) != 0)
		return -1;
	c->base_ratio = (unsigned)ratio;
	c->tsc_num = (unsigned)num;
	c->tsc_den = (unsigned)den;
	c->base_mhz = (unsigned)bm;
	c->max_mhz = (unsigned)mm;
	c->crystal_hz = crystal;
	return 0;
}

static int
header_pmu(struct trace_reader *r, struct header *h, const struct tracefmt_field *f, int n,
    struct errmsg *e)
{
	struct cpu_identity *c = &h->clk;
	long ver = 0, gp = 0, gpw = 0, fx = 0, fxw = 0, dep = 0;

	if (opt_int(r, e, "pmu", f, n, "version", 0, 255, &ver) != 0 ||
	    opt_int(r, e, "pmu", f, n, "gp", 0, 255, &gp) != 0 ||
	    opt_int(r, e, "pmu", f, n, "gp_width", 0, 64, &gpw) != 0 ||
	    opt_int(r, e, "pmu", f, n, "fixed", 0, 255, &fx) != 0 ||
	    opt_int(r, e, "pmu", f, n, "fixed_width", 0, 64, &fxw) != 0 ||
	    opt_int(r, e, "pmu", f, n, "anythread_deprecated", 0, 1, &dep) != 0)
		return -1;
	c->pmu_version = (unsigned)ver;
	c->n_gp = (unsigned)gp;
	c->gp_width = (unsigned)gpw;
	c->n_fixed = (unsigned)fx;
	c->fixed_width = (unsigned)fxw;
	c->anythread_deprecated = dep != 0;
	return 0;
}

/* "YYYY-MM-DDTHH:MM:SSZ" as Unix seconds; 0 for anything else (the
 * epoch itself is what a writer puts when it does not know): the time is
 * only informative, so a trace with an odd one still replays. */
static double
parse_created(const char *v)
{
	struct tm tm;
	int n = 0;
	time_t t;

	if (v == NULL)
		return 0.0;
	memset(&tm, 0, sizeof tm);
	if (sscanf(v, "%4d-%2d-%2dT%2d:%2d:%2dZ%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
	    &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &n) != 6 || n == 0 || v[n] != '\0')
		return 0.0;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	t = timegm(&tm);
	return t > 0 ? (double)t : 0.0;
}

/* Lines that belong to the data part, refused in the header. */
static bool
is_data_keyword(const char *kw)
{
	return strcmp(kw, "sample") == 0 || strcmp(kw, "c") == 0 || strcmp(kw, "t") == 0 ||
	    strcmp(kw, "end") == 0 || strcmp(kw, "event") == 0 || strcmp(kw, "job-cpus") == 0;
}

static int
header_line(struct trace_reader *r, struct header *h, const char *kw, char *rest,
    struct errmsg *e)
{
	struct tracefmt_field f[TRACE_MAX_FIELDS];
	const char *why = NULL;
	int n;

	if (is_data_keyword(kw))
		return bad(r, e, _("'%s' line inside the header (no header-end line before it)"), kw);
	n = tracefmt_split_fields(rest, f, TRACE_MAX_FIELDS, &why);
	if (n < 0)
		return bad(r, e, _("'%s' line: %s"), kw, why);
	if (strcmp(kw, "producer") == 0)
		copy_str(r->producer, sizeof r->producer, tracefmt_get(f, n, "text"));
	else if (strcmp(kw, "note") == 0)
		copy_str(r->note, sizeof r->note, tracefmt_get(f, n, "text"));
	else if (strcmp(kw, "truth") == 0)
		r->has_truth = true;
	else if (strcmp(kw, "created") == 0)
		r->created = parse_created(tracefmt_get(f, n, "time"));
	else if (strcmp(kw, "host") == 0)
		return header_host(r, f, n, e);
	else if (strcmp(kw, "job") == 0)
		header_job(r, f, n);
	else if (strcmp(kw, "identity") == 0)
		return header_identity(r, h, f, n, e);
	else if (strcmp(kw, "clock") == 0)
		return header_clock(r, h, f, n, e);
	else if (strcmp(kw, "pmu") == 0)
		return header_pmu(r, h, f, n, e);
	else if (strcmp(kw, "cpu") == 0)
		return header_cpu(r, h, f, n, e);
	else if (strcmp(kw, "plan") == 0)
		return header_plan(r, h, f, n, e);
	else if (strcmp(kw, "slot") == 0)
		return header_slot(r, h, f, n, e);
	else if (strcmp(kw, "write") == 0)
		return header_write(r, h, f, n, e);
	/* Line types of later minor versions: nothing to keep. */
	return 0;
}

/* Not one line: an empty file, or a compressed one whose data stops
 * before its first line ends (a plain file of any size has a line; a
 * pipe's size is not known, its cut gzip stream is). */
static int
no_line(const struct trace_reader *r, struct errmsg *e)
{
	struct stat st;

	if (tracez_cut(r->z) || (stat(r->path, &st) == 0 && S_ISREG(st.st_mode) &&
	    st.st_size > 0))
		return errmsg_set(e, _("%s: the compressed data is cut off before the trace's first "
		    "line: it is truncated, or not an httop trace"), r->path);
	return errmsg_set(e, _("%s: empty file: not an httop trace"), r->path);
}

static int
read_version(struct trace_reader *r, struct errmsg *e)
{
	enum line_rc rc = read_line(r, e);
	unsigned long major;
	char *p, *end;

	if (rc == LINE_ERR)
		return -1;
	if (rc == LINE_EOF)
		return no_line(r, e);
	if (rc == LINE_PARTIAL && strncmp(r->line, "httop-trace ", strlen(r->line) < 12 ?
	    strlen(r->line) : 12) == 0)
		return bad(r, e, _("the file ends inside the header: it is truncated"));
	if (strncmp(r->line, "httop-trace ", 12) != 0)
		return bad(r, e, _("not an httop trace: its first line is not \"httop-trace %d.N\" "
		    "(this httop reads versions %d.0 to %d.%d, and a later %d.N without what it "
		    "adds)"), TRACE_VERSION, TRACE_VERSION, TRACE_VERSION, TRACE_MINOR,
		    TRACE_VERSION);
	p = r->line + 12;
	errno = 0;
	major = strtoul(p, &end, 10);
	if (end == p || errno != 0 || (*end != '\0' && *end != '.'))
		return bad(r, e, _("bad version \"%s\""), p);
	if (major > TRACE_VERSION)
		return bad(r, e, _("trace format version %s is newer than this httop reads "
		    "(version %d): use a newer httop"), p, TRACE_VERSION);
	if (major < 1)
		return bad(r, e, _("bad version \"%s\""), p);
	return 0;
}

static int
finish_header(struct trace_reader *r, struct header *h, struct errmsg *e)
{
	struct machine *m = r->m;
	struct cpu_identity *id = &m->id;
	const struct cpu_identity *c = &h->clk;

	if (h->ncpus == 0)
		return bad(r, e, _("the header lists no 'cpu' lines: no topology"));
	if (!h->have_plan)
		return bad(r, e, _("the header has no 'plan' line"));
	if (r->plan->nslots != h->nslots)
		return bad(r, e, _("the plan has nslots=%u but %u 'slot' lines"), h->nslots,
		    r->plan->nslots);
	if (r->plan->nwrites != h->nwrites)
		return bad(r, e, _("the plan has nwrites=%u but %u 'write' lines"), h->nwrites,
		    r->plan->nwrites);
	/* Which counters move together: the same rule as a live run. */
	plan_link(r->plan);
	topology_finish(&m->topo);
	copy_str(m->topo.source, sizeof m->topo.source, r->path);

	identity_from_fields(id, h->vendor, (int)h->family, (int)h->model, (int)h->stepping,
	    h->brand);
	id->pmu_version = c->pmu_version;
	id->n_gp = c->n_gp;
	id->gp_width = c->gp_width;
	id->n_fixed = c->n_fixed;
	id->fixed_width = c->fixed_width;
	id->anythread_deprecated = c->anythread_deprecated;
	id->tsc_num = c->tsc_num;
	id->tsc_den = c->tsc_den;
	id->crystal_hz = c->crystal_hz;
	id->base_mhz = c->base_mhz;
	id->max_mhz = c->max_mhz;
	id->base_ratio = c->base_ratio;
	id->base_src = c->base_ratio != 0 ? BASE_TRACE : BASE_NONE;
	id->from_dump = false;
	copy_str(id->source, sizeof id->source, r->path);

	copy_str(m->topo.vendor, sizeof m->topo.vendor, h->vendor);
	copy_str(m->topo.brand, sizeof m->topo.brand, h->brand);
	m->topo.family = (int)h->family;
	m->topo.model = (int)h->model;
	m->topo.stepping = (int)h->stepping;
	m->group = r->plan->group;
	r->seen = xcalloc(m->topo.max_cpu ? m->topo.max_cpu : 1, sizeof *r->seen);
	return 0;
}

static int
read_header(struct trace_reader *r, struct errmsg *e)
{
	struct header h;
	enum line_rc rc;
	const char *kw;
	char *rest;
	int ret = -1;

	memset(&h, 0, sizeof h);
	h.family = h.model = h.stepping = -1;
	if (read_version(r, e) != 0)
		return -1;
	for (;;) {
		rc = read_line(r, e);
		if (rc == LINE_ERR)
			goto out;
		if (rc != LINE_OK) {
			bad(r, e, _("the file ends inside the header (no header-end line): "
			    "it is truncated"));
			goto out;
		}
		if ((rest = keyword(r->line, &kw)) == NULL) {
			bad(r, e, _("not a trace line"));
			goto out;
		}
		if (*kw == '\0')
			continue;
		if (strcmp(kw, "header-end") == 0)
			break;
		if (header_line(r, &h, kw, rest, e) != 0)
			goto out;
	}
	ret = finish_header(r, &h, e);
out:
	free(h.cpu_seen);
	return ret;
}

/* The reader on an open stream: reads the header, or frees everything and
 * returns NULL. */
static struct trace_reader *
open_reader(struct tracez *z, const char *name, struct machine *m, struct plan *plan,
    struct errmsg *e)
{
	struct trace_reader *r;

	r = xcalloc(1, sizeof *r);
	copy_str(r->path, sizeof r->path, name);
	r->z = z;
	r->buf = xcalloc(1, TRACE_BUF + TRACE_BUF_TAIL);
	hexval_init();
	r->line = r->buf;
	r->buf[0] = '\0';
	r->m = m;
	r->plan = plan;
	if (read_header(r, e) != 0) {
		trace_close(r);
		topology_free(&m->topo);
		memset(m, 0, sizeof *m);
		memset(plan, 0, sizeof *plan);
		return NULL;
	}
	return r;
}

static struct trace_reader *
open_path(const char *path, bool once, struct machine *m, struct plan *plan, struct errmsg *e)
{
	struct tracez *z;

	memset(m, 0, sizeof *m);
	memset(plan, 0, sizeof *plan);
	topology_init(&m->topo);
	/* Plain or gzip: told by the magic bytes (tracez.c). */
	if ((z = tracez_open(path, once, e)) == NULL) {
		topology_free(&m->topo);
		memset(m, 0, sizeof *m);
		return NULL;
	}
	return open_reader(z, path, m, plan, e);
}

struct trace_reader *
trace_open(const char *path, struct machine *m, struct plan *plan, struct errmsg *e)
{
	return open_path(path, false, m, plan, e);
}

struct trace_reader *
trace_open_once(const char *path, struct machine *m, struct plan *plan, struct errmsg *e)
{
	return open_path(path, true, m, plan, e);
}

struct trace_reader *
trace_open_stream(FILE *fp, const char *name, struct machine *m, struct plan *plan,
    struct errmsg *e)
{
	memset(m, 0, sizeof *m);
	memset(plan, 0, sizeof *plan);
	topology_init(&m->topo);
	return open_reader(tracez_stream(fp), name, m, plan, e);
}

/* A counter value: the common case (1 to 16 hex digits) inline, anything
 * else (a 0x prefix, leading zeros beyond 16 digits, junk) by the strict
 * parser, which decides. */
static bool
hex_u64(const char *s, uint64_t *out)
{
	const unsigned char *p = (const unsigned char *)s;
	uint64_t v = 0;
	unsigned n;

	for (n = 0; n < 16 && hexval[p[n]] < 16; n++)
		v = v << 4 | hexval[p[n]];
	if (n > 0 && p[n] == '\0') {
		*out = v;
		return true;
	}
	return tracefmt_u64(s, 16, out);
}

/* A CPU number: plain decimal inline (no leading zero: "010" is octal to
 * the strict parser), else the strict parser. */
static bool
cpu_number(const char *s, long *out)
{
	long v = 0;
	unsigned n;

	for (n = 0; n < 6 && s[n] >= '0' && s[n] <= '9'; n++)
		v = v * 10 + (s[n] - '0');
	if (n > 0 && s[n] == '\0' && (s[0] != '0' || n == 1)) {
		*out = v;
		return true;
	}
	return tracefmt_int(s, 0, TRACE_MAX_CPU - 1, out);
}

/* Split p (in place) into at most max blank-separated words; -1 when
 * there are more. */
static int
split_words(char *p, char **tok, unsigned max, unsigned *n)
{
	for (*n = 0;;) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '\0')
			return 0;
		if (*n == max)
			return -1;
		tok[(*n)++] = p;
		while (*p != '\0' && *p != ' ' && *p != '\t')
			p++;
		if (*p == '\0')
			return 0;
		*p++ = '\0';
	}
}

/* A cpu line's "STATE[=ERRNO]" into the sample. */
static int
cpu_state(struct trace_reader *r, struct sample *s, unsigned cpu, char *st, struct errmsg *e)
{
	char *eq = NULL;
	long v;
	int state;

	if (st[0] == 'o' && st[1] == 'k' && st[2] == '\0') {
		state = CPU_READ_OK;
	} else {
		if ((eq = strchr(st, '=')) != NULL)
			*eq++ = '\0';
		if ((state = tracefmt_state_parse(st)) < 0)
			return bad(r, e, _("cpu %u: unknown state \"%s\""), cpu, st);
	}
	s->state[cpu] = (uint8_t)state;
	s->err[cpu] = 0;
	if (eq != NULL) {
		if (!tracefmt_int(eq, 0, 4095, &v))
			return bad(r, e, _("cpu %u: bad error number \"%s\""), cpu, eq);
		s->err[cpu] = (int)v;
	}
	return 0;
}

/* "c CPU STATE[=ERRNO] V1 ... Vn", values in hex. */
/* The number of the sample being read, as the rest of httop numbers
 * samples (source_pos: 1 = the first): its place in the file, whatever
 * the seq= its lines carry (a recording's first is seldom 1). */
static uint64_t
sample_no(const struct trace_reader *r)
{
	return r->ncomplete + 1;
}

#if defined(__SSE2__) && defined(__x86_64__) && defined(__GNUC__)
#include <emmintrin.h>

/* Up to 16 hex digits ending at a blank or the line's end: the end, or
 * NULL when it is not that (the strict parser then decides). s is in a
 * line of the reader's buffer: its sixteen bytes are loaded at once
 * (TRACE_BUF_TAIL), each tested and turned into its digit's value
 * together, the digits joined in pairs; the bytes after the last digit
 * are shifted out. */
static const char *
hex_word(const char *s, uint64_t *out)
{
	const __m128i x = _mm_loadu_si128((const __m128i *)(const void *)s);
	/* a digit: x - '0' in 0..9; a letter: (x | 0x20) - 'a' in 0..5
	 * (the ranges moved to the bottom of the signed bytes) */
	__m128i dig = _mm_cmplt_epi8(_mm_add_epi8(x, _mm_set1_epi8((char)(0x80 - '0'))),
	    _mm_set1_epi8((char)(0x80 + 10)));
	__m128i let = _mm_cmplt_epi8(_mm_add_epi8(_mm_or_si128(x, _mm_set1_epi8(0x20)),
	    _mm_set1_epi8((char)(0x80 - 'a'))), _mm_set1_epi8((char)(0x80 + 6)));
	unsigned n = (unsigned)__builtin_ctz(~(unsigned)_mm_movemask_epi8(_mm_or_si128(dig, let)));
	__m128i v;
	uint64_t w;

	if (n == 0 || n > 16 || (s[n] != ' ' && s[n] != '\0'))
		return NULL;
	/* each byte its value (the low four bits, 9 more for a letter),
	 * then each pair of bytes one byte, the first digit the highest */
	v = _mm_add_epi8(_mm_and_si128(x, _mm_set1_epi8(0x0f)), _mm_and_si128(let, _mm_set1_epi8(9)));
	v = _mm_and_si128(_mm_or_si128(_mm_slli_epi16(v, 4), _mm_srli_epi16(v, 8)),
	    _mm_set1_epi16(0xff));
	v = _mm_packus_epi16(v, v);
	w = __builtin_bswap64((uint64_t)_mm_cvtsi128_si64(v));
	*out = w >> (4 * (16 - n));
	return s + n;
}
#else
/* Up to 16 hex digits ending at a blank or the line's end, in one pass:
 * the end, or NULL when it is not that (the strict parser then decides). */
static const char *
hex_word(const char *s, uint64_t *out)
{
	const unsigned char *p = (const unsigned char *)s;
	uint64_t v = 0;
	unsigned d;

	/* the line's NUL ends the run (hexval['\0'] is 16); two digits a
	 * turn (p[1] is read only after a digit at p[0], so within the line) */
	while ((d = hexval[p[0]]) < 16) {
		unsigned d1 = hexval[p[1]];

		if (d1 >= 16) {
			v = v << 4 | d;
			p++;
			break;
		}
		v = v << 8 | d << 4 | d1;
		p += 2;
	}
	if (p == (const unsigned char *)s || p - (const unsigned char *)s > 16 ||
	    (*p != ' ' && *p != '\0'))
		return NULL;
	*out = v;
	return (const char *)p;
}
#endif

/* The usual cpu line, "CPU ok V1 ... Vn" with single spaces, a present CPU
 * not seen before in the sample and the plan's count of values, read in
 * one pass without changing it: true when it was that (and the sample has
 * it), false for the general reader, which decides and says what is wrong. */
static bool
data_cpu_fast(struct trace_reader *r, struct sample *s, const char *p)
{
	const struct topology *t = &r->m->topo;
	uint64_t v[PLAN_MAX_SLOTS], *row;
	unsigned cpu = 0, n, i;

	for (n = 0; n < 6 && p[n] >= '0' && p[n] <= '9'; n++)
		cpu = cpu * 10 + (unsigned)(p[n] - '0');
	if (n == 0 || (p[0] == '0' && n > 1) || !(p[n] == ' ' && p[n + 1] == 'o' &&
	    p[n + 2] == 'k' && p[n + 3] == ' '))
		return false;
	if (cpu >= TRACE_MAX_CPU || cpu >= t->max_cpu || !t->cpus[cpu].present || r->seen[cpu] ||
	    s->nslots > PLAN_MAX_SLOTS)
		return false;
	p += n + 4;
	for (i = 0; i < s->nslots; i++) {
		if (i > 0 && *p++ != ' ')
			return false;
		if ((p = hex_word(p, &v[i])) == NULL)
			return false;
	}
	if (*p != '\0')
		return false;
	r->seen[cpu] = true;
	s->state[cpu] = (uint8_t)CPU_READ_OK;
	s->err[cpu] = 0;
	row = sample_row(s, cpu);
	for (i = 0; i < s->nslots; i++)
		row[i] = v[i];
	return true;
}

static int
data_cpu(struct trace_reader *r, struct sample *s, char *rest, uint64_t seq, struct errmsg *e)
{
	const struct topology *t = &r->m->topo;
	char *tok[PLAN_MAX_SLOTS + 3];
	unsigned ntok, i, cpu;
	long v;
	uint64_t *row;

	if (data_cpu_fast(r, s, rest))
		return 0;
	if (split_words(rest, tok, PLAN_MAX_SLOTS + 2, &ntok) != 0)
		return bad(r, e, _("too many values on a cpu line (the plan has %u slots)"),
		    s->nslots);
	if (ntok < 2)
		return bad(r, e, _("a cpu line needs a CPU number and a state"));
	if (!cpu_number(tok[0], &v) || v >= (long)TRACE_MAX_CPU)
		return bad(r, e, _("bad CPU number \"%s\""), tok[0]);
	cpu = (unsigned)v;
	if (cpu >= t->max_cpu || !t->cpus[cpu].present)
		return bad(r, e, _("cpu %u is not in the trace's topology"), cpu);
	if (r->seen[cpu])
		return bad(r, e, _("cpu %u appears twice in sample %" PRIu64 " (seq=%" PRIu64
		    ")"), cpu, sample_no(r), seq);
	r->seen[cpu] = true;
	if (cpu_state(r, s, cpu, tok[1], e) != 0)
		return -1;
	if (ntok - 2 != s->nslots)
		return bad(r, e, _("cpu %u has %u values, the plan has %u slots"), cpu, ntok - 2,
		    s->nslots);
	row = sample_row(s, cpu);
	for (i = 0; i < s->nslots; i++) {
		if (!hex_u64(tok[i + 2], &row[i]))
			return bad(r, e, _("cpu %u: value \"%s\" is not a hexadecimal number"), cpu,
			    tok[i + 2]);
	}
	return 0;
}

/* The usual truth line, "CORE A B C D" (a decimal without a leading
 * zero, four hex numbers, single spaces), in one pass without changing it;
 * false for the general reader, which decides. */
static bool
truth_fast(const char *p, uint64_t *v)
{
	unsigned n, i;

	v[0] = 0;
	for (n = 0; n < 9 && p[n] >= '0' && p[n] <= '9'; n++)
		v[0] = v[0] * 10 + (unsigned)(p[n] - '0');
	if (n == 0 || (p[0] == '0' && n > 1))
		return false;
	p += n;
	for (i = 1; i < 5; i++)
		if (*p++ != ' ' || (p = hex_word(p, &v[i])) == NULL)
			return false;
	return *p == '\0';
}

/* "t CORE N A B C": simulator ground truth, hex TSC ticks. */
/* A truth line the general way: words split at blanks, each number by
 * the strict parser when it is not plain. */
static int
truth_words(struct trace_reader *r, char *rest, uint64_t *v, struct errmsg *e)
{
	char *p = rest, *tok;
	unsigned n = 0;

	while ((tok = strtok_r(p, " \t", &p)) != NULL) {
		if (n == 5 || !(n == 0 ? tracefmt_u64(tok, 10, &v[n]) : hex_u64(tok, &v[n])))
			return bad(r, e, _("a truth line is \"t CORE N A B C\" (numbers in hex)"));
		n++;
	}
	if (n != 5)
		return bad(r, e, _("a truth line is \"t CORE N A B C\" (numbers in hex)"));
	return 0;
}

static int
data_truth(struct trace_reader *r, struct sample *s, char *rest, struct errmsg *e)
{
	uint64_t v[5];
	unsigned i;

	if (!truth_fast(rest, v) && truth_words(r, rest, v, e) != 0)
		return -1;
	if (v[0] >= r->m->topo.ncores)
		return bad(r, e, _("truth for core %" PRIu64 ", the topology has %u cores"), v[0],
		    r->m->topo.ncores);
	if (s->truth != NULL && v[0] < s->ncores) {
		for (i = 0; i < 4; i++)
			s->truth[v[0] * 4 + i] = v[i + 1];
	}
	return 0;
}

static void
add_event(struct trace_reader *r, const char *text)
{
	size_t len = strlen(r->events);

	if (len > 0 && len + 2 < sizeof r->events) {
		memcpy(r->events + len, "; ", 3);
		len += 2;
	}
	text_escape(r->events + len, sizeof r->events - len, text);
}

static void
start_interval(struct trace_reader *r, struct sample *s, uint64_t seq, double time)
{
	memset(s->v, 0, (size_t)s->max_cpu * s->nslots * sizeof *s->v);
	memset(s->state, CPU_NOT_READ, s->max_cpu);
	memset(s->err, 0, s->max_cpu * sizeof *s->err);
	if (s->truth != NULL)
		memset(s->truth, 0, (size_t)s->ncores * 4 * sizeof *s->truth);
	memset(r->seen, 0, r->m->topo.max_cpu * sizeof *r->seen);
	s->seq = seq;
	s->time = time;
	s->has_job = false;
}

static int
stop(struct trace_reader *r, int rc)
{
	r->done = true;
	r->done_rc = rc;
	return rc;
}

/* Parse "seq=N" (and "time=T", "wall=W" for a sample line: *wall is
 * what the line says, or the header's created time plus T, or 0). */
static int
interval_fields(struct trace_reader *r, const char *kw, char *rest, uint64_t *seq, double *time,
    double *wall, struct errmsg *e)
{
	struct tracefmt_field f[TRACE_MAX_FIELDS];
	const char *why = NULL, *v;
	int n = tracefmt_split_fields(rest, f, TRACE_MAX_FIELDS, &why);

	if (n < 0)
		return bad(r, e, _("'%s' line: %s"), kw, why);
	if (!tracefmt_u64(tracefmt_get(f, n, "seq"), 10, seq))
		return bad(r, e, _("'%s' line without a valid seq="), kw);
	if (time != NULL) {
		v = tracefmt_get(f, n, "time");
		if (!tracefmt_double(v, time) || *time < 0 || *time > TRACE_MAX_TIME)
			return bad(r, e, _("'%s' line without a valid time="), kw);
		v = tracefmt_get(f, n, "wall");
		if (v == NULL)
			*wall = r->created > 0.0 ? r->created + *time : 0.0;
		else if (!tracefmt_double(v, wall) || *wall < 0)
			return bad(r, e, _("'%s' line with a wall= that is not a time"), kw);
	}
	return 0;
}

/* What a line of the data part did to the reading of an interval. */
enum step { STEP_MORE, STEP_DONE, STEP_ERR };

/* "c", "t" or "end": inside an interval. */
static enum step
member_line(struct trace_reader *r, struct sample *s, const char *kw, char *rest, uint64_t seq,
    struct errmsg *e)
{
	uint64_t endseq;

	if (kw[0] == 'c')
		return data_cpu(r, s, rest, seq, e) != 0 ? STEP_ERR : STEP_MORE;
	if (kw[0] == 't')
		return data_truth(r, s, rest, e) != 0 ? STEP_ERR : STEP_MORE;
	if (interval_fields(r, kw, rest, &endseq, NULL, NULL, e) != 0)
		return STEP_ERR;
	if (endseq != seq) {
		bad(r, e, _("'end seq=%" PRIu64 "' closes sample %" PRIu64 " (seq=%" PRIu64 ")"),
		    endseq, sample_no(r), seq);
		return STEP_ERR;
	}
	r->ncomplete++;
	return STEP_DONE;
}

/* An "event" line, between intervals. */
static enum step
event_line(struct trace_reader *r, char *rest, struct errmsg *e)
{
	struct tracefmt_field f[TRACE_MAX_FIELDS];
	const char *why = NULL;
	int n = tracefmt_split_fields(rest, f, TRACE_MAX_FIELDS, &why);

	if (n < 0)
		return bad(r, e, _("'event' line: %s"), why), STEP_ERR;
	if (tracefmt_get(f, n, "text") == NULL)
		return bad(r, e, _("'event' line without text=")), STEP_ERR;
	add_event(r, tracefmt_get(f, n, "text"));
	return STEP_MORE;
}

/* 1.6 "job-cpus 0-3,8": CPUs of the watched job at this sample, added to
 * those of the sample's earlier job-cpus lines; none after the keyword:
 * the job had none. A CPU beyond the topology is refused. */
static int
job_cpus_line(struct trace_reader *r, struct sample *s, char *rest, struct errmsg *e)
{
	unsigned max = r->m->topo.max_cpu;
	uint64_t lo, hi, c;
	char *tok, *dash, *next;

	if (!s->has_job) {
		memset(s->job, 0, s->max_cpu);
		s->has_job = true;
	}
	while (*rest == ' ')
		rest++;
	/* every token between commas, an empty one too ("1,,2" is refused) */
	for (tok = *rest != '\0' ? rest : NULL; tok != NULL; tok = next) {
		char what[64];

		if ((next = strchr(tok, ',')) != NULL)
			*next++ = '\0';
		text_quote(what, sizeof what, tok, 40);
		if ((dash = strchr(tok, '-')) != NULL)
			*dash = '\0';
		if (!tracefmt_u64(tok, 10, &lo) || !tracefmt_u64(dash != NULL ? dash + 1 : tok, 10,
		    &hi) || hi < lo)
			return bad(r, e, _("'job-cpus' line: \"%s\" is not a CPU or a range of CPUs"),
			    what);
		if (hi >= max)
			return bad(r, e, _("'job-cpus' line: CPU %" PRIu64 ", the topology has %u "
			    "CPUs"), hi, max);
		for (c = lo; c <= hi; c++)
			s->job[c] = 1;
	}
	return 0;
}

/* One line of the data part; *inside and *seq follow the interval. */
static enum step
data_line(struct trace_reader *r, struct sample *s, const char *kw, char *rest, bool *inside,
    uint64_t *seq, struct errmsg *e)
{
	double time, wall;

	if (strcmp(kw, "job-cpus") == 0) {
		if (!*inside)
			return bad(r, e, _("'%s' line outside an interval (no 'sample' line before "
			    "it)"), kw), STEP_ERR;
		return job_cpus_line(r, s, rest, e) != 0 ? STEP_ERR : STEP_MORE;
	}
	if (strcmp(kw, "c") == 0 || strcmp(kw, "t") == 0 || strcmp(kw, "end") == 0) {
		if (!*inside)
			return bad(r, e, _("'%s' line outside an interval (no 'sample' line before "
			    "it)"), kw), STEP_ERR;
		return member_line(r, s, kw, rest, *seq, e);
	}
	if (strcmp(kw, "sample") == 0) {
		if (*inside)
			return bad(r, e, _("sample %" PRIu64 " (seq=%" PRIu64 ") has no 'end' line "
			    "before the next 'sample'"), sample_no(r), *seq), STEP_ERR;
		if (interval_fields(r, kw, rest, seq, &time, &wall, e) != 0)
			return STEP_ERR;
		start_interval(r, s, *seq, time);
		s->wall = wall;
		*inside = true;
		return STEP_MORE;
	}
	if (strcmp(kw, "event") == 0) {
		if (*inside)
			return bad(r, e, _("'event' line inside sample %" PRIu64 " (seq=%" PRIu64 ")"),
			    sample_no(r), *seq), STEP_ERR;
		return event_line(r, rest, e);
	}
	if (strcmp(kw, "header-end") == 0 || strcmp(kw, "cpu") == 0 ||
	    strcmp(kw, "plan") == 0 || strcmp(kw, "slot") == 0 || strcmp(kw, "write") == 0)
		return bad(r, e, _("header line '%s' after header-end"), kw), STEP_ERR;
	/* Unknown line type of a later minor version: skip it. */
	return STEP_MORE;
}

/* After the note of where the trace ends (n intervals replayed): why,
 * where a gzip stream stopped without its trailer. The where and the
 * count come first: a narrow status line keeps them. */
static void
cut_why(const struct trace_reader *r, struct errmsg *e)
{
	size_t k;

	if (e == NULL || !tracez_cut(r->z))
		return;
	k = strlen(e->text);
	snprintf(e->text + k, sizeof e->text - k, "; %s", _("the gzip data stops without its "
	    "trailer, so the recording was cut short (httop was killed, or the disk filled, "
	    "while it recorded; or it is still recording)"));
}

int
trace_next(struct trace_reader *r, struct sample *s, struct errmsg *e)
{
	const char *kw;
	char *rest;
	bool inside = false;
	uint64_t seq = 0;
	enum line_rc rc;
	enum step st;

	r->events[0] = '\0';
	if (e != NULL)
		e->text[0] = '\0';
	if (r->done)
		return r->done_rc;
	if (s->nslots != r->plan->nslots || s->max_cpu < r->m->topo.max_cpu)
		return errmsg_set(e, _("internal error: the sample does not have the trace's "
		    "shape (%u slots, %u CPUs)"), r->plan->nslots, r->m->topo.max_cpu);
	for (;;) {
		rc = read_line(r, e);
		if (rc == LINE_ERR)
			return stop(r, -1);
		if (rc == LINE_EOF && !inside) {
			/* A gzip stream that stops after a whole sample: no
			 * trailer, so the recording was cut (or goes on). */
			if (r->ncomplete >= 2 && tracez_cut(r->z)) {
				bad(r, e, ngettext("the trace ends after sample %" PRIu64 "; replayed "
				    "its %" PRIu64 " interval", "the trace ends after sample %" PRIu64
				    "; replayed its %" PRIu64 " intervals",
				    (unsigned long)(r->ncomplete - 1)), r->ncomplete, r->ncomplete - 1);
				cut_why(r, e);
			}
			return stop(r, 1);
		}
		if (rc != LINE_OK) {
			/* Not an error: a recorder killed mid-write leaves this.
			 * An interval is the difference of two samples: n
			 * complete samples gave n - 1 intervals. */
			uint64_t n = r->ncomplete > 0 ? r->ncomplete - 1 : 0;

			/* Before the second sample's end: no interval at all (the
			 * replay source makes this an error). */
			if (n == 0 && inside && r->ncomplete == 0)
				bad(r, e, _("the trace is cut off inside its first sample: there is "
				    "nothing to replay; record again and let the recording run for "
				    "two intervals at least"));
			else if (n == 0 && inside)
				bad(r, e, _("the trace is cut off inside its second sample, before "
				    "its first interval was complete: there is nothing to replay; "
				    "record again and let the recording run for two intervals at "
				    "least"));
			else if (n == 0)
				bad(r, e, _("the last line is cut off, before the trace's first "
				    "interval was complete: there is nothing to replay; record again "
				    "and let the recording run for two intervals at least"));
			else if (inside)
				bad(r, e, ngettext("the trace is cut off inside sample %" PRIu64
				    "; replayed the %" PRIu64 " interval before it",
				    "the trace is cut off inside sample %" PRIu64
				    "; replayed the %" PRIu64 " intervals before it", (unsigned long)n),
				    sample_no(r), n);
			else
				bad(r, e, ngettext("the last line is cut off; replayed the %" PRIu64
				    " interval before it", "the last line is cut off; replayed the %"
				    PRIu64 " intervals before it", (unsigned long)n), n);
			if (n > 0)
				cut_why(r, e);
			return stop(r, 1);
		}
		if ((rest = keyword(r->line, &kw)) == NULL)
			return stop(r, bad(r, e, _("not a trace line")));
		if (*kw == '\0')
			continue;
		st = data_line(r, s, kw, rest, &inside, &seq, e);
		if (st == STEP_ERR)
			return stop(r, -1);
		if (st == STEP_DONE)
			return 0;
	}
}

const char *
trace_last_event(const struct trace_reader *r)
{
	return r->events;
}

bool
trace_has_truth(const struct trace_reader *r)
{
	return r->has_truth;
}

const struct job_ident *
trace_job(const struct trace_reader *r)
{
	return r->has_job ? &r->job : NULL;
}

const char *
trace_producer(const struct trace_reader *r)
{
	return r->producer;
}

const char *
trace_note(const struct trace_reader *r)
{
	return r->note;
}

void
trace_close(struct trace_reader *r)
{
	if (r == NULL)
		return;
	tracez_close(r->z);        /* a caller's stream stays open */
	free(r->buf);
	free(r->seen);
	free(r);
}
