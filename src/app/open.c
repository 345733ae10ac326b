/* open.c: what a run reads, opened and chosen before any register is
 * touched: the machine, the counter source (--source auto tries each in
 * turn), the CPUs, the die layout, the privilege kept, the --record file.
 * Errors here cost nothing to undo but closing what was opened, which
 * app_end() in app.c does. */
#include "config.h"
#include "app/context.h"

#include <errno.h>
#include <limits.h>
#include <locale.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check/cases.h"
#include "check/simcase.h"
#include "sys/datadir.h"
#include "sys/privilege.h"
#include "out/outfile.h"
#include "out/record.h"
#include "source/bpf/bpf_source.h"
#include "source/msr/msr_state.h"
#include "source/perf/perf_cgroup.h"
#include "source/sched/sched_merge.h"
#include "source/sources.h"
#include "watch/job.h"
#include "sim/sim.h"
#include "util/i18n.h"
#include "util/textwrap.h"
#include "util/xalloc.h"

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

static int
load_machine(struct app *a)
{
	const struct options *o = a->o;
	char xml[PATH_MAX], dump[PATH_MAX];

	if (o->demo) {
		if (datadir_find("demo-skx.xml", xml, sizeof xml, &a->e) != 0 ||
		    datadir_find("demo-skx.cpuid", dump, sizeof dump, &a->e) != 0)
			return -1;
		if (machine_load(&a->m, xml, dump, &a->e) != 0)
			return -1;
		a->m.capid6 = capid6_demo;     /* what root would read on it */
	} else if (machine_load(&a->m, o->topology, o->cpuid, &a->e) != 0) {
		return -1;
	}
	a->have_machine = true;
	return 0;
}

static int sys_cpus(const char *file, struct cpulist *l);

/* context.h */
int
app_declare_topology(struct app *a, struct errmsg *e)
{
	struct cpulist online, present;
	bool have_present;
	int rc;

	if (a->o->topology == NULL || a->m.declared)
		return 0;
	if (sys_cpus("/sys/devices/system/cpu/online", &online) != 0)
		return errmsg_set(e, _("--topology %s: this machine's online CPUs could not be read "
		    "from /sys/devices/system/cpu/online, so the file cannot be checked against "
		    "them; mount sysfs"), a->o->topology);
	/* A CPU present but offline now (hot-unplugged) may be declared. */
	have_present = sys_cpus("/sys/devices/system/cpu/present", &present) == 0;
	rc = machine_declare_here(&a->m, &online, have_present ? &present : NULL, a->o->topology,
	    a->o->cpuid, e);
	cpulist_free(&online);
	if (have_present)
		cpulist_free(&present);
	if (rc == 0)
		plan_for_machine(&a->plan, &a->m);    /* this machine's identity now */
	return rc;
}

/* What --source auto's steps said: every reason, and the steps' names. */
struct auto_log {
	char said[4 * sizeof ((struct errmsg *)NULL)->text];
	char names[96];
};

/* What one step of --source auto said, appended to the log. */
static void
auto_note(struct auto_log *l, const char *step, const char *said)
{
	char *buf = l->said;
	size_t len = sizeof l->said, n = strlen(buf), k = strlen(step);
	size_t m = strlen(l->names);

	snprintf(l->names + m, sizeof l->names - m, "%s%s", m > 0 ? ", " : "", step);

	/* A source may name itself already ("perf: ..."). */
	if (strncmp(said, step, k) == 0 && said[k] == ':')
		snprintf(buf + n, len - n, "%s%s", n > 0 ? "; " : "", said);
	else
		snprintf(buf + n, len - n, "%s%s: %s", n > 0 ? "; " : "", step, said);
}

/* The msr-safe device of the first online CPU, if it exists. Without
 * --msr-safe-path/--msr-batch-path, a --msr-path names the msr source. */
static bool
msr_safe_present(const struct app *a, char *path, size_t len)
{
	const struct options *o = a->o;
	const struct topology *t = &a->m.topo;
	const char *p = strstr(o->msr_safe_path, "%u");
	struct stat st;
	unsigned cpu;

	if (o->have_msr_path && !o->have_msr_safe_path)
		return false;
	for (cpu = 0; cpu < t->max_cpu; cpu++) {
		if (t->cpus[cpu].present && t->cpus[cpu].online)
			break;
	}
	if (p == NULL || cpu == t->max_cpu)
		return false;
	snprintf(path, len, "%.*s%u%s", (int)(p - o->msr_safe_path), o->msr_safe_path, cpu, p + 2);
	return stat(path, &st) == 0;
}

