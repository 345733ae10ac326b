/* openmetrics.c: the figures of an interval as metric families, in the
 * OpenMetrics text format (--format openmetrics: with -n N or a command's
 * run, whose end is known, one exposition of the intervals, each family once, put together by ommerge.c and
 * written with its "# EOF" by batch_end(), so that strict parsers and
 * Prometheus's TSDB load it whole; without -n a stream: one complete
 * exposition per interval, each starting with the httop_source info
 * family and ending "# EOF", so that a reader can parse each as it comes) or
 * in the Prometheus text format that the node exporter's textfile collector
 * reads (--textfile; it takes no UNIT or EOF lines and no info type).
 *
 * The figures of the interval are gauges named
 * httop_<level>_<figure>[_<unit>], labelled host, package, core, cpu as
 * their level needs. A figure known exactly is one sample; a bound is two,
 * bound="lower" and bound="upper"; an absent figure has no sample. Next to
 * them, counters: the running totals since the start (metrics/totals.h),
 * so that rate() works at any scrape interval; once a core's or thread's
 * counter is written it is written in every exposition after (no series
 * goes away). Nothing that is not a finite number is written.
 *
 * In OpenMetrics every sample carries the interval's wall-clock time as
 * its timestamp (seconds, as that format has them), so that a stream
 * stored or replayed later (promtool's backfill) keeps when it was
 * measured; but for an exposition that does not end after the one before
 * (a replay that jumped back). A whole-run record (a command's run, a
 * watched job's, batch_write_whole) ends when the last interval does: its
 * samples carry that timestamp and the label window="run", so that they
 * are series of their own, not duplicates of the last interval's. The textfile has none: the node exporter's textfile collector
 * refuses a file with timestamps ("Timestamps are not supported", its
 * README; since node exporter 0.16 the whole file is skipped and
 * node_textfile_scrape_error is 1), and Prometheus stamps a scrape itself.
 *
 * An exposition is built in the batch's line buffer, numbers by numfmt,
 * and written at once. */
#include "config.h"
#include "out/format.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

#include "metrics/figures.h"
#include "out/ommerge.h"
#include "util/textesc.h"
#include "util/xalloc.h"

/* Gauges: 12 significant digits (printf's %.12g before); counters of
 * seconds: to the microsecond, as the JSON times. */
#define VAL_DIGITS 12
#define COUNTER_DECIMALS 6

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
	/* Counters, from the totals (struct totals_set). */
	W_C_STATE,      /* state[4]: label state */
	W_C_UNCOVERED,  /* uncovered */
	W_C_BUSY,       /* busy */
	W_C_THREAD_UNCOVERED, /* thread_uncovered */
	W_C_COUNT,      /* counts[off]: a raw count, an integer */
	W_C_ANY,        /* counts[TC_SPLIT] of an AnyThread plan */
	W_C_OTA,        /* counts[TC_SPLIT] of a ONE_THREAD_ACTIVE plan */
};

#define IS_COUNTER(f) ((f)->what >= W_C_STATE)

struct family {
	const char *name;    /* after "httop_<level>_"; a counter's without _total */
	const char *unit;    /* the OpenMetrics unit (the name's last word), or "" */
	const char *help;
	enum what what;
	size_t off;          /* W_VAL: offset of the struct val */
	double scale;        /* GHz to Hz; 1 otherwise */
};

/* The raw counts since the start (metrics/totals.h), at every level: a
 * thread's own, summed over the threads of a core, a package, the node.
 * CPI = rate(cycles) / rate(instructions), frequency = rate(cycles) /
 * rate(reference_cycles) x the TSC rate (rate(tsc_cycles) per thread). */
#define COUNT_FAMILIES \
	{ "instructions", "", "Instructions retired since the start, from the intervals in " \
	    "which the thread had figures (summed over the threads).", W_C_COUNT, TC_INST, 1 }, \
	{ "cycles", "", "Core clock cycles while not halted (unhalted core cycles) since the " \
	    "start (summed over the threads).", W_C_COUNT, TC_CYCLES, 1 }, \
	{ "reference_cycles", "", "Reference cycles while not halted, in TSC ticks, since the " \
	    "start (summed over the threads).", W_C_COUNT, TC_REF, 1 }, \
	{ "tsc_cycles", "", "Time stamp counter ticks since the start (summed over the " \
	    "threads).", W_C_COUNT, TC_TSC, 1 }, \
	{ "any_thread_cycles", "", "AnyThread reference ticks (while any thread of the core " \
	    "was active, counted on thread 0) since the start, where the split used them " \
	    "(summed over the threads).", W_C_ANY, TC_SPLIT, 1 }, \
	{ "one_thread_active_cycles", "", "ONE_THREAD_ACTIVE ticks (this thread alone active) " \
	    "since the start, where the split used them (summed over the threads).", W_C_OTA, \
	    TC_SPLIT, 1 }

