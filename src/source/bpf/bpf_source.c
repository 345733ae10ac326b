/* bpf_source.c: the bpf source (--source bpf): the figures of the
 * scheduler source (sched_source.c's plan: TSC, REF, ANY in ns; the
 * watched job's slots), counted in the kernel. A program on the
 * sched_switch tracepoint (switch.bpf.c, carried in the binary as a
 * bpftool skeleton) adds to each core's counts at every switch
 * (bpf_core.h); httop copies every core's counts once per refresh. No
 * record per switch reaches user space, so none can be lost and nothing
 * is merged here: the cost is the program's run at each switch, in the
 * kernel (BENCHMARKS.md, issue 37).
 *
 * Needs CAP_BPF and CAP_PERFMON (or root) when the source is opened: run
 * by root, httop loads the program before it gives its privilege up;
 * installed set-ID or with file capabilities it gives it up first
 * (httop(1), PRIVILEGE), so the load then has the user's own rights.
 *
 * A thread's state is known from its first switch after the load: every
 * selected CPU is visited then (sched_setaffinity) so that one comes
 * at once. */
#include "config.h"

#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "source/bpf/bpf_source.h"
#include "source/sched/sched_merge.h"
#include "source/sched/sched_source.h"
#include "source/sources.h"
#include "util/clock.h"
#include "util/i18n.h"
#include "util/xalloc.h"

#ifdef HAVE_BPF

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <dirent.h>
#include <linux/capability.h>
#include <linux/magic.h>
#include <stdint.h>
#include <sys/auxv.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <sys/vfs.h>

#include "source/bpf/bpf_core.h"
#include "source/bpf/switch.skel.h"  /* generated in the build tree */

struct bpf_src {
	struct source src;  /* first */
	struct httop_bpf *skel;
	int cores_fd, slot_fd, job_fd;
	unsigned ncores;
	struct bpf_core *snap;   /* each core's counts at the last read */
	bool open;
	double start;
	uint64_t last_cut;       /* the last read's cut (ns), or the program's start */
	uint64_t seq;
	struct sched_job job;
	bool has_job;
	uint64_t job_added;      /* processes httop put in the job's map */
	/* The job's processes not tracked (the map full): httop's own
	 * failures at the last scan and at this one, all of them so far, and
	 * the program's count (its .bss) at the last read. An interval with
	 * any is the job's figures absent (src.job_untracked), said once. */
	uint64_t scan_fail, prev_fail, user_untracked, kern_untracked;
	unsigned job_max;        /* job_procs' size (BPF_JOB_PROCS_MAX) */
	/* A job by a cgroup v2 directory: its ID (inode number), which the
	 * program compares each task's cgroup with at each switch (exact:
	 * no map, no scan); 0: the job is job_procs'. */
	uint64_t job_cgid;
	bool job_cg_cpuset;      /* it is the v1 cpuset hierarchy's */
	bool untracked_said;
	/* The processes in /proc at the last scan and at this one (sorted):
	 * one gone since is told to the job (job.exit), so that its cache
	 * forgets it and a new process given its ID is asked about again. */
	uint32_t *pids, *prev;
	size_t npids, nprev, cap;
	bool *online;            /* per CPU, at the last read (max_cpu) */
	bool *visit;             /* per CPU: visited (visit_cpus) */
	/* Per core and thread (BPF_CORE_SMT each): the program's unk at
	 * the last read (the ns whose task is not known, bpf_core.h). */
	uint64_t *last_unk;
};

static struct bpf_src *
bpf_of(const struct source *s)
{
	return s->priv;
}

/* libbpf's messages: the last one kept for an error (the open says it). */
static char last_msg[256];

static int
libbpf_say(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	char buf[sizeof last_msg];
	size_t n;

	if (level == LIBBPF_DEBUG)
		return 0;
	vsnprintf(buf, sizeof buf, fmt, ap);
	n = strlen(buf);
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	if (n > 0)
		memcpy(last_msg, buf, n + 1);
	return 0;
}

