/* app.c: start-up and the refresh loop. Everything is allocated before the
 * first read; a refresh only reads, computes into the same interval and
 * writes. Every way out after the source exists goes through app_end(),
 * which restores the registers. */
#include "config.h"
#include "app.h"

#include <errno.h>
#include <limits.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "conflict.h"
#include "datadir.h"
#include "machine/dielayout.h"
#include "machine/machine.h"
#include "metrics/history.h"
#include "metrics/metrics.h"
#include "out/batch.h"
#include "out/textfile.h"
#include "source/calibrate.h"
#include "plan/plan.h"
#include "phases.h"
#include "privilege.h"
#include "record.h"
#include "signals.h"
#include "source/sources.h"
#include "trace/trace.h"
#include "ui/header.h"
#include "ui/screen.h"
#include "ui/settings.h"
#include "ui/tui.h"
#include "util/i18n.h"
#include "util/xalloc.h"
#include "watch/job.h"

/* Long enough for the ratio of two counters to be an integer beyond
 * doubt, short enough not to be noticed at start. */
#define CALIBRATE_SECONDS 0.1

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

struct app {
	const struct options *o;
	struct phases ph;          /* HTTOP_PHASE_TIMES=1: CPU time per phase */
	struct machine m;
	bool have_machine;
	struct plan plan;
	struct source *src;
	struct sample s[2];
	bool have_samples;
	struct interval iv;
	bool have_iv;
	struct metrics_ctx mc;
	struct batch *out;
	struct errmsg e;

	/* The screen (without -b, on a terminal). */
	bool tui_mode;
	struct tui *tui;
	struct history *hist;
	struct interval wiv;        /* figures over the averaging window */
	bool have_wiv;
	struct job_watch *job;
	struct cpulist jobcpus;
	struct job_view jv;
	char replay_pos[160];       /* the replay's position, for the header */
	struct ui_settings set;     /* the screen's settings (httoprc, keys) */
	char set_note[512];         /* a settings file that did not load */
	struct die_layout layout;   /* where each core sits: built once */
	bool have_layout;
	struct conflict_state *conflict;  /* --on-conflict */
	struct textfile *tf;        /* --textfile */
	struct recorder *rec;       /* --record */
};

static void
report(const struct errmsg *e)
{
	fprintf(stderr, "httop: %s\n", e->text);
}

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
	} else if (machine_load(&a->m, o->topology, o->cpuid, &a->e) != 0) {
		return -1;
	}
	a->have_machine = true;
	return 0;
}

