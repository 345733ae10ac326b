/* bpf_window.c: the bpf and sched sources over one window (issue 37),
 * for tests/cli/test_bpf_window.sh. One process opens both on this
 * machine, CPUs declared siblings by TOPOLOGY (as httop --topology), a
 * job (--pid PID) watched when given, and runs each through its own run
 * (run_step: the read and the metrics httop uses). Their windows are the
 * same to the nanosecond: the sched source is held at the bpf read's cut
 * (sched_source_cut_at), which it reads once its records are in.
 *
 *   bpf_window TOPOLOGY INTERVALS SECONDS [PID]
 *
 * Prints one line per interval per source ("# bpf|sched i: u0 u1
 * neither t0 t1 both ju0 ju1 alone shared jboth", "-" for an absent
 * figure) and one TAP line per interval: every figure both have within
 * 0.01; an interval where either has none says why (its events), and is
 * not judged. Exit 77 ("1..0 # SKIP") where a source does not open
 * here, its reason given. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "machine/machine.h"
#include "metrics/metrics.h"
#include "run/run.h"
#include "source/bpf/bpf_source.h"
#include "source/sched/sched_merge.h"
#include "source/sched/sched_source.h"
#include "source/sources.h"
#include "util/clock.h"
#include "util/cpulist.h"
#include "watch/job.h"

#define NFIG 11
#define TOL 0.01

struct side {
	const char *name;
	struct source *src;
	struct plan plan;
	struct run r;
	struct job_tasks *tasks;
	double fig[NFIG];
	bool have[NFIG];
	bool got;
	char why[600];
};

static void
take(struct side *sd, unsigned k, struct val v)
{
	sd->have[k] = v.kind == V_EXACT;
	sd->fig[k] = v.v;
}

/* The run's output: the figures of core 0 (CPUs 0 and 1) and its threads. */
static int
on_interval(void *self, const struct run_step *st, struct errmsg *e)
{
	struct side *sd = self;
	const struct interval *iv = st->iv;
	const struct core_fig *c = &iv->cores[0];

	(void)e;
	take(sd, 0, iv->threads[0].util);
	take(sd, 1, iv->threads[1].util);
	take(sd, 2, c->neither);
	take(sd, 3, c->t0_only);
	take(sd, 4, c->t1_only);
	take(sd, 5, c->both);
	take(sd, 6, iv->threads[0].job_util);
	take(sd, 7, iv->threads[1].job_util);
	take(sd, 8, c->job_alone);
	take(sd, 9, c->job_shared);
	take(sd, 10, c->job_both);
	snprintf(sd->why, sizeof sd->why, "%s%s%s", iv->valid ? "" : iv->reason_c,
	    iv->valid || st->events[0] == '\0' ? "" : ": ", iv->valid ? "" : st->events);
	sd->got = true;
	return 0;
}

static const struct output_ops capture = { .name = "window", .interval = on_interval };

static int
sys_cpus(const char *file, struct cpulist *l)
{
	char buf[4096];
	struct errmsg e;
	FILE *fp = fopen(file, "re");
	size_t n = 0;

	if (fp != NULL) {
		n = fread(buf, 1, sizeof buf - 1, fp);
		fclose(fp);
	}
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return n == 0 ? -1 : cpulist_parse(buf, l, &e);
}

static int
declare(struct machine *m, const char *xml, struct errmsg *e)
{
	struct cpulist online, present;
	int rc;

	if (machine_load(m, xml, NULL, e) != 0)
		return -1;
	if (sys_cpus("/sys/devices/system/cpu/online", &online) != 0 ||
	    sys_cpus("/sys/devices/system/cpu/present", &present) != 0)
		return errmsg_set(e, "cannot read this machine's CPUs from /sys");
	rc = machine_declare_here(m, &online, &present, xml, NULL, e);
	cpulist_free(&online);
	cpulist_free(&present);
	return rc;
}

static void
skip_out(const char *what, const char *why)
{
	printf("1..0 # SKIP the %s source does not open here: %s\n", what, why);
	exit(77);
}

static void
open_side(struct side *sd, struct machine *m, struct job_watch *w, bool bpf)
{
	struct sched_job j = { 0 };
	struct run_config cfg;
	struct errmsg e;

	sd->name = bpf ? "bpf" : "sched";
	if (w != NULL)
		sd->tasks = job_watch_tasks(w, NULL);
	job_tasks_sched_job(sd->tasks, &j);
	if (bpf)
		sd->src = sd->tasks ? bpf_source_open_job(m, &sd->plan, &j, &e) :
		    bpf_source_open(m, &sd->plan, &e);
	else
		sd->src = sd->tasks ? sched_source_open_job(m, &sd->plan, &j, &e) :
		    sched_source_open(m, &sd->plan, &e);
	if (sd->src == NULL)
		skip_out(sd->name, e.text);
	memset(&cfg, 0, sizeof cfg);
	run_init(&sd->r, sd->src, &sd->plan, &cfg);
	run_add_output(&sd->r, &capture, sd);
	if (run_prepare(&sd->r) != RUN_OK) {
		printf("1..1\nnot ok 1 - %s: %s\n", sd->name, sd->r.e.text);
		exit(1);
	}
}

