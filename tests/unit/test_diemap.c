/* test_diemap.c: the die map parser (man/httop-diemap.5) on the shipped
 * XCC map, the Xeon Phi example, one malformed file per error class
 * (tests/data/diemap/bad-*.map) and memory streams for line endings,
 * NUL bytes and the line length limit. */
#include "config.h"

#include <string.h>

#include "unit/testutil.h"

#include "machine/diemap.h"

/* The path of a file under tests/data/diemap. Static buffer. */
static const char *
mapfile(const char *name)
{
	static char buf[4096];

	snprintf(buf, sizeof buf, "%s", srcfile("tests/data/diemap/"));
	strncat(buf, name, sizeof buf - strlen(buf) - 1);
	return buf;
}

/* A failed load leaves the map empty. */
static void
assert_empty(const struct diemap *d)
{
	assert_null(d->pos);
	assert_null(d->cores);
	assert_int_equal(d->ncores, 0);
	assert_int_equal(d->rows, 0);
}

/* The message starts "PATH:LINE: " (line 0: "PATH: ") and holds `word`. */
static void
assert_msg(const struct errmsg *e, const char *path, unsigned line, const char *word)
{
	char prefix[4200];

	if (line > 0)
		snprintf(prefix, sizeof prefix, "%s:%u: ", path, line);
	else
		snprintf(prefix, sizeof prefix, "%s: ", path);
	if (strncmp(e->text, prefix, strlen(prefix)) != 0)
		fail_msg("message \"%s\" does not start with \"%s\"", e->text, prefix);
	if (strstr(e->text, word) == NULL)
		fail_msg("message \"%s\" lacks \"%s\"", e->text, word);
}

static void
load_bad(const char *name, unsigned line, const char *word)
{
	struct diemap d;
	struct errmsg e;
	const char *path = mapfile(name);

	memset(&e, 0, sizeof e);
	assert_int_equal(diemap_load(&d, path, &e), -1);
	assert_msg(&e, path, line, word);
	assert_empty(&d);
	diemap_free(&d);
}

/* Parse `len` bytes of memory under the name "mem". */
static int
parse_mem(struct diemap *d, const char *text, size_t len, struct errmsg *e)
{
	FILE *fp = fmemopen((void *)text, len, "r");
	int r;

	assert_non_null(fp);
	r = diemap_parse(d, "mem", fp, e);
	fclose(fp);
	return r;
}

static void
mem_bad(const char *text, size_t len, unsigned line, const char *word)
{
	struct diemap d;
	struct errmsg e;

	memset(&e, 0, sizeof e);
	assert_int_equal(parse_mem(&d, text, len, &e), -1);
	assert_msg(&e, "mem", line, word);
	assert_empty(&d);
}

/* The shipped map, worked out by hand from doc/hardware.md section 7: the
 * 28 CAPID6 positions go down each column, left to right, skipping the
 * memory controllers at (1,0) and (1,5):
 *
 *          c0  c1  c2  c3  c4  c5
 *     r0    0   4   9  14  19  24
 *     r1   MC   5  10  15  20  MC
 *     r2    1   6  11  16  21  25
 *     r3    2   7  12  17  22  26
 *     r4    3   8  13  18  23  27
 *
 * so slot s sits at index row * 6 + col: column 0 holds 0..3 at rows
 * 0,2,3,4; columns 1..4 hold 4 + 5(c-1) .. 8 + 5(c-1) at rows 0..4;
 * column 5 holds 24..27 at rows 0,2,3,4. */
static const int xcc_index[28] = {
	0, 12, 18, 24,          /* slots 0..3: column 0, rows 0,2,3,4 */
	1, 7, 13, 19, 25,       /* 4..8: column 1 */
	2, 8, 14, 20, 26,       /* 9..13: column 2 */
	3, 9, 15, 21, 27,       /* 14..18: column 3 */
	4, 10, 16, 22, 28,      /* 19..23: column 4 */
	5, 17, 23, 29,          /* 24..27: column 5, rows 0,2,3,4 */
};

