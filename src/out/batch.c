/* batch.c: the batch writer: the table of formats, set-up, one write per
 * interval through its format, error handling. */
#include "config.h"
#include "out/batch.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "out/ommerge.h"
#include "util/i18n.h"
#include "util/numparse.h"
#include "util/textwrap.h"
#include "util/textesc.h"
#include "util/xalloc.h"

/* The formats, by enum out_format: the name --format takes and the writer
 * of one interval. */
static const struct {
	const char *name;
	void (*write)(struct batch *b, const struct interval *iv);
} formats[] = {
	[FMT_TEXT] = { "text", out_text_write },
	[FMT_CSV] = { "csv", out_csv_write },
	[FMT_JSON] = { "json", out_json_write },
	[FMT_OPENMETRICS] = { "openmetrics", out_openmetrics_write },
	[FMT_SUMMARY] = { "summary", out_summary_write },
};

int
out_format_parse(const char *s, enum out_format *f)
{
	size_t i;

	for (i = 0; i < sizeof formats / sizeof formats[0]; i++) {
		if (strcmp(s, formats[i].name) == 0) {
			*f = (enum out_format)i;
			return 0;
		}
	}
	return -1;
}

static const char *const level_names[] = {
	[OUT_LEVEL_NODE] = "node",
	[OUT_LEVEL_PACKAGE] = "package",
	[OUT_LEVEL_CORE] = "core",
	[OUT_LEVEL_THREAD] = "thread",
};

int
out_level_parse(const char *s, enum out_level *l)
{
	size_t i;

	for (i = 0; i < sizeof level_names / sizeof level_names[0]; i++) {
		if (strcmp(s, level_names[i]) == 0) {
			*l = (enum out_level)i;
			return 0;
		}
	}
	return -1;
}

const char *
out_level_name(enum out_level l)
{
	if ((size_t)l < sizeof level_names / sizeof level_names[0])
		return level_names[l];
	return "?";
}

const char *
out_format_name(enum out_format f)
{
	if ((size_t)f < sizeof formats / sizeof formats[0])
		return formats[f].name;
	return "?";
}

struct batch *
batch_new(enum out_format f, FILE *fp, const struct machine *m, const struct plan *p,
    const char *source_name)
{
	struct batch *b = xcalloc(1, sizeof *b);
	const struct topology *t = &m->topo;
	unsigned i, n = 0;

	b->fmt = f;
	b->fp = fp;
	b->m = m;
	b->p = p;
	b->source_name = source_name != NULL ? source_name : "";
	b->level = OUT_LEVEL_THREAD;
	/* interval.packages[] follows the packages in topology order; the
	 * cores are sorted by package, so each new package id starts one. */
	b->pkg_id = xcalloc(t->npackages + 1, sizeof *b->pkg_id);
	for (i = 0; i < t->ncores && n < t->npackages; i++) {
		if (n == 0 || t->cores[i].package != b->pkg_id[n - 1])
			b->pkg_id[n++] = t->cores[i].package;
	}
	return b;
}

int
batch_write(struct batch *b, const struct interval *iv, struct errmsg *e)
{
	int werr;

	walltime_format(&b->wt, iv->wall);
	errno = 0;
	formats[b->fmt].write(b, iv);
	/* A write that failed inside an fprintf above (stdio's buffer filled
	 * mid-interval) left its errno; the rest of that fprintf is dropped,
	 * so the flush below may have nothing to write and set none. */
	werr = ferror(b->fp) ? errno : 0;
	b->nwritten++;
	/* One flush per interval: a reader of a pipe sees each interval whole
	 * and at once; the error of any fprintf above shows up here too. */
	errno = 0;
	if (fflush(b->fp) != 0 || ferror(b->fp)) {
		b->err = b->line.err != 0 ? b->line.err : werr != 0 ? werr : errno != 0 ? errno : EIO;
		b->line.err = 0;
		clearerr(b->fp);
		return errmsg_set(e, _("writing the %s output failed: %s; check the disk or the program "
		    "reading httop's output"), out_format_name(b->fmt), strerror(b->err));
	}
	return 0;
}

int
batch_write_whole(struct batch *b, const struct interval *iv, struct errmsg *e)
{
	int rc;

	b->whole = true;
	rc = batch_write(b, iv, e);
	b->whole = false;
	return rc;
}

/* The end: with -n N, OpenMetrics's one exposition, kept so far, and its
 * "# EOF" (a stream's expositions each ended with theirs). */
