/* csv.c: RFC 4180 CSV. One header line, then per interval a row of each
 * kind: node, package, core, thread (first column "kind"). Every row has
 * every column; cells that do not apply to a kind are empty, absent
 * figures are empty, a bound is in the figure's _lo and _hi columns. An
 * interval's rows are built in one buffer and written at once. */
#include "config.h"
#include "out/format.h"

#include <math.h>
#include <string.h>

#include "metrics/figures.h"
#include "util/textesc.h"

/* The columns. A figure that may be exact, a bound or absent has three:
 * x (the exact value), x_lo and x_hi (the bound), as in the JSON output;
 * the figures are the table's (metrics/figures.h), in its order, "exact"
 * after the shares of the split. unix_time, the interval's wall-clock
 * time, came later: it is after them, so that readers that count columns
 * still find the others where they were; host, the node's name (--host),
 * came after it for the same reason, and job (the watched job's id, empty
 * without one) after that, and the figures added since (late) after
 * those. A cell is set by its id (enum col, then FIGCOL of a row of the
 * table), and stored at its position (col_pos): both made once. */
enum col {
	C_KIND, C_TIME, C_INTERVAL, C_VALID, C_REASON, C_PACKAGE, C_CORE, C_CPUS, C_CPU,
	C_EXACT, C_INCONSISTENCY, C_FALLBACK, C_TRUTH_NEITHER, C_TRUTH_T0_ONLY, C_TRUTH_T1_ONLY,
	C_TRUTH_BOTH, C_ABSENT, C_STOPPED, C_UNIX_TIME, C_HOST, C_JOB, NFIXED
};

/* The id of the first of a table row's three columns. */
#define FIGCOL(f) (NFIXED + 3 * (int)((f) - figures))
#define NCOLS_MAX (NFIXED + 3 * FIG_MAX)

static const char *const fixed_names[NFIXED] = {
	"kind", "time", "interval", "valid", "reason", "package", "core", "cpus", "cpu",
	"exact", "inconsistency", "fallback", "truth_neither", "truth_t0_only",
	"truth_t1_only", "truth_both", "absent", "stopped", "unix_time", "host", "job",
};

/* The columns in order, by id, and their names; each id's position
 * (cells are stored there): made once. */
static int col_order[NCOLS_MAX], col_pos[NCOLS_MAX];
static const char *col_names[NCOLS_MAX];
static int ncols;

static void
add_fig_cols(const struct figure *f)
{
	int c = FIGCOL(f);

	col_order[ncols++] = c;
	col_order[ncols++] = c + 1;
	col_order[ncols++] = c + 2;
	col_names[c] = f->name;
	col_names[c + 1] = f->lo;
	col_names[c + 2] = f->hi;
}

static void
make_cols(void)
{
	size_t i;
	int c;

	for (c = 0; c < NFIXED; c++)
		col_names[c] = fixed_names[c];
	for (c = C_KIND; c <= C_CPU; c++)
		col_order[ncols++] = c;
	for (i = 0; i < nfigures && i < FIG_MAX; i++) {
		if (!(figures[i].formats & FIG_CSV) || figures[i].late)
			continue;
		add_fig_cols(&figures[i]);
		if (figures[i].state == 4)
			col_order[ncols++] = C_EXACT;
	}
	for (c = C_INCONSISTENCY; c < NFIXED; c++)
		col_order[ncols++] = c;
	for (i = 0; i < nfigures && i < FIG_MAX; i++)
		if ((figures[i].formats & FIG_CSV) && figures[i].late)
			add_fig_cols(&figures[i]);
	for (c = 0; c < ncols; c++)
		col_pos[col_order[c]] = c;
}

/* Precision as in the JSON output (json.c says why): fractions of time to
 * 10 decimals, rates and ratios to 6 significant digits, times to the
 * microsecond, counts as integers. */
enum numkind { FRAC, NUM };
#define FRAC_DECIMALS 10
#define NUM_DIGITS 6
#define TIME_DECIMALS 6

/* One row under construction: each cell is a span of buf, or a string
 * that outlives the row (reason codes); NULL is an empty cell. Only text
 * cells can need quoting. */
