/* slurmjobs.h: the Slurm job each CPU belongs to now, from the job
 * cgroups Slurm's cgroup plugins make (the forms slurm.h lists: v2
 * system.slice/slurmstepd.scope/job_ID, v1 CPUSET/slurm/uid_U/job_ID and
 * the several-slurmd forms), each job's cpuset read. For the node
 * exporter's textfile of an httop that watches the whole node: which
 * job's cores are which (httop_core_slurm_job_info). Read again at every
 * refresh: jobs come and go. */
#ifndef HTTOP_SLURMJOBS_H
#define HTTOP_SLURMJOBS_H

#include "watch/slurm.h"

struct slurm_cpu_jobs {
	unsigned max_cpu;
	char (*job)[SLURM_ID_MAX];  /* per CPU: the job's id, or "" */
	unsigned njobs;             /* jobs found in the last scan */
};

/* Sized for CPUs 0..max_cpu-1. */
void slurm_cpu_jobs_init(struct slurm_cpu_jobs *j, unsigned max_cpu);
void slurm_cpu_jobs_free(struct slurm_cpu_jobs *j);
/* Scan the cgroups under `cgroup_root` (NULL: /sys/fs/cgroup). A
 * directory whose name is not job_ followed by digits (and _ for an array
 * task or a het component) is not a job; a cpuset that cannot be read or
 * parsed gives its job no CPU. A CPU in two jobs' cpusets (overlapping
 * cgroups) keeps the first found. */
void slurm_cpu_jobs_scan(struct slurm_cpu_jobs *j, const char *cgroup_root);

#endif
