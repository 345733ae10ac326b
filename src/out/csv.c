/* csv.c: RFC 4180 CSV. One header line, then per interval a row of each
 * kind: node, package, core, thread (first column "kind"). Every row has
 * every column; cells that do not apply to a kind are empty, absent
 * figures are empty, bounds are written "lo..hi" in one cell. */
#include "config.h"
#include "out/batch.h"

#include <math.h>
#include <string.h>

enum col {
	C_KIND, C_TIME, C_INTERVAL, C_VALID, C_REASON, C_PACKAGE, C_CORE, C_CPUS, C_CPU,
	C_NEITHER, C_T0_ONLY, C_T1_ONLY, C_BOTH, C_EXACT, C_UTIL, C_ACTIVE_THREADS,
	C_ISSUE_UTIL, C_CPI, C_NOMINAL_CPI, C_GHZ, C_NET_GHZ, C_IPC, C_BOTH_OF_BUSY,
	C_INCONSISTENCY, C_FALLBACK, C_TRUTH_NEITHER, C_TRUTH_T0_ONLY, C_TRUTH_T1_ONLY, C_TRUTH_BOTH,
	C_ABSENT, C_STOPPED,
	NCOLS
};

static const char *const col_names[NCOLS] = {
	"kind", "time", "interval", "valid", "reason", "package", "core", "cpus", "cpu",
	"neither", "t0_only", "t1_only", "both", "exact", "util", "active_threads",
	"issue_util", "cpi", "nominal_cpi", "ghz", "net_ghz", "ipc", "both_of_busy",
	"inconsistency", "fallback", "truth_neither", "truth_t0_only", "truth_t1_only", "truth_both",
	"absent", "stopped",
};

#define FRAC_FMT "%.12g"
#define NUM_FMT "%.6g"

/* One row under construction: each cell points at its buffer or at a
 * string that outlives the row (reason texts); NULL is an empty cell. */
struct row {
	const char *cell[NCOLS];
	char buf[NCOLS][64];
	char absent[512];          /* C_ABSENT: "cpi:stopped ipc:stopped" */
};

static void
row_start(struct row *r, const char *kind, const struct interval *iv)
{
	memset(r->cell, 0, sizeof r->cell);
	r->cell[C_KIND] = kind;
	snprintf(r->buf[C_TIME], sizeof r->buf[C_TIME], "%.6f", isfinite(iv->time) ? iv->time : 0.0);
	r->cell[C_TIME] = r->buf[C_TIME];
	snprintf(r->buf[C_INTERVAL], sizeof r->buf[C_INTERVAL], "%.6f", isfinite(iv->dt) ? iv->dt : 0.0);
	r->cell[C_INTERVAL] = r->buf[C_INTERVAL];
}

static void
set_num(struct row *r, enum col c, const char *fmt, double x)
{
	if (!isfinite(x))
		return;
	snprintf(r->buf[c], sizeof r->buf[c], fmt, x);
	r->cell[c] = r->buf[c];
}

static void
set_uint(struct row *r, enum col c, unsigned u)
{
	snprintf(r->buf[c], sizeof r->buf[c], "%u", u);
	r->cell[c] = r->buf[c];
}

static void
set_bool(struct row *r, enum col c, bool b)
{
	r->cell[c] = b ? "1" : "0";
}

static void
set_val(struct row *r, enum col c, const char *fmt, struct val v)
{
	char lo[24], hi[24];

	if (v.kind == V_EXACT) {
		set_num(r, c, fmt, v.v);
	} else if (v.kind == V_BOUND && isfinite(v.lo) && isfinite(v.hi)) {
		snprintf(lo, sizeof lo, fmt, v.lo);
		snprintf(hi, sizeof hi, fmt, v.hi);
		snprintf(r->buf[c], sizeof r->buf[c], "%s..%s", lo, hi);
		r->cell[c] = r->buf[c];
	}
}

static void
put_cell(FILE *fp, const char *s)
{
	const char *p;

	if (strpbrk(s, ",\"\r\n") == NULL) {
		fputs(s, fp);
		return;
	}
	fputc('"', fp);
	for (p = s; *p != '\0'; p++) {
		if (*p == '"')
			fputc('"', fp);
		fputc(*p, fp);
	}
	fputc('"', fp);
}

