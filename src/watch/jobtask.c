/* jobtask.c: the job's tasks, a cache from task ID to "the job's or not"
 * (jobtask.h). An open-addressing table with linear probing, kept at most
 * half full, deleted from by shifting the entries after back (no
 * tombstones), so a lookup is a few probes whatever came and went. */
#include "config.h"
#include "watch/jobtask.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "source/sched/sched_merge.h"
#include "util/infile.h"
#include "util/xalloc.h"

/* A process tree deeper than this is not followed up (answered "not the
 * job's", counted unresolved). */
#define DEPTH_MAX 64
/* A /proc/PID/stat or /proc/PID/cgroup file: what is needed comes first. */
#define FILE_MAX 4096
/* Entries at most (pid_max is at most 4194304 on Linux). */
#define ENTRIES_MAX (1u << 23)

struct slot {
	uint32_t tid;      /* 0: empty */
	bool job;
	/* By cgroup: the refresh generation whose /proc read gave `job`
	 * (an answer of an earlier one is read again when next asked). */
	uint32_t gen;
};

struct job_tasks {
	char *proc_root;
	pid_t *roots;
	size_t nroots;
	char *cgroup;      /* NULL: by ancestry */
	struct slot *tab;
	size_t cap;        /* a power of two */
	size_t n;
	uint32_t gen;      /* job_tasks_tick's count */
	struct job_tasks_stats st;
	char buf[FILE_MAX];
};

static size_t
hash(uint32_t tid, size_t cap)
{
	return (size_t)(tid * 2654435761u) & (cap - 1);
}

static struct slot *
find(const struct job_tasks *jt, uint32_t tid)
{
	size_t i;

	for (i = hash(tid, jt->cap); jt->tab[i].tid != 0; i = (i + 1) & (jt->cap - 1))
		if (jt->tab[i].tid == tid)
			return &jt->tab[i];
	return NULL;
}

static void put_gen(struct job_tasks *jt, uint32_t tid, bool job, uint32_t gen);

static void
grow(struct job_tasks *jt)
{
	struct slot *old = jt->tab;
	size_t i, oldcap = jt->cap;

	jt->cap *= 2;
	jt->tab = xcalloc(jt->cap, sizeof *jt->tab);
	jt->n = 0;
	for (i = 0; i < oldcap; i++)
		if (old[i].tid != 0)
			put_gen(jt, old[i].tid, old[i].job, old[i].gen);
	free(old);
}

static void
put_gen(struct job_tasks *jt, uint32_t tid, bool job, uint32_t gen)
{
	struct slot *s;
	size_t i;

	if (tid == 0)
		return;
	s = find(jt, tid);
	if (s != NULL) {
		s->job = job;
		s->gen = gen;
		return;
	}
	if (jt->n >= ENTRIES_MAX)
		return;            /* answered again from /proc next time */
	if (2 * (jt->n + 1) > jt->cap)
		grow(jt);
	for (i = hash(tid, jt->cap); jt->tab[i].tid != 0; i = (i + 1) & (jt->cap - 1))
		;
	jt->tab[i].tid = tid;
	jt->tab[i].job = job;
	jt->tab[i].gen = gen;
	jt->n++;
}

/* An answer of this generation. */
static void
put(struct job_tasks *jt, uint32_t tid, bool job)
{
	put_gen(jt, tid, job, jt->gen);
}

/* The entry of tid when its answer still holds: by ancestry always (a
 * process's parents do not change), by cgroup when read in this
 * generation (a process may be moved between cgroups). */
static struct slot *
fresh(const struct job_tasks *jt, uint32_t tid)
{
	struct slot *s = find(jt, tid);

	if (s != NULL && jt->cgroup != NULL && s->gen != jt->gen)
		return NULL;
	return s;
}

/* Remove tid; the entries after it in its run move back where their
 * probe would find them. */
