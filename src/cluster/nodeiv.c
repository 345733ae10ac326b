/* nodeiv.c: a node's JSON line into its machine and interval (nodeiv.h).
 * The machine description is built again only when the line describes
 * another one (a hash of what it is built from); otherwise a line costs
 * its parse and one pass over its cores and threads. */
#include "config.h"
#include "cluster/nodeiv_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics/figures.h"
#include "util/hostname.h"
#include "util/i18n.h"
#include "util/textesc.h"
#include "util/xalloc.h"
#include "util/xalloc.h"

/* The notional clock the rebuilt counts run at (nodeiv.h). */
#define NOTIONAL_HZ 1e9
/* A fraction may be off by the rounding of its 10 decimals. */
#define FRAC_SLACK 1e-9
/* What a line's numbers may claim (httop.1, SECURITY): a rate (threads,
 * GHz, CPI) at most RATE_MAX; weights no more than the node's valid cores
 * could count in its interval: time stamp ticks at most TSC_HZ_MAX a
 * second on each core, reference ticks at most REF_PER_TSC per time stamp
 * tick of a core (each of its threads counts them at most at that rate,
 * with slack for counters read a little apart), instructions at most
 * INST_PER_REF per reference tick (the widest core's retirement at the
 * highest clock over the reference clock, with room to spare). Far beyond
 * any machine, and small enough that a job's sums of weight x figure
 * over every node stay finite. */
#define RATE_MAX 1e12
#define TSC_HZ_MAX 1e10
#define REF_PER_TSC (1.25 * TOPO_MAX_SMT)
#define INST_PER_REF 64.0
#define INTERVAL_MAX 1e7

void
nodeiv_init(struct nodeiv *n)
{
	memset(n, 0, sizeof *n);
	n->unix_time = -1.0;
}

void
nodeiv_expect_host(struct nodeiv *n, const char *host)
{
	snprintf(n->want_host, sizeof n->want_host, "%s", host);
}

/* The line's "host" (token i): a host name (hostname.h), and the one the
 * node was started for, when that is known. */
static int
check_host(const struct nodeiv *n, const struct jdoc *d, int i, struct errmsg *e)
{
	char h[HOST_NAME_LEN + 2];

	/* one byte more than a host name may have: a longer one is cut to
	 * that and fails */
	jstr(d, i, h, sizeof h);
	if (!host_name_ok(h))
		return errmsg_set(e, _("\"host\" is not a host name (1 to %d letters, digits, '.', "
		    "'-' and '_')"), HOST_NAME_LEN);
	if (n->want_host[0] != '\0' && strcmp(h, n->want_host) != 0)
		return errmsg_set(e, _("the line is host %s's, not %s's, the node it came from"), h,
		    n->want_host);
	return 0;
}

void
nodeiv_drop_machine(struct nodeiv *n)
{
	if (n->have_iv)
		interval_free(&n->iv);
	if (n->have_layout)
		die_layout_free(&n->layout);
	if (n->have_machine)
		machine_free(&n->m);
	n->have_iv = n->have_layout = n->have_machine = false;
	n->rows_shed = false;
	free(n->plan);
	n->plan = NULL;
	free(n->core_of);
	n->core_of = NULL;
	n->ncore_of = 0;
}

void
nodeiv_free(struct nodeiv *n)
{
	nodeiv_drop_machine(n);
}

void
nodeiv_cores_unread(struct nodeiv *n)
{
	unsigned k;

	if ((n->rows_kept && n->unread_done) || n->rows_shed)
		return;
	n->unread_done = true;
	for (k = 0; k < n->ncore_of && n->have_iv; k++)
		n->iv.cores[n->core_of[k]].reason = R_FIRST;
	for (k = 0; n->threads_unread && n->have_iv && k < n->iv.max_cpu &&
	    k < n->m.topo.max_cpu; k++)
		if (n->m.topo.cpus[k].present)
			n->iv.threads[k].reason = R_FIRST;
}

/* Is reason r's code the n bytes at s? */
static bool
code_is(enum reason r, const char *s, size_t n)
{
	const char *c = r < R_NREASONS ? metrics_reason_code(r) : "";

	return n > 0 && c[0] == s[0] && strncmp(c, s, n) == 0 && c[n] == '\0';
}

/* The reason whose code is the n bytes at s, or R_NREASONS. */
static enum reason
reason_n(const char *s, size_t n)
{
	/* a line says the same few codes again and again ("no-job" for each
	 * of the job's figures, "never-active" between them): the last two
	 * found are looked at first */
	static enum reason last = R_NREASONS, prev = R_NREASONS;
	enum reason r;

	if (code_is(last, s, n))
		return last;
	if (!code_is((r = prev), s, n))
		for (r = 0; r < R_NREASONS && !code_is(r, s, n); r++)
			;
	if (r < R_NREASONS) {
		prev = last;
		last = r;
	}
	return r;
}

enum reason
nodeiv_reason(const char *code)
{
	return reason_n(code, strlen(code));
}

/* The reason of string token i: its bytes as they are when it has no
 * escape (no copy), else as jstr reads them. */
static enum reason
tok_reason(const struct jdoc *d, int i)
{
	char code[64];

	if (!d->t[i].escaped)
		return reason_n(d->text + d->t[i].start, d->t[i].len);
	return nodeiv_reason(jstr(d, i, code, sizeof code));
}

