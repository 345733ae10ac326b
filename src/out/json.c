/* json.c: one JSON object per interval, on one line (JSON Lines), built in
 * one buffer and written at once, as httop.schema.json describes it (made
 * from data/httop.schema.in.json and the table of figures: tools/schema.c).
 * A figure that may be exact, a bound or absent is three members, x, x_lo
 * and x_hi (json_val); absent is null, and a non-finite number can never
 * be printed (it would make the line invalid JSON).
 *
 * Precision, by what a figure is (httop(1), JSON OUTPUT):
 * - shares and other fractions of time (neither .. both, util, issue_util,
 *   both_of_busy, inconsistency, truth): 10 decimals. Finer than one
 *   reference tick in a 1 s interval even when the reference clock runs at
 *   the TSC rate (1/2.1e9 = 4.8e-10), and the four shares of a core, each
 *   rounded by at most 5e-11, still sum to 1 within 2e-10;
 * - rates and ratios (ghz, net_ghz, cpi, nominal_cpi, ipc, active_threads):
 *   6 significant digits; the counters they come from are read microseconds
 *   apart, a skew of about 1e-6 of an interval, so more digits would be
 *   noise;
 * - time and interval: seconds to the microsecond (all 6 decimals written);
 * - unix_time: seconds since the Unix epoch to the microsecond, and
 *   iso_time the same instant in ISO 8601 with the local zone's offset;
 * - counts and numbers (package, core, cpus, scale, ncores, nvalid): integers. */
#include "config.h"
#include "out/format.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "metrics/figures.h"
#include "out/runsum.h"
#include "util/jsonstr.h"
#include "util/xalloc.h"

#define FRAC_DECIMALS 10
#define NUM_DIGITS 6
#define TIME_DECIMALS 6

enum numkind { FRAC, NUM };

/* A string as JSON (util/jsonstr.h): quotes, backslashes and control
 * bytes escaped, C1, bidi and invisible format characters as \u escapes,
 * a byte that is not valid UTF-8 as '?'. */
static void
lb_sink(void *ctx, const char *p, size_t n)
{
	lb_mem(ctx, p, n);
}

static void
json_str(struct linebuf *b, const char *s)
{
	jsonstr_put(lb_sink, b, s);
}

static void
json_num(struct linebuf *b, enum numkind k, double x)
{
	if (!isfinite(x))
		lb_lit(b, "null");
	else if (k == FRAC)
		lb_fixed(b, x, FRAC_DECIMALS);
	else
		lb_sig(b, x, NUM_DIGITS);
}

static void
json_time(struct linebuf *b, double x)
{
	if (isfinite(x))
		lb_fixed_all(b, x, TIME_DECIMALS);
	else
		lb_lit(b, "null");
}


static void
json_bool(struct linebuf *b, bool x)
{
	if (x)
		lb_lit(b, "true");
	else
		lb_lit(b, "false");
}

static enum numkind
fig_numkind(const struct figure *f)
{
	return fig_is_frac(f) ? FRAC : NUM;
}

/* --- the full form's figures, made once ---------------------------------
 * A figure is three members, x, x_lo and x_hi: exact, x with lo and hi
 * null; a bound, x null and lo and hi the bound; absent, all null. So each
 * member always holds a number or null, which typed readers (pandas,
 * DuckDB) need: the old [lo, hi] array in place of the number made them
 * fail. The text around the numbers of each figure's three forms, the
 * absent object's member names and the reason codes as JSON strings are
 * made on the first line (jplan_make) and copied whole after that: a
 * line's figures are one copy and at most two numbers each, with one check
 * of the buffer's room per object (most of a JSON line is these). */

/* Bytes copied past a piece's end (its copy then has a size known when
 * compiled); every piece has that much room after it. */
#define JP_PAD 96

struct jfig {
	size_t off;             /* the struct val in its level's struct */
	bool frac, state;       /* 10 decimals; one of the split's shares */
	const char *nul, *tail, *head, *x, *hi, *name;
	size_t nnul, ntail, nhead, nx, nhi, nname;
};

struct jlevel {
	size_t n, nstates, room;   /* room: the most one figure takes */
	struct jfig f[FIG_MAX];
};

static struct jlevel jplan[FIG_NLEVELS];
static const char *jreason[R_NREASONS];
static size_t njreason[R_NREASONS];
static bool jplan_made;

/* A piece: the strings of parts[] one after the other (NULL: none), the
 * one at `quoted` as a JSON string, padded for jput; kept for the run. */
static const char *
jpiece(size_t *len, const char *const *parts, size_t nparts, size_t quoted)
{
	struct linebuf t = { 0 };
	size_t i;
	char *p;

	for (i = 0; i < nparts; i++)
		if (i == quoted)
			jsonstr_put(lb_sink, &t, parts[i]);
		else if (parts[i] != NULL)
			lb_str(&t, parts[i]);
	p = xcalloc(1, t.len + JP_PAD);
	if (t.len > 0)
		memcpy(p, t.p, t.len);
	*len = t.len;
	lb_free(&t);
	return p;
}

#define JPIECE(len, quoted, ...) \
	jpiece((len), (const char *const[]){ __VA_ARGS__ }, \
	    sizeof((const char *const[]){ __VA_ARGS__ }) / sizeof(const char *), (quoted))
#define JNONE ((size_t)-1)
#define JMAX(a, b) ((a) > (b) ? (a) : (b))

