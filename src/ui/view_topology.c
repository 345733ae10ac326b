/* view_topology.c: the machine as httop sees it: package / die / L3 /
 * core / thread tree (offline CPUs marked), in as many columns as the width
 * allows, then the facts the figures rest on: identity, base ratio and its
 * source, TSC, PMU, the reference scale measured and expected, the counter
 * plan slot by slot and write by write, the source. It scrolls. Lines go
 * through a sink so the unit tests can read them without curses. */
#include "config.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "machine/machine.h"
#include "plan/plan.h"
#include "ui/screen.h"
#include "ui/ui.h"
#include "util/i18n.h"
#include "util/xalloc.h"

/* Where the lines go: text(row, x, width, role, s); NULL text only counts. */
struct topo_sink {
	void (*text)(void *arg, int row, int x, int width, enum ui_role r, const char *s);
	void *arg;
};

#define CELL_INDENT 6
#define LABEL_W 12

static void
emit(const struct topo_sink *k, int row, int x, int width, enum ui_role r, const char *s)
{
	if (k->text != NULL && width > 0)
		k->text(k->arg, row, x, width, r, s);
}

/* `s` from (row, x) in lines of `width` columns broken at blanks, so a
 * long fact reads whole on a narrow screen; returns the rows used. */
static int
emit_lines(const struct topo_sink *k, int row, int x, int width, enum ui_role r, const char *s)
{
	char line[512];
	int n = 0;
	size_t len;

	if (width < 1)
		return 1;
	do {
		len = text_line_len(s, width);
		snprintf(line, sizeof line, "%.*s", (int)len, s);
		emit(k, row + n++, x, width, r, line);
		s += len;
		while (*s == ' ')
			s++;
	} while (*s != '\0');
	return n;
}

/* "12: 12,80,148*,216": the core's id (the hardware's, as lstopo's P# and
 * the other views give it) and its CPUs, '*' if offline. Returns the
 * length. */
/* Is the CPU offline now: the interval's state (the sample's), or before
 * the first interval the topology's at load. */
static bool
cpu_off(const struct topology *t, const struct interval *iv, unsigned cpu)
{
	if (cpu >= t->max_cpu)
		return false;
	if (iv != NULL && cpu < iv->max_cpu)
		return iv->threads[cpu].offline;
	return t->cpus[cpu].present && !t->cpus[cpu].online;
}

static int
core_cell(char *buf, size_t len, const struct topology *t, const struct interval *iv,
    const struct topo_core *c)
{
	size_t n;
	unsigned i;

	n = (size_t)snprintf(buf, len, "%u:", c->core_id);
	for (i = 0; i < c->nthreads && i < TOPO_MAX_SMT && n < len; i++) {
		unsigned cpu = c->cpus[i];
		bool off = cpu_off(t, iv, cpu);

		n += (size_t)snprintf(buf + n, len - n, "%s%u%s", i ? "," : " ", cpu, off ? "*" : "");
	}
	return n < len ? (int)n : (int)len - 1;
}

static bool
core_offline(const struct topology *t, const struct interval *iv, const struct topo_core *c)
{
	unsigned i;

	for (i = 0; i < c->nthreads && i < TOPO_MAX_SMT; i++)
		if (cpu_off(t, iv, c->cpus[i]))
			return true;
	return false;
}

/* Has an earlier core of the same group the same key (a group seen)? */
static bool
seen_before(const struct topology *t, unsigned ci, int level)
{
	const struct topo_core *c = &t->cores[ci];
	unsigned j;

	for (j = 0; j < ci; j++) {
		const struct topo_core *o = &t->cores[j];

		if (o->package != c->package)
			continue;
		if (level == 0)
			return true;
		if (o->die != c->die)
			continue;
		if (level == 1)
			return true;
		if (o->l3 == c->l3)
			return true;
	}
	return false;
}

