/* sched_source.c: the scheduler source (--source sched): no counter at
 * all, the kernel's record of every context switch instead.
 *
 * Per CPU, one CPU-wide perf event: a software dummy event with
 * context_switch set, whose ring buffer carries PERF_RECORD_SWITCH_CPU_WIDE
 * records (one as a task leaves the CPU, one as the next comes in), with
 * sample_id_all and sample_type TID | TIME, so each record says which task
 * ran, which one ran next (or before), and when, on CLOCK_MONOTONIC
 * (use_clockid). Why not the sched:sched_switch tracepoint: its records
 * carry the raw tracepoint data (about 100 bytes against 32), need tracefs
 * for the event's ID, and raw tracepoint data needs more privilege than a
 * CPU-wide software event.
 *
 * From the records each core's threads give cumulative nanosecond counts
 * in the shape of the counter plans (sched_merge.c): TSC = the clock,
 * REF = time this CPU ran a task other than idle, ANY (thread 0) = time
 * any thread of the core did. The metrics then compute the split as for
 * AnyThread, exactly, and everything downstream works unchanged.
 *
 * The rings are read at every refresh and, in between, by a thread woken
 * by the kernel each time an eighth of a ring has been written
 * (watermark), so the memory is the rings' fixed size whatever the
 * refresh interval and the switch rate: a flood the thread cannot keep up
 * with loses records, which the kernel says (PERF_RECORD_LOST) and the
 * interval shows (CPU_LOST). Why an eighth and a real-time thread: with
 * half the ring as the watermark and the thread at normal priority,
 * busy loops on both CPUs of a VM kept the woken thread off them for up
 * to 80 ms, and a burst of other work's switches (800 KB/s to 2.5 MB/s of
 * records on one CPU) filled the other half meanwhile: 2,000 to 12,000
 * records lost, about one run of 60 intervals in two. The kernel wakes at
 * every watermark's worth written (not counted from what httop read), so
 * seven eighths of the ring is the room left for the thread to run; it
 * runs at SCHED_FIFO priority 1 where httop may (it is started with the
 * source, while httop may still hold root's privilege, and gives up its
 * own capabilities first thing; or RLIMIT_RTPRIO, as limits.conf's rtprio
 * gives, allows it), drains and sleeps again: a few microseconds per
 * thousand records.
 *
 * A read cuts its interval SCHED_CUT_LAG behind the clock: a switch-out
 * record names the next task, whose own record, written on that CPU a
 * little later, says it came; a read that fell between the two (2 us
 * apart on a busy machine, milliseconds for a task that writes no records
 * of its own, below) could not tell the task from one that ended
 * unrecorded, and called its interval unsure. Behind the clock, the
 * records after the cut are in the ring when the read looks.
 *
 * A CPU's state at open is not in any record: right after the events
 * are opened httop's own thread visits each CPU (sched_setaffinity),
 * whose switch-in record says what ran there. A CPU it may not visit
 * (cpuset) is unknown until its first switch: its intervals until then
 * are marked unsure (CPU_LOST).
 *
 * Silent tasks (sched_merge.c) whose end went unrecorded are counted idle
 * from the record that named them; the error is at most their run time
 * in the interval less the spans the records did show them run (seen,
 * on any CPU), their run time from /proc/TID/schedstat (the kernel's
 * sum_exec_runtime, ns): read for every task once when the events are
 * programmed, and at every read for a task once it was found silent.
 * An interval whose silent tasks may have run more than SCHED_SILENT_TOL
 * of it is unsure. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "source/perf/perf_sys.h"
#include "source/sched/sched_merge.h"
#include "source/sched/sched_source.h"
#include "source/sched/sched_tasks.h"
#include "source/sources.h"
#include "util/clock.h"
#include "util/cpulist.h"
#include "util/i18n.h"
#include "util/xalloc.h"

enum sc_state {
	SC_UNUSED = 0,      /* not present, or not selected */
	SC_OPEN,
	SC_OFFLINE,         /* opened again at each read */
};

struct sched_cpu {
	uint8_t state;
	bool hup;           /* poll said hang-up: the thread leaves it */
	int fd;
	unsigned char *base;   /* the mapping: the control page, then data */
	uint64_t tail;      /* what httop has consumed */
	uint64_t last_en;   /* time_enabled at the last read */
	uint64_t last_rd;   /* CLOCK_MONOTONIC just after that read (ns) */
};

/* Silent tasks whose run time is read at every read (the VM agent's
 * threads: a handful); more are measured from when they were last read. */
#define SCHED_KNOWN_SILENT 32
/* How far behind the clock a read cuts its interval (ns): the record
 * that says a named task came or stayed is then in the ring (seen: 2 us
 * for a task with records, up to 5.5 ms for a silent one under load). */
#define SCHED_CUT_LAG 20000000ull
/* The drain thread is woken when this part of a ring has been written. */
#define SCHED_WATERMARK_DIV 8u