/* The interval itself (level "interval", label host). */
static const struct family interval_families[] = {
	{ "seconds", "seconds", "Length of the interval the figures cover.", W_DT, 0, 1 },
	{ "valid", "", "1 if every selected core has valid figures this interval, else 0.",
	    W_IV_VALID, 0, 1 },
};

/* The families of each level: those below before the level's figures
 * (the table's, metrics/figures.h, in its OpenMetrics order), those
 * after them after; put together once (make_families). */

/* The node (label host) and each package (host, package): time-weighted
 * over their valid cores; the counters summed over their cores and
 * threads. */
static const struct family agg_before[] = {
	{ "cores", "", "Cores the aggregate is taken over.", W_CORES, 0, 1 },
	{ "valid_cores", "", "Cores with valid figures this interval.", W_VALID_CORES, 0, 1 },
	{ "exact", "", "1 if every contributing core's split is exact, 0 if any is a bound.",
	    W_EXACT, 0, 1 },
};
static const struct family agg_after[] = {
	{ "state_seconds", "seconds", "Core-seconds since the start with neither SMT thread, "
	    "thread 0 only, thread 1 only or both active (label state), summed over the cores, "
	    "from the intervals whose split was exact.", W_C_STATE, 0, 1 },
	{ "uncovered_seconds", "seconds", "Core-seconds since the start not in state_seconds: "
	    "the split was a bound or absent, or the core has no split.", W_C_UNCOVERED, 0, 1 },
	{ "thread_busy_seconds", "seconds", "Thread-seconds since the start with the thread "
	    "active (not halted), summed over the threads.", W_C_BUSY, 0, 1 },
	{ "thread_uncovered_seconds", "seconds", "Thread-seconds since the start not in "
	    "thread_busy_seconds: the thread had no figures.", W_C_THREAD_UNCOVERED, 0, 1 },
	COUNT_FAMILIES,
};

/* Each core (host, package, core: the core id). */
static const struct family core_before[] = {
	{ "valid", "", "1 if the core has figures this interval, else 0.", W_VALID, 0, 1 },
	{ "exact", "", "1 if the core's split is exact, 0 if it is a bound.", W_EXACT, 0, 1 },
};
static const struct family core_after[] = {
	{ "inconsistency_ratio", "ratio", "Largest clamp applied to the counts, as a share of "
	    "the interval.", W_INCONS, 0, 1 },
	{ "state_seconds", "seconds", "Seconds since the start with neither SMT thread, thread 0 "
	    "only, thread 1 only or both active (label state), from the intervals whose split "
	    "was exact.", W_C_STATE, 0, 1 },
	{ "uncovered_seconds", "seconds", "Seconds since the start not in state_seconds: the "
	    "split was a bound or absent, or the core has no split.", W_C_UNCOVERED, 0, 1 },
	COUNT_FAMILIES,
};

/* Each thread (host, package, core, cpu, thread: 0 or 1 within the core). */
static const struct family thread_before[] = {
	{ "valid", "", "1 if the thread has figures this interval, else 0.", W_VALID, 0, 1 },
};
static const struct family thread_after[] = {
	{ "counter_stopped", "", "1 for each counter (label counter) that stood still while "
	    "the counters that move with it advanced: another program stopped it, and the "
	    "figures computed from it have no sample.", W_STOPPED, 0, 1 },
	{ "busy_seconds", "seconds", "Seconds since the start the thread was active (not "
	    "halted).", W_C_BUSY, 0, 1 },
	{ "uncovered_seconds", "seconds", "Seconds since the start not in busy_seconds: the "
	    "thread had no figures.", W_C_THREAD_UNCOVERED, 0, 1 },
	COUNT_FAMILIES,
};

#define NFAM(a) (sizeof (a) / sizeof (a)[0])