/* What one step of --source auto said, appended to `buf`. */
static void
auto_note(char *buf, size_t len, const char *step, const char *said)
{
	size_t n = strlen(buf), k = strlen(step);

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

/* A source that fails to open may have marked CPUs offline (a missing
 * device looks like an unplugged CPU): the next step starts afresh. */
static void
online_copy(bool *to_flags, struct topology *t, bool save)
{
	unsigned cpu;

	for (cpu = 0; cpu < t->max_cpu; cpu++) {
		if (save)
			to_flags[cpu] = t->cpus[cpu].online;
		else
			t->cpus[cpu].online = to_flags[cpu];
	}
}

/* --source auto: msr-safe (when its device exists), then the msr driver,
 * then perf_event. A step that fails says why; when a later one works the
 * reasons are printed once, when none works they make the error. */
static int
open_auto(struct app *a)
{
	const struct options *o = a->o;
	char said[4 * sizeof a->e.text], path[PATH_MAX];
	struct errmsg e;
	bool absent = false, *online;
	int room;

	said[0] = '\0';
	online = xcalloc(a->m.topo.max_cpu ? a->m.topo.max_cpu : 1, sizeof *online);
	online_copy(online, &a->m.topo, true);
	if (msr_safe_present(a, path, sizeof path)) {
		a->src = msr_safe_source_open(&a->m, o->msr_safe_path, o->msr_batch_path, &e);
		if (a->src == NULL) {
			auto_note(said, sizeof said, "msr-safe", e.text);
			online_copy(online, &a->m.topo, false);
		}
	} else {
		absent = true;
	}
	if (a->src == NULL && (a->src = msr_source_open(&a->m, o->msr_path, &e)) == NULL) {
		auto_note(said, sizeof said, "msr", e.text);
		online_copy(online, &a->m.topo, false);
		a->src = perf_source_open(&a->m, &a->plan, &e);
		if (a->src == NULL)
			auto_note(said, sizeof said, "perf", e.text);
	}
	free(online);
	if (a->src != NULL) {
		if (said[0] != '\0')
			fprintf(stderr, _("httop: --source auto: %s; using %s\n"), said,
			    a->src->name);
		return 0;
	}
	/* One line, and the way out always fits in it. */
	room = (int)sizeof a->e.text - 100;
	errmsg_set(&a->e, _("no counter source works here: %s%.*s (or try httop --demo)"),
	    !absent ? "" : o->have_msr_path && !o->have_msr_safe_path ?
	    _("msr-safe: skipped for --msr-path; ") : _("msr-safe: not loaded; "), room, said);
	return -1;
}

static int
open_source(struct app *a)
{
	const struct options *o = a->o;

	if (o->source == SRC_REPLAY) {
		/* The trace brings its machine and plan. */
		a->src = replay_source_new(o->replay, &a->m, &a->plan, &a->e);
		if (a->src == NULL)
			return -1;
		a->have_machine = true;
		return 0;
	}
	if (load_machine(a) != 0)
		return -1;
	plan_for_machine(&a->plan, &a->m);
	switch (o->source) {
	case SRC_AUTO:
		return open_auto(a);
	case SRC_MSR:
		a->src = msr_source_open(&a->m, o->msr_path, &a->e);
		break;
	case SRC_MSR_SAFE:
		a->src = msr_safe_source_open(&a->m, o->msr_safe_path, o->msr_batch_path, &a->e);
		break;
	case SRC_PERF:
		a->src = perf_source_open(&a->m, &a->plan, &a->e);
		break;
	case SRC_SIM:
		a->src = sim_source_new(&a->m, o->scenario, o->seed, &a->e);
		break;
	case SRC_REPLAY:
		break;
	}
	return a->src != NULL ? 0 : -1;
}

/* --cpus names CPUs; whole cores are read, so widen it to every CPU of
 * every core that has one of them. A CPU the machine lacks is a usage
 * error, said before any register is touched. */
static int
select_cpus(struct app *a)
{
	const struct topology *t = &a->src->m->topo;
	const struct cpulist *want = &a->o->cpus;
	struct cpulist sel;
	size_t cpu;
	unsigned i;

	if (!a->o->have_cpus)
		return 0;
	sel.n = t->max_cpu;
	sel.has = xcalloc(t->max_cpu ? t->max_cpu : 1, sizeof *sel.has);
	for (cpu = 0; cpu < want->n; cpu++) {
		const struct topo_core *c;

		if (!want->has[cpu])
			continue;
		if (cpu >= t->max_cpu || !t->cpus[cpu].present) {
			cpulist_free(&sel);
			return errmsg_set(&a->e, _("--cpus: CPU %zu is not in this machine (%u CPUs, "
			    "numbered below %u); give CPUs it has"), cpu, t->ncpus, t->max_cpu);
		}
		c = &t->cores[t->cpus[cpu].core];
		for (i = 0; i < c->nthreads && i < TOPO_MAX_SMT; i++)
			sel.has[c->cpus[i]] = true;
	}
	cpulist_free(&a->src->selected);
	a->src->selected = sel;
	return 0;
}

/* Where each core sits on its die. CAPID6 is read from --sysfs-root, or
 * from /sys when the machine is the one httop runs on. A --die-map that
 * does not load or fit is a usage error, said before any register is
 * touched; anything else falls back to a logical grid with a note. */
static int
build_layout(struct app *a)
{
	const struct options *o = a->o;
	struct die_inputs in;
	char xcc[PATH_MAX];
	struct errmsg ignore;
	bool live = o->source != SRC_REPLAY && !o->demo && o->topology == NULL;

	memset(&in, 0, sizeof in);
	in.sysfs_root = o->sysfs_root != NULL ? o->sysfs_root : live ? "/sys" : NULL;
	in.die_map = o->die_map;
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

/* Every device is open and CAPID6 read: keep only what the source may
 * still need (CAP_SYS_RAWIO, for the MSR sources: the msr driver checks
 * it when a CPU's device is opened again). See httop(1), PRIVILEGE. */
static int
drop_privilege(struct app *a)
{
	const char *name = a->src->name;
	bool rawio = strcmp(name, "msr") == 0 || strcmp(name, "msr-safe") == 0;

	if (privilege_drop(rawio, NULL, 0, &a->e) != 0)
		return errmsg_prefix(&a->e, _("giving up privilege after opening the devices"));
	return 0;
}

/* --record: the file is opened once privilege is given up (a set-user-ID
 * httop writes it as the user who ran it) and before any register is
 * touched, so a bad path costs nothing. */
static int
open_record(struct app *a)
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

/* The events a replayed trace recorded before the sample just read
 * ("offline cpu 5", "reprogrammed: ..."); "" if none or not a replay. */
static const char *
replay_events(struct app *a)
{
	if (a->o->source != SRC_REPLAY)
		return "";
	return replay_source_events(a->src);
}

static int
prepare(struct app *a)
{
	struct source *src = a->src;
	const struct topology *t = &src->m->topo;
	/* A replay of a simulator's recording brings its truth along. */
	bool truth = strcmp(src->name, "sim") == 0 || (a->o->source == SRC_REPLAY &&
	    trace_has_truth(replay_source_reader(src)));

	if (a->o->source != SRC_REPLAY &&
	    calibrate_scale(src, &a->plan, src->m, CALIBRATE_SECONDS, &a->e) != 0)
		return -1;
	/* The table and the hardware disagree, or the scale could not be
	 * measured: the user must know which number the split rests on. */
	if (a->o->source != SRC_REPLAY && a->plan.scale_expected != 0 &&
	    (!a->plan.scale_measured || a->plan.scale != a->plan.scale_expected)) {
		char msg[sizeof a->plan.scale_note + 64];

		snprintf(msg, sizeof msg, _("reference-clock scale: %s"), a->plan.scale_note);
		if (a->tui != NULL)
			tui_note(a->tui, msg);
		else
			fprintf(stderr, "httop: %s\n", msg);
	}
	if (source_program(src, &a->plan, a->o->force, &a->e) != 0)
		return -1;
	/* A replay too: the trace may hold another program's interference. */
	a->conflict = conflict_new(a->o->on_conflict);
	sample_init(&a->s[0], t->max_cpu, src->plan->nslots, t->ncores, truth);
	sample_init(&a->s[1], t->max_cpu, src->plan->nslots, t->ncores, truth);
	a->have_samples = true;
	metrics_ctx_init(&a->mc, src->m, src->plan);
	interval_init(&a->iv, src->m);
	a->have_iv = true;
	a->out = batch_new(a->o->format, stdout, src->m, src->plan, src->name);
	batch_set_layout(a->out, &a->layout);
	/* A header line would repeat once per node in merged output (pdsh). */
	batch_set_header(a->out, isatty(STDOUT_FILENO));
	if (a->rec != NULL) {
		char note[sizeof src->detail + 64];

		/* The plan as programmed: after calibration, with its scale. */
		snprintf(note, sizeof note, "recorded from the %s source %s", src->name, src->detail);
		if (record_start(a->rec, src->m, src->plan, truth, note, &a->e) != 0)
			return -1;
	}
	return 0;
}

static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Let one interval pass. A virtual clock in batch mode just advances; a
 * real wait aims at fixed deadlines so the intervals do not drift, and
 * skips ahead when a refresh took longer than the delay. Returns the
 * ending signal, or 0. */
static int
wait_interval(struct app *a, double *deadline)
{
	double delay = a->o->delay, left;
	int sig;

	if (a->src->virtual_clock && a->o->batch) {
		source_advance(a->src, delay);
		return signals_wait(0);
	}
	left = *deadline - now_s();
	if (left < 0) {
		*deadline -= left;
		left = 0;
	}
	sig = signals_wait(left);
	*deadline += delay;
	if (sig == 0)
		source_advance(a->src, delay);
	return sig;
}

/* A first read in which no selected CPU could be read would only ever
 * show errors: say why once instead (a wrong --msr-path, say). */
static int
check_first_read(struct app *a, const struct sample *s)
{
	unsigned cpu, bad = 0, first_bad = 0;

	for (cpu = 0; cpu < s->max_cpu; cpu++) {
		if (!source_cpu_selected(a->src, cpu))
			continue;
		if (s->state[cpu] == CPU_READ_OK)
			return 0;
		if (bad++ == 0)
			first_bad = cpu;
	}
	if (bad == 0)
		return 0;
	if (s->state[first_bad] == CPU_READ_ERROR && s->err[first_bad] != 0)
		return errmsg_set(&a->e, _("no CPU could be read (%s source %s): CPU %u: %s; check the "
		    "device or file it reads"), a->src->name, a->src->detail, first_bad,
		    strerror(s->err[first_bad]));
	return errmsg_set(&a->e, _("no CPU could be read (%s source %s): CPU %u is %s; check the "
	    "device or file it reads"), a->src->name, a->src->detail, first_bad,
	    s->state[first_bad] == CPU_OFFLINE ? _("offline") : _("not readable"));
}

/* After an interval's metrics: the --on-conflict policy. `note` gets the
 * line to show (empty if none). Returns 1 when the run must end with
 * status 1, the reason in a->e; the registers are restored by app_end. */
static int
conflict_check(struct app *a, char *note, size_t len)
{
	enum conflict_action act = CONFLICT_NONE;

	note[0] = '\0';
	if (a->conflict == NULL)
		return 0;
	if (conflict_handle(a->conflict, a->src, &a->iv, &act, note, len, &a->e) != 0) {
		note[0] = '\0';
		return 1;
	}
	if (act == CONFLICT_STOP) {
		if (note[0] != '\0')
			errmsg_set(&a->e, "%s", note);
		else
			errmsg_set(&a->e, _("another program reprogrammed the counters; stopped as "
			    "--on-conflict exit asks"));
		note[0] = '\0';
		return 1;
	}
	if (act != CONFLICT_NOTED)
		note[0] = '\0';
	return 0;
}

/* The loop proper; returns the exit status. */
static int
run(struct app *a)
{
	struct sample *prev = &a->s[0], *cur = &a->s[1], *tmp;
	char note[sizeof a->e.text];
	long long n;
	double deadline;
	int rc, sig = 0, stop;

	rc = source_read(a->src, prev, &a->e);
	if (rc != 0)
		goto read_end;
	if (check_first_read(a, prev) != 0) {
		report(&a->e);
		return EXIT_FAIL;
	}
	if (*replay_events(a) != '\0')
		fprintf(stderr, _("httop: replay, %.3f s: %s\n"), prev->time, replay_events(a));
	if (a->rec != NULL && record_first(a->rec, prev, NULL, &a->e) != 0) {
		report(&a->e);
		return EXIT_FAIL;
	}
	deadline = now_s() + a->o->delay;
	for (n = 0; a->o->iterations < 0 || n < a->o->iterations; n++) {
		if ((sig = signals_caught()) != 0 || (sig = wait_interval(a, &deadline)) != 0)
			break;
		rc = source_read(a->src, cur, &a->e);
		if (rc != 0)
			goto read_end;
		if (*replay_events(a) != '\0')
			fprintf(stderr, _("httop: replay, %.3f s: %s\n"), cur->time, replay_events(a));
		metrics_compute(&a->mc, prev, cur, &a->iv);
		stop = conflict_check(a, note, sizeof note);
		if (note[0] != '\0')
			fprintf(stderr, "httop: %s\n", note);
		/* Recorded before it is shown: a full disk stops the run here. */
		if (a->rec != NULL && record_interval(a->rec, cur, &a->iv, stop ? a->e.text : note,
		    &a->e) != 0) {
			report(&a->e);
			return EXIT_FAIL;
		}
		if (batch_write(a->out, &a->iv, &a->e) != 0) {
			/* The reader went away (httop -b | head): a normal end. */
			if (batch_errno(a->out) == EPIPE)
				return stop ? EXIT_FAIL : EXIT_OK;
			report(&a->e);
			return EXIT_FAIL;
		}
		if (a->tf != NULL && textfile_write(a->tf, &a->iv, &a->e) != 0) {
			report(&a->e);
			return EXIT_FAIL;
		}
		if (stop) {
			/* The interval is written first: it shows what happened. */
			report(&a->e);
			return EXIT_FAIL;
		}
		tmp = prev;
		prev = cur;
		cur = tmp;
	}
	return signals_exit_status(sig);
read_end:
	if (rc > 0)
		return EXIT_OK;     /* end of the trace */
	report(&a->e);
	return EXIT_FAIL;
}

/* The screen: the first frame comes this soon whatever the interval, so
 * httop -d 10 does not start with ten seconds of nothing. */
#define FIRST_WAIT 0.25
/* Samples a replay counts per pass of the loop while it is idle: a few
 * milliseconds of parsing on a large machine, so keys stay prompt. */
#define REPLAY_SCAN_CHUNK 32

/* The figures the screen shows: the last interval, or the window's. */
static const struct interval *
figures(struct app *a, const struct ui_settings *s, double *covered)
{
	double c;

	*covered = a->iv.dt;
	if (s->window == AVG_LAST)
		return &a->iv;
	c = history_compute(a->hist, &a->mc, s->window, s->avg_seconds, &a->wiv);
	if (!(c > 0.0))
		return &a->iv;
	*covered = c;
	return &a->wiv;
}

static void
draw(struct app *a, const struct ui_settings *s, bool paused)
{
	struct ui_frame f;
	double covered;

	memset(&f, 0, sizeof f);
	f.m = a->src->m;
	f.plan = a->src->plan;
	f.source_name = a->src->name;
	f.iv = figures(a, s, &covered);
	f.window = s->window;
	f.window_seconds = covered;
	f.window_length = s->avg_seconds;
	f.delay = s->delay;
	/* A replay paced by the recording: the interval is the recorded one. */
	if (a->o->source == SRC_REPLAY && !a->o->have_delay && a->iv.dt > 0.0)
		f.delay = a->iv.dt;
	f.paused = paused;
	f.job = a->job != NULL ? &a->jv : NULL;
	f.replay_pos = a->o->source == SRC_REPLAY ? a->replay_pos : NULL;
	f.layout = &a->layout;
	tui_draw(a->tui, &f);
}

/* Re-read the job's CPUs; with nothing left to watch, all cores. */
static void
update_job(struct app *a)
{
	const struct topology *t = &a->src->m->topo;
	int live;

	if (a->job == NULL)
		return;
	live = job_watch_update(a->job, t->max_cpu, &a->jobcpus, a->jv.note, sizeof a->jv.note);
	a->jv.cpus = &a->jobcpus;
	a->jv.only = tui_job_only(a->tui) && live > 0;
	if (live == 0) {
		size_t len = strlen(a->jv.note);

		snprintf(a->jv.note + len, sizeof a->jv.note - len, "%s%s", len ? "; " : "",
		    _("nothing left to watch: all cores shown"));
	}
}

/* Settings: the defaults, then the file, then -d. A file that does not
 * load leaves the defaults and a note for the status line. */
static void
load_settings(struct app *a, struct ui_settings *s, char *note, size_t len)
{
	char path[4096];
	struct errmsg e;

	ui_settings_default(s);
	note[0] = '\0';
	if (ui_config_path(path, sizeof path, &e) == 0 && ui_config_load(path, s, &e) < 0)
		snprintf(note, len, "%s", e.text);
	if (a->o->have_delay)
		s->delay = a->o->delay;
	/* The threads view keeps its own copy of the sort order. */
	ui_threads_sort(s);
}

/* The terminal back as it was, then the message (if any), so it is seen. */
static int
close_screen(struct app *a, const struct errmsg *e, int status)
{
	if (a->tui != NULL) {
		tui_close(a->tui);
		signals_set_screen(NULL);
	}
	if (e != NULL)
		report(e);
	return status;
}

/* An interval with every core and thread "no previous sample yet": the
 * first frame, and a replay's right after a jump to its start. */
static void
interval_first(struct interval *iv, const struct topology *t)
{
	unsigned i;

	iv->valid = true;
	for (i = 0; i < t->ncores; i++) {
		iv->cores[i].index = i;
		iv->cores[i].selected = true;
		iv->cores[i].reason = R_FIRST;
	}
	for (i = 0; i < t->max_cpu; i++) {
		iv->threads[i].cpu = i;
		iv->threads[i].reason = R_FIRST;
	}
}

/* The screen opens as soon as the machine and the layout are known, and
 * shows its first frame at once: the header, the views' layout, and every
 * core marked "no previous sample yet". Calibration and the first interval
 * follow; a user on a slow link sees httop at work instead of a blank
 * terminal for the first ~0.4 s. */
static int
open_screen(struct app *a)
{
	struct interval first;
	struct ui_frame f;

	load_settings(a, &a->set, a->set_note, sizeof a->set_note);
	a->tui = tui_open(&a->set, &a->e);
	if (a->tui == NULL)
		return -1;
	signals_set_screen(screen_emergency_restore);
	if (a->set_note[0] != '\0')
		tui_note(a->tui, a->set_note);
	interval_init(&first, a->src->m);
	interval_first(&first, &a->src->m->topo);
	memset(&f, 0, sizeof f);
	f.m = a->src->m;
	f.plan = a->src->plan != NULL ? a->src->plan : &a->plan;
	f.source_name = a->src->name;
	f.iv = &first;
	f.window = AVG_LAST;
	f.delay = a->set.delay;
	f.layout = &a->layout;
	tui_draw(a->tui, &f);
	interval_free(&first);
	return 0;
}

/* The replay's position for the header, after the sample `cur`. */
static void
replay_status(struct app *a, const struct sample *cur)
{
	struct replay_info ri;
	struct replay_view rv;

	replay_source_info(a->src, &ri);
	memset(&rv, 0, sizeof rv);
	rv.pos = (unsigned long long)ri.pos;
	rv.total = (unsigned long long)ri.total;
	rv.total_known = ri.total_known;
	rv.at = ri.pos > 0 ? cur->time - ri.t_first : 0.0;
	rv.length = ri.total_known ? ri.t_last - ri.t_first : -1.0;
	rv.speed = tui_speed(a->tui);
	rv.at_end = ri.at_end;
	header_replay_text(a->replay_pos, sizeof a->replay_pos, &rv);
}

/* How long a replay shows the sample `cur` before the next one: the next
 * interval's recorded length over the speed, or the interval (-d, + -)
 * over the speed when -d was given or the trace has no times. Sets
 * *ended, with a note, when there is no next sample. See httop(1), REPLAY. */
static double
replay_pace(struct app *a, const struct sample *cur, bool *ended)
{
	struct errmsg e;
	double next, dt = -1.0;
	int rc = replay_source_peek_time(a->src, &next, &e);

	/* An error waits for the read, which reports it. */
	if (rc > 0) {
		*ended = true;
		tui_note(a->tui, _("end of replay: q quits"));
	}
	if (rc == 0 && !a->o->have_delay)
		dt = next - cur->time;
	if (!(dt > 0.0) || !isfinite(dt))
		dt = a->set.delay;
	return ldexp(dt, -tui_speed(a->tui));
}

/* [ and ]: read the first sample again, or the first of the last two.
 * Nothing from before the jump is kept: the averaging history starts
 * afresh and the next interval is computed from two samples after the
 * jump. A jump that cannot be made (the file is gone) leaves the replay
 * as it was, with a note, and returns 1; -1 when the run must end. */
static int
replay_jump(struct app *a, int dir, struct sample *prev)
{
	struct errmsg e;
	int rc;

	rc = dir < 0 ? replay_source_rewind(a->src, &e) : replay_source_seek_end(a->src, &e);
	if (rc != 0) {
		tui_note(a->tui, e.text);
		return 1;
	}
	tui_note(a->tui, "");
	if ((rc = source_read(a->src, prev, &a->e)) != 0) {
		if (rc > 0)
			errmsg_set(&a->e, _("%s: the trace has no samples any more"), a->src->detail);
		return -1;
	}
	if (*replay_events(a) != '\0')
		tui_note(a->tui, replay_events(a));
	history_free(a->hist);
	a->hist = history_new(a->src->m, a->src->plan, a->set.avg_seconds, UI_DELAY_MIN);
	if (a->conflict != NULL) {
		conflict_free(a->conflict);
		a->conflict = conflict_new(a->o->on_conflict);
	}
	if (a->rec != NULL && record_first(a->rec, prev, dir < 0 ?
	    _("the replay jumped to its start") : _("the replay jumped to its end"), &a->e) != 0)
		return -1;
	interval_free(&a->iv);
	interval_init(&a->iv, a->src->m);
	interval_first(&a->iv, &a->src->m->topo);
	return 0;
}

/* Without -b on a terminal: wait for the next refresh or a key; keys are
 * handled at once (the frame is drawn again from the same figures), the
 * counters are read only when the interval is over. Returns the exit
 * status; errors are printed after the screen is closed. */
static int
run_tui(struct app *a)
{
	struct sample *prev = &a->s[0], *cur = &a->s[1], *tmp;
	struct ui_settings *s = &a->set;
	char cnote[sizeof a->e.text];
	double deadline, last_read;
	long long n = 0;
	bool paused = false, ended = false, have = false, failed = false;
	bool replay = a->o->source == SRC_REPLAY, scanning = replay;
	unsigned steps = 0;         /* replay: intervals to show now (. n ]) */
	int rc, sig = 0;

	rc = source_read(a->src, prev, &a->e);
	if (rc > 0)
		return close_screen(a, NULL, EXIT_OK);
	if (rc < 0 || check_first_read(a, prev) != 0)
		return close_screen(a, &a->e, EXIT_FAIL);
	if (a->rec != NULL && record_first(a->rec, prev, NULL, &a->e) != 0)
		return close_screen(a, &a->e, EXIT_FAIL);
	if (*replay_events(a) != '\0')
		tui_note(a->tui, replay_events(a));
	a->hist = history_new(a->src->m, a->src->plan, s->avg_seconds, UI_DELAY_MIN);
	interval_init(&a->wiv, a->src->m);
	a->have_wiv = true;
	if (a->job != NULL) {
		snprintf(a->jv.label, sizeof a->jv.label, "%s", job_watch_label(a->job));
		a->jv.active = true;
		update_job(a);
	}
	if (replay) {
		tui_set_replay(a->tui, true);
		replay_status(a, prev);
	}
	last_read = now_s();
	deadline = last_read + (s->delay < FIRST_WAIT ? s->delay : FIRST_WAIT);
	for (bool startup = true;;) {
		double left = -1.0;
		bool ready;

		if ((!paused && !ended) || steps > 0) {
			left = steps > 0 ? 0 : deadline - now_s();
			if (left < 0)
				left = 0;
		}
		/* A replay counts its samples while nothing else is to be done. */
		if (scanning)
			left = 0;
		if (startup) {
			/* Keys and resizes that came while the screen was up but
			 * httop was calibrating: curses holds them, and a SIGWINCH
			 * then interrupted no wait, so look before the first one. */
			startup = false;
			ready = true;
			if ((sig = signals_caught()) != 0)
				break;
		} else if ((sig = signals_wait_fd(left, tui_fd(a->tui), &ready)) != 0)
			break;
		if (scanning && !ready) {
			struct errmsg se;

			/* A malformed line stops the count; the replay stops there too. */
			if (replay_source_scan(a->src, REPLAY_SCAN_CHUNK, &se) != 0) {
				scanning = false;
				replay_status(a, prev);
				if (have)
					draw(a, s, paused);
			}
		}
		if (ready) {
			enum tui_cmd cmd = tui_input(a->tui);
			struct tui_replay_req req;

			if (cmd == TUI_QUIT)
				break;
			if (cmd == TUI_NONE)
				continue;
			if (tui_paused(a->tui) != paused) {
				paused = !paused;
				if (!paused && !replay) {
					/* Start afresh, so no interval spans the pause. */
					source_advance(a->src, now_s() - last_read);
					rc = source_read(a->src, prev, &a->e);
					if (rc < 0 || (a->rec != NULL && record_first(a->rec, prev,
					    _("resumed after a pause"), &a->e) != 0)) {
						failed = true;
						break;
					}
				}
				last_read = now_s();
				deadline = last_read + (replay ? replay_pace(a, prev, &ended) : s->delay);
			}
			if (replay && tui_replay_take(a->tui, &req)) {
				rc = req.jump != 0 ? replay_jump(a, req.jump, prev) : 1;
				if (rc < 0) {
					failed = true;
					break;
				}
				if (rc == 0) {
					/* At the end the last interval is read at once. */
					ended = false;
					have = true;
					steps = req.jump > 0 ? 1 : 0;
					last_read = now_s();
				}
				steps += req.steps;
			}
			if (cmd == TUI_DELAY || cmd == TUI_SPEED || cmd == TUI_JUMP)
				deadline = last_read + (replay ? replay_pace(a, prev, &ended) : s->delay);
			if (cmd == TUI_JOB && a->job != NULL)
				update_job(a);
			if (replay)
				replay_status(a, prev);
			if (have)
				draw(a, s, paused);
			continue;
		}
		if (steps == 0 && (paused || ended || now_s() < deadline))
			continue;
		if (ended) {
			/* . at the end: nothing more to show. */
			steps = 0;
			continue;
		}

		source_advance(a->src, now_s() - last_read);
		last_read = now_s();
		phases_mark(&a->ph);
		rc = source_read(a->src, cur, &a->e);
		phases_add(&a->ph, PHASE_READ);
		if (rc > 0) {
			/* The trace is over: keep the last frame until q. */
			ended = true;
			tui_note(a->tui, _("end of replay: q quits"));
			if (have)
				draw(a, s, paused);
			continue;
		}
		if (rc < 0) {
			failed = true;
			break;
		}
		metrics_compute(&a->mc, prev, cur, &a->iv);
		phases_add(&a->ph, PHASE_COMPUTE);
		if (conflict_check(a, cnote, sizeof cnote) != 0) {
			if (a->rec != NULL)
				(void)record_interval(a->rec, cur, &a->iv, a->e.text, NULL);
			failed = true;
			break;
		}
		if (a->rec != NULL && record_interval(a->rec, cur, &a->iv, cnote, &a->e) != 0) {
			failed = true;
			break;
		}
		if (cnote[0] != '\0')
			tui_note(a->tui, cnote);
		else if (*replay_events(a) != '\0')
			tui_note(a->tui, replay_events(a));
		phases_mark(&a->ph);
		history_add(a->hist, prev, cur, &a->iv);
		phases_add(&a->ph, PHASE_COMPUTE);
		if (a->tf != NULL && textfile_write(a->tf, &a->iv, &a->e) != 0) {
			failed = true;
			break;
		}
		tmp = prev;
		prev = cur;
		cur = tmp;
		have = true;
		n++;
		if (replay) {
			/* Paced by the next interval's recorded length. */
			if (steps > 0)
				steps--;
			deadline = last_read + replay_pace(a, prev, &ended);
			replay_status(a, prev);
		}
		update_job(a);
		phases_mark(&a->ph);
		draw(a, s, paused);
		phases_add(&a->ph, PHASE_DRAW);
		if (!replay) {
			deadline += s->delay;
			if (deadline < now_s())
				deadline = now_s() + s->delay;
		}
		if (a->o->iterations > 0 && n >= a->o->iterations)
			break;
	}
	/* The terminal first, so the message below is seen. */
	if (failed)
		return close_screen(a, &a->e, EXIT_FAIL);
	return close_screen(a, NULL, signals_exit_status(sig));
}

/* Put the registers back and free everything; a failed restore turns a
 * success into a failure (the PMU is left as httop set it). */
static int
app_end(struct app *a, int status)
{
	/* The terminal before the registers, on every path. */
	if (a->tui != NULL) {
		tui_free(a->tui);
		signals_set_screen(NULL);
	}
	phases_report(&a->ph);
	if (a->hist != NULL)
		history_free(a->hist);
	if (a->conflict != NULL)
		conflict_free(a->conflict);
	/* The gzip trailer; a close that fails (NFS) is an error too. */
	if (a->rec != NULL && record_close(a->rec, &a->e) != 0) {
		report(&a->e);
		if (status == EXIT_OK)
			status = EXIT_FAIL;
	}
	a->rec = NULL;
	if (a->have_wiv)
		interval_free(&a->wiv);
	if (a->job != NULL)
		job_watch_free(a->job);
	cpulist_free(&a->jobcpus);
	batch_free(a->out);
	textfile_free(a->tf);
	if (a->have_iv)
		interval_free(&a->iv);
	if (a->have_samples) {
		sample_free(&a->s[0]);
		sample_free(&a->s[1]);
	}
	if (a->src != NULL) {
		if (source_restore(a->src, &a->e) != 0) {
			report(&a->e);
			if (status == EXIT_OK)
				status = EXIT_FAIL;
		}
		/* Not an error: restoring it would break the other program. */
		if (a->src->restore_left[0] != '\0')
			fprintf(stderr, _("httop: left %s as another program set it (it took the "
			    "counters over while httop ran)\n"), a->src->restore_left);
		signals_set_source(NULL);
		source_close(a->src);
	}
	if (a->have_layout)
		die_layout_free(&a->layout);
	if (a->have_machine)
		machine_free(&a->m);
	return status;
}

int
app_run(const struct options *o)
{
	struct app a;

	memset(&a, 0, sizeof a);
	a.o = o;
	phases_init(&a.ph);
	/* The screen without -b when standard output is a terminal; else the
	 * batch format, as a pipe or a file expects. */
	a.tui_mode = !o->batch && isatty(STDOUT_FILENO);
	if (o->npids > 0 || o->cgroup != NULL) {
		/* Before any register is touched: a wrong PID is a plain error. */
		a.job = job_watch_new(o->pids, o->npids, o->cgroup, NULL, &a.e);
		if (a.job == NULL) {
			report(&a.e);
			return app_end(&a, EXIT_FAIL);
		}
	}
	if (open_source(&a) != 0) {
		report(&a.e);
		return app_end(&a, EXIT_FAIL);
	}
	/* --host: before anything records or prints the name. */
	if (o->host != NULL)
		snprintf(a.m.hostname, sizeof a.m.hostname, "%s", o->host);
	signals_set_source(a.src);
	if (select_cpus(&a) != 0 || build_layout(&a) != 0) {
		report(&a.e);
		return app_end(&a, EXIT_USAGE);
	}
	if (drop_privilege(&a) != 0) {
		report(&a.e);
		return app_end(&a, EXIT_FAIL);
	}
	if (o->record != NULL && open_record(&a) != 0) {
		report(&a.e);
		return app_end(&a, EXIT_FAIL);
	}
	/* With the rights httop keeps, before any register is touched: a
	 * directory it cannot write to is a bad --textfile. The plan is
	 * read only when a file is written. */
	if (o->textfile != NULL &&
	    (a.tf = textfile_open(o->textfile, a.src->m, &a.plan, a.src->name, &a.e)) == NULL) {
		report(&a.e);
		return app_end(&a, EXIT_USAGE);
	}
	if (a.tui_mode && open_screen(&a) != 0) {
		report(&a.e);
		return app_end(&a, EXIT_FAIL);
	}
	if (prepare(&a) != 0)
		return app_end(&a, close_screen(&a, &a.e, EXIT_FAIL));
	return app_end(&a, a.tui_mode ? run_tui(&a) : run(&a));
}
