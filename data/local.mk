# data: the demo machine (topology + CPUID dump, with their license
# notices), scenario files, and the JSON Schema of --format json
dist_pkgdata_DATA += data/demo-skx.xml data/demo-skx.cpuid data/LICENSES \
	data/httop.schema.json
scenariosdir = $(pkgdatadir)/scenarios
dist_scenarios_DATA = data/scenarios/example.scn
EXTRA_DIST += data/README.md data/scenario-format.txt
diesdatadir = $(pkgdatadir)/dies
dist_diesdata_DATA = data/dies/skx-xcc.map
msrsafedatadir = $(pkgdatadir)/msr-safe
dist_msrsafedata_DATA = data/msr-safe/allowlist data/msr-safe/README