/* The msr source, over the devices opened before privilege was given up
 * when there are any. */
static struct source *
open_msr(struct app *a, struct errmsg *e)
{
	struct msr_io *io = a->pre_msr;

	a->pre_msr = NULL;
	if (io != NULL)
		return msr_source_open_io(&a->m, io, MSR_DEV_TEMPLATE, e);
	return msr_source_open(&a->m, a->o->msr_path, e);
}

/* The scheduler's record, with the watched job's tasks told apart when a
 * job is watched (its own figures: sched_merge.c). */
static struct source *
sched_open(struct app *a, struct errmsg *e)
{
	struct sched_job j = { 0 };

	if (a->job != NULL && a->tasks == NULL)
		a->tasks = job_watch_tasks(a->job, NULL);
	if (a->tasks == NULL)
		return sched_source_open(&a->m, &a->plan, e);
	job_tasks_sched_job(a->tasks, &j);
	return sched_source_open_job(&a->m, &a->plan, &j, e);
}

/* The same counted in the kernel (bpf_source.c). */
static struct source *
bpf_open(struct app *a, struct errmsg *e)
{
	struct sched_job j = { 0 };

	if (a->job != NULL && a->tasks == NULL)
		a->tasks = job_watch_tasks(a->job, NULL);
	if (a->tasks == NULL)
		return bpf_source_open(&a->m, &a->plan, e);
	job_tasks_sched_job(a->tasks, &j);
	j.cgroup_dir = a->job != NULL ? job_watch_cgroup_dir(a->job) : NULL;
	return bpf_source_open_job(&a->m, &a->plan, &j, e);
}

/* The line --source auto says once a step works: the source chosen, and
 * which steps before it did not work; their reasons with -v (and in the
 * Topology view, from a->auto_why). */
static void
auto_keep(struct app *a, const struct auto_log *l)
{
	size_t n = strlen(l->said) + sizeof l->names + strlen(a->src->name) + 128;

	a->auto_why = xstrdup(l->said);
	a->auto_said = xmalloc(n);
	if (a->o->verbose)
		snprintf(a->auto_said, n, _("httop: --source auto: %s; using %s\n"), l->said,
		    a->src->name);
	else
		snprintf(a->auto_said, n, _("httop: --source auto: using %s (%s did not work; -v "
		    "says why)\n"), a->src->name, l->names);
}

static struct source *open_kind(struct app *a, enum source_kind k, bool in_auto,
    struct errmsg *e);

/* One step of --source auto (its row's auto_step): NULL with the reason
 * noted in l, or skipped (*absent) where msr-safe's device is missing.
 * The steps that take --topology as a declaration about this machine
 * check it once, before the first of them; if it fails, it is the reason
 * for all of them, and *stop ends the order. */
static void
auto_step(struct app *a, const struct source_kind_row *r, struct auto_log *l, bool *absent,
    bool *declared, bool *stop)
{
	char path[PATH_MAX], names[160];
	struct errmsg e;

	if (r->kind == SRC_MSR_SAFE && !msr_safe_present(a, path, sizeof path)) {
		*absent = true;
		return;
	}
	if (r->declares_topology && !*declared) {
		*declared = true;
		if (app_declare_topology(a, &e) != 0) {
			source_kind_auto_list(names, sizeof names, r->auto_step, true);
			auto_note(l, names, e.text);
			*stop = true;
			return;
		}
	}
	if ((a->src = open_kind(a, r->kind, true, &e)) == NULL)
		auto_note(l, r->name, e.text);
}

/* --source auto: the sources of the table's auto order (source/kinds.c:
 * msr-safe when its device exists, the msr driver, perf_event, the
 * scheduler's switches, then /proc/stat; the last two count nothing). A
 * step that fails says why; when a later one works the reasons are
 * printed once, when none works they make the error. */
static int
open_auto(struct app *a)
{
	const struct options *o = a->o;
	const struct source_kind_row *r;
	struct auto_log l;
	bool absent = false, declared = false, stop = false;
	unsigned step;
	int room;

	l.said[0] = l.names[0] = '\0';
	for (step = 1; a->src == NULL && !stop && (r = source_kind_auto_step(step)) != NULL; step++)
		auto_step(a, r, &l, &absent, &declared, &stop);
	if (a->src != NULL) {
		/* Said after --cpus and the layout are checked: a usage error
		 * comes alone (app_open_all). */
		if (l.said[0] != '\0')
			auto_keep(a, &l);
		return 0;
	}
	/* One line, and the way out always fits in it. */
	room = (int)sizeof a->e.text - 100;
	errmsg_set(&a->e, _("no counter source works here: %s%.*s (or try httop --demo)"),
	    !absent ? "" : o->have_msr_path && !o->have_msr_safe_path ?
	    _("msr-safe: skipped for --msr-path; ") : _("msr-safe: not loaded; "), room, l.said);
	return -1;
}

