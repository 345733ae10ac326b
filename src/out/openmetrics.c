/* openmetrics.c: the figures of an interval as metric families, in the
 * OpenMetrics text format (--format openmetrics: one exposition per
 * interval, ending "# EOF") or in the Prometheus text format that the node
 * exporter's textfile collector reads (--textfile; it takes no UNIT or EOF
 * lines and no info type).
 *
 * Every family is a gauge named httop_<level>_<figure>[_<unit>], labelled
 * host, package, core, cpu as its level needs. A figure known exactly is
 * one sample; a bound is two, bound="lower" and bound="upper"; an absent
 * figure has no sample. Nothing that is not a finite number is written. */
#include "config.h"
#include "out/batch.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

#define VAL_FMT "%.12g"

enum level { LV_NODE, LV_PACKAGE, LV_CORE, LV_THREAD };

/* What a family's samples are taken from. */
enum what {
	W_VAL,          /* the struct val at `off` */
	W_SHARE,        /* the four shares: label state */
	W_DT,           /* interval length */
	W_IV_VALID,     /* interval valid: 1 or 0 */
	W_CORES,        /* agg ncores */
	W_VALID_CORES,  /* agg nvalid */
	W_EXACT,        /* agg or core: split exact, 1 or 0 */
	W_VALID,        /* core or thread: has figures, 1 or 0 */
	W_INCONS,       /* core inconsistency */
	W_STOPPED,      /* thread: 1 per stopped counter, label counter */
};

struct family {
	const char *name;    /* after "httop_<level>_" */
	const char *unit;    /* the OpenMetrics unit (the name's last word), or "" */
	const char *help;
	enum what what;
	size_t off;          /* W_VAL: offset of the struct val */
	double scale;        /* GHz to Hz; 1 otherwise */
};

#define AGG(f) offsetof(struct agg_fig, f)
#define CORE(f) offsetof(struct core_fig, f)
#define THR(f) offsetof(struct thread_fig, f)

/* The interval itself (level "interval", label host). */
static const struct family interval_families[] = {
	{ "seconds", "seconds", "Length of the interval the figures cover.", W_DT, 0, 1 },
	{ "valid", "", "1 if every selected core has valid figures this interval, else 0.",
	    W_IV_VALID, 0, 1 },
};

/* The node (label host) and each package (host, package): time-weighted
 * over their valid cores. */
static const struct family agg_families[] = {
	{ "cores", "", "Cores the aggregate is taken over.", W_CORES, 0, 1 },
	{ "valid_cores", "", "Cores with valid figures this interval.", W_VALID_CORES, 0, 1 },
	{ "exact", "", "1 if every contributing core's split is exact, 0 if any is a bound.",
	    W_EXACT, 0, 1 },
	{ "share_ratio", "ratio", "Share of core time with neither SMT thread, thread 0 only, "
	    "thread 1 only or both active (label state).", W_SHARE, 0, 1 },
	{ "utilization_ratio", "ratio", "Share of core time with any thread active.", W_VAL,
	    AGG(util), 1 },
	{ "both_of_busy_ratio", "ratio", "Share of busy core time with both threads active.",
	    W_VAL, AGG(both_of_busy), 1 },
	{ "active_threads", "", "Mean threads active while a core is active.", W_VAL,
	    AGG(active_threads), 1 },
	{ "frequency_hertz", "hertz", "Mean core frequency while active.", W_VAL, AGG(ghz), 1e9 },
	{ "cpi", "", "Core cycles per instruction.", W_VAL, AGG(cpi), 1 },
};

/* Each core (host, package, core: the core id). */
static const struct family core_families[] = {
	{ "valid", "", "1 if the core has figures this interval, else 0.", W_VALID, 0, 1 },
	{ "exact", "", "1 if the core's split is exact, 0 if it is a bound.", W_EXACT, 0, 1 },
	{ "share_ratio", "ratio", "Share of the interval with neither SMT thread, thread 0 only, "
	    "thread 1 only or both active (label state).", W_SHARE, 0, 1 },
	{ "utilization_ratio", "ratio", "Share of the interval with any thread active.", W_VAL,
	    CORE(util), 1 },
	{ "active_threads", "", "Mean threads active while the core is active.", W_VAL,
	    CORE(active_threads), 1 },
	{ "issue_utilization_ratio", "ratio", "Instructions per core cycle over the issue width.",
	    W_VAL, CORE(issue_util), 1 },
	{ "cpi", "", "Core cycles per instruction.", W_VAL, CORE(cpi), 1 },
	{ "frequency_hertz", "hertz", "Mean frequency while active.", W_VAL, CORE(ghz), 1e9 },
	{ "inconsistency_ratio", "ratio", "Largest clamp applied to the counts, as a share of "
	    "the interval.", W_INCONS, 0, 1 },
};