static void
jfig_make(struct jfig *j, const struct figure *f, enum fig_level l)
{
	j->off = f->at[l].off;
	j->frac = fig_is_frac(f);
	j->state = f->state != 0;
	j->x = JPIECE(&j->nx, JNONE, f->jx);
	j->hi = JPIECE(&j->nhi, JNONE, f->jhi);
	j->nul = JPIECE(&j->nnul, JNONE, f->jx, "null", f->jlo, "null", f->jhi, "null");
	j->tail = JPIECE(&j->ntail, JNONE, f->jlo, "null", f->jhi, "null");
	j->head = JPIECE(&j->nhead, JNONE, f->jx, "null", f->jlo);
	j->name = JPIECE(&j->nname, 0, f->name, ":");
}

static void
jplan_make(void)
{
	size_t i, n, r;
	unsigned l;

	for (l = 0; l < FIG_NLEVELS; l++) {
		const struct figure *const *fl = figures_of((enum fig_level)l, FIG_JSON, &n);
		struct jlevel *jl = &jplan[l];

		jl->n = n;
		for (i = 0; i < n && fl[i]->state != 0; i++)
			;
		jl->nstates = i;
		jl->room = 0;
		for (i = 0; i < n; i++) {
			struct jfig *j = &jl->f[i];

			jfig_make(j, fl[i], (enum fig_level)l);
			r = JMAX(j->nnul, JMAX(j->nx + j->ntail, j->nhead + j->nhi + NUMFMT_MAX));
			r += NUMFMT_MAX + JP_PAD;
			jl->room = JMAX(jl->room, r);
		}
	}
	for (r = 0; r < R_NREASONS; r++)
		jreason[r] = JPIECE(&njreason[r], 0, metrics_reason_code((enum reason)r));
	jplan_made = true;
}

static const struct jlevel *
jlevel_of(enum fig_level l)
{
	if (!jplan_made)
		jplan_make();
	return &jplan[l];
}

/* A piece at the end of the line, whose room was made: one copy of a size
 * known when compiled for the usual piece (the bytes past its end are
 * written over next). */
static inline void
jput(struct linebuf *b, const char *s, size_t n)
{
	char *d = b->p + b->len;

	if (n <= JP_PAD)
		memcpy(d, s, JP_PAD);
	else
		memcpy(d, s, n);
	b->len += n;
}

/* A finite number at the end of the line, whose room was made. */
static inline void
jnum(struct linebuf *b, bool frac, double x)
{
	char *d = b->p + b->len;

	d = frac ? numfmt_fixed(d, x, FRAC_DECIMALS) : numfmt_sig(d, x, NUM_DIGITS);
	b->len = (size_t)(d - b->p);
}

/* --- shapes --------------------------------------------------------------
 * The form of each figure of an object (exact, a bound, null, absent with
 * a reason) is most often the same from one object and one line to the
 * next: a shape, made when first met (jshape_make), holds the text between
 * its numbers as whole pieces and its absent members, so that an object
 * of a known shape is its pieces and numbers. A few shapes are kept per
 * level (and per range of a core's figures), the last one met tried
 * first. */
enum { JF_EXACT = 1, JF_BOUND, JF_NULL, JF_WHY /* + the reason */ };

#define JS_NUMS (2 * FIG_MAX)
#define JS_SLOTS 8
#define JS_KEYW ((FIG_MAX + 7) / 8)

struct jshape {
	uint64_t key[JS_KEYW];        /* the forms, a byte each; 0: none */
	bool used;
	size_t nnum, room;
	unsigned char fig[JS_NUMS];   /* each number's figure */
	unsigned char part[JS_NUMS];  /* and which: 0 the value, 1 lo, 2 hi */
	size_t at[JS_NUMS + 1], len[JS_NUMS + 1];   /* the pieces in text */
	struct linebuf text;          /* the pieces, each padded for jput */
	struct linebuf absent;        /* "name":"code",... (no braces) */
};

struct jcache {
	struct jshape s[JS_SLOTS];
	unsigned last, next;
};

/* [level][range: 0, or 1 for a core's figures after the split's shares] */
static struct jcache jcache[FIG_NLEVELS][2];

/* The form of one figure, as write_figs writes it. */
static inline unsigned
jform(const struct jfig *f, const struct val *v, bool split)
{
	if (f->state && !split)
		return JF_WHY + R_NO_SPLIT;
	if (v->kind == V_EXACT && isfinite(v->v))
		return JF_EXACT;
	if (v->kind == V_BOUND && isfinite(v->lo) && isfinite(v->hi))
		return JF_BOUND;
	if (v->kind == V_NONE && v->why != R_NONE && (unsigned)v->why < R_NREASONS)
		return JF_WHY + (unsigned)v->why;
	return JF_NULL;
}

static const struct val *
jval(const struct jfig *f, const void *obj)
{
	return (const struct val *)(const void *)((const char *)obj + f->off);
}

/* Close the piece being made in sh->text (pad it) and start the next. */
static void
jshape_cut(struct jshape *sh, size_t *k)
{
	sh->len[*k] = sh->text.len - sh->at[*k];
	lb_room(&sh->text, JP_PAD);
	memset(sh->text.p + sh->text.len, 0, JP_PAD);
	sh->text.len += JP_PAD;
	sh->at[++*k] = sh->text.len;
}

static void
jshape_num(struct jshape *sh, size_t *k, size_t fig, unsigned part)
{
	jshape_cut(sh, k);
	sh->fig[sh->nnum] = (unsigned char)fig;
	sh->part[sh->nnum++] = (unsigned char)part;
}