/* Visit every selected online CPU (source_visit_cpus): its task is
 * switched out and in again, so the program sees what runs there. */
static void
visit_cpus(const struct bpf_src *bs)
{
	const struct topology *t = &bs->src.m->topo;
	unsigned cpu;

	for (cpu = 0; cpu < t->max_cpu; cpu++)
		bs->visit[cpu] = t->cpus[cpu].present && bs->online[cpu] &&
		    source_cpu_selected(&bs->src, cpu);
	source_visit_cpus(bs->visit, t->max_cpu);
}

static int
cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* Tell the job of every process of the last scan that is not in this
 * one (both sorted), then keep this one as the last. */
static void
job_gone(struct bpf_src *bs)
{
	size_t i = 0, j = 0;
	uint32_t *t;

	qsort(bs->pids, bs->npids, sizeof *bs->pids, cmp_u32);
	for (; i < bs->nprev; i++) {
		while (j < bs->npids && bs->pids[j] < bs->prev[i])
			j++;
		if ((j == bs->npids || bs->pids[j] != bs->prev[i]) && bs->job.exit != NULL)
			bs->job.exit(bs->job.ctx, bs->prev[i], bs->prev[i]);
	}
	t = bs->prev;
	bs->prev = bs->pids;
	bs->pids = t;
	bs->nprev = bs->npids;
}

/* The job's processes now in /proc, asked of the job (its cache reads
 * /proc once per new process), added to the program's map; the program
 * follows their forks from then on. */
static void
job_scan(struct bpf_src *bs)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	__u8 one = 1;
	char *end;
	unsigned long pid;
	__u32 key;

	bs->prev_fail = bs->scan_fail;
	bs->scan_fail = 0;
	if (d == NULL)
		return;
	bs->npids = 0;
	while ((de = readdir(d)) != NULL) {
		pid = strtoul(de->d_name, &end, 10);
		if (*end != '\0' || pid == 0 || pid > UINT32_MAX)
			continue;
		key = (__u32)pid;
		if (bs->npids == bs->cap) {
			bs->cap = bs->cap ? 2 * bs->cap : 1024;
			bs->pids = xrealloc(bs->pids, bs->cap * sizeof *bs->pids);
			bs->prev = xrealloc(bs->prev, bs->cap * sizeof *bs->prev);
		}
		bs->pids[bs->npids++] = key;
		if (!bs->job.is(bs->job.ctx, key, key))
			continue;
		if (bpf_map_update_elem(bs->job_fd, &key, &one, BPF_NOEXIST) == 0)
			bs->job_added++;
		else if (errno != EEXIST)
			bs->scan_fail++;   /* E2BIG: full; ENOMEM */
	}
	closedir(d);
	job_gone(bs);
}

/* Each selected CPU's slot in the program's map (0 for the others), and
 * every core's counts from t0 with its threads' states unknown. */
static int
set_maps(struct bpf_src *bs, uint64_t t0, struct errmsg *e)
{
	const struct topology *t = &bs->src.m->topo;
	struct bpf_core c;
	unsigned ci, th, cpu;
	__u32 key, slot;

	for (cpu = 0; cpu < t->max_cpu; cpu++) {
		key = cpu;
		slot = 0;
		if (bpf_map_update_elem(bs->slot_fd, &key, &slot, BPF_ANY) != 0)
			return errmsg_set(e, _("bpf: cannot set CPU %u's slot: %s"), cpu,
			    strerror(errno));
	}
	for (ci = 0; ci < bs->ncores; ci++) {
		bpf_core_init(&c, t->cores[ci].nthreads, t0);
		key = ci;
		if (bpf_map_update_elem(bs->cores_fd, &key, &c, BPF_ANY) != 0)
			return errmsg_set(e, _("bpf: cannot set core %u's counts: %s"), ci,
			    strerror(errno));
		bs->snap[ci] = c;
		for (th = 0; th < t->cores[ci].nthreads; th++) {
			cpu = t->cores[ci].cpus[th];
			if (!source_cpu_selected(&bs->src, cpu))
				continue;
			key = cpu;
			slot = BPF_SLOT(ci, th);
			(void)bpf_map_update_elem(bs->slot_fd, &key, &slot, BPF_ANY);
		}
	}
	return 0;
}