/* Each thread (host, package, core, cpu, thread: 0 or 1 within the core). */
static const struct family thread_families[] = {
	{ "valid", "", "1 if the thread has figures this interval, else 0.", W_VALID, 0, 1 },
	{ "utilization_ratio", "ratio", "Share of the interval the thread was active (not halted).",
	    W_VAL, THR(util), 1 },
	{ "cpi", "", "Cycles per instruction while active (non-halted CPI).", W_VAL, THR(cpi), 1 },
	{ "nominal_cpi", "", "Nominal (TSC) cycles per instruction.", W_VAL, THR(nominal_cpi), 1 },
	{ "frequency_hertz", "hertz", "Mean frequency while active.", W_VAL, THR(ghz), 1e9 },
	{ "net_frequency_hertz", "hertz", "Cycles over the whole interval, halted time included.",
	    W_VAL, THR(net_ghz), 1e9 },
	{ "ipc", "", "Instructions per cycle while active.", W_VAL, THR(ipc), 1 },
	{ "counter_stopped", "", "1 for each counter (label counter) that stood still while "
	    "the counters that move with it advanced: another program stopped it, and the "
	    "figures computed from it have no sample.", W_STOPPED, 0, 1 },
};

static const char *const state_names[4] = { "neither", "t0_only", "t1_only", "both" };

/* One exposition under way. */
struct om {
	FILE *fp;
	bool openmetrics;
	const struct batch *b;
	const struct interval *iv;
	char host[256];          /* the host name, escaped */
	char labels[400];        /* the current object's labels */
};

/* Length of the valid UTF-8 sequence at p (1 to 4), or 0 if it is not one. */
static size_t
utf8_len(const unsigned char *p)
{
	size_t n, i;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		n = 3;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	}
	/* Overlong forms, surrogates, beyond U+10FFFF. */
	if ((p[0] == 0xe0 && p[1] < 0xa0) || (p[0] == 0xed && p[1] >= 0xa0) ||
	    (p[0] == 0xf0 && p[1] < 0x90) || (p[0] == 0xf4 && p[1] >= 0x90))
		return 0;
	return n;
}

/* A label value as both formats want it: backslash, double quote and line
 * feed escaped, and valid UTF-8 (a byte that is not becomes '?'). Cut
 * short rather than overflow `len`. */
static void
escape_label(char *out, size_t len, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t o = 0, n;

	while (*p != '\0' && o + 5 < len) {
		if (*p == '\\' || *p == '"') {
			out[o++] = '\\';
			out[o++] = (char)*p++;
		} else if (*p == '\n') {
			out[o++] = '\\';
			out[o++] = 'n';
			p++;
		} else if ((n = utf8_len(p)) == 0) {
			out[o++] = '?';
			p++;
		} else {
			memcpy(out + o, p, n);
			o += n;
			p += n;
		}
	}
	out[o] = '\0';
}

static void
header(struct om *o, const char *level, const struct family *f)
{
	if (o->openmetrics) {
		fprintf(o->fp, "# TYPE httop_%s_%s gauge\n", level, f->name);
		if (f->unit[0] != '\0')
			fprintf(o->fp, "# UNIT httop_%s_%s %s\n", level, f->name, f->unit);
		fprintf(o->fp, "# HELP httop_%s_%s %s\n", level, f->name, f->help);
	} else {
		fprintf(o->fp, "# HELP httop_%s_%s %s\n", level, f->name, f->help);
		fprintf(o->fp, "# TYPE httop_%s_%s gauge\n", level, f->name);
	}
}