struct sched_src {
	struct source src;  /* first */
	unsigned max_cpu;
	struct sched_cpu *cpu;
	unsigned ncores;
	struct sched_core *core;
	size_t page, data_pages;
	pthread_mutex_t mu;
	pthread_t thr;
	bool thr_on, stop;
	bool thr_rt;        /* the thread runs at SCHED_FIFO */
	int wake[2];
	bool open;
	double start;
	uint64_t seq;
	uint64_t records;   /* records consumed since open (bench) */
	uint64_t wakeups;   /* the thread's drains (bench) */
	uint64_t lost;      /* records the kernel lost since open */
	int paranoid;
	bool paranoid_known;
	uint64_t last_cut;  /* the previous read's cut-off */
	uint64_t hold;      /* sched_source_cut_at's cut (0: none) */
	struct task_rts rts; /* every task's run time when last read */
	/* Tasks found silent so far: their run time since the last read,
	 * read again at every read (-1: not readable). */
	struct task_rt known[SCHED_KNOWN_SILENT];
	int64_t known_d[SCHED_KNOWN_SILENT];
	unsigned nknown;
	const char *proc;   /* "/proc" (tests: another tree) */
	/* The watched job (sched_source_open_job): its tasks' figures are
	 * counted per core (sched_merge.c) and read into the job's slots;
	 * the events carry perf's task records too (fork, exit). */
	struct sched_job job;
	bool has_job;
};

static struct sched_src *
sched_of(const struct source *s)
{
	return s->priv;
}

static void
attr_for(struct perf_event_attr *a, size_t ring_bytes)
{
	memset(a, 0, sizeof *a);
	a->size = sizeof *a;
	a->type = PERF_TYPE_SOFTWARE;
	a->config = PERF_COUNT_SW_DUMMY;
	a->sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	a->sample_id_all = 1;
	a->context_switch = 1;
	a->use_clockid = 1;
	a->clockid = CLOCK_MONOTONIC;
	a->read_format = PERF_FORMAT_TOTAL_TIME_ENABLED;
	/* Wake the drain thread each time an eighth of the ring is written. */
	a->watermark = 1;
	a->wakeup_watermark = (uint32_t)(ring_bytes / SCHED_WATERMARK_DIV);
}

static int
sys_open(struct perf_event_attr *a, unsigned cpu)
{
	long fd = syscall(SYS_perf_event_open, a, -1, (int)cpu, -1, PERF_FLAG_FD_CLOEXEC);

	return fd < 0 ? -errno : (int)fd;
}

static void
read_paranoid(struct sched_src *ss)
{
	FILE *fp = fopen("/proc/sys/kernel/perf_event_paranoid", "re");

	ss->paranoid_known = fp != NULL && fscanf(fp, "%d", &ss->paranoid) == 1;
	if (fp != NULL)
		fclose(fp);
}

/* The cause of a refused open, and the fix. */
static int
open_error(struct sched_src *ss, unsigned cpu, int err, struct errmsg *e)
{
	if (err == EACCES || err == EPERM) {
		char why[400];

		perf_refused_why(why, sizeof why, ss->paranoid_known, ss->paranoid,
		    perf_sys_privilege());
		return errmsg_set(e, _("sched: perf_event_open refused to follow the scheduler on "
		    "CPU %u (%s)%s"), cpu, strerror(err), why);
	}
	if (err == EINVAL)
		return errmsg_set(e, _("sched: this kernel has no context-switch records "
		    "(perf_event_open on CPU %u: %s; Linux 4.3 or later is needed)"), cpu,
		    strerror(err));
	return errmsg_set(e, _("sched: perf_event_open on CPU %u: %s"), cpu, strerror(err));
}

static void
close_cpu(struct sched_src *ss, struct sched_cpu *c)
{
	if (c->base != NULL)
		munmap(c->base, (ss->data_pages + 1) * ss->page);
	if (c->fd >= 0)
		close(c->fd);
	c->base = NULL;
	c->fd = -1;
}

/* Open and map one CPU's event: 0, -errno, or -ENOMEM-like for the map
 * (the caller tells them apart by *mapfail). */
static int
open_cpu(struct sched_src *ss, unsigned cpu, bool *mapfail)
{
	struct sched_cpu *c = &ss->cpu[cpu];
	struct perf_event_attr a;
	size_t len = (ss->data_pages + 1) * ss->page;
	void *p;
	int fd;

	*mapfail = false;
	attr_for(&a, ss->data_pages * ss->page);
	a.task = ss->has_job;
	fd = sys_open(&a, cpu);
	if (fd < 0)
		return fd;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		int err = errno;

		close(fd);
		*mapfail = true;
		return -err;
	}
	c->fd = fd;
	c->base = p;
	c->tail = 0;
	c->last_en = 0;
	c->last_rd = 0;
	c->hup = false;
	return 0;
}

/* ---- the ring ---- */

static struct perf_event_mmap_page *
ctl(const struct sched_cpu *c)
{
	return (struct perf_event_mmap_page *)(void *)c->base;
}


/* Every record of the core's CPUs up to `cut`, in time order
 * (sched_drain); the rest stays in the rings for the next drain. */
static void
drain_core(struct sched_src *ss, unsigned ci, uint64_t cut)
{
	const struct topo_core *tc = &ss->src.m->topo.cores[ci];
	struct sched_core *k = &ss->core[ci];
	struct sched_ring r[TOPO_MAX_SMT];
	struct sched_cpu *c;
	unsigned i;

	for (i = 0; i < k->n; i++) {
		c = &ss->cpu[tc->cpus[i]];
		memset(&r[i], 0, sizeof r[i]);
		if (c->state != SC_OPEN)
			continue;
		r[i].data = c->base + ss->page;
		r[i].dsize = ss->data_pages * ss->page;
		r[i].head = __atomic_load_n(&ctl(c)->data_head, __ATOMIC_ACQUIRE);
		r[i].tail = c->tail;
	}
	ss->records += sched_drain(k, r, cut, &ss->lost);
	for (i = 0; i < k->n; i++) {
		c = &ss->cpu[tc->cpus[i]];
		if (r[i].data == NULL)
			continue;
		c->tail = r[i].tail;
		__atomic_store_n(&ctl(c)->data_tail, c->tail, __ATOMIC_RELEASE);
	}
}