static int
bpf_program(struct source *s, const struct plan *p, bool force, struct errmsg *e)
{
	struct bpf_src *bs = bpf_of(s);

	(void)p;
	(void)force;
	if (bs->open)
		return 0;
	if (bs->has_job && bs->job_cgid == 0)
		job_scan(bs);
	bs->last_cut = (uint64_t)clock_mono_ns();
	if (set_maps(bs, bs->last_cut, e) != 0)
		return -1;
	visit_cpus(bs);
	bs->open = true;
	return 0;
}

static void
fill_row(const struct bpf_src *bs, const struct bpf_core *k, unsigned th, uint64_t *row,
    unsigned nslots)
{
	const struct plan *p = bs->src.plan;
	unsigned j;

	for (j = 0; j < nslots && p != NULL && j < p->nslots; j++) {
		switch (p->slots[j].kind) {
		case SLOT_TSC: row[j] = k->at; break;
		case SLOT_REF: row[j] = k->ref[th]; break;
		case SLOT_ANY: row[j] = th == 0 ? k->any : 0; break;
		case SLOT_JOB: row[j] = k->job_ns[th]; break;
		case SLOT_JOB_BOTH: row[j] = th == 0 ? k->job_both : 0; break;
		case SLOT_JOB_ALONE: row[j] = th == 0 ? k->job_alone : 0; break;
		case SLOT_JOB_SHARED: row[j] = th == 0 ? k->job_shared : 0; break;
		default: row[j] = 0; break;
		}
	}
}

/* Which CPUs are online now (/sys/devices/system/cpu/online, "0-3,5"),
 * into bs->online; unchanged when the file cannot be read. */
static void
read_online(struct bpf_src *bs)
{
	unsigned max = bs->src.m->topo.max_cpu;
	char buf[4096], *p = buf, *end;
	unsigned long a, b, i;
	FILE *fp = fopen("/sys/devices/system/cpu/online", "re");
	size_t n = 0;

	if (fp != NULL) {
		n = fread(buf, 1, sizeof buf - 1, fp);
		fclose(fp);
	}
	if (n == 0)
		return;
	buf[n] = '\0';
	memset(bs->online, 0, max * sizeof *bs->online);
	while (*p >= '0' && *p <= '9') {
		a = b = strtoul(p, &end, 10);
		if (*end == '-')
			b = strtoul(end + 1, &end, 10);
		for (i = a; i <= b && i < max; i++)
			bs->online[i] = true;
		p = *end == ',' ? end + 1 : end;
	}
}

/* One CPU's state in a read of core k (copied, brought up to the cut);
 * len: the interval's ns. Thread th's counts whose task was not known
 * for more than SCHED_SILENT_TOL of the interval (a switch unseen, its
 * moment not known: bpf_core.h) make it unsure, said. */
static uint8_t
cpu_state(struct bpf_src *bs, const struct bpf_core *k, unsigned ci, unsigned th, unsigned cpu,
    uint64_t len)
{
	uint64_t *last = &bs->last_unk[ci * BPF_CORE_SMT + th], unk = k->unk[th] - *last;
	char *ev = bs->src.events;
	size_t n = strlen(ev);

	*last = k->unk[th];
	if (!bs->online[cpu])
		return CPU_OFFLINE;
	if (!(k->known & (1u << th))) {
		snprintf(ev + n, sizeof bs->src.events - n, "%scpu %u: what ran was not known "
		    "(no switch since the program was loaded)", n ? "; " : "", cpu);
		return CPU_LOST;
	}
	if ((double)unk <= SCHED_SILENT_TOL * (double)len)
		return CPU_READ_OK;
	snprintf(ev + n, sizeof bs->src.events - n, "%scpu %u: a switch the kernel ran no "
	    "program for (out of a task hidden from tracing) came at a moment not known: up to "
	    "%.1f ms of this interval may be counted as the wrong one of the two tasks",
	    n ? "; " : "", cpu,
	    (double)unk / 1e6);
	return CPU_LOST;
}