static bool
in_group(const struct topo_core *c, const struct topo_core *g, int level)
{
	return c->package == g->package && (level < 1 || c->die == g->die) &&
	    (level < 2 || c->l3 == g->l3);
}

/* The cores of the group of `g` at `level` as a grid, column by column. */
static int
topo_grid(const struct topo_sink *k, const struct topology *t, const struct interval *iv,
    const struct topo_core *g, int cellw, int cols, int row)
{
	unsigned ci, n = 0, j = 0;
	int ncols, nrows;
	char cell[96];

	for (ci = 0; ci < t->ncores; ci++)
		if (in_group(&t->cores[ci], g, 2))
			n++;
	ncols = (cols - CELL_INDENT) / cellw;
	if (ncols < 1)
		ncols = 1;
	nrows = (int)((n + (unsigned)ncols - 1) / (unsigned)ncols);
	for (ci = 0; ci < t->ncores; ci++) {
		const struct topo_core *c = &t->cores[ci];
		int r, x;

		if (!in_group(c, g, 2))
			continue;
		r = (int)j % nrows;
		x = CELL_INDENT + (int)j / nrows * cellw;
		core_cell(cell, sizeof cell, t, iv, c);
		if (x < cols)
			emit(k, row + r, x, x + cellw <= cols ? cellw : cols - x,
			    core_offline(t, iv, c) ? ROLE_INVALID : ROLE_LABEL, cell);
		j++;
	}
	return row + nrows;
}

static void
count_group(const struct topology *t, const struct interval *iv, const struct topo_core *g,
    int level, unsigned *ncores, unsigned *ncpus, unsigned *noff)
{
	unsigned ci, i;

	*ncores = *ncpus = *noff = 0;
	for (ci = 0; ci < t->ncores; ci++) {
		const struct topo_core *c = &t->cores[ci];

		if (!in_group(c, g, level))
			continue;
		(*ncores)++;
		for (i = 0; i < c->nthreads && i < TOPO_MAX_SMT; i++) {
			(*ncpus)++;
			if (cpu_off(t, iv, c->cpus[i]))
				(*noff)++;
		}
	}
}

/* "50-53,60": CPUs present and offline that Linux has not placed in a
 * core. Returns how many there are. */
static unsigned
unplaced(const struct topology *t, char *buf, size_t len)
{
	unsigned cpu, n = 0, start = 0;
	size_t used = 0;
	bool in = false;

	buf[0] = '\0';
	for (cpu = 0; cpu <= t->max_cpu; cpu++) {
		bool u = cpu < t->max_cpu && t->cpus[cpu].present && t->cpus[cpu].core == TOPO_NO_CORE;

		if (u && !in) {
			start = cpu;
			in = true;
		} else if (!u && in) {
			in = false;
			if (used < len)
				used += (size_t)snprintf(buf + used, len - used, "%s%u", used ? "," : "",
				    start);
			if (cpu - 1 > start && used < len)
				used += (size_t)snprintf(buf + used, len - used, "-%u", cpu - 1);
		}
		if (u)
			n++;
	}
	return n;
}

/* A count and its noun, from ngettext's format. */
static void
plural(char *buf, size_t len, const char *fmt, unsigned n)
{
	snprintf(buf, len, fmt, n);
}

/* "2 packages, 2 dies, 2 L3, 36 cores, 72 CPUs (0 offline, marked *);
 * core: its CPUs", each count with its plural. */
