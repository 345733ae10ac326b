/* jobident.h: what names a watched job, from where it is found (watch/)
 * through a recording (a trace's "job" line keeps it) to the outputs
 * (httop_job_info, json's "job", csv's job column, the summaries). Raw
 * text, not escaped: each output escapes it as its format asks. "" where
 * not known. */
#ifndef HTTOP_JOBIDENT_H
#define HTTOP_JOBIDENT_H

struct job_ident {
	char kind[16];             /* "slurm", "cgroup", "pid" or "command" */
	/* the job label: the Slurm job id, else the cgroup or the PIDs as
	 * given (a command's PID); as pid, up to a trace string's length
	 * (TRACE_STR_MAX), so that a recording keeps it whole */
	char id[1000];
	char user[64];             /* Slurm's user name */
	char name[128];            /* Slurm's job name, a command's argv[0] (cut
				    * short at a character's end) */
	char cgroup[256];          /* the cgroup whose cpuset is read */
	/* the PIDs given ("1234,5678"), --pid and a command: an MPI job's
	 * ranks (pgrep -d,) fit; a longer list is none, not a wrong one */
	char pid[1000];
};

#endif