struct row {
	const char *cell[NCOLS_MAX];
	unsigned short len[NCOLS_MAX];
	bool text[NCOLS_MAX];
	char buf[NCOLS_MAX * NUMFMT_MAX];
	size_t used;
	char absent[512];          /* C_ABSENT: "cpi:stopped ipc:stopped" */
	char reason[4 * 256];      /* C_REASON of the node: escaped (textesc.h) */
	char stopped[128];         /* C_STOPPED: "inst any" */
	/* the interval's time and length, formatted once per interval */
	char time[NUMFMT_MAX], dt[NUMFMT_MAX];
	unsigned short time_len, dt_len;
	const struct walltime *wt; /* its wall time: empty when not known */
	const char *host;          /* the node's name, every row */
	unsigned short host_len;
	const char *job;           /* the watched job's id, or NULL */
};

static void
set_span(struct row *r, enum col c, const char *start, const char *end)
{
	r->cell[col_pos[c]] = start;
	r->len[col_pos[c]] = (unsigned short)(end - start);
	r->used = (size_t)(end - r->buf);
}

static void
set_text(struct row *r, enum col c, const char *s)
{
	r->cell[col_pos[c]] = s;
	r->len[col_pos[c]] = (unsigned short)strlen(s);
	r->text[col_pos[c]] = true;
}

static void
row_start(struct row *r, const char *kind)
{
	/* the columns there are only: the table's rows, not FIG_MAX */
	memset(r->cell, 0, (size_t)ncols * sizeof r->cell[0]);
	memset(r->text, 0, (size_t)ncols * sizeof r->text[0]);
	r->used = 0;
	set_text(r, C_KIND, kind);
	r->cell[col_pos[C_TIME]] = r->time;
	r->len[col_pos[C_TIME]] = r->time_len;
	r->cell[col_pos[C_INTERVAL]] = r->dt;
	r->len[col_pos[C_INTERVAL]] = r->dt_len;
	r->cell[col_pos[C_HOST]] = r->host;
	r->len[col_pos[C_HOST]] = r->host_len;
	r->text[col_pos[C_HOST]] = true;
	if (r->wt->known) {
		r->cell[col_pos[C_UNIX_TIME]] = r->wt->unix6;
		r->len[col_pos[C_UNIX_TIME]] = (unsigned short)r->wt->unix6_len;
	}
	if (r->job != NULL)
		set_text(r, C_JOB, r->job);
}

static char *
put_num(char *p, enum numkind k, double x)
{
	return k == FRAC ? numfmt_fixed(p, x, FRAC_DECIMALS) : numfmt_sig(p, x, NUM_DIGITS);
}

static void
set_num(struct row *r, enum col c, enum numkind k, double x)
{
	char *p = r->buf + r->used;

	if (isfinite(x))
		set_span(r, c, p, put_num(p, k, x));
}

static void
set_uint(struct row *r, enum col c, unsigned u)
{
	char *p = r->buf + r->used;

	set_span(r, c, p, numfmt_u64(p, u));
}

static void
set_bool(struct row *r, enum col c, bool b)
{
	r->cell[col_pos[c]] = b ? "1" : "0";
	r->len[col_pos[c]] = 1;
}

/* A figure into its three columns (c, c + 1 = _lo, c + 2 = _hi): exact in
 * the first, a bound in the other two, absent in none. */
static void
set_val(struct row *r, enum col c, enum numkind k, struct val v)
{
	double x, lo, hi;

	switch (out_shape(v, &x, &lo, &hi)) {
	case OUT_EXACT:
		set_num(r, c, k, x);
		break;
	case OUT_BOUND:
		set_num(r, c + 1, k, lo);
		set_num(r, c + 2, k, hi);
		break;
	case OUT_ABSENT:
		break;
	}
}

