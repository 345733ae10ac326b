/* test_views.c: the threads and topology views without curses: the sort
 * order (every column, both directions, ties, absent values, the job
 * filter), the s/S keys, the rows as text, and the topology tree and facts
 * of a small synthetic machine and of the 272-thread KNL fixture. The view
 * files are included so their static layout functions can be called; their
 * lines go into a character grid instead of the screen. */
#include "unit/testutil.h"

#include <string.h>

#include "ui/view_threads.c"
#include "ui/view_topology.c"

#define GRID_ROWS 120
#define GRID_COLS 240

/* Row -1 (the threads view's head) is kept at grid row 0. */
struct grid {
	char c[GRID_ROWS][GRID_COLS + 1];
	int maxrow;
};

static void
grid_clear(struct grid *g)
{
	int r;

	for (r = 0; r < GRID_ROWS; r++) {
		memset(g->c[r], ' ', GRID_COLS);
		g->c[r][GRID_COLS] = '\0';
	}
	g->maxrow = -1;
}

/* Text as draw_text lays it: cut to width (ASCII here), padded. */
static void
grid_text(void *arg, int row, int x, int width, enum ui_role r, const char *s)
{
	struct grid *g = arg;
	int i;
	size_t n = strlen(s);

	(void)r;
	row++;
	assert_true(row >= 0 && row < GRID_ROWS);
	for (i = 0; i < width && x + i < GRID_COLS; i++)
		g->c[row][x + i] = (size_t)i < n ? s[i] : ' ';
	if (row > g->maxrow)
		g->maxrow = row;
}

/* A bar: '#' for the value's share of the width (rounded), '.' for the rest. */
static void
grid_bar(void *arg, int row, int x, int width, const struct val *v)
{
	struct grid *g = arg;
	int i, fill = v->kind == V_EXACT ? (int)(v->v * width + 0.5) : 0;

	row++;
	for (i = 0; i < width && x + i < GRID_COLS; i++)
		g->c[row][x + i] = i < fill ? '#' : '.';
}

/* The grid row with trailing blanks cut (static buffer). */
static const char *
line(const struct grid *g, int row)
{
	static char buf[GRID_COLS + 1];
	int n = GRID_COLS;

	memcpy(buf, g->c[row + 1], sizeof buf);
	while (n > 0 && buf[n - 1] == ' ')
		n--;
	buf[n] = '\0';
	return buf;
}

/* --- threads ------------------------------------------------------------ */

struct trig {
	struct machine m;
	struct plan p;
	struct interval iv;
	struct ui_frame f;
	struct tsort rows[8];
};

static void
set_thread(struct trig *r, unsigned cpu, double util, double cpi, double ncpi, double ghz,
    double net, double ipc)
{
	struct thread_fig *t = &r->iv.threads[cpu];

	t->cpu = cpu;
	t->reason = R_NONE;
	t->d_ref = 1;
	t->util = val_exact(util);
	t->cpi = cpi > 0 ? val_exact(cpi) : val_none();
	t->nominal_cpi = ncpi > 0 ? val_exact(ncpi) : val_none();
	t->ghz = ghz > 0 ? val_exact(ghz) : val_none();
	t->net_ghz = net > 0 ? val_exact(net) : val_none();
	t->ipc = ipc > 0 ? val_exact(ipc) : val_none();
}

/* A thread without figures, as metrics leaves it. */
static void
blank(struct thread_fig *t, enum reason r)
{
	t->reason = r;
	t->util = t->cpi = t->nominal_cpi = val_none();
	t->ghz = t->net_ghz = t->ipc = val_none();
}

/* 1 package, 2 cores, HT: core 0 = cpus 0,2, core 1 = cpus 1,3.
 *   cpu 0: util .50, CPI 1.25, nominal 2.5, 2.4 GHz, net 1.2, IPC .8
 *   cpu 1: util .25, CPI 2.00, nominal 8.0, 2.4 GHz, net .6, IPC .5
 *   cpu 2: util .75, no instructions (no CPI, IPC), 2.0 GHz, net 1.5
 *   cpu 3: a read failed: no figures at all */