/* Records end with LF, not RFC 4180's CRLF: CSV readers accept both, and
 * awk/cut users would otherwise find a CR in the last column. */
static void
row_end(FILE *fp, const struct row *r)
{
	int c;

	for (c = 0; c < NCOLS; c++) {
		if (c > 0)
			fputc(',', fp);
		if (r->cell[c] != NULL)
			put_cell(fp, r->cell[c]);
	}
	fputs("\n", fp);
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
		r->cell[C_ABSENT] = r->absent;
}

/* The counters another program stopped, "inst any". */
static void
set_stopped(struct row *r, unsigned mask)
{
	size_t used = 0;
	unsigned k;

	r->buf[C_STOPPED][0] = '\0';
	for (k = 0; k < SLOT_NKINDS && used < sizeof r->buf[C_STOPPED]; k++)
		if (mask & KIND_BIT(k))
			used += (size_t)snprintf(r->buf[C_STOPPED] + used, sizeof r->buf[C_STOPPED] - used,
			    "%s%s", used ? " " : "", slot_kind_name((enum slot_kind)k));
	if (mask != 0)
		r->cell[C_STOPPED] = r->buf[C_STOPPED];
}

static void
agg_row(struct row *r, const struct agg_fig *a)
{
	static const enum col cols[] = { C_NEITHER, C_T0_ONLY, C_T1_ONLY, C_BOTH, C_UTIL,
	    C_ACTIVE_THREADS, C_GHZ, C_CPI, C_BOTH_OF_BUSY };
	const struct val *const v[] = { &a->neither, &a->t0_only, &a->t1_only, &a->both,
	    &a->util, &a->active_threads, &a->ghz, &a->cpi, &a->both_of_busy };

	set_val(r, C_NEITHER, FRAC_FMT, a->neither);
	set_val(r, C_T0_ONLY, FRAC_FMT, a->t0_only);
	set_val(r, C_T1_ONLY, FRAC_FMT, a->t1_only);
	set_val(r, C_BOTH, FRAC_FMT, a->both);
	set_bool(r, C_EXACT, a->exact);
	set_val(r, C_UTIL, FRAC_FMT, a->util);
	set_val(r, C_ACTIVE_THREADS, NUM_FMT, a->active_threads);
	set_val(r, C_GHZ, NUM_FMT, a->ghz);
	set_val(r, C_CPI, NUM_FMT, a->cpi);
	set_val(r, C_BOTH_OF_BUSY, FRAC_FMT, a->both_of_busy);
	set_absent(r, cols, v, sizeof cols / sizeof cols[0]);
}