static void
read_core(struct bpf_src *bs, unsigned ci, uint64_t cut, uint64_t len, struct sample *out)
{
	const struct topology *t = &bs->src.m->topo;
	struct bpf_core *k = &bs->snap[ci];
	unsigned th, cpu;

	/* A span the program had still to recount when copied: recounted
	 * here as it will be (bpf_core_settle). */
	for (th = 0; th < BPF_CORE_SMT; th++)
		bpf_core_settle(k, th);
	bpf_core_advance(k, cut);
	for (th = 0; th < t->cores[ci].nthreads && th < BPF_CORE_SMT; th++) {
		cpu = t->cores[ci].cpus[th];
		if (cpu >= out->max_cpu)
			continue;
		out->scaled[cpu] = 0;
		out->err[cpu] = 0;
		if (!t->cpus[cpu].present || !source_cpu_selected(&bs->src, cpu)) {
			out->state[cpu] = CPU_NOT_READ;
			memset(sample_row(out, cpu), 0, out->nslots * sizeof(uint64_t));
			continue;
		}
		out->state[cpu] = cpu_state(bs, k, ci, th, cpu, len);
		if (out->state[cpu] == CPU_OFFLINE)
			out->err[cpu] = ENXIO;
		fill_row(bs, k, th, sample_row(out, cpu), out->nslots);
	}
}

/* Did a process of the job go untracked in the interval ending now: the
 * program's count moved, or httop's scan could not add one (this one: it
 * ran in the interval unseen; the last one: it still may have)? Said
 * once in the events. */
static void
job_untracked(struct bpf_src *bs)
{
	uint64_t k = bs->skel->bss->job_untracked;
	char *ev = bs->src.events;
	size_t n = strlen(ev);

	bs->user_untracked += bs->scan_fail;
	bs->src.job_untracked = k != bs->kern_untracked || bs->scan_fail > 0 ||
	    bs->prev_fail > 0;
	bs->kern_untracked = k;
	if (!bs->src.job_untracked || bs->untracked_said)
		return;
	bs->untracked_said = true;
	snprintf(ev + n, sizeof bs->src.events - n, _("%sthe job has more processes than the bpf "
	    "source tracks (%u): its own figures are absent in every interval where one of them "
	    "was not tracked"), n > 0 ? "; " : "", bs->job_max);
}

static int
bpf_read(struct source *s, struct sample *out, struct errmsg *e)
{
	struct bpf_src *bs = bpf_of(s);
	uint64_t cut;
	unsigned ci;

	if (!bs->open)
		return errmsg_set(e, _("internal error: the bpf source was read before it was "
		    "programmed"));
	if (bs->has_job && bs->job_cgid == 0)
		job_scan(bs);
	/* Every CPU visited before the copies: its task is switched out and
	 * in again, so the program's state of each thread is what runs there
	 * now. A switch out of a task the kernel runs no program for went
	 * unseen (bpf_core.h): the visit places it at the latest here, so an
	 * interval never ends on a state that is not so. A job by cgroup is
	 * asked at each switch: a task moved in or out while it runs alone on
	 * its CPU (no switch for seconds) is asked again at the visit, so a
	 * move counts from the refresh after it at the latest. */
	visit_cpus(bs);
	s->events[0] = '\0';
	for (ci = 0; ci < bs->ncores; ci++) {
		__u32 key = ci;

		/* A core whose copy fails keeps its last counts (its threads'
		 * figures then say nothing more for the interval: not known). */
		if (bpf_map_lookup_elem_flags(bs->cores_fd, &key, &bs->snap[ci], BPF_F_LOCK) != 0)
			bs->snap[ci].known = 0;
	}
	/* The cut after every copy: no copy's counts go past it. */
	cut = (uint64_t)clock_mono_ns();
	read_online(bs);
	for (ci = 0; ci < bs->ncores; ci++)
		read_core(bs, ci, cut, cut > bs->last_cut ? cut - bs->last_cut : 0, out);
	bs->last_cut = cut;
	if (bs->has_job && bs->job_cgid == 0)
		job_untracked(bs);
	out->time = (double)cut / 1e9 - bs->start;
	out->wall = clock_wall() - (double)((uint64_t)clock_mono_ns() - cut) / 1e9;
	out->seq = bs->seq++;
	return 0;
}

