#!/bin/sh
# gen-topology.sh NPKG NCORES SMT MODEL NAME: an hwloc v2 XML machine of
# NPKG packages of NCORES cores of SMT threads (Intel numbering: thread t of
# core c of package p is CPU t*NPKG*NCORES + p*NCORES + c), each package an
# Intel family 6 model MODEL named NAME, one L3 per package. For machines
# no fixture has (2 x 56-core Sapphire Rapids); written for the tests.
awk -v np="$1" -v nc="$2" -v smt="$3" -v model="$4" -v name="$5" '
function clear(   i) { for (i = 0; i < nw; i++) w[i] = 0 }
function set(b) { w[int(b / 32)] += 2 ^ (b % 32) }
# hwloc bitmap text: 32-bit words, most significant first.
function mask(   i, s, v) {
	s = ""
	for (i = nw - 1; i >= 0; i--) {
		v = w[i]
		s = s sprintf("0x%04x%04x", int(v / 65536), v % 65536) (i > 0 ? "," : "")
	}
	return s
}
function attrs(m) {
	return sprintf("cpuset=\"%s\" complete_cpuset=\"%s\" nodeset=\"0x00000001\" complete_nodeset=\"0x00000001\"", m, m)
}
BEGIN {
	n = np * nc * smt
	nw = int((n + 31) / 32)
	print "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
	print "<!DOCTYPE topology SYSTEM \"hwloc2.dtd\">"
	print "<topology version=\"2.0\">"
	clear(); for (b = 0; b < n; b++) set(b); all = mask()
	printf "<object type=\"Machine\" os_index=\"0\" %s allowed_cpuset=\"%s\" allowed_nodeset=\"0x00000001\">\n", attrs(all), all
	printf "<object type=\"NUMANode\" os_index=\"0\" %s/>\n", attrs(all)
	for (p = 0; p < np; p++) {
		clear()
		for (c = 0; c < nc; c++) for (t = 0; t < smt; t++) set(t * np * nc + p * nc + c)
		pm = mask()
		printf "<object type=\"Package\" os_index=\"%d\" %s>\n", p, attrs(pm)
		print "<info name=\"CPUVendor\" value=\"GenuineIntel\"/>"
		print "<info name=\"CPUFamilyNumber\" value=\"6\"/>"
		printf "<info name=\"CPUModelNumber\" value=\"%d\"/>\n", model
		printf "<info name=\"CPUModel\" value=\"%s\"/>\n", name
		printf "<object type=\"L3Cache\" %s cache_size=\"110100480\" depth=\"3\" cache_linesize=\"64\" cache_associativity=\"15\" cache_type=\"0\">\n", attrs(pm)
		for (c = 0; c < nc; c++) {
			clear(); for (t = 0; t < smt; t++) set(t * np * nc + p * nc + c)
			printf "<object type=\"Core\" os_index=\"%d\" %s>\n", c, attrs(mask())
			for (t = 0; t < smt; t++) {
				b = t * np * nc + p * nc + c
				clear(); set(b)
				printf "<object type=\"PU\" os_index=\"%d\" %s/>\n", b, attrs(mask())
			}
			print "</object>"
		}
		print "</object>"
		print "</object>"
	}
	print "</object>"
	print "</topology>"
}'
