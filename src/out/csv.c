/* csv.c: RFC 4180 CSV. One header line, then per interval a row of each
 * kind: node, package, core, thread (first column "kind"). Every row has
 * every column; cells that do not apply to a kind are empty, absent
 * figures are empty, a bound is in the figure's _lo and _hi columns. An
 * interval's rows are built in one buffer and written at once. */
#include "config.h"
#include "out/format.h"

#include <math.h>
#include <string.h>

#include "util/textesc.h"

/* The columns. A figure that may be exact, a bound or absent has three:
 * x (the exact value), x_lo and x_hi (the bound), as in the JSON output.
 * unix_time, the interval's wall-clock time, came later: it is last, so
 * that readers that count columns still find the others where they were;
 * host, the node's name (--host), came after it for the same reason, and
 * job (the watched job's id, empty without one) after that. */
enum col {
	C_KIND, C_TIME, C_INTERVAL, C_VALID, C_REASON, C_PACKAGE, C_CORE, C_CPUS, C_CPU,
	C_NEITHER, C_NEITHER_LO, C_NEITHER_HI, C_T0_ONLY, C_T0_ONLY_LO, C_T0_ONLY_HI,
	C_T1_ONLY, C_T1_ONLY_LO, C_T1_ONLY_HI, C_BOTH, C_BOTH_LO, C_BOTH_HI, C_EXACT, C_UTIL,
	C_UTIL_LO, C_UTIL_HI, C_ACTIVE_THREADS, C_ACTIVE_THREADS_LO, C_ACTIVE_THREADS_HI,
	C_ISSUE_UTIL, C_ISSUE_UTIL_LO, C_ISSUE_UTIL_HI, C_CPI, C_CPI_LO, C_CPI_HI,
	C_NOMINAL_CPI, C_NOMINAL_CPI_LO, C_NOMINAL_CPI_HI, C_GHZ, C_GHZ_LO, C_GHZ_HI,
	C_NET_GHZ, C_NET_GHZ_LO, C_NET_GHZ_HI, C_IPC, C_IPC_LO, C_IPC_HI, C_BOTH_OF_BUSY,
	C_BOTH_OF_BUSY_LO, C_BOTH_OF_BUSY_HI, C_INCONSISTENCY, C_FALLBACK, C_TRUTH_NEITHER,
	C_TRUTH_T0_ONLY, C_TRUTH_T1_ONLY, C_TRUTH_BOTH, C_ABSENT, C_STOPPED, C_UNIX_TIME, C_HOST,
	C_JOB, NCOLS
};

static const char *const col_names[NCOLS] = {
	"kind", "time", "interval", "valid", "reason", "package", "core", "cpus", "cpu",
	"neither", "neither_lo", "neither_hi", "t0_only", "t0_only_lo", "t0_only_hi",
	"t1_only", "t1_only_lo", "t1_only_hi", "both", "both_lo", "both_hi", "exact", "util",
	"util_lo", "util_hi", "active_threads", "active_threads_lo", "active_threads_hi",
	"issue_util", "issue_util_lo", "issue_util_hi", "cpi", "cpi_lo", "cpi_hi",
	"nominal_cpi", "nominal_cpi_lo", "nominal_cpi_hi", "ghz", "ghz_lo", "ghz_hi",
	"net_ghz", "net_ghz_lo", "net_ghz_hi", "ipc", "ipc_lo", "ipc_hi", "both_of_busy",
	"both_of_busy_lo", "both_of_busy_hi", "inconsistency", "fallback", "truth_neither",
	"truth_t0_only", "truth_t1_only", "truth_both", "absent", "stopped", "unix_time",
	"host", "job",
};

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
	const char *cell[NCOLS];
	unsigned short len[NCOLS];
	bool text[NCOLS];
	char buf[NCOLS * NUMFMT_MAX];
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
	r->cell[c] = start;
	r->len[c] = (unsigned short)(end - start);
	r->used = (size_t)(end - r->buf);
}

static void
set_text(struct row *r, enum col c, const char *s)
{
	r->cell[c] = s;
	r->len[c] = (unsigned short)strlen(s);
	r->text[c] = true;
}

