# tests for the die map parser (man/httop-diemap.5): the shipped map, the
# Xeon Phi example and one malformed map per error class.
check_PROGRAMS += tests/unit/test_diemap
tests_unit_test_diemap_SOURCES = tests/unit/test_diemap.c
tests_unit_test_diemap_CFLAGS = $(TEST_CFLAGS) -I$(top_srcdir)/tests
tests_unit_test_diemap_LDADD = $(TEST_LIBS)
TESTS += tests/unit/test_diemap
EXTRA_DIST += tests/data/diemap/knl-example.map \
	tests/data/diemap/bad-cha-tile.map \
	tests/data/diemap/bad-core-slot.map \
	tests/data/diemap/bad-dup-core.map \
	tests/data/diemap/bad-dup-slot.map \
	tests/data/diemap/bad-empty.map \
	tests/data/diemap/bad-few-rows.map \
	tests/data/diemap/bad-grid-size.map \
	tests/data/diemap/bad-keyword.map \
	tests/data/diemap/bad-long-line.map \
	tests/data/diemap/bad-long-row.map \
	tests/data/diemap/bad-no-header.map \
	tests/data/diemap/bad-no-numbering.map \
	tests/data/diemap/bad-overflow.map \
	tests/data/diemap/bad-row-before-grid.map \
	tests/data/diemap/bad-same-slot.map \
	tests/data/diemap/bad-short-row.map \
	tests/data/diemap/bad-token.map \
	tests/data/diemap/bad-version.map
