# tests/fixtures: real machine data for the tests (hwloc topologies, libcpuid
# CPUID dumps, a Stampede2 counter trace) and the topologies made for httop;
# tests/fixtures/PROVENANCE.md gives each file's source, commit and license.
# Text files are kept xz-compressed; make check (and make bench) unpack
# everything into the build tree's tests/unpacked/, under the same names
# without .xz, where the tests find them ($HTTOP_FIXTURES).
FIXTURE_FILES = \
	tests/fixtures/cpuid/adl-p-i7-12700h-6p8e.cpuid.txt.xz \
	tests/fixtures/cpuid/adl-s-i9-12900k-8p8e.cpuid.txt.xz \
	tests/fixtures/cpuid/bdw-e-i7-6950x-1s-10c-ht.cpuid.txt.xz \
	tests/fixtures/cpuid/clx-5215-1s-10c-ht.cpuid.txt.xz \
	tests/fixtures/cpuid/clx-8269c-1cpu.cpuid.txt.xz \
	tests/fixtures/cpuid/clx-8280-1s-28c-ht.affmask-needs-libcpuid-0.6.4.cpuid.txt.xz \
	tests/fixtures/cpuid/emr-8570-partial-56cpus.cpuid.txt.xz \
	tests/fixtures/cpuid/icx-d-1718t-1s-4c-ht.cpuid.txt.xz \
	tests/fixtures/cpuid/ivb-e-i7-4930k-1s-6c-ht.native-all.cpuid.txt.xz \
	tests/fixtures/cpuid/ivb-ep-e5-2697v2-1cpu.cpuid.txt.xz \
	tests/fixtures/cpuid/nhm-ep-e5520-1cpu.cpuid.txt.xz \
	tests/fixtures/cpuid/skx-3104-2s-6c-noht.cpuid.txt.xz \
	tests/fixtures/cpuid/skx-4108-2s-8c-ht.cpuid.txt.xz \
	tests/fixtures/cpuid/skx-6154-2s-18c-ht.cpuid.txt.xz \
	tests/fixtures/cpuid/skx-8180-2s-28c-ht.cpuid.txt.xz \
	tests/fixtures/cpuid/snb-ep-e5-2687w-1cpu.cpuid.txt.xz \
	tests/fixtures/cpuid/spr-w7-2475x-1s-20c-ht.cpuid.txt.xz \
	tests/fixtures/cpuid/spr-w9-3475x-1s-36c-ht.cpuid.txt.xz \
	tests/fixtures/cpuid/wsm-ep-x5650-1cpu.cpuid.txt.xz \
	tests/fixtures/cpuid/wsm-ep-x5667-2s-4c-ht.cpuid.txt.xz \
	tests/fixtures/cpuid/zen2-epyc7742-2s-64c-smt.cpuid.txt.xz \
	tests/fixtures/cpuid/zen3-epyc7713-1s-64c-smt.cpuid.txt.xz \
	tests/fixtures/cpuid/zen4-epyc9124-1s-16c-smt.cpuid.txt.xz \
	tests/fixtures/cpuid/zen5-epyc9655-partial-64cpus-nosmt.cpuid.txt.xz \
	tests/fixtures/hwloc/bdw-ep-e5-2650lv4-2s-14c-ht.x86.xml.xz \
	tests/fixtures/hwloc/clx-6230-2s-20c-ht-memsidecache.fsroot.tar.bz2 \
	tests/fixtures/hwloc/clx-6230-2s-20c-ht-memsidecache.xml.xz \
	tests/fixtures/hwloc/clx-6230-2s-20c-ht.x86.xml.xz \
	tests/fixtures/hwloc/clx-8260m-2s-24c-ht.v1.xml.xz \
	tests/fixtures/hwloc/hsw-ep-e5-2680v3-2s-12c-noht-offline.fsroot.tar.bz2 \
	tests/fixtures/hwloc/hsw-ep-e5-2680v3-2s-12c-noht.x86.xml.xz \
	tests/fixtures/hwloc/knl-7210-64c-4t-snc4-flat.v1.xml.xz \
	tests/fixtures/hwloc/knl-7210-64c-4t.hwloc-cpuid.tar.bz2 \
	tests/fixtures/hwloc/knl-7210-64c-4t.x86.xml.xz \
	tests/fixtures/hwloc/knl-7250-68c-4t-flat-quadrant.xml.xz \
	tests/fixtures/hwloc/knl-7250f-68c-4t-cache-quadrant.v1.xml.xz \
	tests/fixtures/hwloc/knl-es-64c-4t-flat-snc4.xml.xz \
	tests/fixtures/hwloc/nhm-ep-x5550-2s-4c-ht.x86.xml.xz \
	tests/fixtures/hwloc/rpl-i7-1370p-6p8e-hybrid.fsroot.tar.bz2 \
	tests/fixtures/hwloc/rpl-i7-1370p-6p8e-hybrid.x86.xml.xz \
	tests/fixtures/hwloc/skx-4108-2s-8c-ht.fsroot.tar.bz2 \
	tests/fixtures/hwloc/skx-6140-2s-18c-ht.x86.xml.xz \
	tests/fixtures/hwloc/skx-8168-2s-24c-ht.v1.xml.xz \
	tests/fixtures/hwloc/snb-ep-e5-2650-2s-8c-ht.xml.xz \
	tests/fixtures/hwloc/snb-ep-e5-2680-2s-8c-noht.fsroot.tar.bz2 \
	tests/fixtures/hwloc/spr-max9460-2s-40c-ht.x86.xml.xz \
	tests/fixtures/hwloc/spr-max9462-2s-32c-ht.xml.xz \
	tests/fixtures/hwloc/wsm-ep-x5650-2s-6c-ht.x86.xml.xz \
	tests/fixtures/hwloc/wsm-ex-e7-4870-4s-10c-noht.fsroot.tar.bz2 \
	tests/fixtures/hwloc/zen2-epyc7742-2s-64c-smt.xml.xz \
	tests/fixtures/hwloc/zen3-epyc7763-2s-64c-nosmt.x86.xml.xz \
	tests/fixtures/hwloc/zen4-epyc9654-2s-96c-smt.x86.xml.xz \
	tests/fixtures/real/stampede2-c591-803/LICENSE \
	tests/fixtures/real/stampede2-c591-803/c591-803.perfcounts.lua.xz \
	tests/fixtures/real/stampede2-c591-803/core_msr_control.input \
	tests/fixtures/real/stampede2-c591-803/core_msr_perfevtsel.input \
	tests/fixtures/real/stampede2-c591-803/output_samples_19-51.txt.xz