/* A level's families, put together once. */
#define FAM_MAX (16 + FIG_MAX)
struct famlist {
	struct family f[FAM_MAX];
	size_t n;
};
static struct famlist agg_families, job_families, core_families, thread_families;

/* The job's own families (httop_job_X) are the node's, but for a figure
 * whose name already says "job_" (job_both_ratio): its om_job there, not
 * a doubled httop_job_job_both_ratio. */
static void
famlist_make(struct famlist *fl, enum fig_level l, const struct family *before, size_t nb,
    const struct family *after, size_t na, bool job)
{
	size_t i, n;
	const struct figure *const *figs = figures_of(l, FIG_OM, &n);

	for (i = 0; i < nb && fl->n < FAM_MAX; i++)
		fl->f[fl->n++] = before[i];
	for (i = 0; i < n && fl->n < FAM_MAX; i++) {
		struct family *f = &fl->f[fl->n++];

		/* the shares of the split: one family (label state), the first's */
		f->name = job && figs[i]->om_job != NULL ? figs[i]->om_job : figs[i]->om_name;
		f->unit = figs[i]->om_unit;
		f->help = figs[i]->at[l].help;
		f->what = figs[i]->state != 0 ? W_SHARE : W_VAL;
		f->off = figs[i]->at[l].off;
		f->scale = figs[i]->kind == FIG_GHZ ? 1e9 : 1;
	}
	for (i = 0; i < na && fl->n < FAM_MAX; i++)
		fl->f[fl->n++] = after[i];
}

static void
make_families(void)
{
	if (agg_families.n > 0)
		return;
	famlist_make(&agg_families, FIG_AGG, agg_before, NFAM(agg_before), agg_after,
	    NFAM(agg_after), false);
	famlist_make(&job_families, FIG_AGG, agg_before, NFAM(agg_before), agg_after,
	    NFAM(agg_after), true);
	famlist_make(&core_families, FIG_CORE, core_before, NFAM(core_before), core_after,
	    NFAM(core_after), false);
	famlist_make(&thread_families, FIG_THREAD, thread_before, NFAM(thread_before),
	    thread_after, NFAM(thread_after), false);
}

static const char *const state_labels[4] = {
	",state=\"neither\"", ",state=\"t0_only\"", ",state=\"t1_only\"", ",state=\"both\"",
};

/* One exposition under way. */
struct om {
	struct linebuf *lb;
	bool openmetrics;
	const struct batch *b;
	const struct interval *iv;
	const char *ts;          /* " TIMESTAMP" after each sample, or "" */
	size_t ts_len;
	char host[256];          /* the host name, escaped */
	char labels[1024];       /* the current object's labels */
	const char *win;         /* ",window=\"run\"" in a whole-run record, else "" */
	char view[2 * sizeof ((struct job_ident *)0)->id + 16]; /* ",jobid=\"ID\"" when a job is watched,
				  * else "": whose view the series are */
};

/* A label value as both formats want it: backslash, double quote and line
 * feed escaped. Before that, whatever a terminal would act on (a control
 * or bidirectional character, a byte that is not UTF-8) is written as
 * \xHH (textesc.h), so the value is valid UTF-8 and a reader that shows
 * it is safe; its backslash is then escaped as any other. Cut short
 * rather than overflow `len`. */
static void
escape_label(char *out, size_t len, const char *s)
{
	char shown[4 * 256];
	const char *p = shown;
	size_t o = 0;

	/* at most half of len: doubled, it still fits, and text_escape cuts
	 * between characters only */
	if (len == 0)
		return;
	text_escape(shown, len / 2 < sizeof shown ? len / 2 : sizeof shown, s);
	while (*p != '\0' && o + 2 < len) {
		if (*p == '\\' || *p == '"')
			out[o++] = '\\';
		out[o++] = *p++;
	}
	out[o] = '\0';
}

/* "httop_<level>_<name>", and "_total" for a counter's samples (and for
 * its family in the Prometheus format, which names a counter family as
 * its samples). */
static void
put_name(struct linebuf *b, const char *level, const struct family *f, bool total)
{
	lb_lit(b, "httop_");
	lb_str(b, level);
	lb_char(b, '_');
	lb_str(b, f->name);
	if (total && IS_COUNTER(f))
		lb_lit(b, "_total");
}