static void
drain_all(struct sched_src *ss, uint64_t cut)
{
	unsigned ci;

	for (ci = 0; ci < ss->ncores; ci++)
		drain_core(ss, ci, cut);
}

static void
skip_ring(struct sched_cpu *c)
{
	c->tail = __atomic_load_n(&ctl(c)->data_head, __ATOMIC_ACQUIRE);
	__atomic_store_n(&ctl(c)->data_tail, c->tail, __ATOMIC_RELEASE);
}

/* Where a drain cuts: SCHED_CUT_LAG behind the clock, never before the
 * last read's cut (nor, as the mutex orders the drains, before the last
 * drain's). */
static uint64_t
cut_now(const struct sched_src *ss)
{
	uint64_t t = (uint64_t)clock_mono_ns();

	t = t > SCHED_CUT_LAG ? t - SCHED_CUT_LAG : 0;
	if (ss->hold != 0 && t > ss->hold)
		t = ss->hold;
	return t > ss->last_cut ? t : ss->last_cut;
}

/* ---- the drain thread ---- */

/* The thread is started while httop may still hold privilege (so that it
 * may run at real-time priority): it gives up every capability of its own
 * first thing (capabilities are a thread's; it needs none). */
static void
drop_caps(void)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[_LINUX_CAPABILITY_U32S_3];

	memset(d, 0, sizeof d);
	(void)syscall(SYS_capset, &h, d);
}

static void *
drain_thread(void *arg)
{
	struct sched_src *ss = arg;
	struct pollfd *pf = xcalloc((size_t)ss->max_cpu + 1, sizeof *pf);
	unsigned *of = xcalloc((size_t)ss->max_cpu + 1, sizeof *of);
	unsigned cpu, n, i;
	char junk[64];

	(void)prctl(PR_SET_NAME, (unsigned long)"httop-sched", 0UL, 0UL, 0UL);
	drop_caps();
	for (;;) {
		pthread_mutex_lock(&ss->mu);
		if (ss->stop) {
			pthread_mutex_unlock(&ss->mu);
			break;
		}
		pf[0].fd = ss->wake[0];
		pf[0].events = POLLIN;
		n = 1;
		/* Until the events are programmed, only the pipe. */
		for (cpu = 0; ss->open && cpu < ss->max_cpu; cpu++) {
			if (ss->cpu[cpu].state != SC_OPEN || ss->cpu[cpu].hup)
				continue;
			pf[n].fd = ss->cpu[cpu].fd;
			pf[n].events = POLLIN;
			of[n++] = cpu;
		}
		pthread_mutex_unlock(&ss->mu);
		if (poll(pf, n, -1) < 0)
			continue;
		if (pf[0].revents & POLLIN)
			while (read(ss->wake[0], junk, sizeof junk) > 0)
				;
		pthread_mutex_lock(&ss->mu);
		for (i = 1; i < n; i++)
			if ((pf[i].revents & (POLLHUP | POLLERR)) && ss->cpu[of[i]].fd == pf[i].fd)
				ss->cpu[of[i]].hup = true;
		if (!ss->stop && ss->open) {
			drain_all(ss, cut_now(ss));
			ss->wakeups++;
		}
		pthread_mutex_unlock(&ss->mu);
	}
	free(pf);
	free(of);
	return NULL;
}

/* The drain thread, at SCHED_FIFO priority 1 where httop may: woken, it
 * must run before the rest of the ring fills (the top of this file).
 * Where it may not, it runs as any thread, and the detail says so. */
static int
thread_create(struct sched_src *ss)
{
	struct sched_param sp;
	pthread_attr_t at;
	int rc = EPERM;

	memset(&sp, 0, sizeof sp);
	sp.sched_priority = 1;
	ss->thr_rt = false;
	if (secure_getenv("HTTOP_SCHED_NO_RT") == NULL && pthread_attr_init(&at) == 0) {
		if (pthread_attr_setinheritsched(&at, PTHREAD_EXPLICIT_SCHED) == 0 &&
		    pthread_attr_setschedpolicy(&at, SCHED_FIFO) == 0 &&
		    pthread_attr_setschedparam(&at, &sp) == 0)
			rc = pthread_create(&ss->thr, &at, drain_thread, ss);
		pthread_attr_destroy(&at);
		ss->thr_rt = rc == 0;
	}
	if (rc != 0)
		rc = pthread_create(&ss->thr, NULL, drain_thread, ss);
	/* Without privilege, RLIMIT_RTPRIO may allow it (limits.conf). */
	if (rc == 0 && !ss->thr_rt && secure_getenv("HTTOP_SCHED_NO_RT") == NULL)
		ss->thr_rt = pthread_setschedparam(ss->thr, SCHED_FIFO, &sp) == 0;
	return rc;
}

