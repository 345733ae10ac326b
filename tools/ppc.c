/* ppc.c: convert the output of John McCalpin's periodic-performance-counters
 * (one Lua/Python assignment per line, e.g.
 * core_fixed_counts[LP]["CPU_CLK_Unhalted.Ref"][S] = V) into an httop
 * trace (man/httop-trace.5), so that httop replays it through the same
 * metrics as a live run. The command line is in ppc2trace.c; see
 * man/httop-ppc2trace.1. */
#include "config.h"
#include "ppc.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <libgen.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "machine/machine.h"
#include "plan/plan.h"
#include "sample/sample.h"
#include "trace/trace.h"
#include "util/i18n.h"
#include "util/infile.h"
#include "util/xalloc.h"

/* Values per logical processor and sample, in trace slot order after TSC. */
enum { V_INST, V_CYC, V_REF, V_PMC, NV };

#define MAX_SAMPLES 1000000u
/* Values kept: logical processors x samples with counter values. 16 M
 * (600 MB) is two days of 1-second samples on a 96-CPU node; a few lines
 * naming far-apart samples on a huge nr_cpus must not take more. */
#define MAX_LP_SAMPLES (1u << 24)
/* The last second walltime[0][S] may give: 9999-12-31 23:59:59 UTC. */
#define MAX_WALLTIME 253402300799ull
#define MAX_CPUS    65536u
#define MAX_EVSEL   16
/* The register lists are a few lines; a counter file holds every sample
 * (MAX_LP_SAMPLES values of about 60 bytes a line stay below 1 GiB). */
#define MAX_EVSEL_SIZE (64 * 1024)
#define MAX_PPC_SIZE ((off_t)1 << 30)
#define EVSEL_LINE_MAX 510
#define PPC_LINE_MAX 1022

/* One line of core_msr_perfevtsel.input or core_msr_control.input. */
struct evsel {
	unsigned first, last;      /* CPU range */
	uint32_t msr;
	int counter;               /* PMC number, -1 for a control register */
	uint64_t value;
	char name[64];
};

struct ppc_sample {
	bool have_tsc, have_sec, have_usec;
	uint64_t tsc;
	uint64_t sec, usec;
	uint64_t *v;               /* v[lp * NV + k] */
	uint8_t *have;
};

struct ppc {
	const char *path;
	unsigned long lineno;
	long tsc_ratio;
	unsigned ncpus;
	unsigned nsamples;         /* highest sample index seen + 1 */
	unsigned cap;              /* entries allocated in s[] */
	unsigned nvalued;          /* samples whose v[] is allocated */
	struct ppc_sample *s;
	const char *pmc_name;      /* core_counts event read into V_PMC, or NULL */
	char dropped[256];         /* other core_counts events, comma separated */
};


static bool
parse_u64(const char *s, uint64_t *out)
{
	char *end;

	if (!isdigit((unsigned char)*s))
		return false;
	errno = 0;
	*out = strtoull(s, &end, 0);
	return errno == 0 && *end == '\0';
}

bool
ppc_parse_long(const char *s, long lo, long hi, long *out)
{
	char *end;

	errno = 0;
	*out = strtol(s, &end, 0);
	return *s != '\0' && errno == 0 && *end == '\0' && *out >= lo && *out <= hi;
}

/* ---- core_msr_*.input ---- */

/* "FIRST LAST MSR [COUNTER] VALUE NAME": six fields in the perfevtsel file,
 * five in the control file. */
static int
read_evsel(struct ppc_input in, bool with_counter, struct evsel *ev, unsigned *n,
    struct errmsg *e)
{
	char line[EVSEL_LINE_MAX + 2], *tok[8], *p, *save;
	const char *path = in.name;
	unsigned long lineno = 0;
	unsigned ntok, want = with_counter ? 6 : 5;
	uint64_t a, b, msr, value, ctr = 0;
	struct infile f;
	int r;