static void
jshape_make(struct jshape *sh, const struct jlevel *jl, size_t from, size_t to,
    const unsigned char *form)
{
	size_t i, k = 0;

	memcpy(sh->key, form, sizeof sh->key);
	sh->used = true;
	sh->nnum = 0;
	sh->text.len = sh->absent.len = 0;
	sh->at[0] = 0;
	for (i = from; i < to; i++) {
		const struct jfig *f = &jl->f[i];
		unsigned fm = form[i - from];

		if (fm == JF_EXACT) {
			lb_mem(&sh->text, f->x, f->nx);
			jshape_num(sh, &k, i, 0);
			lb_mem(&sh->text, f->tail, f->ntail);
		} else if (fm == JF_BOUND) {
			lb_mem(&sh->text, f->head, f->nhead);
			jshape_num(sh, &k, i, 1);
			lb_mem(&sh->text, f->hi, f->nhi);
			jshape_num(sh, &k, i, 2);
		} else {
			lb_mem(&sh->text, f->nul, f->nnul);
		}
		if (fm >= JF_WHY) {
			if (sh->absent.len > 0)
				lb_char(&sh->absent, ',');
			lb_mem(&sh->absent, f->name, f->nname);
			lb_mem(&sh->absent, jreason[fm - JF_WHY], njreason[fm - JF_WHY]);
		}
	}
	jshape_cut(sh, &k);
	sh->room = sh->text.len + sh->nnum * NUMFMT_MAX;
}

/* The forms of figures [from, end) of obj, a byte each. */
static inline void
jkey(unsigned char *kb, const struct jlevel *jl, size_t from, size_t end, const void *obj,
    bool split)
{
	size_t i;

	for (i = from; i < end; i++)
		kb[i - from] = (unsigned char)jform(&jl->f[i], jval(&jl->f[i], obj), split);
}

/* The shape of figures [from, to) of obj: one kept, or made. */
static const struct jshape *
jshape_of(const struct jlevel *jl, unsigned range, size_t from, size_t to, const void *obj,
    bool split)
{
	struct jcache *c = &jcache[jl - jplan][range];
	union {
		uint64_t w[JS_KEYW];
		unsigned char b[JS_KEYW * 8];
	} key;
	struct jshape *sh;
	size_t end;
	unsigned k, w;

	memset(&key, 0, sizeof key);
	end = to <= from ? from : to - from > FIG_MAX ? from + FIG_MAX : to;
	if (split)      /* the usual call: jform's test of split made here */
		jkey(key.b, jl, from, end, obj, true);
	else
		jkey(key.b, jl, from, end, obj, false);
	for (k = 0; k < JS_SLOTS; k++) {
		sh = &c->s[(c->last + k) % JS_SLOTS];
		for (w = 0; w < JS_KEYW && sh->key[w] == key.w[w]; w++)
			;
		if (sh->used && w == JS_KEYW) {
			c->last = (c->last + k) % JS_SLOTS;
			return sh;
		}
	}
	sh = &c->s[c->next];
	c->last = c->next;
	c->next = (c->next + 1) % JS_SLOTS;
	jshape_make(sh, jl, from, to, key.b);
	return sh;
}

/* The figures [from, to) of `obj`, a struct of jl's level, each as its
 * three members (`split` false: a share of the split is absent,
 * R_NO_SPLIT: the four-way split exists only for cores of two threads);
 * their shape, whose absent members write_absent writes. `range` (0, 1)
 * tells an object's ranges apart: each has shapes of its own, so the
 * first's stays while the second's is made. */
static const struct jshape *
write_figs(struct linebuf *b, const struct jlevel *jl, unsigned range, size_t from, size_t to,
    const void *obj, bool split)
{
	const struct jshape *sh = jshape_of(jl, range, from, to, obj, split);
	size_t k;

	lb_room(b, sh->room);
	for (k = 0; k < sh->nnum; k++) {
		const struct jfig *f = &jl->f[sh->fig[k]];
		const struct val *v = jval(f, obj);

		jput(b, sh->text.p + sh->at[k], sh->len[k]);
		jnum(b, f->frac, sh->part[k] == 0 ? v->v : sh->part[k] == 1 ? v->lo : v->hi);
	}
	jput(b, sh->text.p + sh->at[k], sh->len[k]);
	return sh;
}

/* Why a valid object's figures are absent: ,"absent":{"cpi":"stopped"}
 * with the reason codes, only when one is: the absent members of its
 * shapes a and b (NULL: none). */
static void
write_absent(struct linebuf *b, const struct jshape *a, const struct jshape *c)
{
	size_t na = a != NULL ? a->absent.len : 0, nc = c != NULL ? c->absent.len : 0;

	if (na + nc == 0)
		return;
	lb_lit(b, ",\"absent\":{");
	if (na > 0)
		lb_mem(b, a->absent.p, na);
	if (na > 0 && nc > 0)
		lb_char(b, ',');
	if (nc > 0)
		lb_mem(b, c->absent.p, nc);
	lb_char(b, '}');
}

/* The counters another program stopped: ,"stopped":["inst"]. */
static void
write_stopped(struct linebuf *b, unsigned mask)
{
	unsigned k;
	bool first = true;

	if (mask == 0)
		return;
	lb_lit(b, ",\"stopped\":[");
	for (k = 0; k < SLOT_NKINDS; k++) {
		if (!(mask & KIND_BIT(k)))
			continue;
		if (!first)
			lb_char(b, ',');
		first = false;
		json_str(b, slot_kind_name((enum slot_kind)k));
	}
	lb_char(b, ']');
}