static void
trig_init(struct trig *r)
{
	unsigned c;

	memset(r, 0, sizeof *r);
	topology_synthetic(&r->m.topo, 1, 2, 2);
	r->m.group = UARCH_SKX;
	interval_init(&r->iv, &r->m);
	for (c = 0; c < r->iv.ncores; c++) {
		r->iv.cores[c].index = c;
		r->iv.cores[c].reason = R_NONE;
		r->iv.cores[c].selected = true;
	}
	set_thread(r, 0, 0.50, 1.25, 2.5, 2.4, 1.2, 0.8);
	set_thread(r, 1, 0.25, 2.00, 8.0, 2.4, 0.6, 0.5);
	set_thread(r, 2, 0.75, 0, 0, 2.0, 1.5, 0);
	set_thread(r, 3, 0, 0, 0, 0, 0, 0);
	blank(&r->iv.threads[3], R_READ_ERROR);
	r->iv.cores[1].reason = R_READ_ERROR;
	r->f.m = &r->m;
	r->f.iv = &r->iv;
	r->f.source_name = "sim";
}

static void
trig_free(struct trig *r)
{
	interval_free(&r->iv);
	topology_free(&r->m.topo);
}

static void
assert_order(struct trig *r, int col, bool desc, unsigned n, const unsigned *want)
{
	unsigned got = threads_sort(&r->f, col, desc, r->rows, 8), i;

	assert_int_equal(got, n);
	for (i = 0; i < n; i++)
		if (r->rows[i].cpu != want[i])
			fail_msg("column %d %s: position %u is cpu %u, expected %u", col,
			    desc ? "desc" : "asc", i, r->rows[i].cpu, want[i]);
}

static void
test_sort(void **state)
{
	struct trig r;
	struct cpulist job;
	struct job_view jv;
	bool has[4] = { false, true, true, false };

	(void)state;
	trig_init(&r);
	/* CPU number both ways */
	assert_order(&r, TCOL_CPU, false, 4, (const unsigned[]){ 0, 1, 2, 3 });
	assert_order(&r, TCOL_CPU, true, 4, (const unsigned[]){ 3, 2, 1, 0 });
	/* util .25 (1) < .50 (0) < .75 (2); cpu 3 has none: last both ways */
	assert_order(&r, TCOL_UTIL, false, 4, (const unsigned[]){ 1, 0, 2, 3 });
	assert_order(&r, TCOL_UTIL, true, 4, (const unsigned[]){ 2, 0, 1, 3 });
	/* GHz 2.0 (2) < 2.4 = 2.4 (0, 1: tie by CPU number, also descending) */
	assert_order(&r, ui_thread_column_parse("ghz"), false, 4, (const unsigned[]){ 2, 0, 1, 3 });
	assert_order(&r, ui_thread_column_parse("ghz"), true, 4, (const unsigned[]){ 0, 1, 2, 3 });
	/* CPI 1.25 (0) < 2.0 (1); cpus 2 and 3 have none: last, by number */
	assert_order(&r, ui_thread_column_parse("cpi"), false, 4, (const unsigned[]){ 0, 1, 2, 3 });
	assert_order(&r, ui_thread_column_parse("cpi"), true, 4, (const unsigned[]){ 1, 0, 2, 3 });
	/* nominal CPI 2.5 (0) < 8 (1) */
	assert_order(&r, ui_thread_column_parse("nominal_cpi"), true, 4, (const unsigned[]){ 1, 0, 2, 3 });
	/* net GHz .6 (1) < 1.2 (0) < 1.5 (2) */
	assert_order(&r, ui_thread_column_parse("net_ghz"), false, 4, (const unsigned[]){ 1, 0, 2, 3 });
	/* IPC .5 (1) < .8 (0) */
	assert_order(&r, ui_thread_column_parse("ipc"), false, 4, (const unsigned[]){ 1, 0, 2, 3 });
	/* core: cpus 0,2 are core 0, cpus 1,3 core 1 */
	assert_order(&r, TCOL_CORE, false, 4, (const unsigned[]){ 0, 2, 1, 3 });
	assert_order(&r, TCOL_CORE, true, 4, (const unsigned[]){ 1, 3, 0, 2 });
	/* the hardware's core ids (holes as on a Skylake-SP), not the index:
	 * core 0 is id 9, core 1 id 4, so cpus 1,3 sort first */
	r.m.topo.cores[0].core_id = 9;
	r.m.topo.cores[1].core_id = 4;
	assert_order(&r, TCOL_CORE, false, 4, (const unsigned[]){ 1, 3, 0, 2 });
	r.m.topo.cores[0].core_id = 0;
	r.m.topo.cores[1].core_id = 1;
	/* thread position: 0,1 are thread 0; 2,3 thread 1 */
	assert_order(&r, TCOL_THREAD, true, 4, (const unsigned[]){ 2, 3, 0, 1 });
	/* one package: all ties, CPU order */
	assert_order(&r, TCOL_PACKAGE, true, 4, (const unsigned[]){ 0, 1, 2, 3 });

	/* the job's CPUs only (1 and 2), and only while narrowed */
	job.n = 4;
	job.has = has;
	memset(&jv, 0, sizeof jv);
	jv.active = true;
	jv.only = true;
	jv.cpus = &job;
	r.f.job = &jv;
	assert_order(&r, TCOL_UTIL, false, 2, (const unsigned[]){ 1, 2 });
	jv.only = false;
	assert_order(&r, TCOL_UTIL, false, 4, (const unsigned[]){ 1, 0, 2, 3 });
	/* a CPU outside --cpus is no row; an offline one is */
	blank(&r.iv.threads[1], R_NOT_SELECTED);
	assert_order(&r, TCOL_CPU, false, 3, (const unsigned[]){ 0, 2, 3 });
	r.iv.threads[1].offline = true;       /* as its sample said */
	assert_order(&r, TCOL_CPU, false, 4, (const unsigned[]){ 0, 1, 2, 3 });
	trig_free(&r);
}