/* --- members ------------------------------------------------------------ */

bool
nodeiv_opt_uint(struct jobj *o, const char *key, unsigned max, unsigned *v)
{
	int i = jobj_get(o, key);
	double x;

	if (!is(o->d, i, J_NUM))
		return false;
	x = o->d->t[i].num;
	if (!(x >= 0.0 && x <= (double)max && x == floor(x)))
		return false;
	*v = (unsigned)x;
	return true;
}

/* A whole number member within [0, max]. */
int
nodeiv_get_uint(struct jobj *o, const char *key, unsigned max, unsigned *v, struct errmsg *e)
{
	int i = jobj_get(o, key);
	double x;

	if (!is(o->d, i, J_NUM))
		return errmsg_set(e, _("\"%s\" is missing or not a number"), key);
	x = o->d->t[i].num;
	if (!(x >= 0.0 && x <= (double)max && x == floor(x)))
		return errmsg_set(e, _("\"%s\" is not a whole number from 0 to %u"), key, max);
	*v = (unsigned)x;
	return 0;
}

/* A number member or null (NAN); missing is an error when `need`. */
static int
get_num(struct jobj *o, const char *key, bool need, double *v, struct errmsg *e)
{
	int i = jobj_get(o, key);

	*v = NAN;
	if (is(o->d, i, J_NUM) && isfinite(o->d->t[i].num)) {
		/* + 0.0: -0 is 0 (it would print as "-0.0") */
		*v = o->d->t[i].num + 0.0;
		return 0;
	}
	if (is(o->d, i, J_NULL) || (i < 0 && !need))
		return 0;
	return errmsg_set(e, _("\"%s\" is missing or not a number"), key);
}

static int
get_bool(struct jobj *o, const char *key, bool *v, struct errmsg *e)
{
	int i = jobj_get(o, key);

	if (!is(o->d, i, J_BOOL))
		return errmsg_set(e, _("\"%s\" is missing or not true or false"), key);
	*v = o->d->t[i].b;
	return 0;
}

/* A reason code member, R_NONE when missing. */
static int
get_reason(struct jobj *o, const char *key, enum reason *r, struct errmsg *e)
{
	int i = jobj_opt(o, key);
	char code[64];

	*r = R_NONE;
	if (i < 0)
		return 0;
	if (!is(o->d, i, J_STR) ||
	    (*r = nodeiv_reason(jstr(o->d, i, code, sizeof code))) == R_NREASONS)
		return errmsg_set(e, _("\"%s\" is not one of httop's reason codes"), key);
	return 0;
}

/* What kind of number a figure is: where its values may lie. */
enum figkind { FK_FRAC, FK_RATE };

/* A share of time lies within 0..1; every other figure (a fraction that
 * may pass 1, a ratio, a frequency) within 0..RATE_MAX. */
static enum figkind
kind_of(const struct figure *f)
{
	return f->kind == FIG_SHARE ? FK_FRAC : FK_RATE;
}

static bool
in_range(double v, enum figkind k)
{
	return k == FK_FRAC ? v >= -FRAC_SLACK && v <= 1.0 + FRAC_SLACK : v >= 0.0 && v <= RATE_MAX;
}

static double
clamp(double v, enum figkind k)
{
	if (k == FK_FRAC)
		return v < 0.0 ? 0.0 : v > 1.0 ? 1.0 : v;
	return v;
}

/* A figure's three members (x, x_lo, x_hi) into *v; its reason, when it
 * has none, comes after (fix_absent). A late figure's may be missing. */
static int
get_val(struct jobj *o, const struct figure *f, struct val *v, struct errmsg *e)
{
	enum figkind k = kind_of(f);
	double x, lo, hi;

	/* a late figure: an older httop's line has none */
	if (get_num(o, f->name, !f->late, &x, e) != 0 ||
	    get_num(o, f->lo, !f->late, &lo, e) != 0 || get_num(o, f->hi, !f->late, &hi, e) != 0)
		return -1;
	if (!isnan(x)) {
		if (!in_range(x, k))
			return errmsg_set(e, _("\"%s\" is out of its range"), f->name);
		*v = val_exact(clamp(x, k));
		return 0;
	}
	if (!isnan(lo) && !isnan(hi)) {
		if (!in_range(lo, k) || !in_range(hi, k) || lo > hi)
			return errmsg_set(e, _("\"%s\" and \"%s\" are not a bound"), f->lo, f->hi);
		*v = val_tight(clamp(lo, k), clamp(hi, k));
		return 0;
	}
	*v = val_absent(R_NONE);
	return 0;
}

/* The figures fl[from..to) of `obj` (level l), in the order httop writes
 * them: each found at once. */
static int
get_vals(struct jobj *o, const struct figure *const *fl, size_t from, size_t to,
    enum fig_level l, void *obj, struct errmsg *e)
{
	size_t k;

	for (k = from; k < to; k++)
		if (get_val(o, fl[k], fig_val_w(fl[k], l, obj), e) != 0)
			return -1;
	return 0;
}

/* The reasons of the figures fl[0..n) of `obj` that have none: from the
 * object's "absent" (looked for after them, where httop writes it). */