static void
topo_summary(char *buf, size_t len, const struct topology *t, unsigned off)
{
	char p[48], d[48], l3[48], c[48], u[48];

	plural(p, sizeof p, ngettext("%u package", "%u packages", t->npackages), t->npackages);
	plural(d, sizeof d, ngettext("%u die", "%u dies", t->ndies), t->ndies);
	/* TRANSLATORS: a count of L3 caches, "2 L3" */
	plural(l3, sizeof l3, ngettext("%u L3", "%u L3", t->nl3), t->nl3);
	if (t->l3_unknown)
		snprintf(l3, sizeof l3, "%s", _("L3 not known"));
	plural(c, sizeof c, ngettext("%u core", "%u cores", t->ncores), t->ncores);
	plural(u, sizeof u, ngettext("%u CPU", "%u CPUs", t->ncpus), t->ncpus);
	/* TRANSLATORS: the machine's counts, then how the tree reads */
	snprintf(buf, len, _("%s, %s, %s, %s, %s (%u offline, marked *); core id: its CPUs"), p, d,
	    l3, c, u, off);
}

/* The tree from `row`; returns the next free row. */
static int
topo_tree(const struct topo_sink *k, const struct topology *t, const struct interval *iv,
    int cols, int row)
{
	bool dies = t->ndies > t->npackages;
	unsigned ci, dj, lk, nc, ncpu, noff, total_off = 0, cpu;
	int cellw = 0;
	char buf[256], cell[96], ncs[48], ncpus[48];

	for (ci = 0; ci < t->ncores; ci++) {
		int w = core_cell(cell, sizeof cell, t, iv, &t->cores[ci]) + 2;

		if (w > cellw)
			cellw = w;
	}
	for (cpu = 0; cpu < t->max_cpu; cpu++)
		if (t->cpus[cpu].present && cpu_off(t, iv, cpu))
			total_off++;
	topo_summary(buf, sizeof buf, t, total_off);
	row += emit_lines(k, row, 0, cols, ROLE_LABEL, buf);

	/* Each group once, at its first core, nested package / die / L3 even
	 * when the cores of groups interleave in cores[]. */
	for (ci = 0; ci < t->ncores; ci++) {
		const struct topo_core *c = &t->cores[ci];

		if (seen_before(t, ci, 0))
			continue;
		count_group(t, iv, c, 0, &nc, &ncpu, &noff);
		plural(ncs, sizeof ncs, ngettext("%u core", "%u cores", nc), nc);
		plural(ncpus, sizeof ncpus, ngettext("%u CPU", "%u CPUs", ncpu), ncpu);
		if (noff > 0)
			/* TRANSLATORS: "Package 0: 18 cores, 36 CPUs, 2 offline" */
			snprintf(buf, sizeof buf, _("Package %u: %s, %s, %u offline"), c->package, ncs,
			    ncpus, noff);
		else
			/* TRANSLATORS: "Package 0: 18 cores, 36 CPUs" */
			snprintf(buf, sizeof buf, _("Package %u: %s, %s"), c->package, ncs, ncpus);
		row += emit_lines(k, row, 0, cols, ROLE_TAB_ACTIVE, buf);
		for (dj = ci; dj < t->ncores; dj++) {
			const struct topo_core *d = &t->cores[dj];

			if (!in_group(d, c, 0) || seen_before(t, dj, 1))
				continue;
			if (dies) {
				count_group(t, iv, d, 1, &nc, &ncpu, &noff);
				snprintf(buf, sizeof buf, ngettext("Die %u: %u core", "Die %u: %u cores", nc),
				    d->die, nc);
				emit(k, row++, 2, cols - 2, ROLE_LABEL, buf);
			}
			for (lk = dj; lk < t->ncores; lk++) {
				const struct topo_core *l = &t->cores[lk];

				if (!in_group(l, d, 1) || seen_before(t, lk, 2))
					continue;
				count_group(t, iv, l, 2, &nc, &ncpu, &noff);
				if (t->l3_unknown) {
					row = topo_grid(k, t, iv, l, cellw, cols, row);
					continue;
				}
				if (l->l3 == TOPO_NO_L3)
					snprintf(buf, sizeof buf, ngettext("no L3: %u core", "no L3: %u cores",
					    nc), nc);
				else
					snprintf(buf, sizeof buf, ngettext("L3 #%u: %u core", "L3 #%u: %u cores",
					    nc), l->l3, nc);
				emit(k, row++, 4, cols - 4, ROLE_LABEL, buf);
				row = topo_grid(k, t, iv, l, cellw, cols, row);
			}
		}
	}
	if (unplaced(t, cell, sizeof cell) > 0) {
		snprintf(buf, sizeof buf, _("Offline, core unknown until online: %s"), cell);
		row += emit_lines(k, row, 0, cols, ROLE_INVALID, buf);
	}
	return row;
}