static int
thread_start(struct sched_src *ss, struct errmsg *e)
{
	sigset_t all, old;
	int rc;

	if (pipe2(ss->wake, O_CLOEXEC | O_NONBLOCK) != 0)
		return errmsg_set(e, _("sched: cannot make a pipe: %s"), strerror(errno));
	/* The thread takes no signal: they stay the main thread's. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	ss->stop = false;
	rc = thread_create(ss);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc != 0) {
		close(ss->wake[0]);
		close(ss->wake[1]);
		ss->wake[0] = ss->wake[1] = -1;
		return errmsg_set(e, _("sched: cannot start the thread that reads the rings: %s"),
		    strerror(rc));
	}
	ss->thr_on = true;
	snprintf(ss->src.detail, sizeof ss->src.detail, "context switches, %zu KiB ring per CPU, "
	    "drained %s", ss->data_pages * ss->page / 1024, ss->thr_rt ?
	    "at real-time priority (SCHED_FIFO 1)" : "at normal priority");
	return 0;
}

static void
thread_stop(struct sched_src *ss)
{
	if (!ss->thr_on)
		return;
	pthread_mutex_lock(&ss->mu);
	ss->stop = true;
	pthread_mutex_unlock(&ss->mu);
	if (write(ss->wake[1], "x", 1) < 0) {
		/* The pipe is non-blocking and empty enough: cannot fail. */
	}
	pthread_join(ss->thr, NULL);
	close(ss->wake[0]);
	close(ss->wake[1]);
	ss->wake[0] = ss->wake[1] = -1;
	ss->thr_on = false;
}

/* ---- silent tasks' run time ---- */

/* At a read: how long each task found silent before ran since the last
 * read. */
static void
known_refresh(struct sched_src *ss)
{
	unsigned k;

	for (k = 0; k < ss->nknown; k++)
		ss->known_d[k] = sched_rt_since(&ss->rts, ss->proc, ss->known[k].tid);
}

/* Task tid's run time since the last read (or, found silent for the first
 * time, since httop last read it), and from now on at every read. */
static int64_t
silent_run(struct sched_src *ss, uint32_t tid)
{
	unsigned k;
	int64_t d;

	for (k = 0; k < ss->nknown; k++)
		if (ss->known[k].tid == tid)
			return ss->known_d[k];
	d = sched_rt_since(&ss->rts, ss->proc, tid);
	if (ss->nknown < SCHED_KNOWN_SILENT) {
		ss->known[ss->nknown].tid = tid;
		ss->known_d[ss->nknown++] = d;
	}
	return d;
}

/* What task tid was seen to run in this interval, on every CPU. */
static uint64_t
seen_all(const struct sched_src *ss, uint32_t tid)
{
	uint64_t sum = 0;
	unsigned ci, i, k;

	for (ci = 0; ci < ss->ncores; ci++)
		for (i = 0; i < ss->core[ci].n; i++)
			for (k = 0; k < ss->core[ci].t[i].nseen; k++)
				if (ss->core[ci].t[i].seen_tid[k] == tid)
					sum += ss->core[ci].t[i].seen_ns[k];
	return sum;
}

/* Is thread th's count of this interval, `len` ns long, exact within
 * SCHED_SILENT_TOL despite its silent tasks? Says which when not. */
static bool
silent_ok(struct sched_src *ss, const struct sched_thread *th, unsigned cpu, uint64_t len,
    char *ev, size_t evlen)
{
	int64_t sum = 0, d;
	char comm[32], of[48] = "";
	uint32_t tgid;
	unsigned k;
	size_t n;

	/* A silent task's run time less what it was seen to run is what it
	 * may have run unrecorded. */
	for (k = 0; k < th->nsilent; k++) {
		if ((d = silent_run(ss, th->silent[k])) < 0) {
			sum = INT64_MAX;
			break;
		}
		d -= (int64_t)seen_all(ss, th->silent[k]);
		if (d > 0 && sum + d >= sum)
			sum += d;
	}
	/* The error is at most the spans counted idle, and at most what
	 * the tasks ran. */
	if ((uint64_t)sum > th->silent_ns)
		sum = (int64_t)th->silent_ns;
	if ((double)sum <= SCHED_SILENT_TOL * (double)len)
		return true;
	sched_task_comm(ss->proc, th->silent[0], comm, sizeof comm);
	tgid = sched_task_tgid(ss->proc, th->silent[0]);
	if (tgid != 0 && tgid != th->silent[0])
		snprintf(of, sizeof of, ", a thread of process %u", tgid);
	n = strlen(ev);
	snprintf(ev + n, evlen - n, "%scpu %u: the kernel recorded no switch out of task %u "
	    "(%s%s), which writes no records of its own: up to %.1f ms of this interval not known",
	    n ? "; " : "", cpu, th->silent[0], comm, of, (double)sum / 1e6);
	return false;
}

/* ---- open, program, read ---- */

/* Visit every open CPU so that a switch record says what runs there. */
static void
visit_cpus(struct sched_src *ss)
{
	bool *v = xcalloc(ss->max_cpu ? ss->max_cpu : 1, sizeof *v);
	unsigned cpu;

	for (cpu = 0; cpu < ss->max_cpu; cpu++)
		v[cpu] = ss->cpu[cpu].state == SC_OPEN;
	source_visit_cpus(v, ss->max_cpu);
	free(v);
}

static void
close_all(struct sched_src *ss)
{
	unsigned cpu;

	thread_stop(ss);
	for (cpu = 0; cpu < ss->max_cpu; cpu++) {
		close_cpu(ss, &ss->cpu[cpu]);
		ss->cpu[cpu].state = SC_UNUSED;
	}
	ss->open = false;
}

