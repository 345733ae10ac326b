/* sched_tasks.c: what the scheduler source reads of tasks in /proc (or
 * the tests' tree): their run time, the base a silent task's is measured
 * from (sched_source.c), their name and process. */
#include "config.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "source/sched/sched_tasks.h"
#include "util/xalloc.h"

int64_t
sched_task_runtime(const char *proc, uint32_t tid)
{
	char path[96], buf[128];
	unsigned long long v;
	int fd = -1;
	ssize_t n;

	snprintf(path, sizeof path, "%s/%u/schedstat", proc, tid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	if (sscanf(buf, "%llu", &v) != 1)
		return -1;
	return (int64_t)v;
}

static int
rt_cmp(const void *a, const void *b)
{
	const struct task_rt *x = a, *y = b;

	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

static void
rt_add(struct task_rts *t, uint32_t tid, uint64_t rt)
{
	if (t->nrt == t->caprt) {
		t->caprt = t->caprt ? 2 * t->caprt : 256;
		t->rt = xrealloc(t->rt, t->caprt * sizeof *t->rt);
	}
	t->rt[t->nrt].tid = tid;
	t->rt[t->nrt++].rt = rt;
}

void
sched_rt_scan(struct task_rts *t, const char *proc)
{
	char path[64];
	DIR *d = opendir(proc), *td;
	struct dirent *e, *te;
	int64_t v;

	t->nrt = 0;
	if (d == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof path, "%.20s/%.20s/task", proc, e->d_name);
		if ((td = opendir(path)) == NULL)
			continue;
		while ((te = readdir(td)) != NULL) {
			uint32_t tid = (uint32_t)strtoul(te->d_name, NULL, 10);

			if (tid != 0 && (v = sched_task_runtime(proc, tid)) >= 0)
				rt_add(t, tid, (uint64_t)v);
		}
		closedir(td);
	}
	closedir(d);
	qsort(t->rt, t->nrt, sizeof *t->rt, rt_cmp);
}

int64_t
sched_rt_since(struct task_rts *t, const char *proc, uint32_t tid)
{
	struct task_rt key = { tid, 0 }, *p;
	int64_t now = sched_task_runtime(proc, tid), d;

	if (now < 0)
		return -1;
	p = bsearch(&key, t->rt, t->nrt, sizeof *t->rt, rt_cmp);
	if (p == NULL) {
		rt_add(t, tid, (uint64_t)now);
		qsort(t->rt, t->nrt, sizeof *t->rt, rt_cmp);
		return now;
	}
	d = now - (int64_t)p->rt;
	p->rt = (uint64_t)now;
	return d > 0 ? d : 0;
}

void
sched_task_comm(const char *proc, uint32_t tid, char *buf, size_t len)
{
	char path[96], raw[32];
	ssize_t n;
	size_t i, o = 0;
	int fd;

	snprintf(path, sizeof path, "%s/%u/comm", proc, tid);
	n = (fd = open(path, O_RDONLY | O_CLOEXEC)) >= 0 ? read(fd, raw, sizeof raw - 1) : -1;
	if (fd >= 0)
		close(fd);
	for (i = 0; n > 0 && i < (size_t)n && raw[i] != '\n' && o + 1 < len; i++)
		buf[o++] = raw[i] >= 0x20 && raw[i] < 0x7f ? raw[i] : '?';
	if (o == 0)
		buf[o++] = '?';
	buf[o] = '\0';
}

uint32_t
sched_task_tgid(const char *proc, uint32_t tid)
{
	char path[96], buf[512], *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof path, "%s/%u/status", proc, tid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return 0;
	n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	if ((p = strstr(buf, "\nTgid:")) == NULL)
		return 0;
	return (uint32_t)strtoul(p + 6, NULL, 10);
}
