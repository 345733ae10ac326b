/* scenario.c: the simulator's activity schedules, built in or read from a
 * scenario file (format: data/scenario-format.txt). */
#include "config.h"
#include "sim/scenario.h"

#include <ctype.h>
#include <float.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/cpulist.h"
#include "util/i18n.h"
#include "util/infile.h"
#include "util/numparse.h"
#include "util/textesc.h"
#include "util/xalloc.h"

#define SCEN_MAGIC    "httop-scenario"
#define SCEN_VERSION  1
#define SCEN_MAX_TOK  64
/* A scenario is a few lines per CPU group: 1 MiB and 4 KiB lines (a CPU
 * list of a few hundred items) are far beyond any real one. */
#define SCEN_MAX_SIZE (1024 * 1024)
#define SCEN_MAX_LINE 4096

/* Defaults for keys a line does not give. */
#define DEF_DUTY      0.5
#define DEF_PERIOD_S  0.1
#define DEF_ON_S      0.003     /* bursts: 3 ms on, 4.5 ms off = 40% active */
#define DEF_OFF_S     0.0045
#define DEF_LEN_S     1.0
#define DEF_IPC       1.0

const char *const scenario_builtins[] = {
	"idle", "busy", "one-per-core", "both", "alternate", "bursts", "demo", NULL
};

static void
act_clear(struct activity *a)
{
	free(a->phases);
	memset(a, 0, sizeof *a);
}

static void
act_init(struct activity *a, enum activity_kind kind, double ghz, double ipc)
{
	memset(a, 0, sizeof *a);
	a->kind = kind;
	a->duty = DEF_DUTY;
	a->period_s = DEF_PERIOD_S;
	a->on_s = DEF_ON_S;
	a->off_s = DEF_OFF_S;
	a->phase_len_s = DEF_LEN_S;
	a->ghz = ghz;
	a->ipc = ipc;
}

/* Deep copy: phases are owned by each activity. */
static void
act_copy(struct activity *dst, const struct activity *src)
{
	*dst = *src;
	dst->phases = NULL;
	if (src->nphases > 0) {
		dst->phases = xcalloc(src->nphases, sizeof *dst->phases);
		memcpy(dst->phases, src->phases, src->nphases * sizeof *src->phases);
	}
}

static void
scen_init(struct scenario *sc, const char *name, const struct topology *t)
{
	memset(sc, 0, sizeof *sc);
	snprintf(sc->name, sizeof sc->name, "%s", name);
	sc->max_cpu = t->max_cpu;
	sc->cpu = xcalloc(sc->max_cpu ? sc->max_cpu : 1, sizeof *sc->cpu);
	/* calloc gives ACT_IDLE everywhere */
}

void
scenario_free(struct scenario *sc)
{
	unsigned i;

	if (sc->cpu != NULL) {
		for (i = 0; i < sc->max_cpu; i++)
			act_clear(&sc->cpu[i]);
		free(sc->cpu);
	}
	memset(sc, 0, sizeof *sc);
}

void
scenario_empty(struct scenario *sc, const char *name, const struct topology *t)
{
	scen_init(sc, name, t);
}

void
scenario_set_cpu(struct scenario *sc, unsigned cpu, const struct activity *a)
{
	if (cpu >= sc->max_cpu)
		return;
	act_clear(&sc->cpu[cpu]);
	act_copy(&sc->cpu[cpu], a);
}

/* ---- built-ins ---------------------------------------------------------- */

static void
set_cpu(struct scenario *sc, const struct topology *t, unsigned core, unsigned thr,
    const struct activity *a)
{
	const struct topo_core *c = &t->cores[core];

	if (thr >= c->nthreads || c->cpus[thr] >= sc->max_cpu)
		return;
	act_clear(&sc->cpu[c->cpus[thr]]);
	act_copy(&sc->cpu[c->cpus[thr]], a);
}

static struct activity
duty(double d, double period_s, double phase, double ghz, double ipc)
{
	struct activity a;

	act_init(&a, ACT_DUTY, ghz, ipc);
	a.duty = d;
	a.period_s = period_s;
	a.phase = phase;
	return a;
}

static struct activity
bursts(double on_s, double off_s, double ghz, double ipc)
{
	struct activity a;

	act_init(&a, ACT_BURSTS, ghz, ipc);
	a.on_s = on_s;
	a.off_s = off_s;
	return a;
}

