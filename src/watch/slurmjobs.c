/* slurmjobs.c: the Slurm job of each CPU, from the job cgroups
 * (slurmjobs.h). */
#include "config.h"
#include "watch/slurmjobs.h"

#include <fcntl.h>
#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/cpulist.h"
#include "util/xalloc.h"

/* A cpuset file is one line; more than this is not one. */
#define CPUSET_MAX 8192

void
slurm_cpu_jobs_init(struct slurm_cpu_jobs *j, unsigned max_cpu)
{
	j->max_cpu = max_cpu;
	j->job = xcalloc(max_cpu > 0 ? max_cpu : 1, sizeof *j->job);
	j->njobs = 0;
}

void
slurm_cpu_jobs_free(struct slurm_cpu_jobs *j)
{
	free(j->job);
	memset(j, 0, sizeof *j);
}

/* "job_1234" or "job_1234_5": the id, else NULL. */
static const char *
job_id(const char *dir)
{
	const char *base = strrchr(dir, '/');

	base = base != NULL ? base + 1 : dir;
	if (strncmp(base, "job_", 4) != 0)
		return NULL;
	base += 4;
	if (base[0] < '0' || base[0] > '9' || strspn(base, "0123456789_") != strlen(base) ||
	    strlen(base) >= SLURM_ID_MAX)
		return NULL;
	return base;
}

/* The first of the cpuset files in `dir` that reads: NUL-terminated in
 * buf, else -1. A regular file only, opened without blocking. */
static int
read_cpuset(const char *dir, char *buf, size_t len)
{
	static const char *const names[] = { "cpuset.cpus.effective", "cpuset.effective_cpus",
	    "cpuset.cpus" };
	char path[PATH_MAX];
	struct stat st;
	size_t i;
	ssize_t n;
	int fd;

	for (i = 0; i < sizeof names / sizeof names[0]; i++) {
		snprintf(path, sizeof path, "%s/%s", dir, names[i]);
		fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
		if (fd < 0)
			continue;
		if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
			close(fd);
			continue;
		}
		n = read(fd, buf, len - 1);
		close(fd);
		if (n <= 0)
			continue;
		buf[n] = '\0';
		buf[strcspn(buf, "\n")] = '\0';
		if (buf[0] != '\0')
			return 0;
	}
	return -1;
}

/* One job's cgroup: its CPUs get its id. */
static void
add_job(struct slurm_cpu_jobs *j, const char *dir, const char *id)
{
	char buf[CPUSET_MAX];
	struct cpulist l = { 0, NULL };
	struct errmsg e;
	unsigned cpu;

	if (read_cpuset(dir, buf, sizeof buf) != 0 || cpulist_parse(buf, &l, &e) != 0)
		return;
	j->njobs++;
	for (cpu = 0; cpu < j->max_cpu; cpu++)
		if (cpulist_has(&l, cpu) && j->job[cpu][0] == '\0')
			snprintf(j->job[cpu], sizeof j->job[cpu], "%s", id);
	cpulist_free(&l);
}

void
slurm_cpu_jobs_scan(struct slurm_cpu_jobs *j, const char *cgroup_root)
{
	static const char *const forms[] = {
		"%s/system.slice/slurmstepd.scope/job_*",        /* cgroup/v2 */
		"%s/system.slice/*_slurmstepd.scope/job_*",
		"%s/*cpuset*/slurm/uid_*/job_*",                 /* cgroup/v1 */
		"%s/*cpuset*/slurm_*/uid_*/job_*",
	};
	const char *root = cgroup_root != NULL ? cgroup_root : "/sys/fs/cgroup";
	char pattern[PATH_MAX];
	const char *id;
	size_t i, k;
	glob_t g;

	memset(j->job, 0, (j->max_cpu > 0 ? j->max_cpu : 1) * sizeof *j->job);
	j->njobs = 0;
	for (i = 0; i < sizeof forms / sizeof forms[0]; i++) {
		snprintf(pattern, sizeof pattern, forms[i], root);
		if (glob(pattern, GLOB_NOSORT | GLOB_ONLYDIR, NULL, &g) != 0)
			continue;
		for (k = 0; k < g.gl_pathc; k++)
			if ((id = job_id(g.gl_pathv[k])) != NULL)
				add_job(j, g.gl_pathv[k], id);
		globfree(&g);
	}
}