void
app_open_beside(struct app *a)
{
	const struct source *src = a->src;

	/* The simulator and a described machine play the cases themselves,
	 * a recording has none, and the scheduler needs no second copy. */
	if (src->virtual_clock || src->recorded || (a->o->topology != NULL && !src->own_cpus) ||
	    a->plan.basis == PLAN_BASIS_SCHED)
		return;
	a->beside_wanted = true;
	a->beside = sched_source_open(&a->m, &a->beside_plan, &a->beside_why);
}

/* The job's cgroup events beside the perf source's counters: where the
 * job has a cgroup, on the CPUs read; else jobcg_why says why not. */
static void
open_job_cgroup(struct app *a)
{
	static const enum perf_cg_event ev[] = { PERF_CG_INST, PERF_CG_CYCLES, PERF_CG_REF };
	const struct topology *t = &a->m.topo;
	struct job_ident id;
	struct cpulist cpus;
	unsigned cpu;

	if (!a->src->cgroup_events) {
		errmsg_set(&a->jobcg_why, _("the %s source programs the counters itself: cgroup "
		    "events need --source perf"), a->src->name);
		return;
	}
	job_watch_ident(a->job, &id);
	if (id.cgroup[0] == '\0') {
		errmsg_set(&a->jobcg_why, "%s", _("the job has no cgroup of its own: cgroup events "
		    "need --cgroup or --job"));
		return;
	}
	cpus.n = t->max_cpu;
	cpus.has = xcalloc(t->max_cpu ? t->max_cpu : 1, sizeof *cpus.has);
	for (cpu = 0; cpu < t->max_cpu; cpu++)
		cpus.has[cpu] = t->cpus[cpu].present && t->cpus[cpu].online &&
		    source_cpu_selected(a->src, cpu);
	a->jobcg_sys = perf_sys_real(NULL);
	a->jobcg = perf_cgroup_open(a->jobcg_sys, id.cgroup, &cpus, ev, 3, &a->jobcg_why);
	cpulist_free(&cpus);
}

/* context.h */
void
app_open_job_record(struct app *a)
{
	const struct source *src = a->src;
	struct sched_job j = { 0 };
	struct cpulist *sel;

	/* The simulator's CPUs and a recording run no task of this machine;
	 * the scheduler has the job's own; procstat counts no task apart. */
	if (a->job == NULL || a->o->check || src->virtual_clock || src->recorded ||
	    a->plan.basis != PLAN_BASIS_COUNTERS)
		return;
	a->beside_wanted = true;
	open_job_cgroup(a);
	if (a->tasks == NULL)
		a->tasks = job_watch_tasks(a->job, NULL);
	if (a->tasks == NULL) {
		errmsg_set(&a->beside_why, _("the job's tasks cannot be told apart (its cgroup "
		    "is not under this machine's cgroup tree)"));
		return;
	}
	job_tasks_sched_job(a->tasks, &j);
	a->beside = sched_source_open_job(&a->m, &a->beside_plan, &j, &a->beside_why);
	if (a->beside == NULL)
		return;
	/* The same CPUs as the source. */
	sel = &a->beside->selected;
	cpulist_free(sel);
	sel->n = src->selected.n;
	if (sel->n > 0) {
		sel->has = xcalloc(sel->n, sizeof(bool));
		memcpy(sel->has, src->selected.has, sel->n * sizeof(bool));
	}
}

/* --force takes over registers another program holds; where the source
 * holds none, say so rather than let it seem to have done something. */
static void
force_note(const struct app *a)
{
	if (a->o->force && a->src->force_moot != NULL)
		text_msgf(_("httop: --force has no effect with the %s source: %s\n"), a->src->name,
		    _(a->src->force_moot));
}

/* httop --check on the simulator: it plays the check's cases itself, every
 * core one (or the one --check-case names), at the clock the check then
 * expects (check_sim_ghz). */
