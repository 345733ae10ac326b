/* test_slurmjobs.c: the Slurm job of each CPU from job cgroups
 * (watch/slurmjobs.h), over a fake tree of each layout built here:
 *   v2  system.slice/slurmstepd.scope/job_12   cpuset.cpus.effective "0-1,4"
 *   v2  system.slice/n2_slurmstepd.scope/job_13_2   "2"
 *   v1  cpuset/slurm/uid_1000/job_14   cpuset.effective_cpus "5"
 *   v2  .../job_15   "3", but also CPU 4 that job 12 has: 4 stays 12's
 *   not jobs: job_x (not a number), job_16 with an empty cpuset, step_0
 * CPUs 0-7: 12 12 13_2 15 12-or-15 14 "" "" (CPU 4: job_12 and job_15
 * are in the same directory, and glob's order with GLOB_NOSORT is not
 * promised). 4 jobs with CPUs (12, 13_2, 14, 15; 16's cpuset is empty). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "unit/testutil.h"

#include "watch/slurmjobs.h"

static char root[64];

static void
put(const char *dir, const char *file, const char *text)
{
	char path[512], cmd[600];
	FILE *fp;

	snprintf(cmd, sizeof cmd, "mkdir -p '%s/%s'", root, dir);
	assert_int_equal(system(cmd), 0);
	if (file == NULL)
		return;
	snprintf(path, sizeof path, "%s/%s/%s", root, dir, file);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
}

static void
test_scan(void **state)
{
	struct slurm_cpu_jobs j;
	char cmd[128];

	(void)state;
	snprintf(root, sizeof root, "/tmp/httop-slurmjobs.XXXXXX");
	assert_non_null(mkdtemp(root));
	put("system.slice/slurmstepd.scope/job_12", "cpuset.cpus.effective", "0-1,4\n");
	put("system.slice/n2_slurmstepd.scope/job_13_2", "cpuset.cpus.effective", "2\n");
	put("cpuset/slurm/uid_1000/job_14", "cpuset.effective_cpus", "5\n");
	put("system.slice/slurmstepd.scope/job_15", "cpuset.cpus.effective", "3-4\n");
	put("system.slice/slurmstepd.scope/job_x", "cpuset.cpus.effective", "6\n");
	put("system.slice/slurmstepd.scope/job_16", "cpuset.cpus.effective", "\n");
	put("system.slice/slurmstepd.scope/step_0", "cpuset.cpus.effective", "7\n");

	slurm_cpu_jobs_init(&j, 8);
	slurm_cpu_jobs_scan(&j, root);
	assert_string_equal(j.job[0], "12");
	assert_string_equal(j.job[1], "12");
	assert_string_equal(j.job[2], "13_2");
	assert_string_equal(j.job[3], "15");
	assert_true(strcmp(j.job[4], "12") == 0 || strcmp(j.job[4], "15") == 0);
	assert_string_equal(j.job[5], "14");
	assert_string_equal(j.job[6], "");
	assert_string_equal(j.job[7], "");
	assert_int_equal(j.njobs, 4);
	/* Job 12 ends: its cgroup goes; the next scan forgets it. */
	snprintf(cmd, sizeof cmd, "rm -rf '%s/system.slice/slurmstepd.scope/job_12'", root);
	assert_int_equal(system(cmd), 0);
	slurm_cpu_jobs_scan(&j, root);
	assert_string_equal(j.job[0], "");
	assert_string_equal(j.job[4], "15");
	assert_int_equal(j.njobs, 3);
	slurm_cpu_jobs_free(&j);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scan),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