static void
write_agg(struct linebuf *b, const struct agg_fig *a)
{
	const struct jlevel *jl = jlevel_of(FIG_AGG);
	const struct jshape *sh;

	lb_lit(b, "\"ncores\":");
	lb_u64(b, a->ncores);
	lb_lit(b, ",\"nvalid\":");
	lb_u64(b, a->nvalid);
	lb_lit(b, ",\"exact\":");
	json_bool(b, a->exact);
	sh = write_figs(b, jl, 0, 0, jl->n, a, true);
	write_absent(b, sh, NULL);
}

/* The node's weights (metrics_node_weights): what a viewer of many nodes
 * combines their aggregates by, so that it need not read the threads. */
static void
write_weights(struct linebuf *b, const struct interval *iv, const struct topology *t)
{
	struct agg_weights w;

	metrics_node_weights(iv, t, &w);
	lb_lit(b, ",\"weights\":{\"tsc\":");
	lb_u64(b, (uint64_t)w.time);
	lb_lit(b, ",\"ref\":");
	lb_u64(b, (uint64_t)w.ref);
	lb_lit(b, ",\"inst\":");
	lb_u64(b, (uint64_t)w.inst);
	lb_char(b, '}');
}

/* Where the core sits: {"row","col"} in its package's grid, the tile's
 * number ("id") and the CHA when known; null when the layout does not
 * place it. */
/* The watched job: what names it; the node's figures are then its cores'. */
static void
write_job(struct linebuf *b, const struct job_ident *j, const struct interval *iv)
{
	const struct val *cpu_s = &iv->node.cpu_s;
	const struct val *rate[2] = { &iv->job_cpi, &iv->job_ghz };
	static const char *const rname[2] = { "cpi", "ghz" };
	const char *const keys[] = { "kind", "id", "user", "name", "cgroup", "pid" };
	const char *const vals[] = { j->kind, j->id, j->user, j->name, j->cgroup, j->pid };
	size_t i;

	lb_lit(b, ",\"job\":{");
	for (i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		if (i > 0)
			lb_char(b, ',');
		lb_char(b, '"');
		lb_str(b, keys[i]);
		lb_lit(b, "\":");
		if (vals[i][0] != '\0')
			json_str(b, vals[i]);
		else
			lb_lit(b, "null");
	}
	/* The job's own CPU seconds (the node's cpu_s: the job's cores),
	 * null where its tasks are not told apart (the node's absent says
	 * why), or a bound (cpu_s_lo, cpu_s_hi: part of its cores' time
	 * not counted). */
	lb_lit(b, ",\"cpu_s\":");
	if (cpu_s->kind == V_EXACT) {
		lb_sig(b, cpu_s->v, 6);
	} else if (cpu_s->kind == V_BOUND) {
		lb_lit(b, "null,\"cpu_s_lo\":");
		lb_sig(b, cpu_s->lo, 6);
		lb_lit(b, ",\"cpu_s_hi\":");
		lb_sig(b, cpu_s->hi, 6);
	} else {
		lb_lit(b, "null");
	}
	/* Its own CPI and GHz (perf's cgroup events), null with the reason
	 * in "absent" where they are not had: the node's are the CPUs'. */
	for (i = 0; i < 2; i++) {
		lb_lit(b, ",\"");
		lb_str(b, rname[i]);
		lb_lit(b, "\":");
		if (rate[i]->kind == V_EXACT)
			lb_sig(b, rate[i]->v, 6);
		else
			lb_lit(b, "null");
	}
	if (rate[0]->kind != V_EXACT || rate[1]->kind != V_EXACT) {
		lb_lit(b, ",\"absent\":{");
		for (i = 0; i < 2; i++) {
			if (rate[i]->kind == V_EXACT)
				continue;
			if (i == 1 && rate[0]->kind != V_EXACT)
				lb_char(b, ',');
			lb_char(b, '"');
			lb_str(b, rname[i]);
			lb_lit(b, "\":\"");
			lb_str(b, metrics_reason_code(rate[i]->why));
			lb_char(b, '"');
		}
		lb_char(b, '}');
	}
	lb_char(b, '}');
}

/* A core's place on its die: {"row":R,"col":C[,"id":I][,"cha":H]} or
 * null. */
static void
tile_value(struct linebuf *b, const struct die_layout *l, unsigned core)
{
	const struct core_place *p;

	if (l == NULL || core >= l->ncores || !l->cores[core].placed) {
		lb_lit(b, "null");
		return;
	}
	p = &l->cores[core];
	lb_lit(b, "{\"row\":");
	lb_u64(b, p->row);
	lb_lit(b, ",\"col\":");
	lb_u64(b, p->col);
	if (p->slot >= 0) {
		lb_lit(b, ",\"id\":");
		lb_u64(b, (uint64_t)p->slot);
	}
	if (p->cha >= 0) {
		lb_lit(b, ",\"cha\":");
		lb_u64(b, (uint64_t)p->cha);
	}
	lb_char(b, '}');
}

static void
write_tile(struct linebuf *b, const struct die_layout *l, unsigned core)
{
	lb_lit(b, ",\"tile\":");
	tile_value(b, l, core);
}

/* A core's CPUs, thread 0 first: [a,b]. */
static void
cpus_value(struct linebuf *b, const struct topo_core *tc)
{
	unsigned t;

	lb_char(b, '[');
	for (t = 0; t < tc->nthreads && t < TOPO_MAX_SMT; t++) {
		if (t > 0)
			lb_char(b, ',');
		lb_u64(b, tc->cpus[t]);
	}
	lb_char(b, ']');
}