/* The demo: seven patterns over the cores (index mod 7, so the two
 * packages of the demo machine do not line up), each with its own clock and
 * IPC, so that the four categories show clearly and differ core to core. */
static void
demo_core(struct scenario *sc, const struct topology *t, unsigned c)
{
	/* 2.0 .. 3.4 GHz in 0.2 steps; IPC 0.3 .. 2.5 in 0.2 steps. */
	double ghz = 2.0 + 0.2 * ((c * 3) % 8);
	double ipc = 0.3 + 0.2 * ((c * 5) % 12);
	double ipc1 = ipc > 0.7 ? ipc - 0.4 : ipc + 0.2;   /* the sibling differs */
	double vary = 0.04 * ((c / 7) % 3);                 /* 0, 0.04, 0.08 */
	double ph = 0.1 * (c % 5);
	struct activity a[2], sub[2];
	unsigned j;

	switch (c % 7) {
	case 0:         /* mostly both, overlap partial */
		a[0] = duty(0.92 - vary, 0.05, 0.0, ghz, ipc);
		a[1] = duty(0.85 - vary, 0.05, 0.3 + ph, ghz, ipc1);
		break;
	case 1:         /* mostly thread 0 */
		a[0] = duty(0.85 + vary, 0.04, ph, ghz, ipc);
		a[1] = bursts(0.001, 0.006, ghz, ipc1);
		break;
	case 2:         /* mostly thread 1 */
		a[0] = bursts(0.001, 0.005, ghz, ipc);
		a[1] = duty(0.80 + vary, 0.03, ph, ghz, ipc1);
		break;
	case 3:         /* idle, or nearly (a light housekeeping thread) */
		act_init(&a[0], ACT_IDLE, 0, DEF_IPC);
		if ((c / 7) % 2 == 1)
			a[0] = bursts(0.0005, 0.05, ghz, 0.5);
		act_init(&a[1], ACT_IDLE, 0, DEF_IPC);
		break;
	case 4:         /* staggered duty cycles: A 0.4, B 0.4, C 0.2 */
		a[0] = duty(0.6, 0.02, 0.0, ghz, ipc);
		a[1] = duty(0.6, 0.02, 0.5, ghz, ipc1);
		break;
	case 5:         /* random bursts on both, about 40% each */
		a[0] = bursts(0.002, 0.003, ghz, ipc);
		a[1] = bursts(0.003, 0.0045, ghz, ipc1);
		break;
	default:        /* phases: the picture changes every 2 s */
		act_init(&a[0], ACT_PHASES, ghz, ipc);
		a[0].phase_len_s = 2.0;
		act_init(&sub[0], ACT_BUSY, ghz, ipc);
		sub[1] = duty(0.3, 0.01, 0.0, ghz, ipc);
		a[0].nphases = 2;
		a[0].phases = sub;
		act_init(&a[1], ACT_PHASES, ghz, ipc1);
		a[1].phase_len_s = 2.0;
		a[1].nphases = 2;
		a[1].phases = xcalloc(2, sizeof *a[1].phases);
		act_init(&a[1].phases[0], ACT_IDLE, ghz, ipc1);
		act_init(&a[1].phases[1], ACT_BUSY, ghz, ipc1);
		for (j = 0; j < t->cores[c].nthreads; j++) {
			set_cpu(sc, t, c, j, &a[j % 2]);
		}
		free(a[1].phases);
		return;
	}
	for (j = 0; j < t->cores[c].nthreads; j++) {
		struct activity x = a[j % 2];

		/* threads 2 and 3 (4-way SMT) repeat 0 and 1, a quarter later */
		if (j >= 2 && x.kind == ACT_DUTY)
			x.phase = x.phase + 0.25 >= 1 ? x.phase - 0.75 : x.phase + 0.25;
		set_cpu(sc, t, c, j, &x);
	}
}

int
scenario_builtin(struct scenario *sc, const char *name, const struct topology *t,
    struct errmsg *e)
{
	struct activity a;
	unsigned c, j, n;

	if (name == NULL || t == NULL)
		return errmsg_set(e, _("a scenario (the load) needs a machine to run on: this one, "
		    "--topology FILE, or --demo"));
	for (j = 0; scenario_builtins[j] != NULL; j++)
		if (strcmp(name, scenario_builtins[j]) == 0)
			break;
	if (scenario_builtins[j] == NULL)
		return errmsg_set(e, _("unknown built-in scenario '%s': use idle, busy, one-per-core, "
		    "both, alternate, bursts or demo, or the path of a scenario file"), name);