static void
bpf_close(struct source *s)
{
	struct bpf_src *bs = bpf_of(s);

	if (bs->skel != NULL)
		httop_bpf__destroy(bs->skel);
	free(bs->snap);
	free(bs->online);
	free(bs->visit);
	free(bs->last_unk);
	free(bs->pids);
	free(bs->prev);
	free(bs);
}

static void
bpf_stats(const struct source *s, char *buf, size_t len)
{
	const struct bpf_src *bs = bpf_of(s);
	uint64_t sw = 0, unseen = 0, rec = 0;
	unsigned ci;

	for (ci = 0; ci < bs->ncores; ci++) {
		sw += bs->snap[ci].switches;
		unseen += bs->snap[ci].unseen;
		rec += bs->snap[ci].recounted;
	}
	snprintf(buf, len, "switches=%llu lost=0 unseen=%llu recounted=%llu job_added=%llu "
	    "job_untracked=%llu job_cgid=%llu", (unsigned long long)sw,
	    (unsigned long long)unseen, (unsigned long long)rec,
	    (unsigned long long)bs->job_added,
	    (unsigned long long)(bs->user_untracked + bs->kern_untracked),
	    (unsigned long long)bs->job_cgid);
}

static const struct source_ops bpf_ops = {
	.program = bpf_program,
	.read = bpf_read,
	.close = bpf_close,
	.stats = bpf_stats,
};

#ifndef CAP_BPF
#define CAP_BPF 39  /* Linux 5.8; older headers lack it */
#endif
#ifndef CAP_PERFMON
#define CAP_PERFMON 38
#endif

/* Whether this process holds, effective, what the kernel asks of a
 * tracing program: CAP_BPF and CAP_PERFMON, or CAP_SYS_ADMIN. */
static bool
bpf_caps_held(void)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];
	uint64_t eff, both = 1ull << CAP_BPF | 1ull << CAP_PERFMON;

	memset(d, 0, sizeof d);
	if (syscall(SYS_capget, &h, d) != 0)
		return false;
	eff = (uint64_t)d[1].effective << 32 | d[0].effective;
	return (eff & both) == both || (eff & 1ull << CAP_SYS_ADMIN) != 0;
}

/* Why the kernel refused the program, with the fix: a privilege held
 * and refused all the same (a security module, lockdown), one the exec
 * gave and httop gave up by design before it opened a source (httop(1),
 * PRIVILEGE), or none. */
static int
refused_error(int err, struct errmsg *e)
{
	if (bpf_caps_held())
		return errmsg_set(e, _("bpf: the kernel refused the program (%s) although httop "
		    "holds CAP_BPF and CAP_PERFMON or CAP_SYS_ADMIN: a security module (SELinux, "
		    "AppArmor) or lockdown forbids it; ask the administrator, or use --source "
		    "sched"), strerror(err));
	if (getauxval(AT_SECURE) != 0)
		return errmsg_set(e, _("bpf: the kernel refused the program (%s): it needs "
		    "CAP_BPF and CAP_PERFMON when it loads, and httop, installed set-ID or with "
		    "file capabilities, gives its privilege up before it opens a source (httop(1), "
		    "PRIVILEGE); run httop as root or with CAP_BPF and CAP_PERFMON as ambient "
		    "capabilities (setpriv --inh-caps +bpf,+perfmon --ambient-caps +bpf,+perfmon), "
		    "not file capabilities; --source sched needs only CAP_PERFMON or "
		    "perf_event_paranoid <= 0"), strerror(err));
	return errmsg_set(e, _("bpf: the kernel refused the program (%s): it needs CAP_BPF and "
	    "CAP_PERFMON, or root, when httop starts: run httop as root or with them as ambient "
	    "capabilities (setpriv --inh-caps +bpf,+perfmon --ambient-caps +bpf,+perfmon), not "
	    "file capabilities (httop(1), PRIVILEGE); --source sched needs only CAP_PERFMON or "
	    "perf_event_paranoid <= 0"), strerror(err));
}