static void
write_core(struct linebuf *b, const char *head, size_t nhead, const struct die_layout *l,
    const struct topo_core *tc, const struct core_fig *c)
{
	/* The four-way split exists only for cores of exactly two threads. */
	bool two = tc->nthreads == 2;
	const struct jlevel *jl = jlevel_of(FIG_CORE);
	const struct jshape *s1, *s2;

	lb_mem(b, head, nhead);
	write_tile(b, l, tc->index);
	s1 = write_figs(b, jl, 0, 0, jl->nstates, c, two);
	lb_lit(b, ",\"exact\":");
	json_bool(b, c->exact);
	s2 = write_figs(b, jl, 1, jl->nstates, jl->n, c, two);
	lb_lit(b, ",\"valid\":");
	json_bool(b, c->reason == R_NONE);
	if (c->reason != R_NONE) {
		lb_lit(b, ",\"reason\":");
		json_str(b, metrics_reason_code(c->reason));
		lb_lit(b, ",\"reason_text\":");
		json_str(b, metrics_reason_text(c->reason));
	}
	if (c->fallback != R_NONE) {
		lb_lit(b, ",\"fallback\":");
		json_str(b, metrics_reason_code(c->fallback));
	}
	if (c->reason == R_NONE)
		write_absent(b, s1, s2);
	write_stopped(b, c->stopped);
	lb_lit(b, ",\"inconsistency\":");
	json_num(b, FRAC, c->inconsistency);
	/* Multiplexed counts, scaled by enabled/running (perf source). */
	if (c->scaled)
		lb_lit(b, ",\"scaled\":true");
	if (c->has_truth) {
		lb_lit(b, ",\"truth\":{\"neither\":");
		json_num(b, FRAC, c->truth[0]);
		lb_lit(b, ",\"t0_only\":");
		json_num(b, FRAC, c->truth[1]);
		lb_lit(b, ",\"t1_only\":");
		json_num(b, FRAC, c->truth[2]);
		lb_lit(b, ",\"both\":");
		json_num(b, FRAC, c->truth[3]);
		lb_char(b, '}');
	}
	lb_char(b, '}');
}

/* A thread's first members: {"cpu":..,"package":..,"core":..,"thread":..,"valid": */
static void
thread_head(struct linebuf *h, const struct topology *topo, unsigned cpu)
{
	const struct topo_cpu *tc = &topo->cpus[cpu];

	lb_lit(h, "{\"cpu\":");
	lb_u64(h, cpu);
	lb_lit(h, ",\"package\":");
	lb_u64(h, tc->package);
	lb_lit(h, ",\"core\":");
	lb_u64(h, topo->cores[tc->core].core_id);
	lb_lit(h, ",\"thread\":");
	lb_u64(h, tc->thread);
	lb_lit(h, ",\"valid\":");
}

static void
write_thread(struct linebuf *b, const struct topology *topo, const struct linebuf *head,
    const size_t *head_at, unsigned cpu, const struct thread_fig *th)
{
	const struct jlevel *jl = jlevel_of(FIG_THREAD);
	const struct jshape *sh;

	if (head_at[cpu + 1] > head_at[cpu])
		lb_mem(b, head->p + head_at[cpu], head_at[cpu + 1] - head_at[cpu]);
	else
		thread_head(b, topo, cpu);
	json_bool(b, th->reason == R_NONE);
	if (th->reason != R_NONE) {
		lb_lit(b, ",\"reason\":");
		json_str(b, metrics_reason_code(th->reason));
	}
	sh = write_figs(b, jl, 0, 0, jl->n, th, true);
	if (th->reason == R_NONE) {
		write_absent(b, sh, NULL);
		write_stopped(b, th->stopped);
	}
	if (th->scaled)
		lb_lit(b, ",\"scaled\":true");
	lb_char(b, '}');
}

/* --- the compact form (--compact; httop(1), OUTPUT FORMATS) -------------
 * The same head, then the cores and threads as positional arrays (the
 * figures are the table's, metrics/figures.h, in JSON order; a late one,
 * added since, comes after the flags, before "more"):
 *   "core_list": [[package, core, [cpus], tile], ...]  after "node", in
 *                the first line and whenever it changes (the cores shown,
 *                their CPUs or tiles), else not written;
 *   "packages" as in the full form, then
 *   "core_figs": [[neither, t0_only, t1_only, both, util, active_threads,
 *                issue_util, cpi, ghz, inconsistency, flags (, more)], ...]
 *                one per core of the last core_list, in its order;
 *   "thread_figs": [[cpu, util, cpi, nominal_cpi, ghz, net_ghz, ipc,
 *                flags, the late figures (, more)], ...].
 * A figure is its number when exact, [lo, hi] when a bound, its reason
 * code when absent with one (where the full form's "absent" gives it),
 * null when absent without; flags: 1 exact, 2 scaled; "more" an object
 * with "reason", "fallback" and "stopped" as the full form writes them,
 * only when one is there. Numbers are written as in the full form,
 * trailing zeros of a fraction dropped (the same value read back). */

/* A fraction's trailing zeros (and a bare point) off the end of the line. */
static void
trim_zeros(struct linebuf *b, size_t from)
{
	size_t k;

	if (memchr(b->p + from, '.', b->len - from) == NULL)
		return;
	for (k = b->len; k > from + 1 && b->p[k - 1] == '0'; k--)
		;
	if (b->p[k - 1] == '.')
		k--;
	b->len = k;
}

static void
compact_num(struct linebuf *b, enum numkind k, double x)
{
	size_t from = b->len;

	json_num(b, k, x);
	if (k == FRAC && isfinite(x))
		trim_zeros(b, from);
}