static void
meta(struct om *o, const char *what, const char *level, const struct family *f,
    const char *text)
{
	lb_lit(o->lb, "# ");
	lb_str(o->lb, what);
	lb_char(o->lb, ' ');
	put_name(o->lb, level, f, !o->openmetrics);
	lb_char(o->lb, ' ');
	lb_str(o->lb, text);
	lb_char(o->lb, '\n');
}

/* Is family f written at all? The split counter's only for a plan that
 * has that counter; no raw count for a source without counters (the
 * scheduler's nanoseconds or /proc/stat's ticks are no instructions,
 * cycles or TSC ticks: its busy and uncovered seconds say what it has). */
static bool
family_applies(const struct om *o, const struct family *f)
{
	if ((f->what == W_C_COUNT || f->what == W_C_ANY || f->what == W_C_OTA) &&
	    o->b->p->basis != PLAN_BASIS_COUNTERS)
		return false;
	if (f->what == W_C_ANY)
		return o->b->p->split == SPLIT_ANY;
	if (f->what == W_C_OTA)
		return o->b->p->split == SPLIT_OTA;
	return true;
}

static void
header(struct om *o, const char *level, const struct family *f)
{
	const char *type = IS_COUNTER(f) ? "counter" : "gauge";

	if (o->openmetrics) {
		meta(o, "TYPE", level, f, type);
		if (f->unit[0] != '\0')
			meta(o, "UNIT", level, f, f->unit);
		meta(o, "HELP", level, f, f->help);
	} else {
		meta(o, "HELP", level, f, f->help);
		meta(o, "TYPE", level, f, type);
	}
}

/* One sample: name{labels extra1 extra2} value [timestamp]. */
static void
sample2(struct om *o, const char *level, const struct family *f, const char *extra1,
    const char *extra2, double x)
{
	struct linebuf *b = o->lb;

	if (!isfinite(x))
		return;
	put_name(b, level, f, true);
	lb_char(b, '{');
	lb_str(b, o->labels);
	lb_str(b, extra1);
	lb_str(b, extra2);
	lb_lit(b, "} ");
	if (IS_COUNTER(f))
		lb_fixed(b, x, COUNTER_DECIMALS);
	else
		lb_sig(b, x, VAL_DIGITS);
	lb_mem(b, o->ts, o->ts_len);
	lb_char(b, '\n');
}

/* A raw count: an integer. */
static void
sample_count(struct om *o, const char *level, const struct family *f, uint64_t x)
{
	struct linebuf *b = o->lb;

	put_name(b, level, f, true);
	lb_char(b, '{');
	lb_str(b, o->labels);
	lb_lit(b, "} ");
	lb_u64(b, x);
	lb_mem(b, o->ts, o->ts_len);
	lb_char(b, '\n');
}

static void
sample(struct om *o, const char *level, const struct family *f, const char *extra, double x)
{
	sample2(o, level, f, extra, "", x);
}

/* An exact figure is one sample; a bound is two; absent is none. */
static void
sample_val(struct om *o, const char *level, const struct family *f, const char *state,
    struct val v)
{
	double x, lo, hi;

	switch (out_shape(v, &x, &lo, &hi)) {
	case OUT_EXACT:
		sample2(o, level, f, state, "", x * f->scale);
		break;
	case OUT_BOUND:
		sample2(o, level, f, state, ",bound=\"lower\"", lo * f->scale);
		sample2(o, level, f, state, ",bound=\"upper\"", hi * f->scale);
		break;
	case OUT_ABSENT:
		break;
	}
}

static void
shares(struct om *o, const char *level, const struct family *f, const struct val s[4])
{
	int i;

	for (i = 0; i < 4; i++)
		sample_val(o, level, f, state_labels[i], s[i]);
}

/* A counter family's samples from a set of totals; `split`: the state
 * counters apply (a core of two threads, a package, the node). */
static void
counter_samples(struct om *o, const char *level, const struct family *f,
    const struct totals_set *t, bool split)
{
	int i;

	switch (f->what) {
	case W_C_STATE:
		if (split)
			for (i = 0; i < 4; i++)
				sample(o, level, f, state_labels[i], t->state[i]);
		break;
	case W_C_UNCOVERED:
		sample(o, level, f, "", t->uncovered);
		break;
	case W_C_BUSY:
		sample(o, level, f, "", t->busy);
		break;
	case W_C_THREAD_UNCOVERED:
		sample(o, level, f, "", t->thread_uncovered);
		break;
	case W_C_COUNT:
		sample_count(o, level, f, t->counts[f->off]);
		break;
	case W_C_ANY:
	case W_C_OTA:
		if (t->has_split)
			sample_count(o, level, f, t->counts[f->off]);
		break;
	default:
		break;
	}
}