	infile_wrap(&f, in.fp, path, _("register list"), MAX_EVSEL_SIZE, EVSEL_LINE_MAX);
	while ((r = infile_getline(&f, line, sizeof line, e)) == 1) {
		lineno = f.line;
		ntok = 0;
		for (p = strtok_r(line, " \t\r\n", &save); p != NULL && ntok < 8;
		    p = strtok_r(NULL, " \t\r\n", &save))
			tok[ntok++] = p;
		if (ntok == 0 || tok[0][0] == '#')
			continue;
		if (ntok < want || !parse_u64(tok[0], &a) || !parse_u64(tok[1], &b) ||
		    !parse_u64(tok[2], &msr) || (with_counter && !parse_u64(tok[3], &ctr)) ||
		    !parse_u64(tok[want - 2], &value) || a > b || b >= MAX_CPUS ||
		    msr > UINT32_MAX || ctr > 7)
			return errmsg_set(e, _("%s:%lu: expected \"FIRST_CPU LAST_CPU MSR %sVALUE NAME\""),
			    path, lineno, with_counter ? "COUNTER " : "");
		/* Checked before anything is stored: ev[] has MAX_EVSEL entries. */
		if (*n == MAX_EVSEL)
			return errmsg_set(e, _("%s:%lu: more than %d registers"), path, lineno, MAX_EVSEL);
		ev[*n].value = value;
		ev[*n].first = (unsigned)a;
		ev[*n].last = (unsigned)b;
		ev[*n].msr = (uint32_t)msr;
		ev[*n].counter = with_counter ? (int)ctr : -1;
		snprintf(ev[*n].name, sizeof ev[*n].name, "%s", tok[want - 1]);
		(*n)++;
	}
	return r;
}

/* ---- the .lua file ---- */

/* `name[sub][sub]... = value`: fills name, up to 4 subscripts (numbers
 * or quoted strings, kept as text) and the value text. */
struct assign {
	char *name;
	char *sub[4];
	bool sub_is_str[4];
	unsigned nsub;
	char *value;
};

static bool
split_assign(char *line, struct assign *a)
{
	char *p = line, *q;

	memset(a, 0, sizeof *a);
	if (!isalpha((unsigned char)*p) && *p != '_')
		return false;
	a->name = p;
	while (isalnum((unsigned char)*p) || *p == '_')
		p++;
	q = p;
	while (*p == '[') {
		if (a->nsub == 4)
			return false;
		*q = '\0';
		p++;
		if (*p == '"') {
			a->sub[a->nsub] = ++p;
			if ((p = strchr(p, '"')) == NULL || p[1] != ']')
				return false;
			a->sub_is_str[a->nsub] = true;
			*p = '\0';
			p += 2;
		} else {
			a->sub[a->nsub] = p;
			while (isdigit((unsigned char)*p))
				p++;
			if (p == a->sub[a->nsub] || *p != ']')
				return false;
			*p++ = '\0';
		}
		a->nsub++;
		q = p;
	}
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p != '=')
		return false;
	*q = '\0';
	p++;
	while (*p == ' ' || *p == '\t')
		p++;
	a->value = p;
	q = p + strlen(p);
	while (q > p && isspace((unsigned char)q[-1]))
		*--q = '\0';
	return *p != '\0';
}

/* Sample s, created empty (with the ones before it) if new. */
static struct ppc_sample *
sample_at(struct ppc *c, unsigned s)
{
	if (s >= c->cap) {
		unsigned cap = c->cap ? c->cap : 64;

		while (cap <= s)
			cap *= 2;
		c->s = xreallocarray(c->s, cap, sizeof *c->s);
		c->cap = cap;
	}
	if (s >= c->nsamples) {
		memset(&c->s[c->nsamples], 0, (size_t)(s + 1 - c->nsamples) * sizeof *c->s);
		c->nsamples = s + 1;
	}
	return &c->s[s];
}

/* The values of sample ps, allocated on its first counter line, so that
 * memory follows the lines read, not the sample numbers they name. */
static int
sample_values(struct ppc *c, struct ppc_sample *ps, struct errmsg *e)
{
	if (ps->v != NULL)
		return 0;
	if ((uint64_t)(c->nvalued + 1) * c->ncpus > MAX_LP_SAMPLES)
		return errmsg_set(e, _("%s:%lu: more than %u samples x logical processors: "
		    "convert the file in pieces"), c->path, c->lineno, MAX_LP_SAMPLES);
	ps->v = xcalloc((size_t)c->ncpus * NV, sizeof *ps->v);
	ps->have = xcalloc((size_t)c->ncpus * NV, 1);
	c->nvalued++;
	return 0;
}