static void
say(const struct side *sd, unsigned i)
{
	unsigned k;

	printf("# %-5s %u:", sd->name, i);
	for (k = 0; k < NFIG; k++)
		if (sd->have[k])
			printf(" %.4f", sd->fig[k]);
		else
			printf(" -");
	printf("%s%s\n", sd->why[0] ? "  absent: " : "", sd->why);
}

/* One interval of both, over the same window: the bpf read's cut holds
 * the sched read (taken before the bpf read, so no drain passes it). */
static int
step(struct side *b, struct side *s, uint64_t *cb, uint64_t *cs)
{
	sched_source_cut_at(s->src, (uint64_t)clock_mono_ns());
	if (run_step(&b->r, 0) != RUN_OK)
		return -1;
	*cb = bpf_source_cut(b->src);
	sched_source_cut_at(s->src, *cb);
	if (run_step(&s->r, 0) != RUN_OK)
		return -1;
	*cs = sched_source_cut(s->src);
	return 0;
}

/* The TAP line of interval i. */
static bool
judge(const struct side *b, const struct side *s, unsigned i, uint64_t cb, uint64_t cs)
{
	static const char *names[NFIG] = { "util0", "util1", "neither", "t0_only", "t1_only",
	    "both", "job_util0", "job_util1", "job_alone", "job_shared", "job_both" };
	char worst[160] = "";
	double d, max = 0;
	unsigned k, n = 0;

	if (cb != cs) {
		printf("not ok %u - interval %u: the windows differ (cut bpf %llu, sched %llu)\n",
		    i, i, (unsigned long long)cb, (unsigned long long)cs);
		return false;
	}
	if (b->why[0] || s->why[0]) {
		printf("ok %u - # SKIP interval %u: %s has no figures (%s)\n", i, i,
		    b->why[0] ? "bpf" : "sched", b->why[0] ? b->why : s->why);
		return true;
	}
	for (k = 0; k < NFIG; k++) {
		if (!b->have[k] || !s->have[k])
			continue;
		n++;
		d = b->fig[k] > s->fig[k] ? b->fig[k] - s->fig[k] : s->fig[k] - b->fig[k];
		if (d > max) {
			max = d;
			snprintf(worst, sizeof worst, " (largest: %s bpf %.4f sched %.4f)", names[k],
			    b->fig[k], s->fig[k]);
		}
	}
	printf("%s %u - interval %u, one window: %u figures of bpf and sched within %.2f%s\n",
	    max <= TOL && n >= 6 ? "ok" : "not ok", i, i, n, TOL, worst);
	return max <= TOL && n >= 6;
}

int
main(int argc, char **argv)
{
	struct side b, s;
	struct machine m;
	struct job_watch *w = NULL;
	struct errmsg e;
	struct timespec ts;
	uint64_t cb, cs;
	unsigned i, n;
	double secs;
	pid_t pid;
	bool ok = true;

	if (argc < 4) {
		fprintf(stderr, "usage: bpf_window TOPOLOGY INTERVALS SECONDS [PID]\n");
		return 2;
	}
	n = (unsigned)atoi(argv[2]);
	secs = atof(argv[3]);
	memset(&b, 0, sizeof b);
	memset(&s, 0, sizeof s);
	memset(&m, 0, sizeof m);
	if (declare(&m, argv[1], &e) != 0) {
		printf("1..1\nnot ok 1 - the topology: %s\n", e.text);
		return 1;
	}
	if (argc > 4) {
		pid = (pid_t)atoi(argv[4]);
		if ((w = job_watch_new(&pid, 1, NULL, NULL, &e)) == NULL) {
			printf("1..1\nnot ok 1 - the job: %s\n", e.text);
			return 1;
		}
	}
	open_side(&b, &m, w, true);
	open_side(&s, &m, w, false);
	printf("1..%u\n", n);
	printf("# figures: util0 util1 neither t0_only t1_only both job_util0 job_util1 "
	    "job_alone job_shared job_both\n");
	sched_source_cut_at(s.src, (uint64_t)clock_mono_ns());
	if (run_first(&b.r, NULL, false, 0) != RUN_OK)
		return 1;
	sched_source_cut_at(s.src, bpf_source_cut(b.src));
	if (run_first(&s.r, NULL, false, 0) != RUN_OK)
		return 1;
	ts.tv_sec = (time_t)secs;
	ts.tv_nsec = (long)((secs - (double)ts.tv_sec) * 1e9);
	for (i = 1; i <= n; i++) {
		nanosleep(&ts, NULL);
		if (step(&b, &s, &cb, &cs) != 0) {
			printf("not ok %u - a read failed: %s%s\n", i, b.r.e.text, s.r.e.text);
			return 1;
		}
		say(&b, i);
		say(&s, i);
		ok = judge(&b, &s, i, cb, cs) && ok;
	}
	run_finish(&b.r, 0, NULL);
	run_finish(&s.r, 0, NULL);
	source_close(b.src);
	source_close(s.src);
	if (b.tasks != NULL)
		job_tasks_free(b.tasks);
	if (s.tasks != NULL)
		job_tasks_free(s.tasks);
	if (w != NULL)
		job_watch_free(w);
	machine_free(&m);
	return ok ? 0 : 1;
}