static struct source *
open_check_sim(struct app *a)
{
	const struct check_case *only =
	    a->o->check_case != NULL ? check_case_find(a->o->check_case) : NULL;
	struct scenario sc;
	struct source *s;

	check_sim_scenario(&sc, &a->m.topo, only, CHECK_PERIOD_S, check_sim_ghz(&a->m.id),
	    CHECK_SIM_IPC);
	s = sim_source_new_scenario(&a->m, &sc, only != NULL ? only->name : "check", a->o->seed,
	    &a->e);
	scenario_free(&sc);
	return s;
}

/* The one opener: the source of kind k. In --source auto (in_auto) the
 * topology was declared already, and perf knows msr failed first. */
static struct source *
open_kind(struct app *a, enum source_kind k, bool in_auto, struct errmsg *e)
{
	const struct options *o = a->o;

	if (!in_auto && source_kind_row(k)->declares_topology && app_declare_topology(a, e) != 0)
		return NULL;
	switch (k) {
	case SRC_MSR:
		return open_msr(a, e);
	case SRC_MSR_SAFE:
		return msr_safe_source_open(&a->m, o->msr_safe_path, o->msr_batch_path, e);
	case SRC_PERF:
		return perf_source_open(&a->m, &a->plan, in_auto, e);
	case SRC_PROCSTAT:
		return procstat_source_open(&a->m, &a->plan, e);
	case SRC_SCHED:
		return sched_open(a, e);
	case SRC_BPF:
		return bpf_open(a, e);
	case SRC_SIM:
		return o->check ? open_check_sim(a) : sim_source_new(&a->m, o->scenario, o->seed, e);
	case SRC_REPLAY:
		/* The trace brings its machine and plan. Batch mode reads it
		 * once, forward only: a pipe will do; the live view goes
		 * back by opening it again. */
		if (!app_wants_screen(o) && !o->check)
			return replay_source_once(o->replay, &a->m, &a->plan, e);
		return replay_source_new(o->replay, &a->m, &a->plan, e);
	case SRC_AUTO:
	case SRC_NKINDS:
		break;
	}
	return NULL;
}

int
app_open_source(struct app *a)
{
	const struct options *o = a->o;

	if (source_kind_row(o->source)->trace) {
		if ((a->src = open_kind(a, o->source, false, &a->e)) == NULL)
			return -1;
		a->have_machine = true;
		force_note(a);
		return 0;
	}
	if (load_machine(a) != 0)
		return -1;
	plan_for_machine(&a->plan, &a->m);
	if (o->source == SRC_AUTO) {
		if (open_auto(a) != 0)
			return -1;
	} else {
		a->src = open_kind(a, o->source, false, &a->e);
	}
	if (a->src == NULL)
		return -1;
	force_note(a);
	return 0;
}

/* --cpus names CPUs; whole cores are read, so widen it to every CPU of
 * every core that has one of them. A CPU the machine lacks is a usage
 * error, said before any register is touched. A CPU that was offline
 * when the topology was read has no known core (TOPO_NO_CORE): it is
 * selected alone, as without --cpus; when no CPU named has a core there
 * is nothing to read, a usage error too. */
int
app_select_cpus(struct app *a)
{
	const struct topology *t = &a->src->m->topo;
	const struct cpulist *want = &a->o->cpus;
	struct cpulist sel;
	size_t cpu, nocore = SIZE_MAX;
	unsigned i, ncores = 0;

	if (!a->o->have_cpus)
		return 0;
	sel.n = t->max_cpu;
	sel.has = xcalloc(t->max_cpu ? t->max_cpu : 1, sizeof *sel.has);
	for (cpu = 0; cpu < t->max_cpu; cpu++)
		sel.has[cpu] = t->cpus[cpu].present;
	if (cpulist_check_within(want, a->o->cpus_beyond, sel.has, t->max_cpu, "--cpus",
	    &a->e) != 0) {
		cpulist_free(&sel);
		return -1;
	}
	memset(sel.has, 0, t->max_cpu * sizeof *sel.has);
	for (cpu = 0; cpu < want->n; cpu++) {
		const struct topo_core *c;

		if (!want->has[cpu])
			continue;
		if ((c = topology_core_of(t, (unsigned)cpu)) == NULL) {
			sel.has[cpu] = true;
			if (nocore == SIZE_MAX)
				nocore = cpu;
			continue;
		}
		ncores++;
		for (i = 0; i < c->nthreads && i < TOPO_MAX_SMT; i++)
			sel.has[c->cpus[i]] = true;
	}
	if (ncores == 0 && nocore != SIZE_MAX) {
		cpulist_free(&sel);
		return errmsg_set(&a->e, _("--cpus: CPU %zu was offline when the topology was read, so "
		    "its core is not known (Linux tells only an online CPU's core): bring it online "
		    "(/sys/devices/system/cpu/cpu%zu/online) and start httop again, or name other "
		    "CPUs"), nocore, nocore);
	}
	cpulist_free(&a->src->selected);
	a->src->selected = sel;
	return 0;
}