static void
fix_absent(struct jobj *o, const struct figure *const *fl, size_t n, enum fig_level l,
    void *obj)
{
	struct jobj absent;
	struct val *v;
	size_t k;
	int i;
	char code[64];

	for (k = 0; k < n && fig_val(fl[k], l, obj)->kind != V_NONE; k++)
		;
	if (k == n || jobj_open(&absent, o->d, jobj_opt(o, "absent")) != 0)
		return;
	for (; k < n; k++) {
		v = fig_val_w(fl[k], l, obj);
		if (v->kind != V_NONE || (i = jobj_peek(&absent, fl[k]->name)) < 0)
			continue;
		v->why = nodeiv_reason(jstr(o->d, i, code, sizeof code));
		if (v->why == R_NREASONS)
			v->why = R_NONE;
	}
}

/* How many of the list's first figures are the shares of the split. */
static size_t
nstates(const struct figure *const *fl, size_t n)
{
	size_t i;

	for (i = 0; i < n && fl[i]->state != 0; i++)
		;
	return i;
}

/* "stopped":["inst", ...] as KIND_BITs. */
static unsigned
get_stopped(struct jobj *o)
{
	const struct jdoc *d = o->d;
	int a = jobj_opt(o, "stopped"), i;
	unsigned mask = 0;
	char name[32];
	enum slot_kind k;

	if (!is(d, a, J_ARR))
		return 0;
	for (i = jfirst(d, a); i >= 0 && (unsigned)i < d->t[a].next; i = (int)d->t[i].next) {
		k = slot_kind_parse(jstr(d, i, name, sizeof name));
		if (k < SLOT_NKINDS)
			mask |= KIND_BIT(k);
	}
	return mask;
}

/* --- the figures --------------------------------------------------------- */

static int compact_val(const struct jdoc *d, int i, enum figkind k, struct val *v,
    struct errmsg *e);

/* A compact line's aggregate, "agg":[ncores, nvalid, exact, then the
 * figures in JSON order: neither, t0_only, t1_only, both, util,
 * active_threads, ghz, cpi, both_of_busy]. */
static int
read_agg_compact(const struct jdoc *d, int a, struct agg_fig *g, struct errmsg *e)
{
	size_t f, n, early;
	const struct figure *const *fl = figures_of(FIG_AGG, FIG_JSON, &n);
	unsigned exact;
	int i;

	/* an older httop's line may lack the late figures */
	early = figures_early(fl, n);
	if (!is(d, a, J_ARR) || d->t[a].size < 3 + early || d->t[a].size > 3 + n)
		return early == n ?
		    errmsg_set(e, _("\"agg\" is not a list of %u values"), (unsigned)(3 + n)) :
		    errmsg_set(e, _("\"agg\" is not a list of %u to %u values"),
		    (unsigned)(3 + early), (unsigned)(3 + n));
	i = a + 1;
	if (nodeiv_tok_uint(d, i, "ncores", NODEIV_CPU_MAX, &g->ncores, e) != 0 ||
	    nodeiv_tok_uint(d, (i = (int)d->t[i].next), "nvalid", NODEIV_CPU_MAX, &g->nvalid, e) != 0 ||
	    nodeiv_tok_uint(d, (i = (int)d->t[i].next), "exact", 1, &exact, e) != 0)
		return -1;
	if (g->nvalid > g->ncores)
		return errmsg_set(e, _("\"nvalid\" is more than \"ncores\""));
	g->exact = exact != 0;
	for (f = 0; f < n; f++) {
		if (f >= d->t[a].size - 3) {
			*fig_val_w(fl[f], FIG_AGG, g) = val_absent(R_NONE);
			continue;
		}
		if (compact_val(d, (i = (int)d->t[i].next), kind_of(fl[f]),
		    fig_val_w(fl[f], FIG_AGG, g), e) != 0)
			return -1;
	}
	return 0;
}

static int
read_agg(const struct jdoc *d, int obj, struct agg_fig *g, struct errmsg *e)
{
	size_t n;
	const struct figure *const *fl = figures_of(FIG_AGG, FIG_JSON, &n);
	struct jobj o;
	size_t k;

	memset(g, 0, sizeof *g);
	if (jobj_open(&o, d, obj) != 0)
		return errmsg_set(e, _("an aggregate is not an object"));
	if ((k = (size_t)jobj_peek(&o, "agg")) != (size_t)-1)
		return read_agg_compact(d, (int)k, g, e);
	if (nodeiv_get_uint(&o, "ncores", NODEIV_CPU_MAX, &g->ncores, e) != 0 ||
	    nodeiv_get_uint(&o, "nvalid", NODEIV_CPU_MAX, &g->nvalid, e) != 0 ||
	    get_bool(&o, "exact", &g->exact, e) != 0)
		return -1;
	if (g->nvalid > g->ncores)
		return errmsg_set(e, _("\"nvalid\" is more than \"ncores\""));
	if (get_vals(&o, fl, 0, n, FIG_AGG, g, e) != 0)
		return -1;
	fix_absent(&o, fl, n, FIG_AGG, g);
	return 0;
}