static void
row_start(struct row *r, const char *kind)
{
	memset(r->cell, 0, sizeof r->cell);
	memset(r->text, 0, sizeof r->text);
	r->used = 0;
	set_text(r, C_KIND, kind);
	r->cell[C_TIME] = r->time;
	r->len[C_TIME] = r->time_len;
	r->cell[C_INTERVAL] = r->dt;
	r->len[C_INTERVAL] = r->dt_len;
	r->cell[C_HOST] = r->host;
	r->len[C_HOST] = r->host_len;
	r->text[C_HOST] = true;
	if (r->wt->known) {
		r->cell[C_UNIX_TIME] = r->wt->unix6;
		r->len[C_UNIX_TIME] = (unsigned short)r->wt->unix6_len;
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
	r->cell[c] = b ? "1" : "0";
	r->len[c] = 1;
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

	for (c = 0; c < NCOLS; c++) {
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
set_absent(struct row *r, const enum col *cols, const struct val *const *v, size_t n)
{
	size_t i, used = 0;

	r->absent[0] = '\0';
	for (i = 0; i < n && used < sizeof r->absent; i++) {
		if (v[i]->kind != V_NONE || v[i]->why == R_NONE)
			continue;
		used += (size_t)snprintf(r->absent + used, sizeof r->absent - used, "%s%s:%s",
		    used ? " " : "", col_names[cols[i]], metrics_reason_code(v[i]->why));
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

static void
agg_row(struct row *r, const struct agg_fig *a)
{
	static const enum col cols[] = { C_NEITHER, C_T0_ONLY, C_T1_ONLY, C_BOTH, C_UTIL,
	    C_ACTIVE_THREADS, C_GHZ, C_CPI, C_BOTH_OF_BUSY };
	const struct val *const v[] = { &a->neither, &a->t0_only, &a->t1_only, &a->both,
	    &a->util, &a->active_threads, &a->ghz, &a->cpi, &a->both_of_busy };

	set_val(r, C_NEITHER, FRAC, a->neither);
	set_val(r, C_T0_ONLY, FRAC, a->t0_only);
	set_val(r, C_T1_ONLY, FRAC, a->t1_only);
	set_val(r, C_BOTH, FRAC, a->both);
	set_bool(r, C_EXACT, a->exact);
	set_val(r, C_UTIL, FRAC, a->util);
	set_val(r, C_ACTIVE_THREADS, NUM, a->active_threads);
	set_val(r, C_GHZ, NUM, a->ghz);
	set_val(r, C_CPI, NUM, a->cpi);
	set_val(r, C_BOTH_OF_BUSY, FRAC, a->both_of_busy);
	set_absent(r, cols, v, sizeof cols / sizeof cols[0]);
}

static void
core_row(struct row *r, const struct topo_core *tc, const struct core_fig *c)
{
	bool two = tc->nthreads == 2;
	char *p, *q;
	unsigned t;
	struct val none = val_absent(R_NO_SPLIT);
	static const enum col cols[] = { C_NEITHER, C_T0_ONLY, C_T1_ONLY, C_BOTH, C_UTIL,
	    C_ACTIVE_THREADS, C_ISSUE_UTIL, C_CPI, C_GHZ };
	const struct val *const v[] = { two ? &c->neither : &none, two ? &c->t0_only : &none,
	    two ? &c->t1_only : &none, two ? &c->both : &none, &c->util, &c->active_threads,
	    &c->issue_util, &c->cpi, &c->ghz };

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
	if (two) {
		set_val(r, C_NEITHER, FRAC, c->neither);
		set_val(r, C_T0_ONLY, FRAC, c->t0_only);
		set_val(r, C_T1_ONLY, FRAC, c->t1_only);
		set_val(r, C_BOTH, FRAC, c->both);
	}
	set_bool(r, C_EXACT, c->exact);
	set_val(r, C_UTIL, FRAC, c->util);
	set_val(r, C_ACTIVE_THREADS, NUM, c->active_threads);
	set_val(r, C_ISSUE_UTIL, FRAC, c->issue_util);
	set_val(r, C_CPI, NUM, c->cpi);
	set_val(r, C_GHZ, NUM, c->ghz);
	set_num(r, C_INCONSISTENCY, FRAC, c->inconsistency);
	if (c->fallback != R_NONE)
		set_text(r, C_FALLBACK, metrics_reason_code(c->fallback));
	if (c->reason == R_NONE)
		set_absent(r, cols, v, sizeof cols / sizeof cols[0]);
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
	static const enum col cols[] = { C_UTIL, C_CPI, C_NOMINAL_CPI, C_GHZ, C_NET_GHZ, C_IPC };
	const struct val *const v[] = { &th->util, &th->cpi, &th->nominal_cpi, &th->ghz,
	    &th->net_ghz, &th->ipc };

	set_bool(r, C_VALID, th->reason == R_NONE);
	if (th->reason != R_NONE)
		set_text(r, C_REASON, metrics_reason_code(th->reason));
	set_uint(r, C_PACKAGE, tc->package);
	set_uint(r, C_CORE, topo->cores[tc->core].core_id);
	set_uint(r, C_CPU, cpu);
	set_val(r, C_UTIL, FRAC, th->util);
	set_val(r, C_CPI, NUM, th->cpi);
	set_val(r, C_NOMINAL_CPI, NUM, th->nominal_cpi);
	set_val(r, C_GHZ, NUM, th->ghz);
	set_val(r, C_NET_GHZ, NUM, th->net_ghz);
	set_val(r, C_IPC, NUM, th->ipc);
	if (th->reason == R_NONE) {
		set_absent(r, cols, v, sizeof cols / sizeof cols[0]);
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
	if (b->nwritten == 0) {
		for (c = 0; c < NCOLS; c++) {
			if (c > 0)
				lb_char(lb, ',');
			lb_str(lb, col_names[c]);
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
	r.job = b->has_job ? b->job.id : NULL;

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