static void
agg_samples(struct om *o, const char *level, const struct family *f, const struct agg_fig *a,
    const struct totals_set *t)
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
		counter_samples(o, level, f, t, true);
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

/* The labels of an object: host="..." then `n` pairs ,name="value". */
static void
set_labels(struct om *o, unsigned n, const char *const *names, const unsigned *values)
{
	size_t used = (size_t)snprintf(o->labels, sizeof o->labels, "host=\"%s\"%s%s", o->host,
	    o->win, o->view);
	char num[NUMFMT_MAX + 1];
	unsigned i;

	for (i = 0; i < n && used < sizeof o->labels; i++) {
		*numfmt_u64(num, values[i]) = '\0';
		used += (size_t)snprintf(o->labels + used, sizeof o->labels - used, ",%s=\"%s\"",
		    names[i], num);
	}
}

/* A watched job's exposition (--pid, --job, --cgroup, a command) labels
 * every series jobid="ID", so that none is a series of the node's own
 * httop (which has no jobid label) under the same host: the two can be
 * scraped from one node, their textfiles side by side. */
static void
set_view(struct om *o)
{
	char esc[sizeof o->b->job.id * 2];

	o->view[0] = '\0';
	if (!o->b->has_job)
		return;
	escape_label(esc, sizeof esc, o->b->job.id);
	snprintf(o->view, sizeof o->view, ",jobid=\"%s\"", esc);
}

static void
write_interval(struct om *o)
{
	size_t i;

	set_labels(o, 0, NULL, NULL);
	for (i = 0; i < NFAM(interval_families); i++) {
		const struct family *f = &interval_families[i];

		header(o, "interval", f);
		if (f->what == W_DT)
			sample(o, "interval", f, "", o->iv->dt);
		else
			sample(o, "interval", f, "", o->iv->valid);
	}
}

/* Where the job's own counters come from, in the source's words: the
 * scheduler's record (--source sched), or the bpf source's program, which
 * counts in the kernel at each switch and reads no record; a replay's
 * (the trace of either) names both. */
static const char *
job_origin(const struct batch *b)
{
	if (strcmp(b->source_name, "sched") == 0)
		return "from the scheduler's record";
	if (strcmp(b->source_name, "bpf") == 0)
		return "counted in the kernel at each context switch (--source bpf)";
	return "from the scheduler's context switches (its record with --source sched, counted "
	    "in the kernel with --source bpf)";
}

/* The job's own counters (--source sched or bpf with a watched job: the
 * plan's job slots): httop_job_core_state_seconds_total{state=both|alone|shared}
 * (core-seconds of the job's split), httop_job_cpu_seconds_total and
 * httop_job_cpu_uncovered_seconds_total (the intervals it leaves out:
 * without it, a counter short of the job's CPU time could not be told
 * from a job that ran less). */
static void
write_job_counters(struct om *o)
{
	char state_help[400], cpu_help[300];
	struct family state = { "core_state_seconds", "seconds", state_help, W_C_STATE, 0, 1 };
	struct family cpu = { "cpu_seconds", "seconds", cpu_help, W_C_BUSY, 0, 1 };
	/* Only the scheduler's record loses records: bpf reads none. */
	struct family unc = { "cpu_uncovered_seconds", "seconds", strcmp(o->b->source_name,
	    "bpf") == 0 ? "Seconds since the start of the intervals without the watched job's "
	    "CPU seconds (not valid), which cpu_seconds does not count." : "Seconds since the "
	    "start of the intervals without the watched job's CPU seconds (not valid: records "
	    "lost), which cpu_seconds does not count.", W_C_UNCOVERED, 0, 1 };
	static const char *const labels[3] = { ",state=\"both\"", ",state=\"alone\"",
	    ",state=\"shared\"" };
	const struct totals_set *t = &o->b->tot->node;
	int i;

	if (plan_slot_index(o->b->p, SLOT_JOB) < 0)
		return;
	snprintf(state_help, sizeof state_help, "Core-seconds since the start with the watched "
	    "job's tasks on both threads, on one with the sibling idle (alone), or on one while "
	    "the sibling ran another task (shared), %s.", job_origin(o->b));
	snprintf(cpu_help, sizeof cpu_help, "CPU seconds the watched job's tasks ran since the "
	    "start, %s.", job_origin(o->b));
	header(o, "job", &state);
	for (i = 0; i < 3; i++)
		sample(o, "job", &state, labels[i], t->job_state[i]);
	header(o, "job", &cpu);
	sample(o, "job", &cpu, "", t->job_cpu);
	header(o, "job", &unc);
	sample(o, "job", &unc, "", t->job_uncovered);
}