	scen_init(sc, name, t);
	for (c = 0; c < t->ncores; c++) {
		n = t->cores[c].nthreads;
		for (j = 0; j < n; j++) {
			if (strcmp(name, "idle") == 0) {
				act_init(&a, ACT_IDLE, 0, DEF_IPC);
			} else if (strcmp(name, "busy") == 0 || strcmp(name, "both") == 0) {
				act_init(&a, ACT_BUSY, 0, DEF_IPC);
			} else if (strcmp(name, "one-per-core") == 0) {
				act_init(&a, j == 0 ? ACT_BUSY : ACT_IDLE, 0, DEF_IPC);
			} else if (strcmp(name, "alternate") == 0) {
				/* threads take turns of 10 ms each (a lone
				 * thread: 10 ms on, 10 ms off) */
				unsigned k = n < 2 ? 2 : n;

				a = duty(1.0 / k, 0.01 * k, (double)j / k, 0, DEF_IPC);
			} else if (strcmp(name, "bursts") == 0) {
				a = bursts(DEF_ON_S, DEF_OFF_S, 0, DEF_IPC);
			} else {
				demo_core(sc, t, c);
				break;
			}
			set_cpu(sc, t, c, j, &a);
		}
	}
	return 0;
}

/* ---- scenario files ------------------------------------------------------ */

struct parse {
	const char *path;
	unsigned line;
	struct errmsg *e;
	const struct topology *t;
};

static int
perr(struct parse *p, const char *fmt, const char *arg)
{
	char msg[900], q[820];

	/* What the file holds is quoted escaped, and cut when it is long (a
	 * word of a 4 KiB line); a message passed as the argument fits. */
	snprintf(msg, sizeof msg, fmt, text_quote(q, sizeof q, arg, 200));
	return errmsg_set(p->e, "%s:%u: %s", p->path, p->line, msg);
}

/* A number with an optional unit: times take s, ms, us; fractions take %. */
static int
parse_value(const char *s, bool is_time, bool is_frac, double *out)
{
	static const struct {
		const char *unit;
		double scale;
		bool time;
	} units[] = { { "ms", 1e3, true }, { "us", 1e6, true }, { "s", 1, true }, { "%", 100, false } };
	size_t len = strlen(s), n, i;
	double div = 1;

	for (i = 0; i < sizeof units / sizeof units[0]; i++) {
		n = strlen(units[i].unit);
		if ((units[i].time ? is_time : is_frac) && len > n &&
		    strcmp(s + len - n, units[i].unit) == 0) {
			len -= n;
			div = units[i].scale;
			break;
		}
	}
	if (num_double_n(s, len, 0, -DBL_MAX, DBL_MAX, out) != NUM_OK)
		return -1;
	*out /= div;
	return 0;
}

static const char *
kind_keys(enum activity_kind k)
{
	switch (k) {
	case ACT_IDLE:   return "none";
	case ACT_BUSY:   return "ghz, ipc";
	case ACT_DUTY:   return "duty, phase, period, ghz, ipc";
	case ACT_BURSTS: return "on, off, ghz, ipc";
	case ACT_PHASES: return "len, ghz, ipc";
	}
	return "";
}

/* ghz= or ipc=. */
static int
param_rate(struct parse *p, struct activity *a, const char *key, const char *val,
    const char *tok)
{
	double v;

	if (parse_value(val, false, false, &v) != 0)
		return perr(p, _("bad number in '%s'"), tok);
	if (key[0] == 'g') {
		if (!(v > 0 && v <= 10))
			return perr(p, _("'%s': ghz must be above 0 and at most 10"), tok);
		a->ghz = v;
	} else {
		if (!(v >= 0 && v <= 16))
			return perr(p, _("'%s': ipc must be between 0 and 16"), tok);
		a->ipc = v;
	}
	return 0;
}