EXTRA_DIST += $(FIXTURE_FILES) tests/fixtures/PROVENANCE.md tests/fixtures/LICENSES \
	tests/fixtures/topogen.py

FIXTURES_UNPACKED = tests/unpacked/.stamp
check_DATA = $(FIXTURES_UNPACKED)
$(FIXTURES_UNPACKED): $(FIXTURE_FILES)
	@command -v xz >/dev/null 2>&1 || { echo "make: xz is needed to unpack the" \
	    "test fixtures: install the Debian package xz-utils" >&2; exit 1; }
	$(AM_V_GEN)rm -rf tests/unpacked tests/unpacked.tmp && \
	for f in $(FIXTURE_FILES); do \
	  r=$${f#tests/fixtures/}; d=tests/unpacked.tmp/$$r; \
	  mkdir -p "$${d%/*}" || exit 1; \
	  case $$f in \
	  *.xz) xz -dc "$(srcdir)/$$f" >"$${d%.xz}" || exit 1 ;; \
	  *) cp "$(srcdir)/$$f" "$$d" || exit 1 ;; \
	  esac; \
	done && chmod -R u+w tests/unpacked.tmp && \
	mv tests/unpacked.tmp tests/unpacked && touch $@

clean-local: clean-fixtures clean-state
clean-fixtures:
	rm -rf tests/unpacked tests/unpacked.tmp

TESTS += tests/cli/test_fixtures.sh
EXTRA_DIST += tests/cli/test_fixtures.sh