static void
test_shipped_xcc(void **state)
{
	struct diemap d;
	struct errmsg e;
	const char *path = srcfile("data/dies/skx-xcc.map");
	int s;

	(void)state;
	memset(&e, 0, sizeof e);
	if (diemap_load(&d, path, &e) != 0)
		fail_msg("%s", e.text);
	assert_string_equal(d.path, path);
	assert_int_equal(d.numbering, DM_NUM_CAPID6);
	assert_int_equal(d.rows, 5);
	assert_int_equal(d.cols, 6);
	assert_int_equal(d.ntiles, 28);
	assert_int_equal(d.max_slot, 27);
	assert_int_equal(d.ncores, 0);
	assert_non_null(strstr(d.name, "XCC"));
	assert_int_equal(d.pos[1 * 6 + 0].kind, DM_MC);
	assert_int_equal(d.pos[1 * 6 + 0].slot, -1);
	assert_int_equal(d.pos[1 * 6 + 5].kind, DM_MC);
	assert_int_equal(d.pos[0 * 6 + 0].slot, 0);
	assert_int_equal(d.pos[2 * 6 + 0].slot, 1);
	assert_int_equal(d.pos[4 * 6 + 0].slot, 3);
	assert_int_equal(d.pos[0 * 6 + 1].slot, 4);
	assert_int_equal(d.pos[4 * 6 + 1].slot, 8);
	assert_int_equal(d.pos[0 * 6 + 5].slot, 24);
	assert_int_equal(d.pos[4 * 6 + 5].slot, 27);
	assert_int_equal(d.pos[4 * 6 + 5].kind, DM_TILE);
	for (s = 0; s < 28; s++) {
		assert_int_equal(diemap_find_slot(&d, s), xcc_index[s]);
		assert_int_equal(d.pos[xcc_index[s]].slot, s);
	}
	assert_int_equal(diemap_find_slot(&d, 28), -1);
	assert_int_equal(diemap_find_slot(&d, -1), -1);
	assert_int_equal(diemap_find_slot(&d, DM_MAX_SLOT), -1);
	assert_string_equal(diemap_numbering_name(d.numbering), "capid6");
	diemap_free(&d);
	assert_null(d.pos);
}

/* The invented Xeon Phi example: 6 x 7 = 42 cells, of which 2 IO (row 0
 * ends), 2 MC (row 2 ends): 42 - 4 = 38 tiles, 0..37 row by row, so tile
 * 12 follows the MC at (2,0): index 2 * 7 + 1 = 15; tile 37 is the last
 * cell, index 41. Two core lines share tile 0 (allowed: two per tile). */
static void
test_knl_example(void **state)
{
	struct diemap d;
	struct errmsg e;

	(void)state;
	memset(&e, 0, sizeof e);
	if (diemap_load(&d, mapfile("knl-example.map"), &e) != 0)
		fail_msg("%s", e.text);
	assert_int_equal(d.numbering, DM_NUM_TILE);
	assert_int_equal(d.rows, 6);
	assert_int_equal(d.cols, 7);
	assert_int_equal(d.ntiles, 38);
	assert_int_equal(d.max_slot, 37);
	assert_int_equal(d.pos[0].kind, DM_IO);
	assert_int_equal(d.pos[6].kind, DM_IO);
	assert_int_equal(d.pos[14].kind, DM_MC);
	assert_int_equal(d.pos[20].kind, DM_MC);
	assert_int_equal(diemap_find_slot(&d, 0), 1);
	assert_int_equal(diemap_find_slot(&d, 12), 15);
	assert_int_equal(diemap_find_slot(&d, 37), 41);
	assert_int_equal(d.ncores, 2);
	assert_int_equal(d.cores[1].core_id, 1);
	assert_int_equal(d.cores[1].package, -1);
	assert_int_equal(d.cores[1].slot, 0);
	assert_int_equal(d.cores[1].cha, -1);
	assert_int_equal(d.cores[1].line, 18);
	assert_non_null(strstr(d.name, "EXAMPLE"));
	diemap_free(&d);
}