static int
read_core(struct nodeiv *n, const struct jdoc *d, int i, unsigned idx, struct errmsg *e)
{
	struct core_fig *c = &n->iv.cores[idx];
	const struct topo_core *tc = &n->m.topo.cores[idx];
	size_t nf, ns;
	const struct figure *const *fl = figures_of(FIG_CORE, FIG_JSON, &nf);
	struct jobj o;
	bool valid;
	size_t k;

	jobj_open(&o, d, i);
	c->selected = true;
	/* in the order httop writes them: the shares, exact, the others */
	ns = nstates(fl, nf);
	if (get_vals(&o, fl, 0, ns, FIG_CORE, c, e) != 0 ||
	    get_bool(&o, "exact", &c->exact, e) != 0 ||
	    get_vals(&o, fl, ns, nf, FIG_CORE, c, e) != 0)
		return -1;
	if (get_bool(&o, "valid", &valid, e) != 0 || get_reason(&o, "reason", &c->reason, e) != 0 ||
	    get_reason(&o, "fallback", &c->fallback, e) != 0)
		return -1;
	if (valid)
		c->reason = R_NONE;
	else if (c->reason == R_NONE)
		c->reason = R_READ_ERROR;
	fix_absent(&o, fl, nf, FIG_CORE, c);
	c->split = tc->nthreads == 2 ? n->split : SPLIT_NONE;
	c->stopped = get_stopped(&o);
	get_num(&o, "inconsistency", false, &c->inconsistency, e);
	if (isnan(c->inconsistency))
		c->inconsistency = 0.0;
	k = (size_t)jobj_opt(&o, "scaled");
	c->scaled = is(d, (int)k, J_BOOL) && d->t[k].b;
	return 0;
}

static uint64_t
count(double x)
{
	return x > 0.0 && x < 1.8e19 ? (uint64_t)(x + 0.5) : 0;
}

/* The counts in the notional clock's nanoseconds (nodeiv.h). */
static void
thread_counts(const struct nodeiv *n, struct thread_fig *t)
{
	double tsc = isfinite(n->iv.dt) && n->iv.dt > 0.0 ? n->iv.dt * NOTIONAL_HZ : 0.0;

	t->d_tsc = count(tsc);
	t->d_ref = count(t->util.kind == V_EXACT ? t->util.v * tsc : 0.0);
	t->d_cyc = count(t->ghz.kind == V_EXACT ? t->ghz.v * (double)t->d_ref : 0.0);
	t->d_inst = count(t->ipc.kind == V_EXACT ? t->ipc.v * (double)t->d_cyc : 0.0);
}

static int
read_thread(struct nodeiv *n, const struct jdoc *d, int i, bool light, struct errmsg *e)
{
	size_t nf;
	const struct figure *const *fl = figures_of(FIG_THREAD, FIG_JSON, &nf);
	struct jobj o;
	struct thread_fig *t;
	unsigned cpu;
	bool valid;
	size_t k;

	if (jobj_open(&o, d, i) != 0)
		return errmsg_set(e, _("a thread is not an object"));
	if (nodeiv_get_uint(&o, "cpu", NODEIV_CPU_MAX - 1, &cpu, e) != 0)
		return -1;
	/* A CPU of no core (offline, its core unknown) is not shown; without
	 * the cores, one the machine does not have means another machine. */
	if (cpu >= n->m.topo.max_cpu || !n->m.topo.cpus[cpu].present)
		return light ? NODEIV_FULL : 0;
	t = &n->iv.threads[cpu];
	if (get_bool(&o, "valid", &valid, e) != 0 || get_reason(&o, "reason", &t->reason, e) != 0)
		return -1;
	if (valid)
		t->reason = R_NONE;
	else if (t->reason == R_NONE)
		t->reason = R_READ_ERROR;
	if (get_vals(&o, fl, 0, nf, FIG_THREAD, t, e) != 0)
		return -1;
	fix_absent(&o, fl, nf, FIG_THREAD, t);
	t->offline = t->reason == R_OFFLINE;
	t->stopped = get_stopped(&o);
	k = (size_t)jobj_opt(&o, "scaled");
	t->scaled = is(d, (int)k, J_BOOL) && d->t[k].b;
	thread_counts(n, t);
	return 0;
}

/* --- the compact form (json.c, --compact) ------------------------------ */

/* A compact figure: a number (exact), [lo, hi] (a bound; absent when
 * either is null), a reason code (absent with it; one httop does not know
 * is no reason, as in the full form) or null. */
static int
compact_val(const struct jdoc *d, int i, enum figkind k, struct val *v, struct errmsg *e)
{
	const struct jtok *t = &d->t[i];

	switch (t->type) {
	case J_NUM:
		if (!isfinite(t->num) || !in_range(t->num, k))
			return errmsg_set(e, _("a figure is out of its range"));
		*v = val_exact(clamp(t->num + 0.0, k));
		return 0;
	case J_ARR: {
		const struct jtok *lo = &d->t[i + 1], *hi;

		if (t->size != 2)
			return errmsg_set(e, _("a bound is not [lo, hi]"));
		hi = &d->t[lo->next];
		if ((lo->type != J_NUM && lo->type != J_NULL) ||
		    (hi->type != J_NUM && hi->type != J_NULL))
			return errmsg_set(e, _("a bound is not [lo, hi]"));
		if (lo->type == J_NULL || hi->type == J_NULL) {
			*v = val_absent(R_NONE);
			return 0;
		}
		if (!in_range(lo->num, k) || !in_range(hi->num, k) || lo->num > hi->num)
			return errmsg_set(e, _("a bound is not [lo, hi] within its range"));
		*v = val_tight(clamp(lo->num + 0.0, k), clamp(hi->num + 0.0, k));
		return 0;
	}
	case J_STR:
		*v = val_absent(tok_reason(d, i));
		if (v->why == R_NREASONS)
			v->why = R_NONE;
		return 0;
	case J_NULL:
		*v = val_absent(R_NONE);
		return 0;
	default:
		return errmsg_set(e, _("a figure is not a number, a bound, a reason or null"));
	}
}