/* A fact: its label, and its value in as many lines as it takes. */
static int
fact(const struct topo_sink *k, int row, int cols, const char *label, enum ui_role r,
    const char *value)
{
	emit(k, row, 0, LABEL_W, ROLE_LABEL, label);
	return row + emit_lines(k, row, LABEL_W, cols - LABEL_W, r, value);
}

static const char *
threads_text(char *buf, size_t len, unsigned mask)
{
	unsigned t;
	size_t n = 0;

	if ((mask & THREAD_ALL) == THREAD_ALL) {
		snprintf(buf, len, "%s", _("all"));
		return buf;
	}
	buf[0] = '\0';
	for (t = 0; t < TOPO_MAX_SMT && n < len; t++)
		if (mask >> t & 1u)
			n += (size_t)snprintf(buf + n, len - n, "%s%u", n ? "," : "", t);
	return buf;
}

/* The reference-clock scale: in use or not, measured or not. */
static int
scale_fact(const struct topo_sink *k, const struct plan *p, int cols, int row)
{
	char buf[160];

	/* sched's "any" counts nanoseconds: no TSC and no reference clock to
	 * scale, nothing measured. */
	if (!plan_has_scale(p))
		return fact(k, row, cols, _("Scale"), ROLE_LABEL,
		    _("not used: the source counts time, not reference-clock cycles"));
	if (plan_slot_index(p, SLOT_ANY) < 0 && plan_slot_index(p, SLOT_OTA) < 0)
		return fact(k, row, cols, _("Scale"), ROLE_LABEL,
		    _("not used: the plan reads no reference-clock event"));
	if (p->scale_measured)
		snprintf(buf, sizeof buf, _("%u TSC ticks per count, measured (expected %u)"),
		    p->scale, p->scale_expected);
	else
		snprintf(buf, sizeof buf, _("%u TSC ticks per count, not measured (expected %u)"),
		    p->scale, p->scale_expected);
	row = fact(k, row, cols, _("Scale"),
	    p->scale_measured && p->scale == p->scale_expected ? ROLE_LABEL : ROLE_WARN, buf);
	if (p->scale_note[0])
		row = fact(k, row, cols, "", ROLE_LABEL, p->scale_note);
	return row;
}

/* A node's facts (httop --nodes): what its JSON line carries; the CPU's
 * identity is on the node, not here. */
static int
remote_facts(const struct topo_sink *k, const struct ui_frame *f, int cols, int row)
{
	char buf[320];

	row = fact(k, row, cols, _("CPU"), ROLE_LABEL,
	    _("not known here: the node's JSON does not carry it (run httop on the node)"));
	snprintf(buf, sizeof buf, "%s (%s)", uarch_group_name(f->m->group),
	    uarch_group_title(f->m->group));
	row = fact(k, row, cols, _("Group"), ROLE_LABEL, buf);
	if (f->plan != NULL) {
		row = fact(k, row, cols, _("Split"), ROLE_LABEL, plan_split_name(f->plan));
		if (plan_has_scale(f->plan))
			snprintf(buf, sizeof buf, _("%u TSC ticks per count, as the node gave it"),
			    f->plan->scale);
		else
			snprintf(buf, sizeof buf, "%s",
			    _("not used: the source counts time, not reference-clock cycles"));
		row = fact(k, row, cols, _("Scale"), ROLE_LABEL, buf);
	}
	return row;
}