/* duty= or phase=. */
static int
param_frac(struct parse *p, struct activity *a, const char *key, const char *val,
    const char *tok)
{
	double v;

	if (parse_value(val, false, true, &v) != 0)
		return perr(p, _("bad fraction in '%s' (use 0.25 or 25%%)"), tok);
	if (key[0] == 'd') {
		if (!(v >= 0 && v <= 1))
			return perr(p, _("'%s': duty must be between 0 and 1"), tok);
		a->duty = v;
	} else {
		if (!(v >= 0 && v < 1))
			return perr(p, _("'%s': phase must be at least 0 and below 1"), tok);
		a->phase = v;
	}
	return 0;
}

/* period=, on=, off= or len=. */
static int
param_time(struct parse *p, struct activity *a, const char *key, const char *val,
    const char *tok)
{
	double v;

	if (parse_value(val, true, false, &v) != 0)
		return perr(p, _("bad time in '%s' (use seconds, or a unit: 10ms, 500us)"), tok);
	/* at least 1 us, at most a day: keeps tick counts far from overflow */
	if (!(v >= 1e-6 && v <= 86400))
		return perr(p, _("'%s': times must be between 1us and 86400s"), tok);
	if (strcmp(key, "period") == 0)
		a->period_s = v;
	else if (strcmp(key, "on") == 0)
		a->on_s = v;
	else if (strcmp(key, "off") == 0)
		a->off_s = v;
	else
		a->phase_len_s = v;
	return 0;
}

/* One key=value for activity `a`; range checks here so every bad value
 * gets a message saying what is allowed. */
static int
parse_param(struct parse *p, struct activity *a, const char *tok)
{
	const char *eq = strchr(tok, '=');
	char key[32], msg[200];
	size_t klen;
	enum activity_kind k = a->kind;

	if (eq == NULL || eq == tok)
		return perr(p, _("expected key=value, found '%s'"), tok);
	klen = (size_t)(eq - tok);
	if (klen >= sizeof key)
		klen = sizeof key - 1;
	memcpy(key, tok, klen);
	key[klen] = '\0';

	if ((strcmp(key, "ghz") == 0 || strcmp(key, "ipc") == 0) && k != ACT_IDLE)
		return param_rate(p, a, key, eq + 1, tok);
	if (k == ACT_DUTY && (strcmp(key, "duty") == 0 || strcmp(key, "phase") == 0))
		return param_frac(p, a, key, eq + 1, tok);
	if ((k == ACT_DUTY && strcmp(key, "period") == 0) ||
	    (k == ACT_BURSTS && (strcmp(key, "on") == 0 || strcmp(key, "off") == 0)) ||
	    (k == ACT_PHASES && strcmp(key, "len") == 0))
		return param_time(p, a, key, eq + 1, tok);
	snprintf(msg, sizeof msg, _("unknown key '%s' for this activity (keys: %s)"), key,
	    kind_keys(k));
	return perr(p, "%s", msg);
}

static int
parse_kind(struct parse *p, const char *name, enum activity_kind *k)
{
	static const char *const names[] = { "idle", "busy", "duty", "bursts", "phases" };
	unsigned i;

	for (i = 0; i < sizeof names / sizeof names[0]; i++) {
		if (strcmp(name, names[i]) == 0) {
			*k = (enum activity_kind)i;
			return 0;
		}
	}
	return perr(p, _("unknown activity '%s' (idle, busy, duty, bursts, phases)"), name);
}

/* tok[*i] is an activity name; parse it and its parameters up to the end
 * or to a '/' (which only separates the sub-activities of phases). */
static int
parse_activity(struct parse *p, char **tok, unsigned ntok, unsigned *i, struct activity *a,
    const struct activity *parent)
{
	enum activity_kind k = ACT_IDLE;

	if (*i >= ntok)
		return perr(p, "%s", _("missing activity (idle, busy, duty, bursts, phases)"));
	if (parse_kind(p, tok[*i], &k) != 0)
		return -1;
	act_init(a, k, parent ? parent->ghz : 0, parent ? parent->ipc : DEF_IPC);
	if (k == ACT_PHASES && parent != NULL)
		return perr(p, "%s", _("phases cannot be nested"));
	for ((*i)++; *i < ntok && strchr(tok[*i], '=') != NULL; (*i)++)
		if (parse_param(p, a, tok[*i]) != 0)
			return -1;
	if (k != ACT_PHASES)
		return 0;

	a->phases = xcalloc(SCEN_MAX_PHASES, sizeof *a->phases);
	for (;;) {
		if (a->nphases == SCEN_MAX_PHASES)
			return perr(p, _("more than %s phases"), "4");
		if (parse_activity(p, tok, ntok, i, &a->phases[a->nphases], a) != 0)
			return -1;
		a->nphases++;
		if (*i >= ntok)
			break;
		if (strcmp(tok[*i], "/") != 0)
			return perr(p, _("expected '/' or key=value, found '%s'"), tok[*i]);
		(*i)++;
	}
	return 0;
}