static void
note_dropped(struct ppc *c, const char *ev)
{
	size_t len = strlen(c->dropped);

	if (strstr(c->dropped, ev) != NULL)
		return;
	snprintf(c->dropped + len, sizeof c->dropped - len, "%s%s", len ? ", " : "", ev);
}

static int
bad_line(struct ppc *c, struct errmsg *e, const char *what)
{
	return errmsg_set(e, "%s:%lu: %s", c->path, c->lineno, what);
}

/* One assignment; lines httop has no use for are ignored. */
static int
take(struct ppc *c, struct assign *a, struct errmsg *e)
{
	uint64_t v, s, lp;
	long l;
	int k = -1;
	struct ppc_sample *ps;

	if (strcmp(a->name, "TSC_ratio") == 0 && a->nsub == 0) {
		if (!ppc_parse_long(a->value, 1, 1000, &l))
			return bad_line(c, e, _("TSC_ratio is not a number from 1 to 1000"));
		c->tsc_ratio = l;
		return 0;
	}
	if (strcmp(a->name, "nr_cpus") == 0 && a->nsub == 0) {
		if (c->ncpus != 0)
			return bad_line(c, e, _("nr_cpus given twice"));
		if (!ppc_parse_long(a->value, 1, MAX_CPUS, &l))
			return bad_line(c, e, _("nr_cpus is not a number from 1 to 65536"));
		c->ncpus = (unsigned)l;
		return 0;
	}
	if (strcmp(a->name, "tsc") != 0 && strcmp(a->name, "walltime") != 0 &&
	    strcmp(a->name, "core_fixed_counts") != 0 && strcmp(a->name, "core_counts") != 0)
		return 0;
	/* Every line we use ends in [S] and has an integer value. */
	if (a->nsub == 0 || a->sub_is_str[a->nsub - 1] || !parse_u64(a->sub[a->nsub - 1], &s) ||
	    s >= MAX_SAMPLES)
		return bad_line(c, e, _("expected a sample number as the last subscript"));
	if (!parse_u64(a->value, &v))
		return bad_line(c, e, _("the value is not an unsigned integer"));
	if (c->ncpus == 0)
		return bad_line(c, e, _("counter values before nr_cpus: is this "
		    "periodic-performance-counters output?"));
	ps = sample_at(c, (unsigned)s);
	if (strcmp(a->name, "tsc") == 0) {
		if (a->nsub != 1)
			return bad_line(c, e, _("expected tsc[S]"));
		ps->tsc = v;
		ps->have_tsc = true;
		return 0;
	}
	if (strcmp(a->name, "walltime") == 0) {
		/* walltime[0][S]: seconds, walltime[1][S]: microseconds. */
		if (a->nsub != 2 || a->sub_is_str[0] || (strcmp(a->sub[0], "0") != 0 &&
		    strcmp(a->sub[0], "1") != 0))
			return bad_line(c, e, _("expected walltime[0][S] (s) or walltime[1][S] (us)"));
		if (a->sub[0][0] == '0') {
			if (v > MAX_WALLTIME)
				return bad_line(c, e, _("walltime[0][S] is not a time in seconds "
				    "since 1970"));
			ps->sec = v;
			ps->have_sec = true;
		} else {
			if (v > 999999)
				return bad_line(c, e, _("walltime[1][S] is not a number of "
				    "microseconds from 0 to 999999"));
			ps->usec = v;
			ps->have_usec = true;
		}
		return 0;
	}
	if (a->nsub != 3 || a->sub_is_str[0] || !a->sub_is_str[1] || !parse_u64(a->sub[0], &lp))
		return bad_line(c, e, _("expected NAME[CPU][\"EVENT\"][S]"));
	if (lp >= c->ncpus)
		return bad_line(c, e, _("logical processor number not below nr_cpus"));
	if (strcmp(a->name, "core_fixed_counts") == 0) {
		if (strcmp(a->sub[1], "Inst_Retired.Any") == 0)
			k = V_INST;
		else if (strcmp(a->sub[1], "CPU_CLK_Unhalted.Core") == 0)
			k = V_CYC;
		else if (strcmp(a->sub[1], "CPU_CLK_Unhalted.Ref") == 0)
			k = V_REF;
	} else if (c->pmc_name != NULL && strcmp(a->sub[1], c->pmc_name) == 0) {
		k = V_PMC;
	} else {
		note_dropped(c, a->sub[1]);
	}
	if (k < 0)
		return 0;
	if (sample_values(c, ps, e) != 0)
		return -1;
	ps->v[lp * NV + (unsigned)k] = v;
	ps->have[lp * NV + (unsigned)k] = 1;
	return 0;
}