int
batch_end(struct batch *b, struct errmsg *e)
{
	if (b == NULL || b->merge == NULL || b->nwritten == 0 || b->ended)
		return 0;
	/* all written by batch_om_spill already: no empty exposition */
	if (b->om_spilled && ommerge_fed(b->merge) == 0)
		return 0;
	b->ended = true;
	errno = 0;
	(void)ommerge_write(b->merge, b->fp);
	if (fputs("# EOF\n", b->fp) == EOF || fflush(b->fp) != 0 || ferror(b->fp)) {
		b->err = errno != 0 ? errno : EIO;
		clearerr(b->fp);
		if (b->err == EPIPE)
			return 0;
		return errmsg_set(e, _("writing the %s output failed: %s; check the disk or the program "
		    "reading httop's output"), out_format_name(b->fmt), strerror(b->err));
	}
	return 0;
}

/* The one exposition is held in memory until the end: at the default
 * --level about 0.5 MB an interval on 272 CPUs, so a command's run of a
 * day at -d 1 would hold tens of GB. Past OM_HOLD bytes what is held is
 * written as an exposition of its own and a new one begins: the output
 * is then a stream of a few large expositions (said once), the memory
 * bounded. HTTOP_TEST_OM_HOLD (bytes) is a test hook a set-ID or
 * file-capability httop never reads (secure_getenv). */
#define OM_HOLD (64u << 20)

static size_t
om_hold(void)
{
	const char *v = secure_getenv("HTTOP_TEST_OM_HOLD");
	unsigned long long n;

	if (v != NULL && num_uint(v, OM_HOLD, &n) == NUM_OK && n > 0)
		return (size_t)n;
	return OM_HOLD;
}

void
batch_set_one_exposition(struct batch *b, bool on)
{
	if (on && b->merge == NULL && b->fmt == FMT_OPENMETRICS) {
		b->merge = ommerge_new();
		b->om_hold = om_hold();
	}
}

void
batch_om_spill(struct batch *b)
{
	if (b->merge == NULL || ommerge_fed(b->merge) <= b->om_hold)
		return;
	(void)ommerge_write(b->merge, b->fp);
	fputs("# EOF\n", b->fp);
	ommerge_free(b->merge);
	b->merge = ommerge_new();
	if (!b->om_spilled)
		text_msgf(_("httop: openmetrics: the one exposition outgrew the %.3g MiB httop holds "
		    "in memory: written, and a new one begun; the output is a stream of expositions "
		    "(each ends \"# EOF\"; give a lower --level to hold more intervals)\n"),
		    (double)b->om_hold / 1048576.0);
	b->om_spilled = true;
}

int
batch_errno(const struct batch *b)
{
	return b->err;
}

void
batch_set_header(struct batch *b, bool on)
{
	if (b != NULL)
		b->no_header = !on;
}

void
batch_set_scope(struct batch *b, enum out_scope s)
{
	if (b != NULL)
		b->scope = s;
}

/* Never translated: csv's kind and summary's column are read by programs. */
const char *
out_scope_name(enum out_scope s)
{
	return s == OUT_SCOPE_JOB ? "job" : s == OUT_SCOPE_RUN ? "run" : "node";
}

void
batch_set_job(struct batch *b, const struct job_ident *j)
{
	if (b == NULL)
		return;
	b->has_job = j != NULL;
	if (j == NULL)
		return;
	b->job = *j;
	text_escape(b->job_id_esc, sizeof b->job_id_esc, j->id);
	text_escape(b->job_kind_esc, sizeof b->job_kind_esc, j->kind);
}

void
batch_set_layout(struct batch *b, const struct die_layout *l)
{
	if (b != NULL)
		b->layout = l;
}

void
batch_set_compact(struct batch *b, bool on)
{
	if (b != NULL)
		b->compact = on;
}

void
batch_set_level(struct batch *b, enum out_level l)
{
	if (b != NULL)
		b->level = l;
}

void
batch_free(struct batch *b)
{
	if (b == NULL)
		return;
	if (b->tot != NULL)
		totals_free(b->tot);
	free(b->tot);
	free(b->pkg_id);
	lb_free(&b->line);
	lb_free(&b->desc);
	lb_free(&b->last_desc);
	lb_free(&b->heads);
	free(b->head_at);
	ommerge_free(b->merge);
	free(b);
}
