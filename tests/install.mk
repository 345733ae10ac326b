# tests for install (issue 7): make install into staging trees (prefix=/usr
# and /opt/x), every file in place, the staged programs on the staged data,
# make uninstall leaving nothing. The script is in EXTRA_DIST in Makefile.am
# (make installcheck runs it too, with or without the tests configured).
TESTS += tests/cli/test_install.sh
# Two builds of one source tree in different directories give identical
# binaries, which name neither directory (and still find data/ when run
# from their build tree).
TESTS += tests/cli/test_reproducible.sh
EXTRA_DIST += tests/cli/test_reproducible.sh
# make dist gives the same bytes at any time and leaves the tree as it was.
TESTS += tests/cli/test_dist.sh
EXTRA_DIST += tests/cli/test_dist.sh tools/release-sha256.sh
# The systemd unit for --textfile: valid (systemd-analyze verify), hardened.
TESTS += tests/cli/test_systemd_unit.sh
EXTRA_DIST += tests/cli/test_systemd_unit.sh