static int
read_ppc(struct ppc *c, FILE *fp, struct errmsg *e)
{
	char line[PPC_LINE_MAX + 2];
	struct assign a;
	struct infile f;
	size_t len;
	int rc = 0, r = 0;

	infile_wrap(&f, fp, c->path, _("counter file"), MAX_PPC_SIZE, PPC_LINE_MAX);
	while (rc == 0 && (r = infile_getline(&f, line, sizeof line, e)) == 1) {
		c->lineno = f.line;
		len = strlen(line);
		while (len > 0 && isspace((unsigned char)line[len - 1]))
			line[--len] = '\0';
		if (len == 0 || strncmp(line, "--", 2) == 0 || line[0] == '#')
			continue;
		if (!split_assign(line, &a))
			rc = bad_line(c, e, _("not an assignment NAME[...] = VALUE"));
		else
			rc = take(c, &a, e);
	}
	if (rc == 0 && r < 0)
		rc = -1;
	if (rc != 0)
		return rc;
	if (c->tsc_ratio == 0 || c->ncpus == 0)
		return errmsg_set(e, _("%s: no TSC_ratio or nr_cpus line: is this "
		    "periodic-performance-counters output?"), c->path);
	if (c->nsamples < 2)
		return errmsg_set(e, _("%s: fewer than two samples: nothing to replay"), c->path);
	return 0;
}

/* A sample with every value httop needs. */
static bool
sample_complete(const struct ppc *c, unsigned s, unsigned *lp_out, int *k_out)
{
	const struct ppc_sample *ps = &c->s[s];
	unsigned lp, k, nk = c->pmc_name != NULL ? NV : V_PMC;

	*lp_out = 0;
	*k_out = -1;
	if (!ps->have_tsc || !ps->have_sec || !ps->have_usec)
		return false;
	if (ps->have == NULL) {
		*k_out = V_INST;
		return false;
	}
	for (lp = 0; lp < c->ncpus; lp++) {
		for (k = 0; k < nk; k++) {
			if (!ps->have[lp * NV + k]) {
				*lp_out = lp;
				*k_out = (int)k;
				return false;
			}
		}
	}
	return true;
}

/* ---- the machine and the plan ---- */

static int
build_topology(struct machine *m, const struct ppc_opts *o, unsigned ncpus, struct errmsg *e)
{
	unsigned p, cpp, t, k;

	if (o->topology != NULL) {
		if (topology_load(&m->topo, o->topology, e) != 0)
			return -1;
		if (m->topo.ncpus != ncpus)
			return errmsg_set(e, _("%s has %u CPUs but the counter file has nr_cpus = %u"),
			    o->topology, m->topo.ncpus, ncpus);
		return 0;
	}
	if (o->sockets <= 0 || o->smt <= 0)
		return errmsg_set(e, _("the counter file does not record the topology: give --topology "
		    "FILE.xml (lstopo --of xml on that node) or --sockets N --smt N (Linux Intel "
		    "numbering: thread 0 of every core socket by socket, then thread 1)"));
	if (ncpus % (unsigned)(o->sockets * o->smt) != 0)
		return errmsg_set(e, _("nr_cpus = %u is not a multiple of --sockets %ld x --smt %ld"),
		    ncpus, o->sockets, o->smt);
	cpp = ncpus / (unsigned)(o->sockets * o->smt);
	topology_init(&m->topo);
	for (t = 0; t < (unsigned)o->smt; t++)
		for (p = 0; p < (unsigned)o->sockets; p++)
			for (k = 0; k < cpp; k++)
				topology_add_cpu(&m->topo, (t * (unsigned)o->sockets + p) * cpp + k,
				    p, 0, p, k, t, true);
	topology_finish(&m->topo);
	snprintf(m->topo.source, sizeof m->topo.source, "--sockets %ld --smt %ld", o->sockets,
	    o->smt);
	return 0;
}

