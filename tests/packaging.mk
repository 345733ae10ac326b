# tests for completion and packaging: the bash completion against --help,
# and the debian/, RPM and Spack recipes (tests/cli/test_packaging.sh).
PACKAGING_TESTS = tests/cli/test_completion.sh tests/cli/test_packaging.sh
TESTS += $(PACKAGING_TESTS)
EXTRA_DIST += $(PACKAGING_TESTS)