/* The watched job: httop_job_info names it (labels where known), and the
 * job's own aggregate families httop_job_X{host,jobid}: the node's figures
 * and counters, which with a watched job are its cores' (the run's view),
 * under the job's label, so that a query by job finds them. One job per
 * httop: two series per job label value. */
static void
write_job(struct om *o)
{
	const struct job_ident *j = &o->b->job;
	/* "jobid", not "job": Prometheus gives every scraped series the
	 * label job (the scrape job's name) and would rename this one. */
	const char *const keys[] = { "jobid", "kind", "user", "name", "cgroup", "pid" };
	const char *const vals[] = { j->id, j->kind, j->user, j->name, j->cgroup, j->pid };
	const char *help = "The watched job (--job, --pid, --cgroup, a command): its id, kind, "
	    "Slurm user and name, cgroup, PIDs, where known.";
	struct linebuf *lb = o->lb;
	char esc[sizeof j->id * 2];
	size_t i, used;

	if (o->openmetrics) {
		lb_lit(lb, "# TYPE httop_job info\n# HELP httop_job ");
		lb_str(lb, help);
		lb_char(lb, '\n');
	} else {
		lb_lit(lb, "# HELP httop_job_info ");
		lb_str(lb, help);
		lb_lit(lb, "\n# TYPE httop_job_info gauge\n");
	}
	lb_lit(lb, "httop_job_info{host=\"");
	lb_str(lb, o->host);
	lb_char(lb, '"');
	lb_str(lb, o->win);
	for (i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		if (vals[i][0] == '\0')
			continue;
		escape_label(esc, sizeof esc, vals[i]);
		lb_char(lb, ',');
		lb_str(lb, keys[i]);
		lb_lit(lb, "=\"");
		lb_str(lb, esc);
		lb_char(lb, '"');
	}
	lb_lit(lb, "} 1");
	lb_mem(lb, o->ts, o->ts_len);
	lb_char(lb, '\n');
	escape_label(esc, sizeof esc, j->id);
	for (i = 0; i < job_families.n; i++) {
		const struct family *f = &job_families.f[i];

		if (!family_applies(o, f))
			continue;
		header(o, "job", f);
		used = (size_t)snprintf(o->labels, sizeof o->labels, "host=\"%s\"%s,jobid=\"%s\"",
		    o->host, o->win, esc);
		if (used >= sizeof o->labels)
			continue;      /* cannot happen: both are bounded above */
		agg_samples(o, "job", f, &o->iv->node, &o->b->tot->node);
	}
	write_job_counters(o);
}

static void
write_aggs(struct om *o)
{
	static const char *const names[] = { "package" };
	const struct interval *iv = o->iv;
	const struct totals *tt = o->b->tot;
	unsigned np = iv->npackages < o->b->m->topo.npackages ? iv->npackages :
	    o->b->m->topo.npackages;
	unsigned p;
	size_t i;

	for (i = 0; i < agg_families.n; i++) {
		const struct family *f = &agg_families.f[i];

		if (!family_applies(o, f))
			continue;
		header(o, "node", f);
		set_labels(o, 0, NULL, NULL);
		agg_samples(o, "node", f, &iv->node, &tt->node);
	}
	if (o->b->has_job)
		write_job(o);
	if (o->b->level < OUT_LEVEL_PACKAGE)
		return;
	for (i = 0; i < agg_families.n; i++) {
		const struct family *f = &agg_families.f[i];

		if (!family_applies(o, f))
			continue;
		header(o, "package", f);
		for (p = 0; p < np; p++) {
			set_labels(o, 1, names, &o->b->pkg_id[p]);
			agg_samples(o, "package", f, &iv->packages[p], &tt->packages[p]);
		}
	}
}