/* Where each core sits on its die. CAPID6 is read from --sysfs-root, or
 * from /sys when the machine is the one httop runs on. A --die-map that
 * does not load or fit is a usage error, said before any register is
 * touched; anything else falls back to a logical grid with a note. */
int
app_build_layout(struct app *a)
{
	const struct options *o = a->o;
	struct die_inputs in;
	char xcc[PATH_MAX];
	struct errmsg ignore;
	/* This machine, not a recording or a description of another one. */
	bool live = !a->src->recorded && !o->demo && o->topology == NULL;

	memset(&in, 0, sizeof in);
	in.sysfs_root = o->sysfs_root != NULL ? o->sysfs_root : live ? "/sys" : NULL;
	in.die_map = o->die_map;
	in.capid6 = o->capid6.n > 0 ? &o->capid6 : NULL;
	in.capid_read = a->have_capid && live && o->sysfs_root == NULL ? &a->capid : NULL;
	in.xcc_map = datadir_find("dies/skx-xcc.map", xcc, sizeof xcc, &ignore) == 0 ? xcc : NULL;
	/* JSON is read by programs: its layout texts (basis, note) are the
	 * same in every locale, so the layout is built in the C locale. An
	 * error is built again in the user's, for the message. */
	if (o->batch && o->format == FMT_JSON) {
		locale_t c = newlocale(LC_ALL_MASK, "C", (locale_t)0), old;
		int rc;

		if (c != (locale_t)0) {
			old = uselocale(c);
			rc = die_layout_build(&a->layout, a->src->m, &in, &a->e);
			uselocale(old);
			freelocale(c);
			if (rc == 0) {
				a->have_layout = true;
				return 0;
			}
		}
	}
	if (die_layout_build(&a->layout, a->src->m, &in, &a->e) != 0)
		return -1;
	a->have_layout = true;
	return 0;
}

/* The CPUs the kernel knows (a sysfs CPU list file), not hwloc's. */
static int
sys_cpus(const char *file, struct cpulist *l)
{
	char buf[4096];
	struct errmsg e;
	FILE *fp = fopen(file, "re");
	size_t n;

	if (fp == NULL)
		return -1;
	n = fread(buf, 1, sizeof buf - 1, fp);
	fclose(fp);
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return cpulist_parse(buf, l, &e);
}

/* What needs privilege, done before anything a user names is read:
 * CAPID6 read from this machine's /sys, and the msr driver's /dev/cpu/N/msr of every CPU the kernel lists
 * as present, when this machine is watched through them (--source auto
 * or msr, the default path). A device that does not open is left for
 * the msr source to try again and name the cause. Nothing here reads a
 * file a user controls: /sys and /dev are the kernel's. */
int
app_open_devices(struct app *a)
{
	const struct options *o = a->o;
	struct cpulist possible, present;
	struct errmsg ignore;
	unsigned cpu;

	/* This machine's die: its PCU's config space is readable whole
	 * only with privilege. */
	if (source_kind_row(o->source)->this_machine && !o->demo && o->topology == NULL &&
	    o->sysfs_root == NULL && o->capid6.n == 0) {
		capid6_read("/sys", &a->capid);
		a->have_capid = true;
	}
	app_open_state(a);
	if (!source_kind_row(o->source)->msr_devices)
		return 0;
	if (o->demo || o->topology != NULL || o->have_msr_path)
		return 0;
	if (sys_cpus("/sys/devices/system/cpu/possible", &possible) != 0)
		return 0;
	if (sys_cpus("/sys/devices/system/cpu/present", &present) != 0) {
		cpulist_free(&possible);
		return 0;
	}
	a->pre_msr = msr_io_file_new(MSR_DEV_TEMPLATE, (unsigned)possible.n);
	for (cpu = 0; cpu < present.n && cpu < possible.n; cpu++) {
		if (present.has[cpu])
			(void)a->pre_msr->open_cpu(a->pre_msr, cpu, &ignore);
	}
	cpulist_free(&possible);
	cpulist_free(&present);
	return 0;
}