/* "all" or a CPU list; numbers beyond `n` are left for the caller to skip. */
static int
parse_list(struct parse *p, const char *text, unsigned n, struct cpulist *out)
{
	struct errmsg e2;
	unsigned i;

	if (strcmp(text, "all") == 0) {
		out->n = n;
		out->has = xcalloc(n ? n : 1, sizeof *out->has);
		for (i = 0; i < n; i++)
			out->has[i] = true;
		return 0;
	}
	if (cpulist_parse(text, out, &e2) != 0)
		return perr(p, "%s", e2.text);
	return 0;
}

/* Split at blanks after cutting the comment; returns the token count. */
static unsigned
tokenize(char *line, char **tok)
{
	unsigned n = 0;
	char *s, *save = NULL;

	if ((s = strchr(line, '#')) != NULL)
		*s = '\0';
	for (s = strtok_r(line, " \t\r\n", &save); s != NULL && n < SCEN_MAX_TOK;
	    s = strtok_r(NULL, " \t\r\n", &save))
		tok[n++] = s;
	return n;
}

static int
parse_header(struct parse *p, char **tok, unsigned ntok)
{
	long long v;

	if (ntok < 2 || strcmp(tok[0], SCEN_MAGIC) != 0)
		return perr(p, _("not a scenario file: the first line must be '%s 1'"), SCEN_MAGIC);
	if (num_int(tok[1], LLONG_MIN, LLONG_MAX, &v) != NUM_OK || v != SCEN_VERSION || ntok != 2)
		return perr(p, _("unsupported scenario format version '%s' (this httop reads version 1)"),
		    tok[1]);
	return 0;
}

/* "capid6 VALUE[,VALUE...]": the machine's, not an activity (for the die
 * grid). */
static int
parse_capid6(struct parse *p, struct scenario *sc, char **tok, unsigned ntok)
{
	struct errmsg e2;

	if (ntok != 2)
		return perr(p, "%s", _("'capid6' takes one word: the CAPID6 of each package, "
		    "e.g. capid6 0x0fafbeff,0x0bfdff7d"));
	if (sc->capid6.n > 0)
		return perr(p, "%s", _("a second 'capid6' line; give it once"));
	if (capid6_parse_list(tok[1], &sc->capid6, &e2) != 0)
		return errmsg_set(p->e, "%s:%u: capid6: %s", p->path, p->line, e2.text);
	sc->capid6.origin = CAPID6_FROM_SCENARIO;
	return 0;
}

/* One assignment line. assigned[cpu] marks CPUs named by a line so the
 * default only fills the others. */
static int
parse_line(struct parse *p, struct scenario *sc, char **tok, unsigned ntok, bool *assigned,
    struct activity *def, bool *have_def)
{
	const struct topology *t = p->t;
	struct cpulist l = { 0, NULL };
	struct activity a;
	unsigned i = 0, cpu, c, thr = 0;
	unsigned long long u;
	bool by_core = false;

	memset(&a, 0, sizeof a);
	if (strcmp(tok[0], "capid6") == 0)
		return parse_capid6(p, sc, tok, ntok);
	if (strcmp(tok[0], "default") == 0) {
		i = 1;
	} else if (strcmp(tok[0], "cpus") == 0) {
		if (ntok < 2)
			return perr(p, "%s", _("'cpus' needs a CPU list, e.g. cpus 0-3,8"));
		if (parse_list(p, tok[1], t->max_cpu, &l) != 0)
			return -1;
		i = 2;
	} else if (strcmp(tok[0], "thread") == 0) {
		if (ntok < 5 || strcmp(tok[2], "of") != 0 || strcmp(tok[3], "cores") != 0)
			return perr(p, "%s", _("expected 'thread N of cores LIST'"));
		if (num_uint(tok[1], TOPO_MAX_SMT - 1, &u) != NUM_OK)
			return perr(p, _("bad thread number '%s' (0 to 3)"), tok[1]);
		thr = (unsigned)u;
		if (parse_list(p, tok[4], t->ncores, &l) != 0)
			return -1;
		by_core = true;
		i = 5;
	} else {
		return perr(p, _("unknown line start '%s' (default, cpus, thread, capid6, or a "
		    "comment)"), tok[0]);
	}