static void
write_cores(struct om *o)
{
	static const char *const names[] = { "package", "core" };
	const struct topology *topo = &o->b->m->topo;
	const struct totals *tt = o->b->tot;
	const struct interval *iv = o->iv;
	unsigned c, v[2];
	size_t i;

	for (i = 0; i < core_families.n; i++) {
		const struct family *f = &core_families.f[i];

		if (!family_applies(o, f))
			continue;
		header(o, "core", f);
		for (c = 0; c < iv->ncores && c < topo->ncores; c++) {
			const struct topo_core *tc = &topo->cores[c];

			/* A counter goes on once written; a gauge only while shown. */
			if (IS_COUNTER(f) ? !tt->core_seen[c] : !out_core_shown(iv, c))
				continue;
			v[0] = tc->package;
			v[1] = tc->core_id;
			set_labels(o, 2, names, v);
			if (IS_COUNTER(f))
				counter_samples(o, "core", f, &tt->cores[c], tc->nthreads == 2);
			else
				core_samples(o, f, tc, &iv->cores[c]);
		}
	}
}

/* The Slurm job of each core now (the first of its CPUs in a job's
 * cgroup; textfile.c scans them): one series per core in a job, so at
 * most one per core at a time; a job that ends takes its series with it.
 * PromQL joins it to the core's counters on host, package and core. */
static void
write_core_jobs(struct om *o)
{
	static const char *const names[] = { "package", "core" };
	const struct topology *topo = &o->b->m->topo;
	const char *help = "The Slurm job whose cgroup holds the core's CPUs now (label jobid).";
	struct linebuf *lb = o->lb;
	char esc[SLURM_ID_MAX * 2];
	unsigned c, k, v[2];

	if (o->openmetrics) {
		lb_lit(lb, "# TYPE httop_core_slurm_job info\n# HELP httop_core_slurm_job ");
		lb_str(lb, help);
		lb_char(lb, '\n');
	} else {
		lb_lit(lb, "# HELP httop_core_slurm_job_info ");
		lb_str(lb, help);
		lb_lit(lb, "\n# TYPE httop_core_slurm_job_info gauge\n");
	}
	for (c = 0; c < topo->ncores && c < o->iv->ncores; c++) {
		const struct topo_core *tc = &topo->cores[c];
		const char *job = NULL;

		for (k = 0; k < tc->nthreads && job == NULL; k++)
			if (tc->cpus[k] < o->b->cpu_job_n && o->b->cpu_job[tc->cpus[k]][0] != '\0')
				job = o->b->cpu_job[tc->cpus[k]];
		if (job == NULL || !out_core_shown(o->iv, c))
			continue;
		v[0] = tc->package;
		v[1] = tc->core_id;
		set_labels(o, 2, names, v);
		escape_label(esc, sizeof esc, job);
		lb_lit(lb, "httop_core_slurm_job_info{");
		lb_str(lb, o->labels);
		lb_lit(lb, ",jobid=\"");
		lb_str(lb, esc);
		lb_lit(lb, "\"} 1");
		lb_mem(lb, o->ts, o->ts_len);
		lb_char(lb, '\n');
	}
}

