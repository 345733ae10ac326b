# bash completion: installed where bash-completion loads completions on
# demand (configure --with-bash-completion-dir; =no installs none).
if BASH_COMPLETION
bashcompletiondir = $(BASH_COMPLETION_DIR)
dist_bashcompletion_DATA = completion/httop
else
EXTRA_DIST += completion/httop
endif

# The packaging recipes (tests/cli/test_packaging.sh builds them from a
# copy of the source tree, so a distcheck build needs them too). Not the
# Spack recipes: they hold the release tarball's sha256, so they live in a
# Spack repository, not in the tarball.
EXTRA_DIST += debian/changelog debian/control debian/copyright debian/rules \
	debian/source/format debian/httop.docs debian/README.Debian debian/watch \
	debian/httop.lintian-overrides \
	debian/tests/control debian/tests/demo-replay \
	packaging/rpm/httop.spec