static void
test_keys(void **state)
{
	struct ui_settings s;
	struct view *v, *topo;
	struct threads_view *p;
	int i;

	(void)state;
	ui_settings_default(&s);
	v = view_threads_new(&s);
	p = (struct threads_view *)v;
	/* s walks package, core, ..., ipc and back to the CPU number; a
	 * position starts lowest first, a figure highest (busiest) first */
	for (i = 0; i < ui_thread_ncolumns(); i++) {
		assert_true(v->key(v, 's'));
		assert_int_equal(s.sort_column, i);
		assert_int_equal(s.sort_descending, i >= TCOL_UTIL);
	}
	assert_true(v->key(v, 's'));
	assert_int_equal(s.sort_column, TCOL_CPU);
	assert_false(s.sort_descending);
	assert_true(v->key(v, 'S'));
	assert_true(s.sort_descending);
	assert_true(v->key(v, 'S'));
	assert_false(s.sort_descending);
	/* a click on a head: that column, its first direction; again: the
	 * other way; row 1 is no head; the view keeps the layout it drew */
	threads_layout(140, &p->widths, &p->layout);
	assert_true(v->click(v, 0, p->layout.fig_x[3] + 2));     /* GHz */
	assert_int_equal(s.sort_column, ui_thread_column_parse("ghz"));
	assert_true(s.sort_descending);
	assert_true(v->click(v, 0, p->layout.fig_x[3]));
	assert_false(s.sort_descending);
	assert_true(v->click(v, 0, p->layout.bar_x + 5));        /* the bar: util */
	assert_int_equal(s.sort_column, TCOL_UTIL);
	assert_true(s.sort_descending);
	assert_true(v->click(v, 0, p->layout.id_x[1]));          /* pkg */
	assert_int_equal(s.sort_column, TCOL_PACKAGE);
	assert_false(s.sort_descending);
	assert_false(v->click(v, 1, p->layout.id_x[1]));
	assert_false(v->click(v, 0, p->layout.status_x + 1));
	/* scrolling keys are the view's; others are not */
	assert_true(v->key(v, KEY_HOME));
	assert_int_equal(v->scroll, 0);
	assert_false(v->key(v, 'x'));
	topo = view_topology_new(&s);
	assert_false(topo->key(topo, 's'));
	assert_true(topo->key(topo, KEY_END));
	view_free(topo);
	view_free(v);
}

/* Column widths: at least the head, a blank before it and the sort mark
 * after it, so "pkg" (3) takes 5 where the default was 4 and "core" (4)
 * 6: a mark never touches the head to its left. */
static void
test_widths(void **state)
{
	struct twidths w;

	(void)state;
	threads_widths(&w);
	assert_int_equal(w.id[0], 5);   /* CPU: default 5 >= 3 + 2 */
	assert_int_equal(w.id[1], 5);   /* pkg */
	assert_int_equal(w.id[2], 6);   /* core */
	assert_int_equal(w.id[3], 3);   /* t */
	assert_int_equal(w.fig[0], 7);  /* util%: 5 + 2 */
	assert_int_equal(w.fig[2], 8);  /* nomCPI: 6 + 2 */
	assert_int_equal(w.fig[4], 8);  /* netGHz: 6 + 2, default 7 */
}