static void
write_threads(struct om *o)
{
	static const char *const names[] = { "package", "core", "cpu", "thread" };
	const struct topology *topo = &o->b->m->topo;
	const struct totals *tt = o->b->tot;
	const struct interval *iv = o->iv;
	unsigned cpu, v[4];
	size_t i;

	for (i = 0; i < thread_families.n; i++) {
		const struct family *f = &thread_families.f[i];

		if (!family_applies(o, f))
			continue;
		header(o, "thread", f);
		for (cpu = 0; cpu < iv->max_cpu && cpu < topo->max_cpu; cpu++) {
			const struct topo_cpu *tc = &topo->cpus[cpu];

			if (!tc->present || tc->core >= topo->ncores)
				continue;
			if (IS_COUNTER(f) ? !tt->thread_seen[cpu] : !out_thread_shown(iv, cpu))
				continue;
			v[0] = tc->package;
			v[1] = topo->cores[tc->core].core_id;
			v[2] = cpu;
			v[3] = tc->thread;
			set_labels(o, 4, names, v);
			if (IS_COUNTER(f))
				counter_samples(o, "thread", f, &tt->threads[cpu], false);
			else
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
	struct linebuf *lb = o->lb;
	char src[64], grp[64], spl[64];
	/* Every value the basis label takes (plan_basis_name), and its
	 * absence; no double quote: OpenMetrics would need it escaped, the
	 * Prometheus format must not. */
	const char *help = "What produced the figures: the source, plan group and split method; "
	    "basis and meaning only for a source without counters: basis scheduler (--source "
	    "sched: the time a task ran on each thread, from the scheduler's context switches) "
	    "or ticks (--source procstat: busy time = time less idle, iowait and steal, from "
	    "/proc/stat); no basis: the performance counters.";

	escape_label(src, sizeof src, b->source_name);
	escape_label(grp, sizeof grp, uarch_group_name(b->p->group));
	escape_label(spl, sizeof spl, plan_split_name(b->p));
	if (o->openmetrics) {
		lb_lit(lb, "# TYPE httop_source info\n# HELP httop_source ");
		lb_str(lb, help);
		lb_char(lb, '\n');
	} else {
		lb_lit(lb, "# HELP httop_source_info ");
		lb_str(lb, help);
		lb_lit(lb, "\n# TYPE httop_source_info gauge\n");
	}
	lb_lit(lb, "httop_source_info{host=\"");
	lb_str(lb, o->host);
	lb_char(lb, '"');
	lb_str(lb, o->win);
	lb_str(lb, o->view);
	lb_lit(lb, ",source=\"");
	lb_str(lb, src);
	lb_lit(lb, "\",group=\"");
	lb_str(lb, grp);
	lb_lit(lb, "\",split=\"");
	lb_str(lb, spl);
	/* Figures that are not the counters' (sched, procstat) say what
	 * their counts stand for and what they mean. */
	if (plan_meaning(b->p) != NULL) {
		char fig[2 * sizeof b->p->summary];

		lb_lit(lb, "\",basis=\"");
		lb_str(lb, plan_basis_name(b->p->basis));
		escape_label(fig, sizeof fig, plan_meaning(b->p));
		lb_lit(lb, "\",meaning=\"");
		lb_str(lb, fig);
	}
	lb_lit(lb, "\"} 1");
	lb_mem(lb, o->ts, o->ts_len);
	lb_char(lb, '\n');
}

void
out_prom_write(struct batch *b, const struct interval *iv, bool openmetrics)
{
	struct om o;
	char ts[sizeof b->wt.unix6 + 1];
	bool later;

	make_families();
	if (b->tot == NULL) {
		b->tot = xcalloc(1, sizeof *b->tot);
		totals_init(b->tot, &b->m->topo);
	}
	/* An exposition that does not end after the one before (a replay
	 * that jumped back) has no timestamp: the same one with other values
	 * would be a duplicate sample to a store. A whole-run record has the
	 * last interval's, and its own series (window="run"). */
	later = b->whole || !b->tot->started || iv->time > b->tot->last_time;
	totals_add(b->tot, iv);
	o.lb = &b->line;
	o.lb->len = 0;
	o.openmetrics = openmetrics;
	o.b = b;
	o.iv = iv;
	o.ts = "";
	o.ts_len = 0;
	o.win = b->whole ? ",window=\"run\"" : "";
	if (openmetrics && later) {
		walltime_format(&b->wt, iv->wall);
		if (b->wt.known) {
			ts[0] = ' ';
			memcpy(ts + 1, b->wt.unix6, b->wt.unix6_len + 1);
			o.ts = ts;
			o.ts_len = b->wt.unix6_len + 1;
		}
	}
	escape_label(o.host, sizeof o.host, b->m->hostname);
	set_view(&o);
	write_info(&o);
	write_interval(&o);
	write_aggs(&o);
	if (b->level >= OUT_LEVEL_CORE)
		write_cores(&o);
	/* each core's job is the node daemon's to say, not a watched job's */
	if (b->level >= OUT_LEVEL_CORE && b->cpu_job != NULL && !b->has_job)
		write_core_jobs(&o);
	if (b->level >= OUT_LEVEL_THREAD)
		write_threads(&o);
	if (openmetrics && b->merge != NULL) {
		ommerge_feed(b->merge, o.lb->p, o.lb->len);
		o.lb->len = 0;
		batch_om_spill(b);
		return;
	}
	if (openmetrics)
		lb_lit(o.lb, "# EOF\n");
	lb_flush(o.lb, b->fp);
}

void
out_openmetrics_write(struct batch *b, const struct interval *iv)
{
	out_prom_write(b, iv, true);
}