/* One file per error class; the line and word each message must have. */
static void
test_bad_files(void **state)
{
	(void)state;
	load_bad("bad-no-header.map", 2, "missing header");
	load_bad("bad-version.map", 2, "version 2 is not supported");
	load_bad("bad-keyword.map", 7, "unknown keyword 'colour'");
	load_bad("bad-row-before-grid.map", 4, "before 'grid'");
	load_bad("bad-short-row.map", 6, "row has 2 cells");
	load_bad("bad-long-row.map", 5, "row has 4 cells");
	load_bad("bad-few-rows.map", 7, "too few rows");
	load_bad("bad-dup-slot.map", 7, "used twice (first on line 5)");
	load_bad("bad-token.map", 6, "bad cell 'mc'");
	load_bad("bad-core-slot.map", 8, "no position numbered 7");
	load_bad("bad-cha-tile.map", 8, "'cha' in a map numbered by tile");
	load_bad("bad-dup-core.map", 9, "core 0:5 given twice (also on line 7)");
	/* 0:4 and 1:4 share slot 1 (different packages); "core 6" is in
	 * every package, so package 0 would hold 4 and 6 at slot 1. */
	load_bad("bad-same-slot.map", 9, "slot 1 already holds");
	load_bad("bad-long-line.map", 3, "longer than 1023 bytes");
	load_bad("bad-grid-size.map", 4, "too big");
	load_bad("bad-overflow.map", 6, "too large");
	load_bad("bad-empty.map", 0, "empty file");
	load_bad("bad-no-numbering.map", 0, "no 'numbering' line");
	load_bad("no-such-file.map", 0, "cannot open");
}

#define OK_HEAD "httop-diemap 1\nname t\nnumbering capid6\n"

/* CRLF endings, tabs, a trailing comment and no final newline. */
static void
test_crlf_no_newline(void **state)
{
	static const char text[] =
	    "\xef\xbb\xbfhttop-diemap 1\r\n"
	    "name  Two words  # and a comment\r\n"
	    "numbering capid6\r\n"
	    "grid 2 3\r\n"
	    "row\t0\tMC\t2\r\n"
	    "row . IO 1\r\n"
	    "core 1:7 cha 4";
	struct diemap d;
	struct errmsg e;

	(void)state;
	memset(&e, 0, sizeof e);
	if (parse_mem(&d, text, sizeof text - 1, &e) != 0)
		fail_msg("%s", e.text);
	assert_string_equal(d.name, "Two words");
	assert_string_equal(d.path, "mem");
	assert_int_equal(d.ntiles, 3);
	assert_int_equal(d.max_slot, 2);
	assert_int_equal(d.pos[1].kind, DM_MC);
	assert_int_equal(d.pos[3].kind, DM_EMPTY);
	assert_int_equal(d.pos[4].kind, DM_IO);
	assert_int_equal(diemap_find_slot(&d, 1), 5);
	assert_int_equal(diemap_find_slot(&d, 2), 2);
	assert_int_equal(d.ncores, 1);
	assert_int_equal(d.cores[0].package, 1);
	assert_int_equal(d.cores[0].core_id, 7);
	assert_int_equal(d.cores[0].cha, 4);
	assert_int_equal(d.cores[0].slot, -1);
	assert_int_equal(d.cores[0].line, 7);
	diemap_free(&d);
}

/* 1023 bytes is the longest line; 1024 is refused, with or without a CR. */
static void
test_line_limit(void **state)
{
	char text[2200];
	struct diemap d;
	struct errmsg e;
	size_t n;

	(void)state;
	n = (size_t)snprintf(text, sizeof text, "%s#", OK_HEAD);
	memset(text + n, 'x', 1022);            /* "#" + 1022 = 1023 bytes */
	n += 1022;
	n += (size_t)snprintf(text + n, sizeof text - n, "\r\ngrid 1 1\nrow 0\n");
	memset(&e, 0, sizeof e);
	if (parse_mem(&d, text, n, &e) != 0)
		fail_msg("%s", e.text);
	diemap_free(&d);

	n = (size_t)snprintf(text, sizeof text, "%s#", OK_HEAD);
	memset(text + n, 'x', 1023);            /* 1024 bytes, then CRLF */
	n += 1023;
	n += (size_t)snprintf(text + n, sizeof text - n, "\r\ngrid 1 1\nrow 0\n");
	mem_bad(text, n, 4, "longer than 1023");
	/* The same without any line end: still line 4. */
	mem_bad(text, n - 17, 4, "longer than 1023");
}