/* Rows at 200 columns. Layout: CPU 5, pkg 5, core 6, t 3 = 19; a blank,
 * the bar's left edge at 20 and the bar at 21, its width capped at 40;
 * figures from 21 + 40 + 1 = 62: util% 7, CPI 8, nomCPI 8, GHz 7, netGHz
 * 8, IPC 6, steal% 8, job% 6 (to 120), then the table's later columns
 * (metrics/figures.c), each as wide as threads_widths says; the status
 * after them. */
static void
test_rows(void **state)
{
	static struct grid g;
	struct trig r;
	struct sink k = { grid_text, grid_bar, &g };
	struct twidths w;
	struct tlayout l;
	unsigned n;
	int i, end = 62;
	const char *s;

	(void)state;
	trig_init(&r);
	threads_widths(&w);
	threads_layout(200, &w, &l);
	for (i = 0; i < nfig(); i++)
		end += w.fig[i];
	assert_int_equal(l.bar_x, 21);
	assert_int_equal(l.bar_w, 40);
	assert_int_equal(l.fig_x[0], 62);
	assert_int_equal(l.fig_x[7], 114);
	assert_int_equal(l.status_x, end + 1);
	grid_clear(&g);
	n = threads_sort(&r.f, TCOL_UTIL, false, r.rows, 8);
	threads_lines(&k, &r.f, &l, TCOL_UTIL, false, false, r.rows, n, 0, 10);
	/* the head: util% marked as the ascending sort column, a blank
	 * before every head */
	s = line(&g, -1);
	assert_memory_equal(s, "  CPU  pkg  core  t", 19);
	assert_non_null(strstr(s, " util%^     CPI  nomCPI    GHz  netGHz   IPC  steal%  job% "));
	assert_memory_equal(s + l.status_x, "status", 6);
	/* row 0 is cpu 1: util 25% -> 10 of 40 cells; CPI 2.00, nominal
	 * 8.00, 2.40 GHz, net .60, IPC .50, no steal (not read), no job's
	 * share (none watched); its core (1) had a read error, said by its
	 * code in the status's columns */
	s = line(&g, 0);
	assert_memory_equal(s, "    1    0     1  0  ##########..............................", 61);
	assert_memory_equal(s + 61, "    25.0    2.00    8.00   2.40    0.60  0.50       -     - ", 60);
	assert_string_equal(s + l.status_x, "core: reading a counter failed");
	/* the same layout with 19 columns for the status: the reason's code */
	threads_layout(end + 20, &w, &l);
	assert_int_equal(l.bar_w, 40);
	assert_int_equal(l.status_w, 19);
	grid_clear(&g);
	threads_lines(&k, &r.f, &l, TCOL_UTIL, false, false, r.rows, n, 0, 10);
	assert_string_equal(line(&g, 0) + l.status_x, "core: read-error");
	/* row 1, cpu 0: 20 of 40 cells */
	s = line(&g, 1);
	assert_memory_equal(s + 61, "    50.0    1.25    2.50   2.40    1.20  0.80", 45);
	/* row 2, cpu 2: no instructions: "-" for CPI, nominal CPI and IPC */
	s = line(&g, 2);
	assert_memory_equal(s + 61, "    75.0       -       -   2.00    1.50     -", 45);
	/* row 3, cpu 3: where it is and why, no number */
	s = line(&g, 3);
	assert_string_equal(s, "    3    0     1  1  reading a counter failed");
	assert_int_equal(g.maxrow, 4);
	/* scrolled by 2: cpu 2 first */
	grid_clear(&g);
	threads_lines(&k, &r.f, &l, TCOL_UTIL, false, false, r.rows, n, 2, 10);
	assert_memory_equal(line(&g, 0), "    2", 5);
	assert_int_equal(g.maxrow, 2);
	/* the core column is the hardware's core id (lstopo's P#, sysfs
	 * core_id), as in the Cores view and the JSON: core 1 is id 8 */
	r.m.topo.cores[1].core_id = 8;
	grid_clear(&g);
	threads_lines(&k, &r.f, &l, TCOL_UTIL, false, false, r.rows, n, 0, 10);
	assert_memory_equal(line(&g, 0), "    1    0     8  0", 19);
	/* A number as wide as its column (nominal CPI 10970.04 of an idle
	 * thread: 8 of 8) keeps a blank before it without its decimals, so
	 * that it never runs into CPI (5.30); wider still, it is "*". */
	r.iv.threads[1].cpi = val_exact(5.30);
	r.iv.threads[1].nominal_cpi = val_exact(10970.04);
	r.iv.threads[1].ghz = val_exact(123456789.0);
	grid_clear(&g);
	threads_lines(&k, &r.f, &l, TCOL_UTIL, false, false, r.rows, n, 0, 10);
	assert_memory_equal(line(&g, 0) + 61, "    25.0    5.30   10970      *", 31);
	trig_free(&r);
}