static int
map_error(struct sched_src *ss, unsigned cpu, int err, struct errmsg *e)
{
	return errmsg_set(e, _("sched: cannot map the %zu KiB ring of CPU %u (%s): raise "
	    "kernel.perf_event_mlock_kb or the locked-memory limit (ulimit -l)"),
	    (ss->data_pages + 1) * ss->page / 1024, cpu, strerror(err));
}

/* One CPU at open: 1 opened, 0 offline (ENODEV), -1 error with the message. */
static int
program_cpu(struct sched_src *ss, unsigned cpu, struct errmsg *e)
{
	bool mapfail;
	int rc = open_cpu(ss, cpu, &mapfail);

	if (rc == 0) {
		ss->cpu[cpu].state = SC_OPEN;
		return 1;
	}
	if (!mapfail && (rc == -ENODEV || rc == -ENXIO)) {
		ss->cpu[cpu].state = SC_OFFLINE;
		return 0;
	}
	if (mapfail)
		map_error(ss, cpu, -rc, e);
	else
		open_error(ss, cpu, -rc, e);
	return -1;
}

static int
sched_program(struct source *s, const struct plan *p, bool force, struct errmsg *e)
{
	struct sched_src *ss = sched_of(s);
	const struct topology *t = &s->m->topo;
	unsigned cpu, ci, nopen = 0;
	uint64_t t0;

	(void)p;
	(void)force;
	if (ss->open)
		return 0;
	/* The events were opened with the source (while httop may still
	 * hold privilege): keep those of the selected CPUs. */
	for (cpu = 0; cpu < ss->max_cpu; cpu++) {
		if (!t->cpus[cpu].present || !source_cpu_selected(s, cpu)) {
			close_cpu(ss, &ss->cpu[cpu]);
			ss->cpu[cpu].state = SC_UNUSED;
			continue;
		}
		if (ss->cpu[cpu].state != SC_OPEN)
			continue;
		/* What came since the open (a full ring, perhaps) says nothing
		 * about the run: skip it. */
		skip_ring(&ss->cpu[cpu]);
		nopen++;
	}
	if (nopen == 0) {
		close_all(ss);
		return errmsg_set(e, _("sched: no CPU could be opened: every selected CPU is "
		    "offline"));
	}
	/* The visits' records come before t0: they only set the states, so
	 * the first interval starts with every state known. */
	visit_cpus(ss);
	sched_rt_scan(&ss->rts, ss->proc);
	t0 = (uint64_t)clock_mono_ns();
	for (ci = 0; ci < ss->ncores; ci++) {
		sched_core_init(&ss->core[ci], t->cores[ci].nthreads, t0);
		sched_core_set_job(&ss->core[ci], ss->has_job ? &ss->job : NULL);
	}
	/* The thread, waiting on its pipe since the open, drains from now. */
	pthread_mutex_lock(&ss->mu);
	ss->last_cut = t0;
	ss->open = true;
	pthread_mutex_unlock(&ss->mu);
	if (write(ss->wake[1], "x", 1) < 0) {
		/* full: the thread is being woken anyway */
	}
	return 0;
}

/* Is the CPU's event still enabled, and was it all along since the last
 * read? A CPU that goes offline takes its events off: time_enabled stops
 * at that moment, so over an interval in which the CPU went offline it
 * grows by less than the time between the two reads; the records then
 * stop and what the CPU did until the cut is not known (counted as its
 * last state, it showed a CPU going offline 13% busy). The read itself
 * falls between two clock readings; SCHED_EN_SLACK_NS covers the
 * kernel's perf clock running apart from CLOCK_MONOTONIC. */
#define SCHED_EN_SLACK_NS 1000000ull
static bool
still_on(struct sched_cpu *c)
{
	uint64_t v[2], before = (uint64_t)clock_mono_ns(), after, gap;

	if (read(c->fd, v, sizeof v) != (ssize_t)sizeof v)
		return false;
	after = (uint64_t)clock_mono_ns();
	if (c->last_en != 0) {
		gap = before > c->last_rd ? before - c->last_rd : 0;
		if (v[1] <= c->last_en || v[1] - c->last_en + SCHED_EN_SLACK_NS + gap / 1000 < gap)
			return false;
	}
	c->last_en = v[1];
	c->last_rd = after;
	return true;
}

static void
fill_row(struct sched_src *ss, struct sched_core *k, unsigned th, unsigned cpu, uint64_t cut,
    struct sample *out)
{
	uint64_t *row = sample_row(out, cpu);
	const struct plan *p = ss->src.plan;
	unsigned j;

	for (j = 0; j < out->nslots && p != NULL && j < p->nslots; j++) {
		switch (p->slots[j].kind) {
		case SLOT_TSC: row[j] = cut; break;
		case SLOT_REF: row[j] = k->t[th].ref; break;
		case SLOT_ANY: row[j] = th == 0 ? k->any : 0; break;
		case SLOT_JOB: row[j] = k->t[th].job_ns; break;
		case SLOT_JOB_BOTH: row[j] = th == 0 ? k->job_both : 0; break;
		case SLOT_JOB_ALONE: row[j] = th == 0 ? k->job_alone : 0; break;
		case SLOT_JOB_SHARED: row[j] = th == 0 ? k->job_shared : 0; break;
		default: row[j] = 0; break;
		}
	}
}