static void
mem_str(const char *text, unsigned line, const char *word)
{
	mem_bad(text, strlen(text), line, word);
}

/* Errors that need no file of their own. */
static void
test_mem_errors(void **state)
{
	static const char nul[] = OK_HEAD "grid 1 1\nrow 0\0 1\n";
	static const char tile3[] = "httop-diemap 1\nname t\nnumbering tile\n"
	    "grid 1 2\nrow 0 1\ncore 0 slot 0\ncore 1 slot 0\ncore 2 slot 0\n";
	static const char cha2[] = OK_HEAD "grid 1 1\nrow 0\ncore 0:1 cha 3\ncore 2 cha 3\n";
	static const char early[] = "httop-diemap 1\ncore 3 slot 9\nname t\n"
	    "numbering capid6\ngrid 1 1\nrow 0\n";
	static const char eof_rows[] = OK_HEAD "\ngrid 3 1\nrow 0\n";
	static const char bigcore[] = OK_HEAD "grid 1 1\nrow 0\ncore 0:99999999999999999999 slot 0\n";
	char longname[200];

	(void)state;
	mem_bad(nul, sizeof nul - 1, 5, "NUL byte");
	/* Two cores per tile, not three. */
	mem_bad(tile3, sizeof tile3 - 1, 8, "slot 0 already holds 2 core(s)");
	mem_bad(cha2, sizeof cha2 - 1, 7, "cha 3 already holds");
	/* Tile 0 holds 1 core of package 0 and 2 of package 1 (lines 7, 8):
	 * "core 6" of every package would make 3 in package 1, so the
	 * message names line 7, not the package-0 line 6. */
	mem_str("httop-diemap 1\nname t\nnumbering tile\ngrid 1 2\nrow 0 1\n"
	    "core 0:1 slot 0\ncore 1:2 slot 0\ncore 1:4 slot 0\ncore 6 slot 0\n", 9,
	    "slot 0 already holds 2 core(s) of the same package (from line 7)");
	/* A core line before the grid is checked once the grid is known, and
	 * the message still names its own line. */
	mem_bad(early, sizeof early - 1, 2, "no position numbered 9");
	/* Rows missing at the end: the grid line (5) is named. */
	mem_bad(eof_rows, sizeof eof_rows - 1, 5, "too few rows");
	mem_bad(bigcore, sizeof bigcore - 1, 6, "bad core id");
	mem_str(OK_HEAD "grid 1 1\nrow 0\ncore 256:1 slot 0\n", 6, "bad package '256'");
	mem_str("httop-diemap 1.0\n", 1, "version 1.0 is not supported");
	mem_str("# only\n\n  # comments\n", 0, "missing header");
	mem_str(OK_HEAD "grid 1 0\n", 4, "1 to 32");
	mem_str(OK_HEAD "grid 1 1\nrow 1024\n", 5, "too large");
	mem_str(OK_HEAD "numbering tile\n", 4, "second 'numbering'");
	mem_str("httop-diemap 1\nnumbering core\ngrid 1 1\nrow 5\n", 0, "no 'name' line");
	/* A grid line while rows are still missing. */
	mem_str(OK_HEAD "grid 2 1\nrow 0\ngrid 1 1\n", 6, "too few rows");
	mem_str(OK_HEAD "grid 1 1\nrow 0\nrow 1\n", 6, "too many rows");
	mem_str(OK_HEAD "grid 1 1\nrow 0\ncore 1 slot\n", 6, "core [PACKAGE:]CORE_ID slot N");
	mem_str("httop-diemap 1\nname t\nnumbering hex\n", 3, "unknown numbering 'hex'");
	snprintf(longname, sizeof longname, "httop-diemap 1\nname %0150d\n", 7);
	mem_str(longname, 2, "name longer than 127");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shipped_xcc),
		cmocka_unit_test(test_knl_example),
		cmocka_unit_test(test_bad_files),
		cmocka_unit_test(test_crlf_no_newline),
		cmocka_unit_test(test_line_limit),
		cmocka_unit_test(test_mem_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