/* A figure absent not-read (the source does not read its input) is no
 * trouble of the row, as not-counted is: with a plan counted in ticks the
 * row says what it is counted by; absent for another reason (stopped),
 * it says that reason. */
static void
test_not_read(void **state)
{
	static struct grid g;
	struct trig r;
	struct sink k = { grid_text, grid_bar, &g };
	struct twidths w;
	struct tlayout l;
	unsigned n;

	(void)state;
	assert_true(metrics_reason_not_read(R_NOT_READ));
	assert_true(metrics_reason_not_read(R_NOT_COUNTED));
	assert_false(metrics_reason_not_read(R_STOPPED));
	assert_string_equal(metrics_reason_code(R_NOT_READ), "not-read");
	trig_init(&r);
	r.p.basis = PLAN_BASIS_TICKS;
	r.f.plan = &r.p;
	r.iv.threads[0].ipc = val_absent(R_NOT_READ);
	threads_widths(&w);
	threads_layout(240, &w, &l);
	n = threads_sort(&r.f, TCOL_UTIL, false, r.rows, 8);
	grid_clear(&g);
	threads_lines(&k, &r.f, &l, TCOL_UTIL, false, false, r.rows, n, 0, 10);
	assert_memory_equal(line(&g, 1), "    0", 5);
	assert_string_equal(line(&g, 1) + l.status_x, "counted in ticks (/proc/stat); no CPI, GHz");
	r.iv.threads[0].ipc = val_absent(R_STOPPED);
	grid_clear(&g);
	threads_lines(&k, &r.f, &l, TCOL_UTIL, false, false, r.rows, n, 0, 10);
	assert_string_equal(line(&g, 1) + l.status_x, "counter stopped");
	trig_free(&r);
}

/* --- topology ----------------------------------------------------------- */

static int
topo_to_grid(struct grid *g, const struct ui_frame *f, int cols)
{
	struct topo_sink k = { grid_text, g };

	grid_clear(g);
	/* grid_text puts row r at grid row r + 1; line() undoes it */
	return topo_lines(&k, f, cols);
}

/* 1 package, 2 cores, HT, cpu 3 offline. Cells "0: 0,2" and "1: 1,3*":
 * widest 7 + 2 = 9; (80 - 6) / 9 = 8 columns, so one row. */
