# job watching (--pid, --cgroup, --job, a command's processes) and Slurm
libhttop_a_SOURCES += src/watch/job.h src/watch/job.c src/watch/slurm.h src/watch/slurm.c \
	src/watch/slurm_parse.c src/watch/slurmjobs.h src/watch/slurmjobs.c \
	src/watch/jobtask.h src/watch/jobtask.c