/* The reference event: CPU_CLK_UNHALTED.REF_XCLK, event 0x3C umask 0x01
 * (Intel SDM vol. 3B, Skylake and Sandy Bridge event lists). */
static bool
is_ref_xclk(uint64_t v)
{
	return (v & 0xffffu) == 0x013cu;
}

struct conv {
	struct machine m;
	struct plan plan;
	char note[600];
	char what[PLAN_MAX_WRITES][96];
	const struct evsel *ref;   /* the reference-event counter, or NULL */
};

static void
build_plan(struct conv *cv, struct ppc *c, const struct ppc_opts *o, const struct evsel *ev,
    unsigned nev, const struct evsel *ctl, unsigned nctl, char *inferred, size_t ilen)
{
	struct plan *p = &cv->plan;
	const struct evsel *ref = NULL;
	unsigned i, nw = 0;
	bool any;

	for (i = 0; i < nev; i++) {
		if (is_ref_xclk(ev[i].value) && (ev[i].value & EVTSEL_EN) &&
		    (ref == NULL || (!(ref->value & EVTSEL_ANY) && (ev[i].value & EVTSEL_ANY))))
			ref = &ev[i];
	}
	any = ref != NULL && (ref->value & EVTSEL_ANY);
	c->pmc_name = ref != NULL ? ref->name : NULL;
	cv->ref = ref;

	memset(p, 0, sizeof *p);
	p->slots[p->nslots++] = (struct plan_slot){ SLOT_TSC, MSR_TSC, 64, THREAD_ALL };
	p->slots[p->nslots++] = (struct plan_slot){ SLOT_INST, MSR_FIXED_CTR0, 48, THREAD_ALL };
	p->slots[p->nslots++] = (struct plan_slot){ SLOT_CYCLES, MSR_FIXED_CTR1, 48, THREAD_ALL };
	p->slots[p->nslots++] = (struct plan_slot){ SLOT_REF, MSR_FIXED_CTR2, 48, THREAD_ALL };
	if (ref != NULL)
		/* The tool programs the same counter on every logical processor,
		 * so it was read on both threads of a core. */
		p->slots[p->nslots++] = (struct plan_slot){ any ? SLOT_ANY : SLOT_REFX,
		    MSR_PMC0 + (uint32_t)ref->counter, 48, THREAD_ALL };

	/* What the tool wrote, in its order: control registers, then event selects. */
	for (i = 0; i < nctl + nev && nw < PLAN_MAX_WRITES; i++) {
		const struct evsel *x = i < nctl ? &ctl[i] : &ev[i - nctl];
		struct plan_write *w = &p->writes[nw];

		w->msr = x->msr;
		w->value = x->value;
		w->mask = ~0ull;
		w->busy_mask = 0;
		w->thread_mask = THREAD_ALL;
		snprintf(cv->what[nw], sizeof cv->what[nw], "%s (cpus %u-%u)", x->name, x->first,
		    x->last);
		w->what = cv->what[nw];
		nw++;
	}
	p->nwrites = nw;

	/* The group: from --model, else inferred from the programming. */
	if (o->model >= 0) {
		p->group = uarch_group_of(&cv->m.id);
		snprintf(inferred, ilen, "group %s from family %ld model 0x%lx", uarch_group_name(
		    p->group), o->family, o->model);
	} else if (any) {
		p->group = UARCH_SKX;
		snprintf(inferred, ilen, "group skx inferred from %s = 0x%" PRIx64 " (REF_XCLK with "
		    "AnyThread, crystal clock); Sandy Bridge..Broadwell use the same encoding with "
		    "a 100 MHz clock: give --model to be sure", ref->name, ref->value);
	} else {
		p->group = UARCH_UNKNOWN;
		snprintf(inferred, ilen, "group unknown (no --model, no REF_XCLK with AnyThread)");
	}
	cv->m.group = p->group;

	/* Without AnyThread only a bound; run() drops it unless 2 threads per core. */
	p->split = any ? SPLIT_ANY : SPLIT_BOUND;
	snprintf(p->summary, sizeof p->summary, "recorded by periodic-performance-counters: fixed "
	    "counters%s%s", ref != NULL ? " + " : "", ref != NULL ? ref->name : "");
	if (ref != NULL)
		snprintf(p->summary + strlen(p->summary), sizeof p->summary - strlen(p->summary),
		    "%s on PMC%d", any ? ":ANY" : "", ref->counter);
}

