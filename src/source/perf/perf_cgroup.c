/* perf_cgroup.c: one cgroup's counts per CPU from perf's cgroup events
 * (perf_cgroup.h). */
#include "config.h"
#include "source/perf/perf_cgroup.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/i18n.h"
#include "util/xalloc.h"

struct perf_cgroup {
	struct perf_sys *sys;
	int dirfd;
	unsigned n;                /* events per group */
	unsigned ncpu;             /* groups */
	int *fd;                   /* ncpu x n, -1 where not open */
};

static const struct {
	uint32_t type;
	uint64_t config;
	const char *name;
} events[PERF_CG_NEVENTS] = {
	[PERF_CG_INST] = { PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, "instructions" },
	[PERF_CG_CYCLES] = { PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, "cycles" },
	[PERF_CG_REF] = { PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES, "ref-cycles" },
	[PERF_CG_TASK_CLOCK] = { PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, "task-clock" },
};

const char *
perf_cg_event_name(enum perf_cg_event ev)
{
	return (unsigned)ev < PERF_CG_NEVENTS ? events[ev].name : "?";
}

void
perf_cgroup_close(struct perf_cgroup *pc)
{
	unsigned i;

	if (pc == NULL)
		return;
	/* Members before their leader. */
	for (i = pc->ncpu * pc->n; i-- > 0;)
		if (pc->fd[i] >= 0)
			pc->sys->close(pc->sys, pc->fd[i]);
	if (pc->dirfd >= 0)
		close(pc->dirfd);
	free(pc->fd);
	free(pc);
}

static void
attr_of(struct perf_event_attr *a, enum perf_cg_event ev)
{
	memset(a, 0, sizeof *a);
	a->size = sizeof *a;
	a->type = events[ev].type;
	a->config = events[ev].config;
	a->read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
	    PERF_FORMAT_TOTAL_TIME_RUNNING;
	/* Enabled from its open (disabled 0): the members count with their
	 * leader. */
}

/* The group of CPU `cpu` (slot k): 0, or -errno with the event refused. */
static int
open_group(struct perf_cgroup *pc, const enum perf_cg_event *ev, unsigned k, unsigned cpu,
    unsigned *bad)
{
	struct perf_event_attr a;
	unsigned i;
	int fd;

	for (i = 0; i < pc->n; i++) {
		attr_of(&a, ev[i]);
		fd = pc->sys->open_cgroup(pc->sys, &a, pc->dirfd, (int)cpu,
		    i == 0 ? -1 : pc->fd[k * pc->n]);
		if (fd < 0) {
			*bad = i;
			return fd;
		}
		pc->fd[k * pc->n + i] = fd;
	}
	return 0;
}

struct perf_cgroup *
perf_cgroup_open(struct perf_sys *sys, const char *dir, const struct cpulist *cpus,
    const enum perf_cg_event *ev, unsigned n, struct errmsg *e)
{
	struct perf_cgroup *pc;
	unsigned cpu, k = 0, bad = 0, i;
	int rc;

	if (n == 0 || n > PERF_CG_MAX)
		return errmsg_set(e, "perf_cgroup_open: %u events", n), NULL;
	if (sys->open_cgroup == NULL)
		return errmsg_set(e, _("cgroup events refused: %s (the kernel has no perf "
		    "events)"), strerror(EOPNOTSUPP)), NULL;
	pc = xcalloc(1, sizeof *pc);
	pc->sys = sys;
	pc->n = n;
	pc->dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (pc->dirfd < 0) {
		errmsg_set(e, _("cgroup events: cannot open the cgroup %s: %s"), dir,
		    strerror(errno));
		perf_cgroup_close(pc);
		return NULL;
	}
	for (cpu = 0; cpu < cpus->n; cpu++)
		pc->ncpu += cpus->has[cpu];
	pc->fd = xcalloc(pc->ncpu ? pc->ncpu * n : 1, sizeof *pc->fd);
	for (i = 0; i < pc->ncpu * n; i++)
		pc->fd[i] = -1;
	for (cpu = 0; cpu < cpus->n; cpu++) {
		if (!cpus->has[cpu])
			continue;
		if ((rc = open_group(pc, ev, k, cpu, &bad)) < 0) {
			errmsg_set(e, _("cgroup events refused: %s (CPU %u, %s)"), strerror(-rc), cpu,
			    perf_cg_event_name(ev[bad]));
			perf_cgroup_close(pc);
			return NULL;
		}
		k++;
	}
	return pc;
}

int
perf_cgroup_read(struct perf_cgroup *pc, uint64_t *sum, bool *scaled, struct errmsg *e)
{
	/* nr, time_enabled, time_running, then one value per event. */
	uint64_t buf[3 + PERF_CG_MAX];
	size_t want = (3 + pc->n) * sizeof buf[0];
	unsigned k, i;
	ssize_t got;

	memset(sum, 0, pc->n * sizeof *sum);
	*scaled = false;
	for (k = 0; k < pc->ncpu; k++) {
		got = pc->sys->read(pc->sys, pc->fd[k * pc->n], buf, want);
		if (got < 0 || (size_t)got < want || buf[0] != pc->n)
			return errmsg_set(e, _("cgroup events: a read failed: %s"),
			    got < 0 ? strerror((int)-got) : _("short read"));
		/* Enabled but never counted: the PMU was others' all along,
		 * and the count is not known (never taken as 0). */
		if (buf[2] == 0 && buf[1] > 0)
			return errmsg_set(e, _("cgroup events: never counted on a CPU (other "
			    "programs held the counters)"));
		for (i = 0; i < pc->n; i++) {
			uint64_t v = buf[3 + i];

			/* Not counted all the time: scaled up, as perf stat does. */
			if (buf[2] > 0 && buf[2] < buf[1]) {
				v = (uint64_t)((double)v * (double)buf[1] / (double)buf[2]);
				*scaled = true;
			}
			sum[i] += v;
		}
	}
	return 0;
}