/* One figure; `why` whether an absent one's reason is written. */
static void
compact_val(struct linebuf *b, enum numkind k, struct val v, bool why)
{
	double x = NAN, lo = NAN, hi = NAN;

	switch (out_shape(v, &x, &lo, &hi)) {
	case OUT_EXACT:
		compact_num(b, k, x);
		break;
	case OUT_BOUND:
		lb_char(b, '[');
		compact_num(b, k, lo);
		lb_char(b, ',');
		compact_num(b, k, hi);
		lb_char(b, ']');
		break;
	default:
		if (why && v.kind == V_NONE && v.why != R_NONE)
			json_str(b, metrics_reason_code(v.why));
		else
			lb_lit(b, "null");
	}
}

/* The element's last member: {"reason":..,"fallback":..,"stopped":[..]}
 * when one of them is there. */
static void
compact_more(struct linebuf *b, enum reason reason, enum reason fallback, unsigned stopped)
{
	size_t at;

	if (reason == R_NONE && fallback == R_NONE && stopped == 0)
		return;
	lb_lit(b, ",{");
	at = b->len;
	if (reason != R_NONE) {
		lb_lit(b, ",\"reason\":");
		json_str(b, metrics_reason_code(reason));
	}
	if (fallback != R_NONE) {
		lb_lit(b, ",\"fallback\":");
		json_str(b, metrics_reason_code(fallback));
	}
	write_stopped(b, stopped);
	/* the first member's comma off */
	memmove(b->p + at, b->p + at + 1, b->len - at - 1);
	b->len--;
	lb_char(b, '}');
}

/* An aggregate: "agg":[ncores, nvalid, exact (1 or 0), neither, t0_only,
 * t1_only, both, util, active_threads, ghz, cpi, both_of_busy]. */
static void
compact_agg(struct linebuf *b, const struct agg_fig *a)
{
	size_t i, n;
	const struct figure *const *fl = figures_of(FIG_AGG, FIG_JSON, &n);

	lb_lit(b, "\"agg\":[");
	lb_u64(b, a->ncores);
	lb_char(b, ',');
	lb_u64(b, a->nvalid);
	lb_char(b, ',');
	lb_u64(b, a->exact ? 1u : 0u);
	for (i = 0; i < n; i++) {
		lb_char(b, ',');
		compact_val(b, fig_numkind(fl[i]), *fig_val(fl[i], FIG_AGG, a), true);
	}
	lb_char(b, ']');
}

static void
compact_core(struct linebuf *b, const struct topo_core *tc, const struct core_fig *c)
{
	bool two = tc->nthreads == 2, valid = c->reason == R_NONE;
	size_t i, n, early;
	const struct figure *const *fl = figures_of(FIG_CORE, FIG_JSON, &n);

	early = figures_early(fl, n);
	lb_char(b, '[');
	for (i = 0; i < early; i++) {
		compact_val(b, fig_numkind(fl[i]), fig_value(fl[i], FIG_CORE, c, two), valid);
		lb_char(b, ',');
	}
	compact_num(b, FRAC, c->inconsistency);
	lb_char(b, ',');
	lb_u64(b, (c->exact ? 1u : 0u) | (c->scaled ? 2u : 0u));
	for (; i < n; i++) {
		lb_char(b, ',');
		compact_val(b, fig_numkind(fl[i]), fig_value(fl[i], FIG_CORE, c, two), valid);
	}
	compact_more(b, c->reason, c->fallback, c->stopped);
	lb_char(b, ']');
}

static void
compact_thread(struct linebuf *b, unsigned cpu, const struct thread_fig *th)
{
	bool valid = th->reason == R_NONE;
	size_t i, n, early;
	const struct figure *const *fl = figures_of(FIG_THREAD, FIG_JSON, &n);

	early = figures_early(fl, n);
	lb_char(b, '[');
	lb_u64(b, cpu);
	for (i = 0; i < early; i++) {
		lb_char(b, ',');
		compact_val(b, fig_numkind(fl[i]), *fig_val(fl[i], FIG_THREAD, th), valid);
	}
	lb_char(b, ',');
	lb_u64(b, th->scaled ? 2u : 0u);
	for (; i < n; i++) {
		lb_char(b, ',');
		compact_val(b, fig_numkind(fl[i]), *fig_val(fl[i], FIG_THREAD, th), valid);
	}
	compact_more(b, th->reason, R_NONE, valid ? th->stopped : 0);
	lb_char(b, ']');
}

/* The cores shown, as "core_list" describes them, into bt->desc. */
static void
compact_desc(struct batch *bt, const struct interval *iv)
{
	const struct topology *topo = &bt->m->topo;
	struct linebuf *d = &bt->desc;
	unsigned i;
	bool first = true;

	d->len = 0;
	for (i = 0; i < iv->ncores && i < topo->ncores; i++) {
		const struct topo_core *tc = &topo->cores[i];

		if (!out_core_shown(iv, i))
			continue;
		if (!first)
			lb_char(d, ',');
		first = false;
		lb_char(d, '[');
		lb_u64(d, tc->package);
		lb_char(d, ',');
		lb_u64(d, tc->core_id);
		lb_char(d, ',');
		cpus_value(d, tc);
		lb_char(d, ',');
		tile_value(d, bt->layout, tc->index);
		lb_char(d, ']');
	}
}

/* "core_list" when it changed: before "packages", so that a viewer's
 * parse of a line's head (up to "packages") sees it. */