/* The positional members of a compact element: `n` up to the flags (0 to
 * 3, the n-th), then up to `nlate` late figures (an older httop's line
 * has fewer: those are absent), and the optional object of reason,
 * fallback and stopped. */
struct compact_el {
	int tok[FIG_MAX + 3];
	unsigned n;
	unsigned nlate;            /* late figures there: tok[n .. n + nlate) */
	unsigned flags;
	int more;                  /* -1: none */
};

static int
compact_el(const struct jdoc *d, int i, unsigned n, unsigned nlate, struct compact_el *c,
    struct errmsg *e)
{
	unsigned k, size;
	int j;

	if (!is(d, i, J_ARR) || (size = d->t[i].size) < n || size > n + nlate + 1)
		return nlate == 0 ?
		    errmsg_set(e, _("an element is not a list of %u or %u values"), n, n + 1) :
		    errmsg_set(e, _("an element is not a list of %u to %u values"), n,
		    n + nlate + 1);
	for (k = 0, j = i + 1; k < size; k++, j = (int)d->t[j].next)
		c->tok[k] = j;
	c->n = n;
	if (nodeiv_tok_uint(d, c->tok[n - 1], "flags", 3, &c->flags, e) != 0)
		return -1;
	c->more = size > n && is(d, c->tok[size - 1], J_OBJ) ? c->tok[size - 1] : -1;
	c->nlate = size - n - (c->more >= 0 ? 1u : 0u);
	if (c->nlate > nlate)
		return errmsg_set(e, _("an element's last value is not an object"));
	return 0;
}

/* The late figures fl[early..nf) of a compact element into `obj` (level
 * l): those it has, the others absent. */
static int
compact_late(const struct jdoc *d, const struct compact_el *c, const struct figure *const *fl,
    size_t early, size_t nf, enum fig_level l, void *obj, struct errmsg *e)
{
	size_t f;

	for (f = early; f < nf; f++) {
		struct val *v = fig_val_w(fl[f], l, obj);

		if (f - early >= c->nlate)
			*v = val_absent(R_NONE);
		else if (compact_val(d, c->tok[c->n + (f - early)], kind_of(fl[f]), v, e) != 0)
			return -1;
	}
	return 0;
}

/* Its "reason" (invalid when there) and "fallback" and "stopped". */
static int
compact_more(const struct jdoc *d, const struct compact_el *c, enum reason *reason,
    enum reason *fallback, unsigned *stopped, struct errmsg *e)
{
	struct jobj o;

	*reason = R_NONE;
	if (fallback != NULL)
		*fallback = R_NONE;
	*stopped = 0;
	if (c->more < 0)
		return 0;
	jobj_open(&o, d, c->more);
	if (get_reason(&o, "reason", reason, e) != 0 ||
	    (fallback != NULL && get_reason(&o, "fallback", fallback, e) != 0))
		return -1;
	jobj_open(&o, d, c->more);
	*stopped = get_stopped(&o);
	return 0;
}

static int
read_core_compact(struct nodeiv *n, const struct jdoc *d, int i, unsigned idx,
    struct errmsg *e)
{
	struct core_fig *c = &n->iv.cores[idx];
	size_t f, nf, early;
	const struct figure *const *fl = figures_of(FIG_CORE, FIG_JSON, &nf);
	struct compact_el el;
	const struct jtok *inc;

	/* the figures, inconsistency, flags, the late figures */
	early = figures_early(fl, nf);
	if (compact_el(d, i, (unsigned)early + 2, (unsigned)(nf - early), &el, e) != 0)
		return -1;
	c->selected = true;
	for (f = 0; f < early; f++)
		if (compact_val(d, el.tok[f], kind_of(fl[f]), fig_val_w(fl[f], FIG_CORE, c), e) != 0)
			return -1;
	if (compact_late(d, &el, fl, early, nf, FIG_CORE, c, e) != 0)
		return -1;
	inc = &d->t[el.tok[early]];
	if (inc->type != J_NULL && !(inc->type == J_NUM && isfinite(inc->num)))
		return errmsg_set(e, _("\"inconsistency\" is not a number"));
	c->inconsistency = inc->type == J_NUM ? inc->num + 0.0 : 0.0;
	c->exact = (el.flags & 1u) != 0;
	c->scaled = (el.flags & 2u) != 0;
	if (compact_more(d, &el, &c->reason, &c->fallback, &c->stopped, e) != 0)
		return -1;
	c->split = n->m.topo.cores[idx].nthreads == 2 ? n->split : SPLIT_NONE;
	return 0;
}

