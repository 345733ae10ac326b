# tests for a job on this node (--job, Slurm) and a command's run
# (httop -- COMMAND)
JOB_TESTS = tests/cli/test_slurm.sh tests/cli/test_slurm_acct.sh tests/cli/test_acct_record.sh tests/cli/test_command.sh tests/cli/test_command_msr.sh \
	tests/cli/test_command_priv.sh tests/cli/test_command_short.sh tests/tui/test_command_hangup.sh \
	tests/cli/test_job_scope.sh tests/cli/test_runsum_width.sh tests/cli/test_command_stderr.sh \
	tests/cli/test_job_absent.sh tests/cli/test_job_counters.sh
TESTS += $(JOB_TESTS)
EXTRA_DIST += $(JOB_TESTS) tests/slurmlib.sh
# --job: scontrol's recorded outputs parsed, and the job found with a
# stand-in scontrol over fake cgroup trees
check_PROGRAMS += tests/unit/test_slurm
tests_unit_test_slurm_SOURCES = tests/unit/test_slurm.c
tests_unit_test_slurm_CFLAGS = $(TEST_CFLAGS) -I$(top_srcdir)/tests
tests_unit_test_slurm_LDADD = $(TEST_LIBS)
TESTS += tests/unit/test_slurm
# a job's summary in Slurm's accounting: the compact form written, parsed,
# merged and combined
check_PROGRAMS += tests/unit/test_acct
tests_unit_test_acct_SOURCES = tests/unit/test_acct.c
tests_unit_test_acct_CFLAGS = $(TEST_CFLAGS) -I$(top_srcdir)/tests
tests_unit_test_acct_LDADD = $(TEST_LIBS)
TESTS += tests/unit/test_acct
EXTRA_DIST += tests/data/slurm/README \
	tests/data/slurm/show-job-running.txt tests/data/slurm/show-job-array-task.txt \
	tests/data/slurm/show-job-pending.txt tests/data/slurm/show-job-array.txt \
	tests/data/slurm/show-job-invalid.txt tests/data/slurm/show-job-noctld.txt \
	tests/data/slurm/listpids-none.txt tests/data/slurm/listpids-none.err \
	tests/data/slurm/listpids-one.txt tests/data/slurm/listpids-two.txt \
	tests/data/slurm/listpids-job.txt tests/data/slurm/listpids-invalid.txt \
	tests/data/slurm/listpids-invalid.err