void
out_json_compact_list(struct batch *bt, const struct interval *iv)
{
	struct linebuf *b = &bt->line;

	compact_desc(bt, iv);
	if (!bt->have_desc || bt->desc.len != bt->last_desc.len ||
	    memcmp(bt->desc.p, bt->last_desc.p, bt->desc.len) != 0) {
		lb_lit(b, ",\"core_list\":[");
		lb_mem(b, bt->desc.p, bt->desc.len);
		lb_char(b, ']');
		bt->last_desc.len = 0;
		lb_mem(&bt->last_desc, bt->desc.p, bt->desc.len);
		bt->have_desc = true;
	}
}

void
out_json_compact_tail(struct batch *bt, const struct interval *iv)
{
	struct linebuf *b = &bt->line;
	const struct topology *topo = &bt->m->topo;
	unsigned i;
	bool first;

	lb_lit(b, ",\"core_figs\":[");
	first = true;
	for (i = 0; i < iv->ncores && i < topo->ncores; i++) {
		if (!out_core_shown(iv, i))
			continue;
		if (!first)
			lb_char(b, ',');
		first = false;
		compact_core(b, &topo->cores[i], &iv->cores[i]);
	}
	lb_lit(b, "],\"thread_figs\":[");
	first = true;
	for (i = 0; i < iv->max_cpu && i < topo->max_cpu; i++) {
		if (!out_thread_shown(iv, i) || !topo->cpus[i].present)
			continue;
		if (!first)
			lb_char(b, ',');
		first = false;
		compact_thread(b, i, &iv->threads[i]);
	}
	lb_lit(b, "]}\n");
}

/* A line's head: the times, whether it is valid, the machine, source and
 * plan, the layout. */
static void
write_head(struct linebuf *b, const struct batch *bt, const struct interval *iv)
{
	lb_lit(b, "{\"time\":");
	json_time(b, iv->time);
	/* The wall-clock time, so that the lines of many nodes line up:
	 * Unix seconds and ISO 8601 in the local zone, the same instant. */
	if (bt->wt.known) {
		lb_lit(b, ",\"unix_time\":");
		lb_mem(b, bt->wt.unix6, bt->wt.unix6_len);
		lb_lit(b, ",\"iso_time\":\"");
		lb_mem(b, bt->wt.iso, bt->wt.iso_len);
		lb_char(b, '"');
	} else {
		lb_lit(b, ",\"unix_time\":null,\"iso_time\":null");
	}
	lb_lit(b, ",\"interval\":");
	json_time(b, iv->dt);
	lb_lit(b, ",\"valid\":");
	json_bool(b, iv->valid);
	if (!iv->valid) {
		lb_lit(b, ",\"reason\":");
		json_str(b, iv->reason_c);
	}
	lb_lit(b, ",\"host\":");
	json_str(b, bt->m->hostname);
	/* The CPU, as the live view's header names it (a node opened from
	 * the nodes view gives it so); "" where not known. Compact lines
	 * give it once, in the first: it does not change. */
	if (!bt->compact || bt->nwritten == 0) {
		lb_lit(b, ",\"brand\":");
		json_str(b, machine_brand(bt->m));
	}
	lb_lit(b, ",\"source\":");
	json_str(b, bt->source_name);
	lb_lit(b, ",\"group\":");
	json_str(b, uarch_group_name(bt->p->group));
	lb_lit(b, ",\"split\":");
	json_str(b, plan_split_name(bt->p));
	/* A source without counters has no reference-clock scale: null, with
	 * why (the reason code of its absent CPI and GHz). */
	lb_lit(b, ",\"scale\":");
	if (plan_has_scale(bt->p))
		lb_u64(b, bt->p->scale);
	else {
		lb_lit(b, "null,\"scale_absent\":");
		json_str(b, metrics_reason_code(R_NOT_COUNTED));
	}
	/* Figures that are not the counters' (sched, procstat) say what they
	 * are, and what their counts stand for. */
	if (plan_meaning(bt->p) != NULL) {
		lb_lit(b, ",\"basis\":");
		json_str(b, plan_basis_name(bt->p->basis));
		lb_lit(b, ",\"meaning\":");
		json_str(b, plan_meaning(bt->p));
	}
	lb_lit(b, ",\"layout\":");
	if (bt->layout != NULL) {
		json_str(b, layout_kind_name(bt->layout->kind));
		lb_lit(b, ",\"layout_basis\":");
		json_str(b, layout_basis_name(bt->layout->basis));
		lb_lit(b, ",\"cores_assumed\":");
		json_bool(b, bt->layout->cores_assumed);
		/* Why the layout is not physical (needs root, ...), when it is not. */
		if (bt->layout->note[0] != '\0') {
			lb_lit(b, ",\"layout_note\":");
			json_str(b, bt->layout->note);
		}
	} else {
		lb_lit(b, "null");
	}
}

/* The first members of each thread's object ({"cpu":..,"package":..,
 * "core":..,"thread":..,"valid":) and each core's ({"package":..,"core":..,
 * "cpus":[..]), which only the topology gives, made on the first line:
 * thread i's at bt->heads.p + head_at[i] up to head_at[i + 1], then the
 * cores' from head_at[max_cpu + 1] on. */