static int
read_thread_compact(struct nodeiv *n, const struct jdoc *d, int i, bool light,
    struct errmsg *e)
{
	size_t f, nf, early;
	const struct figure *const *fl = figures_of(FIG_THREAD, FIG_JSON, &nf);
	struct compact_el el;
	struct thread_fig *t;
	enum reason reason;
	unsigned cpu;

	/* cpu, the figures, flags, the late figures */
	early = figures_early(fl, nf);
	if (compact_el(d, i, (unsigned)early + 2, (unsigned)(nf - early), &el, e) != 0 ||
	    nodeiv_tok_uint(d, el.tok[0], "cpu", NODEIV_CPU_MAX - 1, &cpu, e) != 0)
		return -1;
	if (cpu >= n->m.topo.max_cpu || !n->m.topo.cpus[cpu].present)
		return light ? NODEIV_FULL : 0;
	t = &n->iv.threads[cpu];
	for (f = 0; f < early; f++)
		if (compact_val(d, el.tok[f + 1], kind_of(fl[f]), fig_val_w(fl[f], FIG_THREAD, t),
		    e) != 0)
			return -1;
	if (compact_late(d, &el, fl, early, nf, FIG_THREAD, t, e) != 0)
		return -1;
	if (compact_more(d, &el, &reason, NULL, &t->stopped, e) != 0)
		return -1;
	t->reason = reason;
	t->offline = t->reason == R_OFFLINE;
	t->scaled = (el.flags & 2u) != 0;
	thread_counts(n, t);
	return 0;
}

/* Every core and thread unselected, every aggregate absent: the line then
 * gives those it lists. `rows`: the cores and threads too; a light line
 * after a light line of the same machine leaves them as they are (what
 * clearing them would give again: light_cores and nodeiv_cores_unread
 * write the same), which for thousands of nodes was half of a line's
 * read. */
static void
clear(struct nodeiv *n, bool rows)
{
	struct interval *iv = &n->iv;
	unsigned i;

	if (rows)
		n->unread_done = false;
	for (i = 0; rows && i < iv->ncores; i++) {
		memset(&iv->cores[i], 0, sizeof iv->cores[i]);
		iv->cores[i].index = i;
		iv->cores[i].reason = R_NOT_SELECTED;
	}
	for (i = 0; rows && i < iv->max_cpu; i++) {
		memset(&iv->threads[i], 0, sizeof iv->threads[i]);
		iv->threads[i].cpu = i;
		iv->threads[i].reason = R_NOT_SELECTED;
	}
	for (i = 0; !n->rows_shed && i < iv->npackages; i++)
		memset(&iv->packages[i], 0, sizeof iv->packages[i]);
	iv->stopped = 0;
	iv->scaled = false;
}

static int
read_packages(struct nodeiv *n, const struct jdoc *d, int arr, struct errmsg *e)
{
	const struct topology *t = &n->m.topo;
	unsigned id, p, k;
	int i;

	/* passed over with the rest of a light line (cluster.c): only a
	 * node's own views show them, from a whole line */
	if (is(d, arr, J_SKIP))
		return 0;
	if (!is(d, arr, J_ARR))
		return errmsg_set(e, _("\"packages\" is missing or not a list"));
	EACH(d, arr, i) {
		struct jobj o;

		if (jobj_open(&o, d, i) != 0 || nodeiv_get_uint(&o, "package", NODEIV_PACKAGE_MAX, &id, e) != 0)
			return errmsg_set(e, _("a package has no \"package\" number"));
		/* its place among the topology's packages */
		for (p = 0, k = 0; k < t->ncores; k++) {
			if (k > 0 && t->cores[k].package != t->cores[k - 1].package)
				p++;
			if (t->cores[k].package == id)
				break;
		}
		if (k == t->ncores || p >= n->iv.npackages)
			continue;
		if (read_agg(d, i, &n->iv.packages[p], e) != 0)
			return errmsg_prefix(e, "package %u", id);
	}
	return 0;
}

/* Without the cores (light): every core of the last full line valid, its
 * figures not read ("no previous sample yet" if shown), which the node's
 * aggregate must confirm: as many valid cores as that line had. */
static void
light_rows(struct nodeiv *n)
{
	unsigned k;

	for (k = 0; k < n->ncore_of; k++) {
		struct core_fig *c = &n->iv.cores[n->core_of[k]];

		c->selected = true;
		c->reason = R_NONE;
		c->split = n->split;
		c->neither = c->t0_only = c->t1_only = c->both = val_absent(R_FIRST);
		c->util = c->active_threads = c->issue_util = c->cpi = c->ghz = val_absent(R_FIRST);
	}
}

static int
light_cores(struct nodeiv *n)
{
	if (n->iv.node.ncores != n->ncore_of || n->iv.node.nvalid != n->ncore_of)
		return NODEIV_FULL;
	/* kept from the last light line (clear), or let go (shed): as this
	 * would make them, with nodeiv_cores_unread's "no previous sample
	 * yet" */
	if (!n->rows_kept && !n->rows_shed)
		light_rows(n);
	return 0;
}