static void
put_cell(struct linebuf *b, const char *s, size_t n, bool text)
{
	size_t i;

	if (!text || (memchr(s, ',', n) == NULL && memchr(s, '"', n) == NULL &&
	    memchr(s, '\r', n) == NULL && memchr(s, '\n', n) == NULL)) {
		lb_mem(b, s, n);
		return;
	}
	lb_char(b, '"');
	for (i = 0; i < n; i++) {
		if (s[i] == '"')
			lb_char(b, '"');
		lb_char(b, s[i]);
	}
	lb_char(b, '"');
}

/* Records end with LF, not RFC 4180's CRLF: CSV readers accept both, and
 * awk/cut users would otherwise find a CR in the last column. */
static void
row_end(struct linebuf *b, const struct row *r)
{
	int c;

	for (c = 0; c < ncols; c++) {
		if (c > 0)
			lb_char(b, ',');
		if (r->cell[c] != NULL)
			put_cell(b, r->cell[c], r->len[c], r->text[c]);
	}
	lb_char(b, '\n');
}

/* Why figures of the row are absent, "cpi:stopped ipc:stopped" (names
 * as the columns, reason codes); the cell stays empty when none is. */
static void
set_absent(struct row *r, const struct figure *const *fl, size_t n, enum fig_level l,
    const void *obj, bool split)
{
	size_t i, used = 0;
	struct val v;

	r->absent[0] = '\0';
	for (i = 0; i < n && used < sizeof r->absent; i++) {
		v = fig_value(fl[i], l, obj, split);
		if (v.kind != V_NONE || v.why == R_NONE)
			continue;
		used += (size_t)snprintf(r->absent + used, sizeof r->absent - used, "%s%s:%s",
		    used ? " " : "", fl[i]->name, metrics_reason_code(v.why));
	}
	if (r->absent[0] != '\0')
		set_text(r, C_ABSENT, r->absent);
}

/* The counters another program stopped, "inst any". */
static void
set_stopped(struct row *r, unsigned mask)
{
	size_t used = 0;
	unsigned k;

	r->stopped[0] = '\0';
	for (k = 0; k < SLOT_NKINDS && used < sizeof r->stopped; k++)
		if (mask & KIND_BIT(k))
			used += (size_t)snprintf(r->stopped + used, sizeof r->stopped - used,
			    "%s%s", used ? " " : "", slot_kind_name((enum slot_kind)k));
	if (mask != 0)
		set_text(r, C_STOPPED, r->stopped);
}

/* The figures of `obj` (level l) into their columns; where the core has
 * no split (`split` false), its shares are left empty. */
static void
set_figs(struct row *r, const struct figure *const *fl, size_t n, enum fig_level l,
    const void *obj, bool split)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (fl[i]->state == 0 || split)
			set_val(r, FIGCOL(fl[i]), fig_is_frac(fl[i]) ? FRAC : NUM, *fig_val(fl[i], l, obj));
}

static void
agg_row(struct row *r, const struct agg_fig *a)
{
	size_t n;
	const struct figure *const *fl = figures_of(FIG_AGG, FIG_CSV, &n);

	set_figs(r, fl, n, FIG_AGG, a, true);
	set_bool(r, C_EXACT, a->exact);
	set_absent(r, fl, n, FIG_AGG, a, true);
}

static void
core_row(struct row *r, const struct topo_core *tc, const struct core_fig *c)
{
	bool two = tc->nthreads == 2;
	char *p, *q;
	unsigned t;
	size_t n;
	const struct figure *const *fl = figures_of(FIG_CORE, FIG_CSV, &n);

	set_bool(r, C_VALID, c->reason == R_NONE);
	if (c->reason != R_NONE)
		set_text(r, C_REASON, metrics_reason_code(c->reason));
	set_uint(r, C_PACKAGE, tc->package);
	set_uint(r, C_CORE, tc->core_id);
	/* CPUs separated by spaces, thread 0 first: no quoting needed. */
	p = q = r->buf + r->used;
	for (t = 0; t < tc->nthreads && t < TOPO_MAX_SMT; t++) {
		if (t > 0)
			*q++ = ' ';
		q = numfmt_u64(q, tc->cpus[t]);
	}
	set_span(r, C_CPUS, p, q);
	set_figs(r, fl, n, FIG_CORE, c, two);
	set_bool(r, C_EXACT, c->exact);
	set_num(r, C_INCONSISTENCY, FRAC, c->inconsistency);
	if (c->fallback != R_NONE)
		set_text(r, C_FALLBACK, metrics_reason_code(c->fallback));
	if (c->reason == R_NONE)
		set_absent(r, fl, n, FIG_CORE, c, two);
	set_stopped(r, c->stopped);
	if (c->has_truth) {
		set_num(r, C_TRUTH_NEITHER, FRAC, c->truth[0]);
		set_num(r, C_TRUTH_T0_ONLY, FRAC, c->truth[1]);
		set_num(r, C_TRUTH_T1_ONLY, FRAC, c->truth[2]);
		set_num(r, C_TRUTH_BOTH, FRAC, c->truth[3]);
	}
}