void
app_open_state(struct app *a)
{
	const struct options *o = a->o;
	/* Only in an httop that gained no privilege: the tests' directory. */
	const char *dir = secure_getenv("HTTOP_STATE_DIR");
	struct errmsg ignore;

	if (o->demo || !source_kind_row(o->source)->writes_msrs)
		return;
	a->state = msr_state_open(dir != NULL && dir[0] != '\0' ? dir : MSR_STATE_DIR, &ignore);
}

int
app_recover(struct app *a)
{
	char note[1024];

	if (!a->src->needs_rawio) {
		if (!a->o->restore)
			return -1;
		errmsg_set(&a->e, _("--restore puts back MSRs, and the %s source has none: give "
		    "--source msr or msr-safe, with the device options of the killed run"),
		    a->src->name);
		return EXIT_FAIL;
	}
	if (a->state != NULL) {
		msr_source_set_state(a->src, a->state);
		a->state = NULL;
	}
	if (msr_source_recover(a->src, a->o->restore, note, sizeof note, &a->e) != 0)
		return EXIT_FAIL;
	if (note[0] != '\0')
		text_msgf("httop: %s\n", note);
	return a->o->restore ? EXIT_OK : -1;
}

/* Every device is open and CAPID6 read: keep only what the source may
 * still need (CAP_SYS_RAWIO, for the MSR sources: the msr driver checks
 * it when a CPU's device is opened again; CAP_PERFMON, for the sched
 * source run by root: a CPU's event is opened again when it comes back
 * online). See httop(1), PRIVILEGE. */
int
app_drop_privilege(struct app *a)
{
	bool rawio = a->src != NULL ? a->src->needs_rawio : a->pre_msr != NULL;
	/* Only where httop gained nothing (run by root): installed set-ID or
	 * with file capabilities, the events are opened with the user's own
	 * rights (httop(1), PRIVILEGE), and so opened again. */
	bool perfmon = a->src != NULL && a->src->needs_perfmon && !privilege_gained();

	if (privilege_drop((rawio ? PRIV_KEEP_RAWIO : 0u) | (perfmon ? PRIV_KEEP_PERFMON : 0u),
	    NULL, 0, &a->e) != 0)
		return errmsg_prefix(&a->e, _("giving up privilege after opening the devices"));
	return 0;
}

/* --record: the file is opened once privilege is given up (a set-user-ID
 * httop writes it as the user who ran it) and before any register is
 * touched, so a bad path costs nothing. */
int
app_open_record(struct app *a)
{
	const struct options *o = a->o;
	struct stat rs, ws;

	/* The trace being replayed, under another name. */
	if (o->replay != NULL && stat(o->replay, &rs) == 0 && stat(o->record, &ws) == 0 &&
	    rs.st_dev == ws.st_dev && rs.st_ino == ws.st_ino)
		return errmsg_set(&a->e, _("--record %s is the trace being replayed; give another "
		    "file"), o->record);
	a->rec = record_open(o->record, o->record_compress, privilege_held(), &a->e);
	return a->rec != NULL ? 0 : -1;
}

int
app_open_output(struct app *a)
{
	const struct options *o = a->o;
	struct stat rs, ws;
	int fd;

	if (strcmp(o->output, "-") == 0)
		return 0;
	/* The trace being replayed, under another name. */
	if (o->replay != NULL && stat(o->replay, &rs) == 0 && stat(o->output, &ws) == 0 &&
	    rs.st_dev == ws.st_dev && rs.st_ino == ws.st_ino)
		return errmsg_set(&a->e, _("-o %s is the trace being replayed; give another file"),
		    o->output);
	/* The --record file (opened just before), under another name. */
	if (o->record != NULL && stat(o->record, &rs) == 0 && stat(o->output, &ws) == 0 &&
	    rs.st_dev == ws.st_dev && rs.st_ino == ws.st_ino && S_ISREG(ws.st_mode))
		return errmsg_set(&a->e, _("-o %s is the --record file %s; give two files"),
		    o->output, o->record);
	if ((fd = outfile_open("-o", o->output, privilege_held(), &a->e)) < 0)
		return -1;
	if ((a->out = fdopen(fd, "w")) == NULL) {
		int err = errno;   /* fdopen's, before close can change it */

		close(fd);
		return errmsg_set(&a->e, _("-o %s: %s"), o->output, strerror(err));
	}
	return 0;
}

FILE *
app_out(const struct app *a)
{
	return a->out != NULL ? a->out : stdout;
}
