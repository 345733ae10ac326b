# data: the demo machine (topology + CPUID dump, with their license
# notices) and scenario files
dist_pkgdata_DATA += data/demo-skx.xml data/demo-skx.cpuid data/LICENSES
scenariosdir = $(pkgdatadir)/scenarios
dist_scenarios_DATA = data/scenarios/example.scn
EXTRA_DIST += data/README.md data/scenario-format.txt
diesdatadir = $(pkgdatadir)/dies
dist_diesdata_DATA = data/dies/skx-xcc.map
msrsafedatadir = $(pkgdatadir)/msr-safe
dist_msrsafedata_DATA = data/msr-safe/allowlist data/msr-safe/README

# Run from a build tree, httop finds its data in BUILD/data (src/datadir.c):
# in a build directory of its own that is a link to the source tree's data/.
all-local: data-link
data-link:
	@if test "$(abs_top_srcdir)" != "$(abs_top_builddir)" && \
	    { test -L data || test ! -e data; }; then \
	  ln -sfn '$(abs_top_srcdir)/data' data; fi
distclean-local: data-unlink
data-unlink:
	@if test -L data; then rm -f data; fi
.PHONY: data-link data-unlink