static void
thread_row(struct row *r, const struct topology *topo, unsigned cpu, const struct thread_fig *th)
{
	const struct topo_cpu *tc = &topo->cpus[cpu];
	size_t n;
	const struct figure *const *fl = figures_of(FIG_THREAD, FIG_CSV, &n);

	set_bool(r, C_VALID, th->reason == R_NONE);
	if (th->reason != R_NONE)
		set_text(r, C_REASON, metrics_reason_code(th->reason));
	set_uint(r, C_PACKAGE, tc->package);
	set_uint(r, C_CORE, topo->cores[tc->core].core_id);
	set_uint(r, C_CPU, cpu);
	set_figs(r, fl, n, FIG_THREAD, th, true);
	if (th->reason == R_NONE) {
		set_absent(r, fl, n, FIG_THREAD, th, true);
		set_stopped(r, th->stopped);
	}
}

void
out_csv_write(struct batch *b, const struct interval *iv)
{
	const struct topology *topo = &b->m->topo;
	struct linebuf *lb = &b->line;
	struct row r;
	unsigned i;
	int c;

	lb->len = 0;
	if (ncols == 0)
		make_cols();
	if (b->nwritten == 0) {
		for (c = 0; c < ncols; c++) {
			if (c > 0)
				lb_char(lb, ',');
			lb_str(lb, col_names[col_order[c]]);
		}
		lb_char(lb, '\n');
	}
	r.time_len = (unsigned short)(numfmt_fixed_all(r.time, isfinite(iv->time) ? iv->time : 0.0,
	    TIME_DECIMALS) - r.time);
	r.dt_len = (unsigned short)(numfmt_fixed_all(r.dt, isfinite(iv->dt) ? iv->dt : 0.0,
	    TIME_DECIMALS) - r.dt);
	r.wt = &b->wt;
	r.host = b->m->hostname;
	r.host_len = (unsigned short)strnlen(b->m->hostname, sizeof b->m->hostname);
	r.job = b->has_job ? b->job_id_esc : NULL;

	row_start(&r, out_scope_name(b->scope));
	set_bool(&r, C_VALID, iv->valid);
	if (!iv->valid)
		set_text(&r, C_REASON, text_escape(r.reason, sizeof r.reason, iv->reason_c));
	agg_row(&r, &iv->node);
	row_end(lb, &r);

	for (i = 0; i < iv->npackages && i < topo->npackages; i++) {
		row_start(&r, "package");
		set_uint(&r, C_PACKAGE, b->pkg_id[i]);
		set_bool(&r, C_VALID, iv->packages[i].nvalid == iv->packages[i].ncores);
		agg_row(&r, &iv->packages[i]);
		row_end(lb, &r);
	}
	for (i = 0; i < iv->ncores && i < topo->ncores; i++) {
		if (!out_core_shown(iv, i))
			continue;
		row_start(&r, "core");
		core_row(&r, &topo->cores[i], &iv->cores[i]);
		row_end(lb, &r);
	}
	for (i = 0; i < iv->max_cpu && i < topo->max_cpu; i++) {
		if (!out_thread_shown(iv, i) || !topo->cpus[i].present)
			continue;
		row_start(&r, "thread");
		thread_row(&r, topo, i, &iv->threads[i]);
		row_end(lb, &r);
	}
	lb_flush(lb, b->fp);
}