/* Why the load failed, with the fix. */
static int
load_error(int err, struct errmsg *e)
{
	if (err == EPERM || err == EACCES)
		return refused_error(err, e);
	return errmsg_set(e, _("bpf: the program did not load (%s%s%s): the kernel needs BPF "
	    "with BTF (/sys/kernel/btf/vmlinux, Linux 5.11 or later); --source sched works "
	    "without"), strerror(err), last_msg[0] ? ": " : "", last_msg);
}

/* The size of the job's map: BPF_JOB_PROCS_MAX, or for the tests
 * HTTOP_TEST_BPF_JOB_MAX (1 to it), which a set-ID or file-capability
 * httop never reads (secure_getenv). */
static unsigned
job_max(void)
{
	const char *v = secure_getenv("HTTOP_TEST_BPF_JOB_MAX");
	unsigned long n;
	char *end;

	if (v == NULL)
		return BPF_JOB_PROCS_MAX;
	n = strtoul(v, &end, 10);
	return *end == '\0' && end != v && n >= 1 && n <= BPF_JOB_PROCS_MAX ? (unsigned)n :
	    BPF_JOB_PROCS_MAX;
}

/* The ID of the job's cgroup directory (its inode number: the kernel's
 * cgroup ID) when it is cgroup v2's or the v1 cpuset hierarchy's
 * (*cpuset), which the program can ask of a task; else 0 (or dir NULL):
 * the job is then followed by its processes (job_procs). */
