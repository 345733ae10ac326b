# data: the demo machine (topology + CPUID dump, with their license
# notices), scenario files, die maps, the msr-safe allowlist, the systemd
# unit for --textfile, and the JSON Schema of --format json
dist_pkgdata_DATA += data/demo-skx.xml data/demo-skx.cpuid data/LICENSES
scenariosdir = $(pkgdatadir)/scenarios
dist_scenarios_DATA = data/scenarios/example.scn
EXTRA_DIST += data/README.md data/scenario-format.txt
diesdatadir = $(pkgdatadir)/dies
dist_diesdata_DATA = data/dies/skx-xcc.map
msrsafedatadir = $(pkgdatadir)/msr-safe
dist_msrsafedata_DATA = data/msr-safe/allowlist data/msr-safe/README
# A real recording to replay (data/README.md): TACC Stampede2, BSD-3-Clause.
tracesdir = $(pkgdatadir)/traces
dist_traces_DATA = data/traces/stampede2-c591-803.trace.gz

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

# The JSON Schema of --format json: the template's figures put in from the
# table of figures by tools/httop-schema (tools/schema.c), in the build
# directory's top (data/ there may be the link to the read-only source
# tree); the tests check lines against it (tests/lib.sh, check_schema) and
# that it holds the table (tests/cli/test_schema.sh).
nodist_pkgdata_DATA = httop.schema.json
EXTRA_DIST += data/httop.schema.in.json
CLEANFILES += httop.schema.json
httop.schema.json: $(srcdir)/data/httop.schema.in.json tools/httop-schema$(EXEEXT)
	$(AM_V_GEN)tools/httop-schema$(EXEEXT) $(srcdir)/data/httop.schema.in.json >$@.tmp && \
	    mv $@.tmp $@
all-local: httop.schema.json

# The systemd unit for --textfile (httop(1), FILES), with the configured
# bindir in ExecStart. Made in the build directory's top (data/ there may
# be the link to the read-only source tree).
if SYSTEMD_UNIT
systemdsystemunit_DATA = httop-textfile.service
endif
EXTRA_DIST += data/httop-textfile.service.in
CLEANFILES += httop-textfile.service
httop-textfile.service: $(srcdir)/data/httop-textfile.service.in Makefile
	$(AM_V_GEN)sed -e 's|@bindir[@]|$(bindir)|g' \
	    $(srcdir)/data/httop-textfile.service.in >$@.tmp && mv $@.tmp $@
all-local: httop-textfile.service