/* TSC ticks per count of the reference event; needs TSC_ratio. */
static int
plan_scale(struct conv *cv, const struct ppc *c, const struct ppc_opts *o, struct errmsg *e)
{
	struct plan *p = &cv->plan;
	const struct evsel *ref = cv->ref;

	if (o->scale > 0) {
		p->scale = p->scale_expected = (unsigned)o->scale;
		snprintf(p->scale_note, sizeof p->scale_note, "%u from --scale, not measured",
		    p->scale);
	} else if (p->group == UARCH_SKX) {
		/* 25 MHz crystal on Xeon Scalable: TSC / crystal = 4 x base ratio
		 * (84 on a 2.1 GHz 8160; doc/hardware.md section 4). */
		p->scale = p->scale_expected = 4u * (unsigned)c->tsc_ratio;
		snprintf(p->scale_note, sizeof p->scale_note, "table value 4 x TSC_ratio %ld = %u "
		    "(25 MHz crystal), not measured", c->tsc_ratio, p->scale);
	} else if (p->group == UARCH_SNB) {
		p->scale = p->scale_expected = (unsigned)c->tsc_ratio;
		snprintf(p->scale_note, sizeof p->scale_note, "table value TSC_ratio %ld "
		    "(100 MHz XCLK), not measured", c->tsc_ratio);
	} else if (ref != NULL) {
		return errmsg_set(e, _("the scale of %s on group %s is not known to the converter: give "
		    "--scale N (TSC ticks per count)"), ref->name, uarch_group_name(p->group));
	}
	return 0;
}

/* Every sample complete but maybe the last, which is dropped when cut
 * short (the tool was stopped mid-write): *last is the number kept. Done
 * before the topology is built, so that a file naming a huge nr_cpus but
 * holding few values is refused at once. */
static int
check_samples(const struct ppc *c, int quiet, unsigned *last, struct errmsg *e)
{
	unsigned i, lp;
	int miss_k;

	*last = c->nsamples;
	for (i = 0; i < c->nsamples; i++) {
		if (sample_complete(c, i, &lp, &miss_k))
			continue;
		if (i + 1 == c->nsamples && i >= 2) {
			if (!quiet)
				fprintf(stderr, _("httop-ppc2trace: sample %u is incomplete (file cut "
				    "short?): dropped\n"), i);
			*last = i;
			break;
		}
		if (miss_k < 0)
			return errmsg_set(e, _("%s: sample %u lacks tsc[%u] or walltime[0|1][%u]"), c->path,
			    i, i, i);
		return errmsg_set(e, _("%s: sample %u lacks the %s value of logical processor %u"),
		    c->path, i, miss_k == V_INST ? "Inst_Retired.Any" : miss_k == V_CYC ?
		    "CPU_CLK_Unhalted.Core" : miss_k == V_REF ? "CPU_CLK_Unhalted.Ref" :
		    c->pmc_name, lp);
	}
	return 0;
}