static uint64_t
cgroup_id(const char *dir, bool *cpuset)
{
	char path[4096];
	struct statfs sf;
	struct stat st;
	const char *p;
	unsigned depth = 0;

	*cpuset = false;
	for (p = dir; p != NULL && *p != '\0'; p++)
		depth += *p == '/';
	/* The program looks 64 levels down (switch.bpf.c, JOB_CG_DEPTH): the
	 * path's slashes, the mount point's with them, are more than its
	 * level. */
	if (depth >= 64)
		return 0;
	if (dir == NULL || statfs(dir, &sf) != 0 || stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
		return 0;
	if (sf.f_type == CGROUP2_SUPER_MAGIC)
		return (uint64_t)st.st_ino;
	snprintf(path, sizeof path, "%s/cpuset.cpus", dir);
	if (sf.f_type != CGROUP_SUPER_MAGIC || access(path, F_OK) != 0)
		return 0;
	*cpuset = true;
	return (uint64_t)st.st_ino;
}

static int
load(struct bpf_src *bs, const struct machine *m, struct errmsg *e)
{
	int err;

	last_msg[0] = '\0';
	libbpf_set_print(libbpf_say);
	if ((bs->skel = httop_bpf__open()) == NULL)
		return load_error(errno, e);
	bs->skel->rodata->job_on = bs->has_job;
	bs->skel->rodata->job_cgid = bs->job_cgid;
	bs->skel->rodata->job_cg_cpuset = bs->job_cg_cpuset;
	if ((err = bpf_map__set_max_entries(bs->skel->maps.cpu_slot, m->topo.max_cpu)) != 0 ||
	    (err = bpf_map__set_max_entries(bs->skel->maps.cores, bs->ncores)) != 0 ||
	    (err = bpf_map__set_max_entries(bs->skel->maps.job_procs,
	    bs->job_max = job_max())) != 0)
		return load_error(-err, e);
	if ((err = httop_bpf__load(bs->skel)) != 0)
		return load_error(-err, e);
	bs->cores_fd = bpf_map__fd(bs->skel->maps.cores);
	bs->slot_fd = bpf_map__fd(bs->skel->maps.cpu_slot);
	bs->job_fd = bpf_map__fd(bs->skel->maps.job_procs);
	/* Nothing counted until program() fills the slots. */
	if ((err = httop_bpf__attach(bs->skel)) != 0)
		return load_error(-err, e);
	return 0;
}

static struct source *
open_src(struct machine *m, struct plan *plan, const struct sched_job *job, struct errmsg *e)
{
	struct bpf_src *bs;
	unsigned ci;

	for (ci = 0; ci < m->topo.ncores; ci++) {
		if (m->topo.cores[ci].nthreads > BPF_CORE_SMT) {
			errmsg_set(e, _("bpf: core %u has %u threads; the program counts at most %u"),
			    ci, m->topo.cores[ci].nthreads, BPF_CORE_SMT);
			return NULL;
		}
	}
	if (m->topo.ncores == 0 || m->topo.max_cpu == 0) {
		errmsg_set(e, _("bpf: the topology has no CPU"));
		return NULL;
	}
	bs = xcalloc(1, sizeof *bs);
	bs->src.ops = &bpf_ops;
	bs->src.priv = bs;
	bs->src.name = "bpf";
	bs->src.own_cpus = true;
	bs->src.force_moot = N_("the bpf source reads no counter");
	bs->src.m = m;
	if (job != NULL) {
		bs->job = *job;
		bs->has_job = true;
		bs->job_cgid = cgroup_id(job->cgroup_dir, &bs->job_cg_cpuset);
	}
	bs->ncores = m->topo.ncores;
	bs->snap = xcalloc(bs->ncores, sizeof *bs->snap);
	bs->online = xcalloc(m->topo.max_cpu, sizeof *bs->online);
	bs->visit = xcalloc(m->topo.max_cpu, sizeof *bs->visit);
	bs->last_unk = xcalloc((size_t)bs->ncores * BPF_CORE_SMT, sizeof *bs->last_unk);
	for (ci = 0; ci < m->topo.max_cpu; ci++)
		bs->online[ci] = m->topo.cpus[ci].online;
	bs->start = clock_mono();
	if (load(bs, m, e) != 0) {
		bpf_close(&bs->src);
		return NULL;
	}
	sched_plan(plan, m);
	if (bs->has_job)
		sched_plan_job(plan);
	snprintf(plan->summary, sizeof plan->summary, "scheduler: context switches per CPU "
	    "counted in the kernel (eBPF), %s; no counters (no CPI, no GHz)",
	    plan->split == SPLIT_ANY ? "the split from each core's threads" : "no SMT split");
	return &bs->src;
}

uint64_t
bpf_source_cut(const struct source *s)
{
	return bpf_of(s)->last_cut;
}

#else /* !HAVE_BPF */

uint64_t
bpf_source_cut(const struct source *s)
{
	(void)s;
	return 0;
}

static struct source *
open_src(struct machine *m, struct plan *plan, const struct sched_job *job, struct errmsg *e)
{
	(void)m;
	(void)plan;
	(void)job;
	errmsg_set(e, _("bpf: this httop was built without the bpf source: %s; --source sched "
	    "gives the same figures"), BPF_WHY_OFF);
	return NULL;
}

#endif

struct source *
bpf_source_open(struct machine *m, struct plan *plan, struct errmsg *e)
{
	return open_src(m, plan, NULL, e);
}

struct source *
bpf_source_open_job(struct machine *m, struct plan *plan, const struct sched_job *job,
    struct errmsg *e)
{
	return open_src(m, plan, job, e);
}