static void
del(struct job_tasks *jt, uint32_t tid)
{
	size_t mask = jt->cap - 1, i, j, h;
	struct slot *s = find(jt, tid);

	if (s == NULL)
		return;
	i = (size_t)(s - jt->tab);
	jt->tab[i].tid = 0;
	jt->n--;
	for (j = (i + 1) & mask; jt->tab[j].tid != 0; j = (j + 1) & mask) {
		h = hash(jt->tab[j].tid, jt->cap);
		/* j's entry may move to the hole at i when its home h is not
		 * cyclically in (i, j]. */
		if ((j > i && (h <= i || h > j)) || (j < i && h <= i && h > j)) {
			jt->tab[i] = jt->tab[j];
			jt->tab[j].tid = 0;
			i = j;
		}
	}
}

struct job_tasks *
job_tasks_new(const char *proc_root, const pid_t *roots, size_t nroots, const char *cgroup)
{
	struct job_tasks *jt;

	if (cgroup != NULL && (cgroup[0] != '/' || cgroup[1] == '\0'))
		return NULL;
	if (cgroup == NULL && nroots == 0)
		return NULL;
	jt = xcalloc(1, sizeof *jt);
	jt->proc_root = xstrdup(proc_root != NULL ? proc_root : "/proc");
	if (cgroup != NULL) {
		size_t len = strlen(cgroup);

		jt->cgroup = xstrdup(cgroup);
		while (len > 1 && jt->cgroup[len - 1] == '/')
			jt->cgroup[--len] = '\0';
	} else {
		jt->roots = xcalloc(nroots, sizeof *roots);
		memcpy(jt->roots, roots, nroots * sizeof *roots);
		jt->nroots = nroots;
	}
	jt->cap = 1024;
	jt->tab = xcalloc(jt->cap, sizeof *jt->tab);
	return jt;
}