static void
core_row(struct row *r, const struct topo_core *tc, const struct core_fig *c)
{
	bool two = tc->nthreads == 2;
	size_t len = 0;
	unsigned t;
	struct val none = val_absent(R_NO_SPLIT);
	static const enum col cols[] = { C_NEITHER, C_T0_ONLY, C_T1_ONLY, C_BOTH, C_UTIL,
	    C_ACTIVE_THREADS, C_ISSUE_UTIL, C_CPI, C_GHZ };
	const struct val *const v[] = { two ? &c->neither : &none, two ? &c->t0_only : &none,
	    two ? &c->t1_only : &none, two ? &c->both : &none, &c->util, &c->active_threads,
	    &c->issue_util, &c->cpi, &c->ghz };

	set_bool(r, C_VALID, c->reason == R_NONE);
	if (c->reason != R_NONE)
		r->cell[C_REASON] = metrics_reason_code(c->reason);
	set_uint(r, C_PACKAGE, tc->package);
	set_uint(r, C_CORE, tc->core_id);
	/* CPUs separated by spaces, thread 0 first: no quoting needed. */
	r->buf[C_CPUS][0] = '\0';
	for (t = 0; t < tc->nthreads && t < TOPO_MAX_SMT && len < sizeof r->buf[C_CPUS]; t++)
		len += (size_t)snprintf(r->buf[C_CPUS] + len, sizeof r->buf[C_CPUS] - len, "%s%u",
		    t ? " " : "", tc->cpus[t]);
	r->cell[C_CPUS] = r->buf[C_CPUS];
	if (two) {
		set_val(r, C_NEITHER, FRAC_FMT, c->neither);
		set_val(r, C_T0_ONLY, FRAC_FMT, c->t0_only);
		set_val(r, C_T1_ONLY, FRAC_FMT, c->t1_only);
		set_val(r, C_BOTH, FRAC_FMT, c->both);
	}
	set_bool(r, C_EXACT, c->exact);
	set_val(r, C_UTIL, FRAC_FMT, c->util);
	set_val(r, C_ACTIVE_THREADS, NUM_FMT, c->active_threads);
	set_val(r, C_ISSUE_UTIL, FRAC_FMT, c->issue_util);
	set_val(r, C_CPI, NUM_FMT, c->cpi);
	set_val(r, C_GHZ, NUM_FMT, c->ghz);
	set_num(r, C_INCONSISTENCY, FRAC_FMT, c->inconsistency);
	if (c->fallback != R_NONE)
		r->cell[C_FALLBACK] = metrics_reason_code(c->fallback);
	if (c->reason == R_NONE)
		set_absent(r, cols, v, sizeof cols / sizeof cols[0]);
	set_stopped(r, c->stopped);
	if (c->has_truth) {
		set_num(r, C_TRUTH_NEITHER, FRAC_FMT, c->truth[0]);
		set_num(r, C_TRUTH_T0_ONLY, FRAC_FMT, c->truth[1]);
		set_num(r, C_TRUTH_T1_ONLY, FRAC_FMT, c->truth[2]);
		set_num(r, C_TRUTH_BOTH, FRAC_FMT, c->truth[3]);
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
		r->cell[C_REASON] = metrics_reason_code(th->reason);
	set_uint(r, C_PACKAGE, tc->package);
	set_uint(r, C_CORE, topo->cores[tc->core].core_id);
	set_uint(r, C_CPU, cpu);
	set_val(r, C_UTIL, FRAC_FMT, th->util);
	set_val(r, C_CPI, NUM_FMT, th->cpi);
	set_val(r, C_NOMINAL_CPI, NUM_FMT, th->nominal_cpi);
	set_val(r, C_GHZ, NUM_FMT, th->ghz);
	set_val(r, C_NET_GHZ, NUM_FMT, th->net_ghz);
	set_val(r, C_IPC, NUM_FMT, th->ipc);
	if (th->reason == R_NONE) {
		set_absent(r, cols, v, sizeof cols / sizeof cols[0]);
		set_stopped(r, th->stopped);
	}
}

void
out_csv_write(struct batch *b, const struct interval *iv)
{
	const struct topology *topo = &b->m->topo;
	struct row r;
	unsigned i;
	int c;

	if (b->nwritten == 0) {
		for (c = 0; c < NCOLS; c++) {
			if (c > 0)
				fputc(',', b->fp);
			fputs(col_names[c], b->fp);
		}
		fputs("\n", b->fp);
	}

	row_start(&r, "node", iv);
	set_bool(&r, C_VALID, iv->valid);
	if (!iv->valid)
		r.cell[C_REASON] = iv->reason_c;
	agg_row(&r, &iv->node);
	row_end(b->fp, &r);

	for (i = 0; i < iv->npackages && i < topo->npackages; i++) {
		row_start(&r, "package", iv);
		set_uint(&r, C_PACKAGE, b->pkg_id[i]);
		set_bool(&r, C_VALID, iv->packages[i].nvalid == iv->packages[i].ncores);
		agg_row(&r, &iv->packages[i]);
		row_end(b->fp, &r);
	}
	for (i = 0; i < iv->ncores && i < topo->ncores; i++) {
		if (!out_core_shown(iv, i))
			continue;
		row_start(&r, "core", iv);
		core_row(&r, &topo->cores[i], &iv->cores[i]);
		row_end(b->fp, &r);
	}
	for (i = 0; i < iv->max_cpu && i < topo->max_cpu; i++) {
		if (!out_thread_shown(iv, i) || !topo->cpus[i].present)
			continue;
		row_start(&r, "thread", iv);
		thread_row(&r, topo, i, &iv->threads[i]);
		row_end(b->fp, &r);
	}
}