/* The plan's reads and writes, one row each, from `row`; returns the next
 * free row. */
static int
plan_facts(const struct topo_sink *k, const struct plan *p, int cols, int row)
{
	char buf[512], th[16];
	unsigned i;

	for (i = 0; i < p->nslots && i < PLAN_MAX_SLOTS; i++) {
		const struct plan_slot *s = &p->slots[i];
		const char *what = plan_slot_reading(p, s);

		/* A plan without counters says what it reads instead. */
		if (what != NULL)
			snprintf(buf, sizeof buf, _("read  %-6s %s, threads %s"),
			    slot_kind_name(s->kind), _(what), threads_text(th, sizeof th,
			    s->thread_mask));
		else
			snprintf(buf, sizeof buf, _("read  %-6s MSR 0x%X, %u bits, threads %s"),
			    slot_kind_name(s->kind), (unsigned)s->msr, s->width,
			    threads_text(th, sizeof th, s->thread_mask));
		row = fact(k, row, cols, "", ROLE_LABEL, buf);
	}
	for (i = 0; i < p->nwrites && i < PLAN_MAX_WRITES; i++) {
		const struct plan_write *w = &p->writes[i];

		snprintf(buf, sizeof buf, _("write MSR 0x%X = 0x%llX (mask 0x%llX), threads %s: %s"),
		    (unsigned)w->msr, (unsigned long long)w->value, (unsigned long long)w->mask,
		    threads_text(th, sizeof th, w->thread_mask), w->what ? w->what : "");
		row = fact(k, row, cols, "", ROLE_LABEL, buf);
	}
	return row;
}

/* The facts in use, from `row`; returns the next free row. */
static int
topo_facts(const struct topo_sink *k, const struct ui_frame *f, int cols, int row)
{
	const struct cpu_identity *id = &f->m->id;
	const struct plan *p = f->plan;
	char buf[512];
	double tsc = identity_tsc_hz(id);

	row += emit_lines(k, row, 0, cols, ROLE_TAB_ACTIVE, _("Facts in use"));
	if (f->m->remote)
		return remote_facts(k, f, cols, row);
	snprintf(buf, sizeof buf, _("%s, family %d, model 0x%02X, stepping %d"),
	    id->vendor_str[0] ? id->vendor_str : _("unknown vendor"), id->family, id->model,
	    id->stepping);
	row = fact(k, row, cols, _("CPU"), ROLE_LABEL, buf);
	row = fact(k, row, cols, _("Brand"), ROLE_LABEL, id->brand[0] ? id->brand : "-");
	snprintf(buf, sizeof buf, "%s (%s)", uarch_group_name(f->m->group),
	    uarch_group_title(f->m->group));
	row = fact(k, row, cols, _("Group"), ROLE_LABEL, buf);
	if (id->base_ratio > 0 && id->base_src != BASE_NONE)
		snprintf(buf, sizeof buf, _("%u x %.2f MHz, from %s"), id->base_ratio,
		    identity_bus_hz(id) / 1e6, base_ratio_source_name(id->base_src));
	else
		snprintf(buf, sizeof buf, "%s", _("unknown: no figure in GHz"));
	row = fact(k, row, cols, _("Base ratio"), id->base_ratio ? ROLE_LABEL : ROLE_WARN, buf);
	if (tsc > 0.0)
		snprintf(buf, sizeof buf, _("%.0f Hz (%.3f GHz)"), tsc, tsc / 1e9);
	else
		snprintf(buf, sizeof buf, "%s", _("unknown"));
	if (id->tsc_den != 0) {
		size_t n = strlen(buf);

		snprintf(buf + n, sizeof buf - n, _("; CPUID 15H crystal ratio %u/%u, crystal %llu Hz"),
		    id->tsc_num, id->tsc_den, (unsigned long long)id->crystal_hz);
	}
	row = fact(k, row, cols, _("TSC"), ROLE_LABEL, buf);
	if (id->pmu_version > 0)
		snprintf(buf, sizeof buf, _("version %u, %u counters x %u bits, %u fixed x %u bits, "
		    "AnyThread %s"), id->pmu_version, id->n_gp, id->gp_width, id->n_fixed,
		    id->fixed_width, id->anythread_deprecated ? _("deprecated") : _("available"));
	else
		snprintf(buf, sizeof buf, "%s", _("no architectural PMU reported (CPUID 0AH)"));
	row = fact(k, row, cols, _("PMU"), ROLE_LABEL, buf);
	if (p == NULL)
		return row;
	row = scale_fact(k, p, cols, row);
	snprintf(buf, sizeof buf, "%s: %s", plan_split_name(p), p->summary);
	row = fact(k, row, cols, _("Plan"), ROLE_LABEL, buf);
	row = plan_facts(k, p, cols, row);
	snprintf(buf, sizeof buf, "%s%s%s", f->source_name ? f->source_name : "-",
	    f->replay_pos ? ", " : "", f->replay_pos ? f->replay_pos : "");
	row = fact(k, row, cols, _("Source"), ROLE_LABEL, buf);
	if (f->source_why != NULL) {
		row = fact(k, row, cols, "", ROLE_LABEL, _("chosen by --source auto, as the "
		    "sources before it did not work:"));
		row = fact(k, row, cols, "", ROLE_LABEL, f->source_why);
	}
	snprintf(buf, sizeof buf, _("topology %s; identity %s"), f->m->topo.source, id->source);
	row = fact(k, row, cols, _("From"), ROLE_LABEL, buf);
	return row;
}

