# tests for completion and packaging: the bash completion against --help,
# and the debian/, RPM and Spack recipes (tests/cli/test_packaging.sh).
F3_TESTS = tests/cli/test_completion.sh tests/cli/test_packaging.sh
TESTS += $(F3_TESTS)
EXTRA_DIST += $(F3_TESTS)
