/* ppc2trace.c: httop-ppc2trace, convert the output of John McCalpin's
 * periodic-performance-counters (one Lua/Python assignment per line, e.g.
 * core_fixed_counts[LP]["CPU_CLK_Unhalted.Ref"][S] = V) into an httop
 * trace (man/httop-trace.5), so that httop replays it through the same
 * metrics as a live run. See man/httop-ppc2trace.1. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#if ENABLE_NLS
#include <locale.h>
#endif

#include "machine/machine.h"
#include "plan/plan.h"
#include "source/sample.h"
#include "trace/trace.h"
#include "util/errmsg.h"
#include "util/i18n.h"
#include "util/xalloc.h"

/* Values per logical processor and sample, in trace slot order after TSC. */
enum { V_INST, V_CYC, V_REF, V_PMC, NV };

#define MAX_SAMPLES 1000000u
#define MAX_CPUS    65536u
#define MAX_EVSEL   16

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
	struct ppc_sample *s;
	const char *pmc_name;      /* core_counts event read into V_PMC, or NULL */
	char dropped[256];         /* other core_counts events, comma separated */
};

struct opts {
	const char *in, *out, *perfevtsel, *control, *topology, *host, *brand, *note;
	long sockets, smt, family, model, stepping, scale;
};

static int
fail(struct errmsg *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int
fail(struct errmsg *e, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(e->text, sizeof e->text, fmt, ap);
	va_end(ap);
	return -1;
}

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

static bool
parse_long(const char *s, long lo, long hi, long *out)
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
read_evsel(const char *path, bool with_counter, struct evsel *ev, unsigned *n, struct errmsg *e)
{
	char line[512], *tok[8], *p;
	unsigned long lineno = 0;
	unsigned ntok, want = with_counter ? 6 : 5;
	uint64_t a, b, msr, ctr = 0;
	FILE *fp;

	if ((fp = fopen(path, "r")) == NULL)
		return fail(e, _("cannot open %s: %s"), path, strerror(errno));
	while (fgets(line, sizeof line, fp) != NULL) {
		lineno++;
		ntok = 0;
		for (p = strtok(line, " \t\r\n"); p != NULL && ntok < 8; p = strtok(NULL, " \t\r\n"))
			tok[ntok++] = p;
		if (ntok == 0 || tok[0][0] == '#')
			continue;
		if (ntok < want || !parse_u64(tok[0], &a) || !parse_u64(tok[1], &b) ||
		    !parse_u64(tok[2], &msr) || (with_counter && !parse_u64(tok[3], &ctr)) ||
		    !parse_u64(tok[want - 2], &ev[*n].value) || a > b || b >= MAX_CPUS ||
		    msr > UINT32_MAX || ctr > 7) {
			fclose(fp);
			return fail(e, _("%s:%lu: expected \"FIRST_CPU LAST_CPU MSR %sVALUE NAME\""),
			    path, lineno, with_counter ? "COUNTER " : "");
		}
		if (*n == MAX_EVSEL) {
			fclose(fp);
			return fail(e, _("%s:%lu: more than %d registers"), path, lineno, MAX_EVSEL);
		}
		ev[*n].first = (unsigned)a;
		ev[*n].last = (unsigned)b;
		ev[*n].msr = (uint32_t)msr;
		ev[*n].counter = with_counter ? (int)ctr : -1;
		snprintf(ev[*n].name, sizeof ev[*n].name, "%s", tok[want - 1]);
		(*n)++;
	}
	fclose(fp);
	return 0;
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

static struct ppc_sample *
sample_at(struct ppc *c, unsigned s)
{
	unsigned i;

	if (s >= c->nsamples) {
		c->s = xreallocarray(c->s, s + 1, sizeof *c->s);
		for (i = c->nsamples; i <= s; i++) {
			memset(&c->s[i], 0, sizeof c->s[i]);
			c->s[i].v = xcalloc((size_t)c->ncpus * NV, sizeof *c->s[i].v);
			c->s[i].have = xcalloc((size_t)c->ncpus * NV, 1);
		}
		c->nsamples = s + 1;
	}
	return &c->s[s];
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
	return fail(e, "%s:%lu: %s", c->path, c->lineno, what);
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
		if (!parse_long(a->value, 1, 1000, &l))
			return bad_line(c, e, _("TSC_ratio is not a number from 1 to 1000"));
		c->tsc_ratio = l;
		return 0;
	}
	if (strcmp(a->name, "nr_cpus") == 0 && a->nsub == 0) {
		if (c->ncpus != 0)
			return bad_line(c, e, _("nr_cpus given twice"));
		if (!parse_long(a->value, 1, MAX_CPUS, &l))
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
			ps->sec = v;
			ps->have_sec = true;
		} else {
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
	ps->v[lp * NV + (unsigned)k] = v;
	ps->have[lp * NV + (unsigned)k] = 1;
	return 0;
}

static int
read_ppc(struct ppc *c, struct errmsg *e)
{
	char line[1024];
	struct assign a;
	size_t len;
	FILE *fp;
	int rc = 0;

	if ((fp = fopen(c->path, "r")) == NULL)
		return fail(e, _("cannot open %s: %s"), c->path, strerror(errno));
	while (rc == 0 && fgets(line, sizeof line, fp) != NULL) {
		c->lineno++;
		len = strlen(line);
		if (len == sizeof line - 1 && line[len - 1] != '\n') {
			rc = bad_line(c, e, _("line too long: not periodic-performance-counters "
			    "output"));
			break;
		}
		while (len > 0 && isspace((unsigned char)line[len - 1]))
			line[--len] = '\0';
		if (len == 0 || strncmp(line, "--", 2) == 0 || line[0] == '#')
			continue;
		if (!split_assign(line, &a))
			rc = bad_line(c, e, _("not an assignment NAME[...] = VALUE"));
		else
			rc = take(c, &a, e);
	}
	if (rc == 0 && ferror(fp))
		rc = fail(e, _("reading %s: %s"), c->path, strerror(errno));
	fclose(fp);
	if (rc != 0)
		return rc;
	if (c->tsc_ratio == 0 || c->ncpus == 0)
		return fail(e, _("%s: no TSC_ratio or nr_cpus line: is this "
		    "periodic-performance-counters output?"), c->path);
	if (c->nsamples < 2)
		return fail(e, _("%s: fewer than two samples: nothing to replay"), c->path);
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
build_topology(struct machine *m, const struct opts *o, unsigned ncpus, struct errmsg *e)
{
	unsigned p, cpp, t, k;

	if (o->topology != NULL) {
		if (topology_load(&m->topo, o->topology, e) != 0)
			return -1;
		if (m->topo.ncpus != ncpus)
			return fail(e, _("%s has %u CPUs but the counter file has nr_cpus = %u"),
			    o->topology, m->topo.ncpus, ncpus);
		return 0;
	}
	if (o->sockets <= 0 || o->smt <= 0)
		return fail(e, _("the counter file does not record the topology: give --topology "
		    "FILE.xml (lstopo --of xml on that node) or --sockets N --smt N (Linux Intel "
		    "numbering: thread 0 of every core socket by socket, then thread 1)"));
	if (ncpus % (unsigned)(o->sockets * o->smt) != 0)
		return fail(e, _("nr_cpus = %u is not a multiple of --sockets %ld x --smt %ld"),
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
build_plan(struct conv *cv, struct ppc *c, const struct opts *o, const struct evsel *ev,
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
plan_scale(struct conv *cv, const struct ppc *c, const struct opts *o, struct errmsg *e)
{
	struct plan *p = &cv->plan;
	const struct evsel *ref = cv->ref;

	if (o->scale > 0) {
		p->scale = p->scale_expected = (unsigned)o->scale;
		snprintf(p->scale_note, sizeof p->scale_note, "%u from --scale, not measured",
		    p->scale);
	} else if (p->group == UARCH_SKX) {
		/* 25 MHz crystal on Xeon Scalable: TSC / crystal = 4 x base ratio
		 * (84 on a 2.1 GHz 8160; hw-facts.md 4). */
		p->scale = p->scale_expected = 4u * (unsigned)c->tsc_ratio;
		snprintf(p->scale_note, sizeof p->scale_note, "table value 4 x TSC_ratio %ld = %u "
		    "(25 MHz crystal), not measured", c->tsc_ratio, p->scale);
	} else if (p->group == UARCH_SNB) {
		p->scale = p->scale_expected = (unsigned)c->tsc_ratio;
		snprintf(p->scale_note, sizeof p->scale_note, "table value TSC_ratio %ld "
		    "(100 MHz XCLK), not measured", c->tsc_ratio);
	} else if (ref != NULL) {
		return fail(e, _("the scale of %s on group %s is not known to the converter: give "
		    "--scale N (TSC ticks per count)"), ref->name, uarch_group_name(p->group));
	}
	return 0;
}

static void
usage(FILE *fp)
{
	fprintf(fp, _("usage: httop-ppc2trace [options] IN.lua > OUT.trace\n"
	    "Convert periodic-performance-counters output into an httop trace.\n"
	    "  --topology FILE.xml   the node's hwloc topology, or\n"
	    "  --sockets N --smt N   Linux Intel numbering (thread 0 of all cores, socket by\n"
	    "                        socket, then thread 1)\n"
	    "  --perfevtsel FILE     core_msr_perfevtsel.input (default: beside IN)\n"
	    "  --control FILE        core_msr_control.input (default: beside IN, optional)\n"
	    "  --family N --model N --stepping N --brand TEXT   the CPU (default: inferred)\n"
	    "  --scale N             TSC ticks per reference-event count (default: table)\n"
	    "  --host NAME           host name (default: IN's name up to the first dot)\n"
	    "  --note TEXT           added to the trace's note\n"
	    "  -o FILE               write to FILE instead of standard output\n"));
}

static int
opt_num(const char *arg, const char *name, long lo, long hi, long *out, struct errmsg *e)
{
	if (!parse_long(arg, lo, hi, out))
		return fail(e, _("%s wants a number from %ld to %ld, not \"%s\""), name, lo, hi,
		    arg);
	return 0;
}

static int
parse_opts(int argc, char **argv, struct opts *o, struct errmsg *e)
{
	static const struct option lo[] = {
		{ "topology", required_argument, NULL, 'T' },
		{ "sockets", required_argument, NULL, 'S' },
		{ "smt", required_argument, NULL, 'M' },
		{ "perfevtsel", required_argument, NULL, 'P' },
		{ "control", required_argument, NULL, 'C' },
		{ "family", required_argument, NULL, 'f' },
		{ "model", required_argument, NULL, 'm' },
		{ "stepping", required_argument, NULL, 's' },
		{ "brand", required_argument, NULL, 'b' },
		{ "scale", required_argument, NULL, 'x' },
		{ "host", required_argument, NULL, 'H' },
		{ "note", required_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int ch;

	memset(o, 0, sizeof *o);
	o->family = 6;   /* TSC_ratio and REF_XCLK are Intel family 6 notions */
	o->model = o->stepping = -1;
	while ((ch = getopt_long(argc, argv, "ho:", lo, NULL)) != -1) {
		int rc = 0;

		switch (ch) {
		case 'T': o->topology = optarg; break;
		case 'S': rc = opt_num(optarg, "--sockets", 1, 64, &o->sockets, e); break;
		case 'M': rc = opt_num(optarg, "--smt", 1, TOPO_MAX_SMT, &o->smt, e); break;
		case 'P': o->perfevtsel = optarg; break;
		case 'C': o->control = optarg; break;
		case 'f': rc = opt_num(optarg, "--family", 0, 0xfff, &o->family, e); break;
		case 'm': rc = opt_num(optarg, "--model", 0, 0xff, &o->model, e); break;
		case 's': rc = opt_num(optarg, "--stepping", 0, 0xf, &o->stepping, e); break;
		case 'b': o->brand = optarg; break;
		case 'x': rc = opt_num(optarg, "--scale", 1, 100000, &o->scale, e); break;
		case 'H': o->host = optarg; break;
		case 'n': o->note = optarg; break;
		case 'o': o->out = optarg; break;
		case 'h': usage(stdout); exit(0);
		case 'V': printf("httop-ppc2trace %s\n", PACKAGE_VERSION); exit(0);
		default: usage(stderr); exit(2);
		}
		if (rc != 0)
			return -1;
	}
	if (optind != argc - 1) {
		usage(stderr);
		exit(2);
	}
	o->in = argv[optind];
	if ((o->sockets > 0) != (o->smt > 0))
		return fail(e, _("--sockets and --smt go together"));
	if (o->topology != NULL && o->sockets > 0)
		return fail(e, _("give --topology or --sockets/--smt, not both"));
	return 0;
}

/* FILE beside `in`, or NULL if it does not exist and is optional. */
static char *
beside(const char *in, const char *file)
{
	char *copy = xstrdup(in), *dir = dirname(copy), *path;
	size_t len = strlen(dir) + strlen(file) + 2;

	path = xmalloc(len);
	snprintf(path, len, "%s/%s", dir, file);
	free(copy);
	return path;
}

static int
write_trace(struct conv *cv, struct ppc *c, const struct opts *o, FILE *out, struct errmsg *e)
{
	struct trace_writer *w;
	struct sample s;
	char producer[300], *copy;
	unsigned i, lp, last, k;
	int miss_k;
	int64_t t0, t;
	uint64_t *row;

	copy = xstrdup(o->in);
	snprintf(producer, sizeof producer, "httop-ppc2trace from %s", basename(copy));
	free(copy);
	/* A final sample cut short (the tool was stopped mid-write) is dropped;
	 * a gap anywhere else is an error. */
	last = c->nsamples;
	for (i = 0; i < c->nsamples; i++) {
		if (sample_complete(c, i, &lp, &miss_k))
			continue;
		if (i + 1 == c->nsamples && i >= 2) {
			fprintf(stderr, _("httop-ppc2trace: sample %u is incomplete (file cut "
			    "short?): dropped\n"), i);
			last = i;
			break;
		}
		if (miss_k < 0)
			return fail(e, _("%s: sample %u lacks tsc[%u] or walltime[0|1][%u]"), c->path,
			    i, i, i);
		return fail(e, _("%s: sample %u lacks the %s value of logical processor %u"),
		    c->path, i, miss_k == V_INST ? "Inst_Retired.Any" : miss_k == V_CYC ?
		    "CPU_CLK_Unhalted.Core" : miss_k == V_REF ? "CPU_CLK_Unhalted.Ref" :
		    c->pmc_name, lp);
	}

	w = trace_writer_open_ex(out, &cv->m, &cv->plan, producer, (time_t)c->s[0].sec,
	    cv->note, e);
	if (w == NULL)
		return -1;
	sample_init(&s, cv->m.topo.max_cpu, cv->plan.nslots, cv->m.topo.ncores, false);
	t0 = (int64_t)(c->s[0].sec * 1000000 + c->s[0].usec);
	for (i = 0; i < last; i++) {
		const struct ppc_sample *ps = &c->s[i];

		s.seq = i;
		t = (int64_t)(ps->sec * 1000000 + ps->usec) - t0;
		s.time = t > 0 ? (double)t / 1e6 : 0.0;
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

static int
run(const struct opts *o, struct errmsg *e)
{
	static struct conv cv;
	struct evsel ev[MAX_EVSEL], ctl[MAX_EVSEL];
	unsigned nev = 0, nctl = 0;
	struct ppc c;
	char inferred[300], *path, *copy, *dot, host[64];
	FILE *out = stdout;
	int rc = -1;

	memset(&c, 0, sizeof c);
	c.path = o->in;
	memset(&cv, 0, sizeof cv);

	path = o->perfevtsel != NULL ? xstrdup(o->perfevtsel) :
	    beside(o->in, "core_msr_perfevtsel.input");
	if (access(path, R_OK) != 0 && o->perfevtsel == NULL) {
		fail(e, _("%s: the counter programming is not in the counter file: give "
		    "--perfevtsel FILE (the core_msr_perfevtsel.input it was recorded with)"), path);
		free(path);
		return -1;
	}
	rc = read_evsel(path, true, ev, &nev, e);
	free(path);
	if (rc != 0)
		return -1;
	path = o->control != NULL ? xstrdup(o->control) : beside(o->in, "core_msr_control.input");
	if (o->control != NULL || access(path, R_OK) == 0)
		rc = read_evsel(path, false, ctl, &nctl, e);
	free(path);
	if (rc != 0)
		return -1;

	/* The identity first: --model decides the group. */
	identity_from_fields(&cv.m.id, "GenuineIntel", (int)o->family, (int)o->model,
	    (int)o->stepping, o->brand != NULL ? o->brand : "");

	/* Which core_counts event is the reference counter must be known
	 * before the counter file is read. */
	build_plan(&cv, &c, o, ev, nev, ctl, nctl, inferred, sizeof inferred);
	rc = -1;
	if (read_ppc(&c, e) != 0 || plan_scale(&cv, &c, o, e) != 0)
		goto out;
	if (build_topology(&cv.m, o, c.ncpus, e) != 0)
		goto out;
	if (cv.plan.split == SPLIT_BOUND && cv.m.topo.max_smt != 2)
		cv.plan.split = SPLIT_NONE;
	cv.m.id.base_ratio = (unsigned)c.tsc_ratio;
	cv.m.id.base_src = BASE_TRACE;
	cv.m.id.n_gp = nev;
	cv.m.id.gp_width = 48;
	cv.m.id.n_fixed = 3;
	cv.m.id.fixed_width = 48;
	snprintf(cv.m.id.source, sizeof cv.m.id.source, "%s", o->in);
	if (o->host != NULL) {
		snprintf(cv.m.hostname, sizeof cv.m.hostname, "%s", o->host);
	} else {
		copy = xstrdup(o->in);
		snprintf(host, sizeof host, "%s", basename(copy));
		free(copy);
		if ((dot = strchr(host, '.')) != NULL)
			*dot = '\0';
		snprintf(cv.m.hostname, sizeof cv.m.hostname, "%s", host);
	}
	snprintf(cv.note, sizeof cv.note, "converted from periodic-performance-counters; %s; "
	    "scale: %s; TSC: the one tsc[S] of each sample for every CPU; dropped events: %s%s%s",
	    inferred, cv.plan.scale_note, c.dropped[0] ? c.dropped : "none",
	    o->note ? "; " : "", o->note ? o->note : "");

	if (o->out != NULL && (out = fopen(o->out, "w")) == NULL) {
		fail(e, _("cannot create %s: %s"), o->out, strerror(errno));
		goto out;
	}
	rc = write_trace(&cv, &c, o, out, e);
	if (out != stdout && fclose(out) != 0 && rc == 0)
		rc = fail(e, _("writing %s: %s"), o->out, strerror(errno));
out:
	topology_free(&cv.m.topo);
	free_ppc(&c);
	return rc;
}

int
main(int argc, char **argv)
{
	struct opts o;
	struct errmsg e;

#if ENABLE_NLS
	setlocale(LC_ALL, "");
	bindtextdomain(PACKAGE, LOCALEDIR);
	textdomain(PACKAGE);
#endif
	e.text[0] = '\0';
	if (parse_opts(argc, argv, &o, &e) != 0 || run(&o, &e) != 0) {
		fprintf(stderr, "httop-ppc2trace: %s\n", e.text);
		return 1;
	}
	return 0;
}