void
nodeiv_shed_rows(struct nodeiv *n)
{
	struct interval *iv = &n->iv;

	/* without weights a light line reads the threads (they weigh the
	 * node's aggregate): kept */
	if (!n->have_iv || n->rows_shed || !n->have_weights)
		return;
	free(iv->cores);
	free(iv->threads);
	free(iv->packages);
	free(iv->scratch);
	iv->cores = NULL;
	iv->threads = NULL;
	iv->packages = NULL;
	iv->scratch = NULL;
	free(n->plan);
	n->plan = NULL;
	n->rows_shed = true;
	/* as after a light line: the next one need not make them again */
	n->rows_light = true;
	n->threads_unread = true;
	n->unread_done = true;
}

void
nodeiv_unshed_rows(struct nodeiv *n)
{
	struct interval *iv = &n->iv;
	const struct topology *t = &n->m.topo;

	if (!n->rows_shed)
		return;
	iv->cores = xcalloc(t->ncores ? t->ncores : 1, sizeof *iv->cores);
	iv->threads = xcalloc(t->max_cpu ? t->max_cpu : 1, sizeof *iv->threads);
	iv->packages = xcalloc(t->npackages ? t->npackages : 1, sizeof *iv->packages);
	iv->scratch = xcalloc(t->max_cpu ? t->max_cpu : 1, sizeof *iv->scratch);
	n->rows_shed = false;
	nodeiv_make_plan(n);
	/* as the light line that let them go left them */
	clear(n, true);
	light_rows(n);
	n->rows_kept = false;
	nodeiv_cores_unread(n);
	n->rows_kept = true;
}

/* Does a figure have a value above 0 (its high end, for a bound)? */
static bool
above_zero(struct val v)
{
	return (v.kind == V_EXACT && v.v > 0.0) || (v.kind == V_BOUND && v.hi > 0.0);
}

/* Weights the node's valid cores could have counted in its interval
 * (RATE_MAX and below), and one under every figure the node shows: its
 * own aggregate weighed them so, and a figure without its weight would
 * drop out of the job unseen. */
static int
weights_fit(const struct agg_fig *g, double dt, const struct agg_weights *w, struct errmsg *e)
{
	if (g->nvalid == 0)
		return 0;
	if (w->time > (double)g->nvalid * dt * TSC_HZ_MAX)
		return errmsg_set(e, _("weights: \"tsc\" is more than %u cores count in %g s"),
		    g->nvalid, dt);
	if (w->ref > w->time * REF_PER_TSC || w->inst > w->ref * INST_PER_REF)
		return errmsg_set(e, _("weights: \"ref\" or \"inst\" is more than the cores "
		    "count in their \"tsc\""));
	if ((w->time <= 0.0 && g->util.kind != V_NONE) ||
	    (w->ref <= 0.0 && (above_zero(g->util) || g->ghz.kind != V_NONE)) ||
	    (w->inst <= 0.0 && g->cpi.kind != V_NONE))
		return errmsg_set(e, _("weights: a figure the node shows has a weight of 0"));
	return 0;
}

/* The node's "weights" (json.c), when the line has them: counts, so
 * whole numbers at least 0, and what fits its figures (weights_fit). */
static int
read_weights(struct nodeiv *n, const struct jdoc *d, int node, struct errmsg *e)
{
	struct jobj o, w;
	double x[3];
	static const char *const keys[] = { "tsc", "ref", "inst" };
	size_t k;

	n->have_weights = false;
	if (jobj_open(&o, d, node) != 0 || jobj_open(&w, d, jobj_get(&o, "weights")) != 0)
		return 0;
	for (k = 0; k < 3; k++) {
		if (get_num(&w, keys[k], true, &x[k], e) != 0)
			return errmsg_prefix(e, "weights");
		if (!(x[k] >= 0.0))
			return errmsg_set(e, _("weights: \"%s\" is not a count"), keys[k]);
	}
	n->w.time = x[0];
	n->w.ref = x[1];
	n->w.inst = x[2];
	if (weights_fit(&n->iv.node, n->iv.dt, &n->w, e) != 0)
		return -1;
	n->have_weights = true;
	return 0;
}

/* The threads (token `threads`), of a full or a compact line. */
static int
read_threads(struct nodeiv *n, const struct jdoc *d, int threads, bool compact, bool light,
    struct errmsg *e)
{
	int i, r;

	/* Passed over (or with the cores, in a head parse): the node's
	 * weights stand for what they give. */
	n->threads_unread = is(d, threads, J_SKIP) || (light && threads < 0);
	if (n->threads_unread)
		return n->have_weights ? 0 : NODEIV_FULL;
	if (!is(d, threads, J_ARR))
		return errmsg_set(e, compact ? _("\"thread_figs\" is missing or not a list") :
		    _("\"threads\" is missing or not a list"));
	EACH(d, threads, i) {
		r = compact ? read_thread_compact(n, d, i, light, e) : read_thread(n, d, i, light, e);
		if (r != 0)
			return r > 0 ? r : errmsg_prefix(e, "thread");
	}
	return 0;
}

/* The cores and threads, of a full line ("cores", "threads") or a
 * compact one ("core_figs", "thread_figs"). */