/* One phrase of the events. */
static void say(char *ev, size_t evlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void
say(char *ev, size_t evlen, const char *fmt, ...)
{
	size_t n = strlen(ev);
	va_list ap;

	if (n + 2 >= evlen)
		return;
	if (n > 0) {
		memcpy(ev + n, "; ", 3);
		n += 2;
	}
	va_start(ap, fmt);
	vsnprintf(ev + n, evlen - n, fmt, ap);
	va_end(ap);
}

/* Why thread th's interval is unsure (enum sched_unsure), in words: an
 * interval the outputs show invalid ("records lost") never goes unsaid
 * (httop(1), Scheduler source). */
static void
say_unsure(const struct sched_thread *t, unsigned cpu, char *ev, size_t evlen)
{
	unsigned u = t->unsure;

	if (t->lost > 0)
		say(ev, evlen, "lost %llu records on cpu %u", (unsigned long long)t->lost, cpu);
	else if (u & SCHED_U_LOST)
		say(ev, evlen, "lost records on cpu %u at the end of the interval (counted in the "
		    "next)", cpu);
	if ((u & SCHED_U_UNKNOWN) && !(u & (SCHED_U_LOST | SCHED_U_BROKEN)))
		say(ev, evlen, "cpu %u: what ran was not known for part of the interval (until its "
		    "first switch record)", cpu);
	if (u & SCHED_U_MISSED)
		say(ev, evlen, "cpu %u: a switch record contradicts the one before it (a switch went "
		    "unrecorded)", cpu);
	if (u & SCHED_U_CROSSED)
		say(ev, evlen, "cpu %u: a task that writes no records of its own, on since the "
		    "previous interval, ended unrecorded", cpu);
	if (u & SCHED_U_SILENT)
		say(ev, evlen, "cpu %u: more than %u tasks that write no records of their own",
		    cpu, SCHED_SILENT_MAX);
	if (u & SCHED_U_BROKEN)
		say(ev, evlen, "cpu %u: a broken record in its ring; the rest of it was skipped", cpu);
}

/* The state of one CPU after the drain; opens an offline one again. */
static uint8_t
cpu_state(struct sched_src *ss, unsigned cpu, struct sched_core *k, unsigned th, uint64_t cut,
    char *ev, size_t evlen, bool *reopened)
{
	struct sched_cpu *c = &ss->cpu[cpu];
	bool mapfail;

	if (c->state == SC_OFFLINE) {
		if (open_cpu(ss, cpu, &mapfail) == 0) {
			c->state = SC_OPEN;
			sched_core_forget(k, th, cut);
			*reopened = true;
		}
		return CPU_OFFLINE;
	}
	if (!still_on(c)) {
		close_cpu(ss, c);
		c->state = SC_OFFLINE;
		sched_core_forget(k, th, cut);
		return CPU_OFFLINE;
	}
	say_unsure(&k->t[th], cpu, ev, evlen);
	if (k->t[th].nsilent > 0 && !silent_ok(ss, &k->t[th], cpu, cut - ss->last_cut, ev, evlen))
		return CPU_LOST;
	/* (say_unsure said every cause: the interval's reason, lost, always
	 * comes with it, which httop --check's note shows) */
	if (!k->t[th].unsure)
		return CPU_READ_OK;
	return CPU_LOST;
}

/* A new interval from the cut: the job's answers that may have changed are
 * asked again (struct sched_job's tick), the tasks on the CPUs now. */
static void
job_tick(struct sched_src *ss)
{
	unsigned ci;

	if (!ss->has_job || ss->job.tick == NULL)
		return;
	ss->job.tick(ss->job.ctx);
	for (ci = 0; ci < ss->ncores; ci++)
		sched_core_job_tick(&ss->core[ci]);
}

/* A read held at a cut (sched_source_cut_at) waits until the records up
 * to it are in the rings. */
static void
hold_wait(const struct sched_src *ss)
{
	struct timespec ts;
	uint64_t until;

	if (ss->hold == 0)
		return;
	until = ss->hold + SCHED_CUT_LAG;
	ts.tv_sec = (time_t)(until / 1000000000u);
	ts.tv_nsec = (long)(until % 1000000000u);
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

static int
sched_read(struct source *s, struct sample *out, struct errmsg *e)
{
	struct sched_src *ss = sched_of(s);
	const struct topology *t = &s->m->topo;
	bool reopened = false;
	uint64_t cut;
	unsigned ci, th;

	if (!ss->open)
		return errmsg_set(e, _("internal error: the sched source was read before it was "
		    "programmed"));
	hold_wait(ss);
	pthread_mutex_lock(&ss->mu);
	cut = cut_now(ss);
	ss->hold = 0;
	drain_all(ss, cut);
	job_tick(ss);
	known_refresh(ss);
	s->events[0] = '\0';
	for (ci = 0; ci < ss->ncores; ci++) {
		struct sched_core *k = &ss->core[ci];

		sched_core_cut(k);
		for (th = 0; th < k->n; th++) {
			unsigned cpu = t->cores[ci].cpus[th];
			uint8_t st;

			if (cpu >= out->max_cpu)
				continue;
			out->scaled[cpu] = 0;
			out->err[cpu] = 0;
			if (ss->cpu[cpu].state == SC_UNUSED) {
				out->state[cpu] = CPU_NOT_READ;
				memset(sample_row(out, cpu), 0, out->nslots * sizeof(uint64_t));
				continue;
			}
			st = cpu_state(ss, cpu, k, th, cut, s->events, sizeof s->events, &reopened);
			out->state[cpu] = st;
			if (st == CPU_OFFLINE)
				out->err[cpu] = ENXIO;
			fill_row(ss, k, th, cpu, cut, out);
		}
	}
	/* After every core's states: a silent task's seen time is summed over
	 * all of them. */
	for (ci = 0; ci < ss->ncores; ci++)
		sched_core_take(&ss->core[ci]);
	ss->last_cut = cut;
	pthread_mutex_unlock(&ss->mu);
	if (reopened) {
		/* The thread polls the new ring from its next round; what
		 * runs there is learnt by a visit. */
		if (write(ss->wake[1], "x", 1) < 0) {
			/* full: the thread is being woken anyway */
		}
		visit_cpus(ss);
	}
	out->time = (double)cut / 1e9 - ss->start;
	out->wall = clock_wall() - (double)((uint64_t)clock_mono_ns() - cut) / 1e9;
	out->seq = ss->seq++;
	return 0;
}

static int
sched_restore(struct source *s, struct errmsg *e)
{
	(void)s;
	(void)e;
	return 0;
}

static void
sched_close(struct source *s)
{
	struct sched_src *ss = sched_of(s);

	close_all(ss);
	pthread_mutex_destroy(&ss->mu);
	free(ss->cpu);
	free(ss->core);
	free(ss->rts.rt);
	free(ss);
}

static void
sched_stats(const struct source *s, char *buf, size_t len)
{
	uint64_t rec, wake, lost;

	sched_source_stats(s, &rec, &wake, &lost);
	snprintf(buf, len, "records=%llu drains=%llu lost=%llu ring_kib=%zu rt=%d",
	    (unsigned long long)rec, (unsigned long long)wake, (unsigned long long)lost,
	    sched_of(s)->data_pages * sched_of(s)->page / 1024, sched_of(s)->thr_rt);
}

static const struct source_ops sched_ops = {
	.program = sched_program,
	.read = sched_read,
	.restore = sched_restore,
	.close = sched_close,
	.stats = sched_stats,
};

void
sched_plan(struct plan *p, const struct machine *m)
{
	memset(p, 0, sizeof *p);
	p->group = m->group;
	p->basis = PLAN_BASIS_SCHED;
	p->clock_hz = 1e9;
	p->split = m->topo.max_smt == 2 ? SPLIT_ANY : SPLIT_NONE;
	p->nslots = 3;
	p->slots[0].kind = SLOT_TSC;
	p->slots[0].thread_mask = THREAD_ALL;
	p->slots[1].kind = SLOT_REF;
	p->slots[1].thread_mask = THREAD_ALL;
	p->slots[2].kind = SLOT_ANY;
	p->slots[2].thread_mask = THREAD_0;
	p->slots[0].width = p->slots[1].width = p->slots[2].width = 64;
	p->scale = p->scale_expected = 1;
	p->scale_measured = true;
	snprintf(p->scale_note, sizeof p->scale_note, "1: the counts are nanoseconds");
	snprintf(p->summary, sizeof p->summary, "scheduler: context switches per CPU, %s; "
	    "no counters (no CPI, no GHz)", p->split == SPLIT_ANY ?
	    "the split from each core's threads merged in time" : "no SMT split");
	plan_link(p);
}

/* Every CPU the machine description names must be one of this machine:
 * the records are this kernel's. */
static int
check_cpus(const struct machine *m, struct errmsg *e)
{
	struct cpulist here;
	char buf[4096], list[64];
	struct errmsg ignore;
	FILE *fp = fopen("/sys/devices/system/cpu/present", "re");
	size_t n = 0;
	unsigned cpu;

	if (fp != NULL) {
		n = fread(buf, 1, sizeof buf - 1, fp);
		fclose(fp);
	}
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	if (n == 0 || cpulist_parse(buf, &here, &ignore) != 0)
		return 0;   /* nothing to compare with: the opens will tell */
	for (cpu = 0; cpu < m->topo.max_cpu; cpu++) {
		if (!m->topo.cpus[cpu].present || (cpu < here.n && here.has[cpu]))
			continue;
		snprintf(list, sizeof list, "%.60s", buf);
		cpulist_free(&here);
		return errmsg_set(e, _("sched: the topology names CPU %u, which this machine does "
		    "not have (its CPUs: %s); the scheduler source follows this machine's CPUs: "
		    "give --topology a file whose PUs are among them"), cpu, list);
	}
	cpulist_free(&here);
	return 0;
}

static void
want_fds(unsigned long n)
{
	struct perf_sys *sys = perf_sys_real(NULL);

	if (sys->want_fds != NULL)
		sys->want_fds(sys, n);
	sys->destroy(sys);
}

/* SCHED_RING_PAGES, or HTTOP_SCHED_RING_PAGES (a power of two up to it:
 * the tests' way to a ring a flood overruns; ignored in a set-ID httop). */
static size_t
ring_pages(void)
{
	const char *v = secure_getenv("HTTOP_SCHED_RING_PAGES");
	char *end;
	unsigned long n;

	if (v == NULL || *v == '\0')
		return SCHED_RING_PAGES;
	n = strtoul(v, &end, 10);
	if (*end != '\0' || n == 0 || n > SCHED_RING_PAGES || (n & (n - 1)) != 0)
		return SCHED_RING_PAGES;
	return n;
}

/* The mutex the drain thread shares with reads: priority inheritance, so
 * that a read holding it runs at the thread's priority while the thread
 * waits. */
static void
mutex_init_pi(pthread_mutex_t *mu)
{
	pthread_mutexattr_t a;

	pthread_mutexattr_init(&a);
	(void)pthread_mutexattr_setprotocol(&a, PTHREAD_PRIO_INHERIT);
	pthread_mutex_init(mu, &a);
	pthread_mutexattr_destroy(&a);
}

static struct source *
open_src(struct machine *m, struct plan *plan, const struct sched_job *job, struct errmsg *e)
{
	struct sched_src *ss;
	unsigned cpu, ci, max_cpu = m->topo.max_cpu;

	if (check_cpus(m, e) != 0)
		return NULL;
	ss = xcalloc(1, sizeof *ss);
	ss->src.ops = &sched_ops;
	ss->src.priv = ss;
	ss->src.name = "sched";
	ss->src.own_cpus = true;
	ss->src.cut_lag = (double)SCHED_CUT_LAG / 1e9;
	ss->src.needs_perfmon = true;
	ss->src.force_moot = N_("the scheduler source reads no counter");
	ss->src.m = m;
	if (job != NULL) {
		ss->job = *job;
		ss->has_job = true;
	}
	ss->max_cpu = max_cpu;
	ss->cpu = xcalloc(max_cpu ? max_cpu : 1, sizeof *ss->cpu);
	for (cpu = 0; cpu < max_cpu; cpu++)
		ss->cpu[cpu].fd = -1;
	ss->ncores = m->topo.ncores;
	ss->core = xcalloc(ss->ncores ? ss->ncores : 1, sizeof *ss->core);
	for (ci = 0; ci < ss->ncores; ci++)
		sched_core_init(&ss->core[ci], m->topo.cores[ci].nthreads, 0);
	ss->page = (size_t)sysconf(_SC_PAGESIZE);
	ss->data_pages = ring_pages();
	ss->wake[0] = ss->wake[1] = -1;
	ss->proc = "/proc";
	mutex_init_pi(&ss->mu);
	ss->start = clock_mono();
	read_paranoid(ss);
	for (cpu = 0; cpu < max_cpu; cpu++)
		if (m->topo.cpus[cpu].present && m->topo.cpus[cpu].online)
			break;
	if (cpu == max_cpu) {
		errmsg_set(e, _("sched: no CPU of the topology is online"));
		sched_close(&ss->src);
		return NULL;
	}
	/* One descriptor per CPU (the limit raised as for perf). */
	want_fds(m->topo.ncpus);
	/* Every CPU now, before httop gives its privilege up (root's
	 * CAP_PERFMON or CAP_SYS_ADMIN, where perf_event_paranoid asks for
	 * it); a refusal is said before anything starts. */
	for (cpu = 0; cpu < max_cpu; cpu++) {
		if (!m->topo.cpus[cpu].present)
			continue;
		if (!m->topo.cpus[cpu].online) {
			ss->cpu[cpu].state = SC_OFFLINE;
			continue;
		}
		if (program_cpu(ss, cpu, e) < 0) {
			sched_close(&ss->src);
			return NULL;
		}
	}
	/* The thread too, while httop may give it real-time priority. */
	if (thread_start(ss, e) != 0) {
		sched_close(&ss->src);
		return NULL;
	}
	sched_plan(plan, m);
	if (ss->has_job)
		sched_plan_job(plan);
	return &ss->src;
}

struct source *
sched_source_open(struct machine *m, struct plan *plan, struct errmsg *e)
{
	return open_src(m, plan, NULL, e);
}

struct source *
sched_source_open_job(struct machine *m, struct plan *plan, const struct sched_job *job,
    struct errmsg *e)
{
	return open_src(m, plan, job, e);
}

void
sched_plan_job(struct plan *p)
{
	static const enum slot_kind kinds[] = { SLOT_JOB, SLOT_JOB_BOTH, SLOT_JOB_ALONE,
	    SLOT_JOB_SHARED };
	size_t i;

	for (i = 0; i < sizeof kinds / sizeof kinds[0] && p->nslots < PLAN_MAX_SLOTS; i++) {
		struct plan_slot *s = &p->slots[p->nslots++];

		memset(s, 0, sizeof *s);
		s->kind = kinds[i];
		s->thread_mask = kinds[i] == SLOT_JOB ? THREAD_ALL : THREAD_0;
		s->width = 64;
	}
	plan_link(p);
}

void
sched_source_cut_at(struct source *s, uint64_t ns)
{
	struct sched_src *ss = sched_of(s);

	pthread_mutex_lock(&ss->mu);
	ss->hold = ns;
	pthread_mutex_unlock(&ss->mu);
}

uint64_t
sched_source_cut(const struct source *s)
{
	return sched_of(s)->last_cut;
}

void
sched_source_stats(const struct source *s, uint64_t *records, uint64_t *wakeups,
    uint64_t *lost)
{
	const struct sched_src *ss = sched_of(s);

	pthread_mutex_lock((pthread_mutex_t *)&ss->mu);
	if (records != NULL)
		*records = ss->records;
	if (wakeups != NULL)
		*wakeups = ss->wakeups;
	if (lost != NULL)
		*lost = ss->lost;
	pthread_mutex_unlock((pthread_mutex_t *)&ss->mu);
}