static int
write_trace(struct conv *cv, struct ppc *c, unsigned last, FILE *out, struct errmsg *e)
{
	struct trace_writer *w;
	struct sample s;
	char producer[300], *copy;
	unsigned i, lp, k;
	uint64_t t0, t;
	uint64_t *row;

	copy = xstrdup(c->path);
	snprintf(producer, sizeof producer, "httop-ppc2trace from %s", basename(copy));
	free(copy);
	w = trace_writer_open_ex(out, &cv->m, &cv->plan, producer, (time_t)c->s[0].sec,
	    cv->note, e);
	if (w == NULL)
		return -1;
	sample_init(&s, cv->m.topo.max_cpu, cv->plan.nslots, cv->m.topo.ncores, false);
	/* Below 2^59 microseconds (MAX_WALLTIME): no overflow. */
	t0 = c->s[0].sec * 1000000 + c->s[0].usec;
	for (i = 0; i < last; i++) {
		const struct ppc_sample *ps = &c->s[i];

		s.seq = i;
		t = ps->sec * 1000000 + ps->usec;
		s.time = t > t0 ? (double)(t - t0) / 1e6 : 0.0;
		for (lp = 0; lp < c->ncpus && lp < s.max_cpu; lp++) {
			row = sample_row(&s, lp);
			s.state[lp] = CPU_READ_OK;
			/* The tool reads the TSC once per sample: every CPU gets it. */
			row[0] = ps->tsc;
			for (k = 0; k + 1 < cv->plan.nslots; k++)
				row[k + 1] = ps->v[lp * NV + k];
		}
		if (trace_write_sample(w, &s, e) != 0) {
			sample_free(&s);
			trace_writer_close(w, NULL);
			return -1;
		}
	}
	sample_free(&s);
	return trace_writer_close(w, e);
}

static void
free_ppc(struct ppc *c)
{
	unsigned i;

	for (i = 0; i < c->nsamples; i++) {
		free(c->s[i].v);
		free(c->s[i].have);
	}
	free(c->s);
}


int
ppc_convert(const struct ppc_opts *o, struct ppc_input lua, struct ppc_input perfevtsel,
    struct ppc_input control, FILE *out, int quiet, struct errmsg *e)
{
	struct evsel ev[MAX_EVSEL], ctl[MAX_EVSEL];
	unsigned nev = 0, nctl = 0;
	struct conv *cv;
	struct ppc c;
	char inferred[300];
	unsigned last;
	int rc = -1;

	e->text[0] = '\0';
	if (read_evsel(perfevtsel, true, ev, &nev, e) != 0)
		return -1;
	if (control.fp != NULL && read_evsel(control, false, ctl, &nctl, e) != 0)
		return -1;

	memset(&c, 0, sizeof c);
	c.path = lua.name;
	cv = xcalloc(1, sizeof *cv);
	/* The identity first: --model decides the group. */
	identity_from_fields(&cv->m.id, "GenuineIntel", (int)o->family, (int)o->model,
	    (int)o->stepping, o->brand != NULL ? o->brand : "");

	/* Which core_counts event is the reference counter must be known
	 * before the counter file is read. */
	build_plan(cv, &c, o, ev, nev, ctl, nctl, inferred, sizeof inferred);
	if (read_ppc(&c, lua.fp, e) != 0 || plan_scale(cv, &c, o, e) != 0)
		goto out;
	if (check_samples(&c, quiet, &last, e) != 0 ||
	    build_topology(&cv->m, o, c.ncpus, e) != 0)
		goto out;
	if (cv->plan.split == SPLIT_BOUND && cv->m.topo.max_smt != 2)
		cv->plan.split = SPLIT_NONE;
	cv->m.id.base_ratio = (unsigned)c.tsc_ratio;
	cv->m.id.base_src = BASE_TRACE;
	cv->m.id.n_gp = nev;
	cv->m.id.gp_width = 48;
	cv->m.id.n_fixed = 3;
	cv->m.id.fixed_width = 48;
	snprintf(cv->m.id.source, sizeof cv->m.id.source, "%s", lua.name);
	snprintf(cv->m.hostname, sizeof cv->m.hostname, "%s", o->host != NULL ? o->host : "");
	/* A note cut at the buffer's end is still a note. */
	if (snprintf(cv->note, sizeof cv->note, "converted from periodic-performance-counters; "
	    "%s; scale: %s; TSC: the one tsc[S] of each sample for every CPU; dropped events: "
	    "%s%s%s", inferred, cv->plan.scale_note, c.dropped[0] ? c.dropped : "none",
	    o->note ? "; " : "", o->note ? o->note : "") < 0)
		cv->note[0] = '\0';
	rc = write_trace(cv, &c, last, out, e);
out:
	topology_free(&cv->m.topo);
	free(cv);
	free_ppc(&c);
	return rc;
}