static void
sample(struct om *o, const char *level, const struct family *f, const char *extra, double x)
{
	if (!isfinite(x))
		return;
	fprintf(o->fp, "httop_%s_%s{%s%s} " VAL_FMT "\n", level, f->name, o->labels, extra, x);
}

/* An exact figure is one sample; a bound is two; absent is none. */
static void
sample_val(struct om *o, const char *level, const struct family *f, const char *state,
    struct val v)
{
	char extra[64];

	if (v.kind == V_EXACT) {
		snprintf(extra, sizeof extra, "%s", state);
		sample(o, level, f, extra, v.v * f->scale);
	} else if (v.kind == V_BOUND && isfinite(v.lo) && isfinite(v.hi)) {
		snprintf(extra, sizeof extra, "%s,bound=\"lower\"", state);
		sample(o, level, f, extra, v.lo * f->scale);
		snprintf(extra, sizeof extra, "%s,bound=\"upper\"", state);
		sample(o, level, f, extra, v.hi * f->scale);
	}
}

static void
shares(struct om *o, const char *level, const struct family *f, const struct val s[4])
{
	char state[32];
	int i;

	for (i = 0; i < 4; i++) {
		snprintf(state, sizeof state, ",state=\"%s\"", state_names[i]);
		sample_val(o, level, f, state, s[i]);
	}
}

static void
agg_samples(struct om *o, const char *level, const struct family *f, const struct agg_fig *a)
{
	const struct val s[4] = { a->neither, a->t0_only, a->t1_only, a->both };

	switch (f->what) {
	case W_CORES:
		sample(o, level, f, "", a->ncores);
		break;
	case W_VALID_CORES:
		sample(o, level, f, "", a->nvalid);
		break;
	case W_EXACT:
		sample(o, level, f, "", a->exact);
		break;
	case W_SHARE:
		shares(o, level, f, s);
		break;
	case W_VAL:
		sample_val(o, level, f, "", *(const struct val *)((const char *)a + f->off));
		break;
	default:
		break;
	}
}

static void
core_samples(struct om *o, const struct family *f, const struct topo_core *tc,
    const struct core_fig *c)
{
	const struct val s[4] = { c->neither, c->t0_only, c->t1_only, c->both };

	switch (f->what) {
	case W_VALID:
		sample(o, "core", f, "", c->reason == R_NONE);
		break;
	case W_EXACT:
		if (c->reason == R_NONE)
			sample(o, "core", f, "", c->exact);
		break;
	case W_SHARE:
		/* The four-way split exists only for cores of two threads. */
		if (tc->nthreads == 2)
			shares(o, "core", f, s);
		break;
	case W_INCONS:
		if (c->reason == R_NONE)
			sample(o, "core", f, "", c->inconsistency);
		break;
	case W_VAL:
		sample_val(o, "core", f, "", *(const struct val *)((const char *)c + f->off));
		break;
	default:
		break;
	}
}

static void
thread_samples(struct om *o, const struct family *f, const struct thread_fig *t)
{
	char extra[64];
	unsigned k;

	if (f->what == W_VALID) {
		sample(o, "thread", f, "", t->reason == R_NONE);
	} else if (f->what == W_VAL) {
		sample_val(o, "thread", f, "", *(const struct val *)((const char *)t + f->off));
	} else if (f->what == W_STOPPED && t->reason == R_NONE) {
		for (k = 0; k < SLOT_NKINDS; k++) {
			if (!(t->stopped & KIND_BIT(k)))
				continue;
			snprintf(extra, sizeof extra, ",counter=\"%s\"",
			    slot_kind_name((enum slot_kind)k));
			sample(o, "thread", f, extra, 1.0);
		}
	}
}

static void
write_interval(struct om *o)
{
	size_t i;

	snprintf(o->labels, sizeof o->labels, "host=\"%s\"", o->host);
	for (i = 0; i < sizeof interval_families / sizeof interval_families[0]; i++) {
		const struct family *f = &interval_families[i];

		header(o, "interval", f);
		if (f->what == W_DT)
			sample(o, "interval", f, "", o->iv->dt);
		else
			sample(o, "interval", f, "", o->iv->valid);
	}
}