	if (parse_activity(p, tok, ntok, &i, &a, NULL) != 0) {
		act_clear(&a);
		cpulist_free(&l);
		return -1;
	}
	if (i < ntok) {
		perr(p, _("unexpected '%s'"), tok[i]);
		act_clear(&a);
		cpulist_free(&l);
		return -1;
	}

	if (strcmp(tok[0], "default") == 0) {
		act_clear(def);
		*def = a;
		*have_def = true;
		return 0;
	}
	/* Numbers beyond this machine are skipped, so one file fits machines of
	 * different sizes. */
	for (i = 0; i < l.n; i++) {
		if (!l.has[i])
			continue;
		if (by_core) {
			c = i;
			if (c >= t->ncores || thr >= t->cores[c].nthreads)
				continue;
			cpu = t->cores[c].cpus[thr];
		} else {
			cpu = i;
		}
		if (cpu >= sc->max_cpu || !t->cpus[cpu].present)
			continue;
		act_clear(&sc->cpu[cpu]);
		act_copy(&sc->cpu[cpu], &a);
		assigned[cpu] = true;
	}
	act_clear(&a);
	cpulist_free(&l);
	return 0;
}

int
scenario_load(struct scenario *sc, const char *path, const struct topology *t,
    struct errmsg *e)
{
	struct parse p = { path, 0, e, t };
	struct activity def;
	struct infile f;
	bool have_def = false, *assigned;
	char *line, *tok[SCEN_MAX_TOK];
	const char *base;
	unsigned ntok, cpu;
	int rc = 0, r;

	if (infile_open(&f, path, _("scenario file"), SCEN_MAX_SIZE, SCEN_MAX_LINE, e) != 0) {
		if (errno != EINVAL)
			return errmsg_set(e, _("cannot open scenario file %s: %s: give a readable file "
			    "or a built-in name (idle, busy, one-per-core, both, alternate, bursts, "
			    "demo)"), path, strerror(errno));
		return -1;
	}
	base = strrchr(path, '/');
	scen_init(sc, base ? base + 1 : path, t);
	assigned = xcalloc(sc->max_cpu ? sc->max_cpu : 1, sizeof *assigned);
	act_init(&def, ACT_IDLE, 0, DEF_IPC);
	line = xmalloc(SCEN_MAX_LINE + 2);

	while ((r = infile_getline(&f, line, SCEN_MAX_LINE + 2, e)) == 1) {
		p.line++;
		ntok = tokenize(line, tok);
		if (p.line == 1) {
			if ((rc = parse_header(&p, tok, ntok)) != 0)
				break;
			continue;
		}
		if (ntok == 0)
			continue;
		if (ntok == SCEN_MAX_TOK) {
			rc = perr(&p, "%s", _("line too long (64 words at most)"));
			break;
		}
		if ((rc = parse_line(&p, sc, tok, ntok, assigned, &def, &have_def)) != 0)
			break;
	}
	if (rc == 0 && r < 0)
		rc = -1;
	if (rc == 0 && p.line == 0)
		rc = errmsg_set(e, _("%s: empty scenario file: the first line must be '%s 1'"), path,
		    SCEN_MAGIC);
	infile_close(&f);
	free(line);

	for (cpu = 0; rc == 0 && have_def && cpu < sc->max_cpu; cpu++) {
		if (assigned[cpu] || !t->cpus[cpu].present)
			continue;
		act_clear(&sc->cpu[cpu]);
		act_copy(&sc->cpu[cpu], &def);
	}
	act_clear(&def);
	free(assigned);
	if (rc != 0)
		scenario_free(sc);
	return rc;
}

int
scenario_resolve(struct scenario *sc, const char *spec, const struct topology *t,
    struct errmsg *e)
{
	unsigned i;

	for (i = 0; scenario_builtins[i] != NULL; i++)
		if (strcmp(spec, scenario_builtins[i]) == 0)
			return scenario_builtin(sc, spec, t, e);
	return scenario_load(sc, spec, t, e);
}