static void
json_heads_make(struct batch *bt)
{
	const struct topology *topo = &bt->m->topo;
	struct linebuf *h = &bt->heads;
	size_t *at = xcalloc((size_t)topo->max_cpu + topo->ncores + 2, sizeof *at);
	unsigned i;

	h->len = 0;
	for (i = 0; i < topo->max_cpu; i++) {
		const struct topo_cpu *tc = &topo->cpus[i];

		at[i] = h->len;
		/* an offline CPU whose core is not known: none */
		if (tc->present && tc->core < topo->ncores)
			thread_head(h, topo, i);
	}
	at[topo->max_cpu] = h->len;
	for (i = 0; i < topo->ncores; i++) {
		const struct topo_core *tc = &topo->cores[i];

		at[topo->max_cpu + 1 + i] = h->len;
		lb_lit(h, "{\"package\":");
		lb_u64(h, tc->package);
		lb_lit(h, ",\"core\":");
		lb_u64(h, tc->core_id);
		lb_lit(h, ",\"cpus\":");
		cpus_value(h, tc);
	}
	at[topo->max_cpu + 1 + topo->ncores] = h->len;
	bt->head_at = at;
}

void
out_json_write(struct batch *bt, const struct interval *iv)
{
	struct linebuf *b = &bt->line;
	const struct topology *topo = &bt->m->topo;
	const size_t *core_at;
	unsigned i;
	bool first;

	b->len = 0;
	write_head(b, bt, iv);
	if (bt->has_job)
		write_job(b, &bt->job, iv);
	if (bt->whole)
		lb_lit(b, ",\"window\":\"run\"");
	lb_lit(b, ",\"node\":{");
	if (bt->compact)
		compact_agg(b, &iv->node);
	else
		write_agg(b, &iv->node);
	write_weights(b, iv, topo);
	lb_char(b, '}');
	if (bt->compact)
		out_json_compact_list(bt, iv);
	lb_lit(b, ",\"packages\":[");
	for (i = 0; i < iv->npackages && i < topo->npackages; i++) {
		if (i > 0)
			lb_char(b, ',');
		lb_lit(b, "{\"package\":");
		lb_u64(b, bt->pkg_id[i]);
		lb_char(b, ',');
		if (bt->compact)
			compact_agg(b, &iv->packages[i]);
		else
			write_agg(b, &iv->packages[i]);
		lb_char(b, '}');
	}
	lb_char(b, ']');
	if (bt->compact) {
		out_json_compact_tail(bt, iv);
		lb_flush(b, bt->fp);
		return;
	}
	if (bt->head_at == NULL)
		json_heads_make(bt);
	core_at = bt->head_at + topo->max_cpu + 1;
	lb_lit(b, ",\"cores\":[");
	first = true;
	for (i = 0; i < iv->ncores && i < topo->ncores; i++) {
		if (!out_core_shown(iv, i))
			continue;
		if (!first)
			lb_char(b, ',');
		first = false;
		write_core(b, bt->heads.p + core_at[i], core_at[i + 1] - core_at[i], bt->layout,
		    &topo->cores[i], &iv->cores[i]);
	}
	lb_lit(b, "],\"threads\":[");
	first = true;
	for (i = 0; i < iv->max_cpu && i < topo->max_cpu; i++) {
		if (!out_thread_shown(iv, i) || !topo->cpus[i].present)
			continue;
		if (!first)
			lb_char(b, ',');
		first = false;
		write_thread(b, topo, &bt->heads, bt->head_at, i, &iv->threads[i]);
	}
	lb_lit(b, "]}\n");
	lb_flush(b, bt->fp);
}

int
out_run_bare_json(FILE *fp, const struct run_bare *r)
{
	static const char *const unmeasured[] = { "neither", "t0_only", "t1_only", "both", "util",
	    "active_threads", "ghz", "cpi" };
	struct linebuf b;
	size_t i;
	int err;

	memset(&b, 0, sizeof b);
	lb_lit(&b, "{\"command\":[");
	for (i = 0; r->argv != NULL && r->argv[i] != NULL; i++) {
		if (i > 0)
			lb_char(&b, ',');
		json_str(&b, r->argv[i]);
	}
	lb_lit(&b, "],\"pid\":");
	lb_u64(&b, r->pid > 0 ? (uint64_t)r->pid : 0);
	lb_lit(&b, ",\"status\":");
	lb_u64(&b, r->status > 0 ? (uint64_t)r->status : 0);
	lb_lit(&b, ",\"signal\":");
	if (r->signal > 0)
		lb_u64(&b, (uint64_t)r->signal);
	else
		lb_lit(&b, "null");
	lb_lit(&b, ",\"elapsed\":");
	json_time(&b, r->seconds);
	lb_lit(&b, ",\"user_cpu\":");
	if (r->have_cpu)
		json_time(&b, r->user);
	else
		lb_lit(&b, "null");
	lb_lit(&b, ",\"system_cpu\":");
	if (r->have_cpu)
		json_time(&b, r->system);
	else
		lb_lit(&b, "null");
	lb_lit(&b, ",\"host\":");
	json_str(&b, r->host != NULL ? r->host : "");
	lb_lit(&b, ",\"unix_time\":");
	if (r->unix_time > 0.0)
		lb_fixed(&b, r->unix_time, 6);
	else
		lb_lit(&b, "null");
	lb_lit(&b, ",\"source\":null,\"not_measured\":[");
	for (i = 0; i < sizeof unmeasured / sizeof unmeasured[0]; i++) {
		if (i > 0)
			lb_char(&b, ',');
		json_str(&b, unmeasured[i]);
	}
	lb_lit(&b, "],\"reason\":");
	json_str(&b, r->why != NULL ? r->why : "");
	lb_lit(&b, "}\n");
	errno = 0;
	lb_flush(&b, fp);
	err = b.err;
	lb_free(&b);
	errno = 0;
	if (err == 0 && fflush(fp) != 0)
		err = errno != 0 ? errno : EIO;
	return err;
}