/* /proc/PID/name into jt->buf. -1 when it cannot be read (gone). */
static int
read_proc(struct job_tasks *jt, uint32_t pid, const char *name)
{
	char path[4096];
	size_t len = 0;
	ssize_t r;
	int fd;

	snprintf(path, sizeof path, "%s/%u/%s", jt->proc_root, (unsigned)pid, name);
	jt->st.proc_reads++;
	fd = infile_open_regular(path);
	if (fd < 0)
		return -1;
	while (len < sizeof jt->buf - 1) {
		r = read(fd, jt->buf + len, sizeof jt->buf - 1 - len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		len += (size_t)r;
	}
	close(fd);
	jt->buf[len] = '\0';
	return len > 0 ? 0 : -1;
}

/* The parent of process pid from its stat line ("pid (comm) S ppid ..."; the
 * command may hold spaces and parentheses: the last ')' ends it). -1 when
 * it cannot be read. */
static long
read_ppid(struct job_tasks *jt, uint32_t pid)
{
	char *p, *end;
	long ppid;

	if (read_proc(jt, pid, "stat") != 0)
		return -1;
	p = strrchr(jt->buf, ')');
	if (p == NULL || p[1] != ' ' || p[2] == '\0' || p[3] != ' ')
		return -1;
	ppid = strtol(p + 4, &end, 10);
	if (end == p + 4 || *end != ' ' || ppid < 0)
		return -1;
	return ppid;
}

/* Does cgroup path `path` (up to `len`) name the job's cgroup or one below? */
static bool
under(const struct job_tasks *jt, const char *path, size_t len)
{
	size_t cl = strlen(jt->cgroup);

	if (len < cl || memcmp(path, jt->cgroup, cl) != 0)
		return false;
	return len == cl || path[cl] == '/';
}

/* By cgroup: a line "ID:CONTROLLERS:PATH" of /proc/PID/cgroup names the
 * job's. -1 when it cannot be read. */
static int
cgroup_is(struct job_tasks *jt, uint32_t pid)
{
	char *line, *next, *path;

	if (read_proc(jt, pid, "cgroup") != 0)
		return -1;
	for (line = jt->buf; *line != '\0'; line = next) {
		next = strchr(line, '\n');
		if (next == NULL)
			next = line + strlen(line);
		else
			*next++ = '\0';
		path = strchr(line, ':');
		path = path != NULL ? strchr(path + 1, ':') : NULL;
		if (path != NULL && under(jt, path + 1, strlen(path + 1)))
			return 1;
	}
	return 0;
}

static bool
is_root(const struct job_tasks *jt, uint32_t pid)
{
	size_t i;

	for (i = 0; i < jt->nroots; i++)
		if ((uint32_t)jt->roots[i] == pid)
			return true;
	return false;
}

/* By ancestry: process pid is a root or its parent is the job's. */
static bool
ancestry_is(struct job_tasks *jt, uint32_t pid, unsigned depth)
{
	struct slot *s;
	long ppid;
	bool job;

	if (pid == 0)
		return false;
	s = find(jt, pid);
	if (s != NULL)
		return s->job;
	if (is_root(jt, pid)) {
		job = true;
	} else if (pid == 1 || depth >= DEPTH_MAX) {
		job = false;
		if (pid != 1)
			jt->st.unresolved++;
	} else if ((ppid = read_ppid(jt, pid)) < 0) {
		job = false;
		jt->st.unresolved++;
	} else {
		job = ancestry_is(jt, (uint32_t)ppid, depth + 1);
	}
	put(jt, pid, job);
	return job;
}

static bool
process_is(struct job_tasks *jt, uint32_t pid)
{
	struct slot *s;
	int r;

	if (jt->cgroup == NULL)
		return ancestry_is(jt, pid, 0);
	s = fresh(jt, pid);
	if (s != NULL)
		return s->job;
	if (find(jt, pid) != NULL)
		jt->st.rereads++;
	r = cgroup_is(jt, pid);
	if (r < 0)
		jt->st.unresolved++;
	put(jt, pid, r > 0);
	return r > 0;
}

bool
job_tasks_is(struct job_tasks *jt, uint32_t pid, uint32_t tid)
{
	struct slot *s;
	bool job;

	jt->st.lookups++;
	if (tid == 0)
		return false;
	s = fresh(jt, tid);
	if (s != NULL)
		return s->job;
	job = process_is(jt, pid != 0 ? pid : tid);
	put(jt, tid, job);
	return job;
}

void
job_tasks_fork(struct job_tasks *jt, uint32_t ppid, uint32_t pid, uint32_t tid)
{
	struct slot *s;
	uint32_t gen;
	bool job;

	if (tid == 0 || pid == 0)
		return;
	/* A new thread of a process: the process's answer; a new process:
	 * its parent's (a child starts in its parent's cgroup). */
	s = find(jt, pid != tid ? pid : ppid);
	if (s == NULL)
		return;
	/* The parent's answer, as old as it is: read again as the parent's
	 * would be. */
	job = s->job;
	gen = s->gen;
	jt->st.forks++;
	put_gen(jt, pid, job, gen);
	put_gen(jt, tid, job, gen);
}

void
job_tasks_tick(struct job_tasks *jt)
{
	jt->gen++;
}

void
job_tasks_exit(struct job_tasks *jt, uint32_t pid, uint32_t tid)
{
	(void)pid;        /* a process's entry is its main thread's */
	del(jt, tid);
}

void
job_tasks_stats(const struct job_tasks *jt, struct job_tasks_stats *st)
{
	*st = jt->st;
	st->entries = jt->n;
}

/* struct sched_job's callbacks: jt as their void *ctx. */
static bool
sj_is(void *ctx, uint32_t pid, uint32_t tid)
{
	return job_tasks_is(ctx, pid, tid);
}

static void
sj_fork(void *ctx, uint32_t ppid, uint32_t pid, uint32_t tid)
{
	job_tasks_fork(ctx, ppid, pid, tid);
}

static void
sj_exit(void *ctx, uint32_t pid, uint32_t tid)
{
	job_tasks_exit(ctx, pid, tid);
}

static void
sj_tick(void *ctx)
{
	job_tasks_tick(ctx);
}

void
job_tasks_sched_job(struct job_tasks *jt, struct sched_job *j)
{
	j->is = sj_is;
	j->fork = sj_fork;
	j->exit = sj_exit;
	j->tick = sj_tick;
	j->ctx = jt;
}

void
job_tasks_free(struct job_tasks *jt)
{
	if (jt == NULL)
		return;
	free(jt->proc_root);
	free(jt->roots);
	free(jt->cgroup);
	free(jt->tab);
	free(jt);
}