/* Everything, rows from 0; returns the number of rows. */
static int
topo_lines(const struct topo_sink *k, const struct ui_frame *f, int cols)
{
	int row = topo_tree(k, &f->m->topo, f->iv, cols, 0);

	return topo_facts(k, f, cols, row + 1);
}

/* --- curses ------------------------------------------------------------ */

struct topo_screen {
	struct ui_ctx *u;
	const struct ui_area *a;
	int scroll;
};

static void
topo_screen_text(void *arg, int row, int x, int width, enum ui_role r, const char *s)
{
	struct topo_screen *ts = arg;
	const struct ui_area *a = ts->a;

	row -= ts->scroll;
	if (row < 0 || row >= a->rows || x >= a->cols)
		return;
	if (x + width > a->cols)
		width = a->cols - x;
	draw_text(ts->u, a->top + row, a->left + x, width, r, s);
}

static void
topo_draw(struct view *v, struct ui_ctx *u, const struct ui_area *a, const struct ui_frame *f)
{
	struct ui_area lines = *a;
	struct topo_screen ts = { u, &lines, 0 };
	struct topo_sink count = { NULL, NULL }, k = { topo_screen_text, &ts };
	int n, y;

	n = topo_lines(&count, f, a->cols);
	/* Lines that do not fit: the last row says where the view is. */
	if (n > a->rows && a->rows > 2)
		lines.rows--;
	view_scroll_set(v, lines.rows, n - lines.rows);
	ts.scroll = v->scroll;
	for (y = 0; y < a->rows; y++)
		draw_text(u, a->top + y, a->left, a->cols, ROLE_LABEL, "");
	topo_lines(&k, f, a->cols);
	if (lines.rows < a->rows)
		view_scroll_where(u, a->top + a->rows - 1, a, v->scroll, lines.rows, n);
}

static void
topo_free(struct view *v)
{
	free(v);
}

struct view *
view_topology_new(struct ui_settings *s)
{
	struct view *v = xcalloc(1, sizeof *v);

	v->id = VIEW_TOPOLOGY;
	v->draw = topo_draw;
	v->key = view_scroll_key;
	v->free = topo_free;
	v->s = s;
	return v;
}
