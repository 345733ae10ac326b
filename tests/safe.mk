# tests for msr-safe, --source auto and privilege: the msr-safe backend
# under the real engine with a fake batch ioctl (unit), the allowlist
# against the plans (unit), giving up privilege (unit, as root), and the
# command line on the fake MSR device (shell).
check_PROGRAMS += tests/unit/test_msr_safe tests/unit/test_privilege
tests_unit_test_msr_safe_SOURCES = tests/unit/test_msr_safe.c
tests_unit_test_msr_safe_CFLAGS = $(TEST_CFLAGS) -I$(top_srcdir)/tests
tests_unit_test_msr_safe_LDADD = $(TEST_LIBS)
TESTS += tests/unit/test_msr_safe

tests_unit_test_privilege_SOURCES = tests/unit/test_privilege.c src/sys/privilege.c
tests_unit_test_privilege_CFLAGS = $(TEST_CFLAGS) -I$(top_srcdir)/tests
tests_unit_test_privilege_LDADD = $(TEST_LIBS)
TESTS += tests/unit/test_privilege

# The real binary on the FUSE fake MSR device (root and /dev/fuse).
TESTS += tests/cli/test_msr_safe_cli.sh
EXTRA_DIST += tests/cli/test_msr_safe_cli.sh

# A file-capability copy and a set-user-ID copy run by a user the test
# creates: no plugin from the environment, no byte of a root-only file.
TESTS += tests/cli/test_privileged.sh
EXTRA_DIST += tests/cli/test_privileged.sh

# --source auto's line: short, the source chosen and the steps that failed;
# their reasons with -v.
TESTS += tests/cli/test_auto_line.sh
EXTRA_DIST += tests/cli/test_auto_line.sh