static void
write_aggs(struct om *o)
{
	const struct interval *iv = o->iv;
	unsigned np = iv->npackages < o->b->m->topo.npackages ? iv->npackages :
	    o->b->m->topo.npackages;
	unsigned p;
	size_t i;

	for (i = 0; i < sizeof agg_families / sizeof agg_families[0]; i++) {
		const struct family *f = &agg_families[i];

		header(o, "node", f);
		snprintf(o->labels, sizeof o->labels, "host=\"%s\"", o->host);
		agg_samples(o, "node", f, &iv->node);
	}
	for (i = 0; i < sizeof agg_families / sizeof agg_families[0]; i++) {
		const struct family *f = &agg_families[i];

		header(o, "package", f);
		for (p = 0; p < np; p++) {
			snprintf(o->labels, sizeof o->labels, "host=\"%s\",package=\"%u\"", o->host,
			    o->b->pkg_id[p]);
			agg_samples(o, "package", f, &iv->packages[p]);
		}
	}
}

static void
write_cores(struct om *o)
{
	const struct topology *topo = &o->b->m->topo;
	const struct interval *iv = o->iv;
	unsigned c;
	size_t i;

	for (i = 0; i < sizeof core_families / sizeof core_families[0]; i++) {
		const struct family *f = &core_families[i];

		header(o, "core", f);
		for (c = 0; c < iv->ncores && c < topo->ncores; c++) {
			const struct topo_core *tc = &topo->cores[c];

			if (!out_core_shown(iv, c))
				continue;
			snprintf(o->labels, sizeof o->labels, "host=\"%s\",package=\"%u\",core=\"%u\"",
			    o->host, tc->package, tc->core_id);
			core_samples(o, f, tc, &iv->cores[c]);
		}
	}
}

static void
write_threads(struct om *o)
{
	const struct topology *topo = &o->b->m->topo;
	const struct interval *iv = o->iv;
	unsigned cpu;
	size_t i;

	for (i = 0; i < sizeof thread_families / sizeof thread_families[0]; i++) {
		const struct family *f = &thread_families[i];

		header(o, "thread", f);
		for (cpu = 0; cpu < iv->max_cpu && cpu < topo->max_cpu; cpu++) {
			const struct topo_cpu *tc = &topo->cpus[cpu];

			if (!out_thread_shown(iv, cpu) || !tc->present || tc->core >= topo->ncores)
				continue;
			snprintf(o->labels, sizeof o->labels,
			    "host=\"%s\",package=\"%u\",core=\"%u\",cpu=\"%u\",thread=\"%u\"", o->host,
			    tc->package, topo->cores[tc->core].core_id, cpu, tc->thread);
			thread_samples(o, f, &iv->threads[cpu]);
		}
	}
}

/* What produced the figures: an info family in OpenMetrics, its usual
 * gauge form (value 1) in the Prometheus format. */
static void
write_info(struct om *o)
{
	const struct batch *b = o->b;
	char src[64], grp[64], spl[64];
	const char *help = "What produced the figures: counter source, plan group and split method.";

	escape_label(src, sizeof src, b->source_name);
	escape_label(grp, sizeof grp, uarch_group_name(b->p->group));
	escape_label(spl, sizeof spl, split_method_name(b->p->split));
	if (o->openmetrics) {
		fputs("# TYPE httop_source info\n", o->fp);
		fprintf(o->fp, "# HELP httop_source %s\n", help);
	} else {
		fprintf(o->fp, "# HELP httop_source_info %s\n", help);
		fputs("# TYPE httop_source_info gauge\n", o->fp);
	}
	fprintf(o->fp, "httop_source_info{host=\"%s\",source=\"%s\",group=\"%s\",split=\"%s\"} 1\n",
	    o->host, src, grp, spl);
}

void
out_prom_write(struct batch *b, const struct interval *iv, bool openmetrics)
{
	struct om o;

	o.fp = b->fp;
	o.openmetrics = openmetrics;
	o.b = b;
	o.iv = iv;
	escape_label(o.host, sizeof o.host, b->m->hostname);
	write_info(&o);
	write_interval(&o);
	write_aggs(&o);
	write_cores(&o);
	write_threads(&o);
	if (openmetrics)
		fputs("# EOF\n", o.fp);
}

void
out_openmetrics_write(struct batch *b, const struct interval *iv)
{
	out_prom_write(b, iv, true);
}