static void
test_topology_small(void **state)
{
	static struct grid g;
	struct machine m;
	struct plan p;
	struct ui_frame f;
	int rows, i;
	bool found_any = false;

	(void)state;
	memset(&m, 0, sizeof m);
	topology_synthetic(&m.topo, 1, 2, 2);
	m.topo.cpus[3].online = false;
	m.id.vendor = CPU_VENDOR_INTEL;
	snprintf(m.id.vendor_str, sizeof m.id.vendor_str, "GenuineIntel");
	m.id.family = 6;
	m.id.model = 0x55;
	m.id.stepping = 4;
	m.id.base_ratio = 21;
	m.id.base_src = BASE_PLATFORM_INFO;
	m.id.tsc_num = 168;
	m.id.tsc_den = 2;
	m.group = UARCH_SKX;
	plan_for_machine(&p, &m);
	memset(&f, 0, sizeof f);
	f.m = &m;
	f.plan = &p;
	f.source_name = "sim";

	rows = topo_to_grid(&g, &f, 80);
	/* one of each: no "1 packages" (ngettext) */
	assert_string_equal(line(&g, 0), "1 package, 1 die, 1 L3, 2 cores, 4 CPUs (1 offline, "
	    "marked *); core id: its CPUs");
	assert_string_equal(line(&g, 1), "Package 0: 2 cores, 4 CPUs, 1 offline");
	assert_string_equal(line(&g, 2), "    L3 #0: 2 cores");
	assert_string_equal(line(&g, 3), "      0: 0,2   1: 1,3*");
	assert_string_equal(line(&g, 4), "");
	assert_string_equal(line(&g, 5), "Facts in use");
	assert_string_equal(line(&g, 6), "CPU         GenuineIntel, family 6, model 0x55, stepping 4");
	assert_string_equal(line(&g, 8), "Group       skx (Skylake..Cooper Lake)");
	/* 21 x 100 MHz; TSC 2.1e9 Hz; crystal ratio 168/2 = 84 */
	assert_string_equal(line(&g, 9), "Base ratio  21 x 100.00 MHz, from MSR_PLATFORM_INFO");
	/* a fact longer than the 68 columns after its label wraps at a blank,
	 * under the value: nothing is cut */
	assert_string_equal(line(&g, 10), "TSC         2100000000 Hz (2.100 GHz); CPUID 15H crystal "
	    "ratio 168/2, crystal 0");
	assert_string_equal(line(&g, 11), "            Hz");
	assert_string_equal(line(&g, 13), "Scale       84 TSC ticks per count, not measured "
	    "(expected 84)");
	/* the plan: TSC read on every thread, the ANY counter on thread 0 */
	for (i = 13; i < rows; i++) {
		if (strstr(line(&g, i), "read  tsc    MSR 0x10, 64 bits, threads all") != NULL)
			found_any = true;
	}
	assert_true(found_any);
	found_any = false;
	for (i = 13; i < rows; i++)
		if (strstr(line(&g, i), "read  any    MSR 0xC1, 48 bits, threads 0") != NULL)
			found_any = true;
	assert_true(found_any);
	assert_string_equal(line(&g, rows - 2), "Source      sim");
	assert_int_equal(g.maxrow, rows);
	/* a core is named by the hardware's id, as in the other views */
	m.topo.cores[1].core_id = 8;
	topo_to_grid(&g, &f, 80);
	assert_string_equal(line(&g, 3), "      0: 0,2   8: 1,3*");
	topology_free(&m.topo);
}

/* The 68-core, 272-thread Xeon Phi 7250: core 0 is PUs 0,68,136,204 (its
 * cpuset in the XML). Widest cell "67: 67,135,203,271" = 18 + 2 = 20;
 * (200 - 6) / 20 = 9 columns, ceil(68 / 9) = 8 rows; no L3 (MCDRAM is
 * not one). Tree: summary, package, "no L3", 8 rows = 11. */
static void
test_topology_knl(void **state)
{
	static struct grid g;
	struct machine m;
	struct plan p;
	struct ui_frame f;
	struct errmsg e;
	int rows;

	(void)state;
	memset(&m, 0, sizeof m);
	if (topology_load(&m.topo, fixture("hwloc/knl-7250-68c-4t-flat-quadrant.xml"), &e) != 0)
		fail_msg("%s", e.text);
	assert_int_equal(m.topo.ncores, 68);
	assert_int_equal(m.topo.ncpus, 272);
	identity_from_fields(&m.id, m.topo.vendor, m.topo.family, m.topo.model, m.topo.stepping,
	    m.topo.brand);
	m.group = uarch_group_of(&m.id);
	plan_for_machine(&p, &m);
	memset(&f, 0, sizeof f);
	f.m = &m;
	f.plan = &p;
	f.source_name = "replay";
	f.replay_pos = "sample 3/10";

	rows = topo_to_grid(&g, &f, 200);
	assert_string_equal(line(&g, 1), "Package 0: 68 cores, 272 CPUs");
	assert_string_equal(line(&g, 2), "    no L3: 68 cores");
	/* cells at x = 6, 26, 46...: "0: 0,68,136,204" ends at 20 */
	assert_memory_equal(line(&g, 3), "      0: 0,68,136,204     8: ", 29);
	/* grid row 7 (screen row 10) holds cores 7, 15, ..., 63 (column 7);
	 * column 8 has only 64..67, in rows 0..3 */
	assert_memory_equal(line(&g, 10), "      7: 7,75,143,211", 21);
	assert_string_equal(line(&g, 11), "");
	assert_string_equal(line(&g, 12), "Facts in use");
	assert_string_equal(line(&g, rows - 2), "Source      replay, sample 3/10");
	/* the whole view, facts included, fits a 60-row terminal's body */
	assert_true(rows <= 50);
	topology_free(&m.topo);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sort),
		cmocka_unit_test(test_keys),
		cmocka_unit_test(test_widths),
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_not_read),
		cmocka_unit_test(test_topology_small),
		cmocka_unit_test(test_topology_knl),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