static int
read_cores(struct nodeiv *n, const struct jdoc *d, struct jobj *root, struct errmsg *e)
{
	struct interval *iv = &n->iv;
	int figs = jobj_get(root, "core_figs");
	bool compact = figs >= 0;
	int cores = compact ? figs : jobj_get(root, "cores"), i, r;
	int threads = jobj_get(root, compact ? "thread_figs" : "threads");
	unsigned k = 0;
	bool light = passed_over(d, root);

	if (light && (r = light_cores(n)) != 0)
		return r;
	if (compact && is(d, cores, J_ARR) && d->t[cores].size != n->ncore_of)
		return errmsg_set(e, _("\"core_figs\" has %u cores, the last \"core_list\" %u"),
		    d->t[cores].size, n->ncore_of);
	if (compact && !is(d, cores, J_ARR) && !light)
		return errmsg_set(e, _("\"core_figs\" is not a list"));
	if (!is(d, cores, J_ARR))
		cores = -1;
	for (i = cores < 0 ? -1 : jfirst(d, cores); i >= 0 && (unsigned)i < d->t[cores].next;
	    i = (int)d->t[i].next) {
		if ((compact ? read_core_compact(n, d, i, n->core_of[k], e) :
		    read_core(n, d, i, n->core_of[k], e)) != 0)
			return errmsg_prefix(e, _("core %u"), n->m.topo.cores[n->core_of[k]].core_id);
		iv->stopped |= iv->cores[n->core_of[k]].stopped;
		iv->scaled = iv->scaled || iv->cores[n->core_of[k]].scaled;
		k++;
	}
	return read_threads(n, d, threads, compact, light, e);
}

static int
read_figures(struct nodeiv *n, const struct jdoc *d, struct jobj *root, bool rows,
    struct errmsg *e)
{
	struct interval *iv = &n->iv;
	int r;
	char reason[sizeof iv->reason];

	clear(n, rows);
	n->rows_kept = !rows;
	if (get_num(root, "time", true, &iv->time, e) != 0 ||
	    get_num(root, "interval", true, &iv->dt, e) != 0 ||
	    get_bool(root, "valid", &iv->valid, e) != 0)
		return -1;
	if (isnan(iv->time))
		iv->time = 0.0;
	if (isnan(iv->dt))
		iv->dt = 0.0;
	/* Text from outside: shown escaped wherever it goes (textesc.h). */
	r = jobj_get(root, "reason");
	jstr(d, r, reason, sizeof reason);
	text_escape(iv->reason, sizeof iv->reason, reason);
	text_escape(iv->reason_c, sizeof iv->reason_c, reason);
	r = jobj_get(root, "node");
	if (read_agg(d, r, &iv->node, e) != 0)
		return errmsg_prefix(e, "node");
	/* valid cores were counted over a time (and their weights, given or
	 * rebuilt from it, stay finite) */
	if (iv->node.nvalid > 0 && !(iv->dt > 0.0 && iv->dt <= INTERVAL_MAX))
		return errmsg_set(e, _("valid cores in an \"interval\" that is not a time"));
	if (read_weights(n, d, r, e) != 0)
		return errmsg_prefix(e, "node");
	if (read_packages(n, d, jobj_get(root, "packages"), e) != 0)
		return -1;
	return read_cores(n, d, root, e);
}

/* Are the line's cores and threads both passed over (a head parse, or
 * cores and threads skipped)? */
static bool
rows_skipped(const struct jdoc *d, const struct jobj *root)
{
	int t = jobj_peek(root, "thread_figs");

	if (t < 0)
		t = jobj_peek(root, "threads");
	return passed_over(d, root) && (t < 0 || is(d, t, J_SKIP));
}

int
nodeiv_read(struct nodeiv *n, const struct jdoc *d, struct errmsg *e)
{
	struct jobj root;
	double ut;
	char s[16];
	int rebuilt, rc;
	bool was_light, light, rows;

	if (d->n == 0 || jobj_open(&root, d, 0) != 0)
		return errmsg_set(e, _("the line is not a JSON object of httop's"));
	/* peeked: the figures are then read in the order they are written */
	if (!is(d, jobj_peek(&root, "host"), J_STR) || !is(d, jobj_peek(&root, "node"), J_OBJ))
		return errmsg_set(e, _("the line has no \"host\" or \"node\": not an interval of "
		    "httop --format json"));
	if (check_host(n, d, jobj_peek(&root, "host"), e) != 0)
		return -1;
	was_light = n->rows_light;
	n->rows_light = false;
	rebuilt = nodeiv_machine_of(n, d, &root, e);
	if (rebuilt < 0 || rebuilt == NODEIV_FULL)
		return rebuilt;
	light = rows_skipped(d, &root);
	rows = !(light && was_light && rebuilt == 0);
	/* a line that reads them: they are made again first */
	if (n->rows_shed && (rows || !is(d, jobj_peek(&root, "packages"), J_SKIP)))
		nodeiv_unshed_rows(n);
	rc = read_figures(n, d, &root, rows, e);
	if (rc != 0)
		return rc;
	n->rows_light = light;
	jstr(d, jobj_get(&root, "source"), s, sizeof s);
	text_escape(n->source, sizeof n->source, s);
	n->unix_time = get_num(&root, "unix_time", false, &ut, e) == 0 && !isnan(ut) ? ut : -1.0;
	n->whole = is(d, jobj_get(&root, "window"), J_STR) &&
	    strcmp(jstr(d, jobj_get(&root, "window"), s, sizeof s), "run") == 0;
	return rebuilt;
}
