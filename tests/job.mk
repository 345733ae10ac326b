# tests for a job on this node (--job, Slurm) and a command's run
# (httop -- COMMAND)
JOB_TESTS = tests/cli/test_slurm.sh tests/cli/test_command.sh tests/cli/test_command_msr.sh \
	tests/cli/test_command_priv.sh
TESTS += $(JOB_TESTS)
EXTRA_DIST += $(JOB_TESTS)
