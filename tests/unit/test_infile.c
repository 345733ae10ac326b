/* test_infile.c: the limits on files the user names (util/infile.c) and
 * the escaping of what a message quotes from them (util/textesc.c). */
#include "unit/testutil.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/errmsg.h"
#include "util/infile.h"
#include "util/textesc.h"

static char dir[64];

static int
setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof dir, "/tmp/httop-infile-XXXXXX");
	return mkdtemp(dir) != NULL ? 0 : -1;
}

static int
teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

/* dir/name with `len` bytes of `text` (repeated when len is more than
 * its length); returns the path. */
static const char *
make_n(const char *name, const char *text, size_t n, size_t len)
{
	static char path[128];
	FILE *fp;
	size_t i;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	fp = fopen(path, "wb");
	assert_non_null(fp);
	for (i = 0; i < len; i++)
		fputc(text[i % n], fp);
	assert_int_equal(fclose(fp), 0);
	return path;
}

static const char *
make(const char *name, const char *text, size_t len)
{
	return make_n(name, text, strlen(text), len);
}

static void
test_escape(void **state)
{
	char out[64];

	(void)state;
	/* ESC [ 3 1 m: the escape byte shown, the rest is printable */
	assert_string_equal(text_escape(out, sizeof out, "a\x1b[31mb"), "a\\x1b[31mb");
	/* valid UTF-8 is kept: u-umlaut (c3 bc), the euro sign (e2 82 ac) */
	assert_string_equal(text_escape(out, sizeof out, "\xc3\xbc \xe2\x82\xac"),
	    "\xc3\xbc \xe2\x82\xac");
	/* a stray byte, an overlong '/' (c0 af), a cut euro sign: each byte */
	assert_string_equal(text_escape(out, sizeof out, "x\xffy"), "x\\xffy");
	assert_string_equal(text_escape(out, sizeof out, "\xc0\xaf"), "\\xc0\\xaf");
	assert_string_equal(text_escape(out, sizeof out, "\xe2\x82"), "\\xe2\\x82");
	/* C1 CSI (U+009B = c2 9b) and RIGHT-TO-LEFT OVERRIDE (U+202E = e2 80 ae)
	 * are valid UTF-8 but act on the terminal: escaped whole */
	assert_string_equal(text_escape(out, sizeof out, "\xc2\x9b"), "\\xc2\\x9b");
	assert_string_equal(text_escape(out, sizeof out, "a\xe2\x80\xae" "b"),
	    "a\\xe2\\x80\\xaeb");
	/* the other bidirectional controls and the invisible format
	 * characters: LEFT-TO-RIGHT MARK (U+200E), ARABIC LETTER MARK
	 * (U+061C), RIGHT-TO-LEFT ISOLATE (U+2067), LINE SEPARATOR (U+2028),
	 * ZERO WIDTH SPACE (U+200B), the byte order mark (U+FEFF), SOFT
	 * HYPHEN (U+00AD), TAG LATIN SMALL LETTER A (U+E0061); next to them
	 * U+2010 HYPHEN, U+2030 PER MILLE and U+2070 SUPERSCRIPT ZERO stay */
	assert_string_equal(text_escape(out, sizeof out, "\xe2\x80\x8e\xd8\x9c\xe2\x81\xa7"),
	    "\\xe2\\x80\\x8e\\xd8\\x9c\\xe2\\x81\\xa7");
	assert_string_equal(text_escape(out, sizeof out, "\xe2\x80\xa8\xe2\x80\x8b\xef\xbb\xbf"),
	    "\\xe2\\x80\\xa8\\xe2\\x80\\x8b\\xef\\xbb\\xbf");
	assert_string_equal(text_escape(out, sizeof out, "\xc2\xad\xf3\xa0\x81\xa1"),
	    "\\xc2\\xad\\xf3\\xa0\\x81\\xa1");
	assert_string_equal(text_escape(out, sizeof out, "\xe2\x80\x90\xe2\x80\xb0\xe2\x81\xb0"),
	    "\xe2\x80\x90\xe2\x80\xb0\xe2\x81\xb0");
	/* tab and newline are controls too */
	assert_string_equal(text_escape(out, sizeof out, "a\tb\n"), "a\\x09b\\x0a");
	/* never half an escape or half a character: "ab" + 4 bytes do not fit in 5 */
	assert_string_equal(text_escape(out, 5, "ab\x01"), "ab");
	assert_string_equal(text_escape(out, 4, "a\xc3\xbc"), "a\xc3\xbc");
	assert_string_equal(text_escape(out, 3, "a\xc3\xbc"), "a");
	assert_true(text_is_clean("plain \xc3\xbc"));
	assert_false(text_is_clean("bell\a"));
	assert_false(text_is_clean("\xff"));
}

static void
test_quote(void **state)
{
	char out[64];

	(void)state;
	assert_string_equal(text_quote(out, sizeof out, "short", 8), "short");
	assert_string_equal(text_quote(out, sizeof out, "0123456789", 8), "01234567...");
	/* cut before a character, not inside it: max 2 lands in the u-umlaut */
	assert_string_equal(text_quote(out, sizeof out, "a\xc3\xbcz", 2), "a...");
	/* a control byte inside the kept part is escaped */
	assert_string_equal(text_quote(out, sizeof out, "\x1b]0;x\a", 3), "\\x1b]0...");
}

static void
test_errmsg_escapes(void **state)
{
	struct errmsg e;

	(void)state;
	errmsg_set(&e, "bad line '%s'", "\x1b[2J\x1b[H");
	assert_string_equal(e.text, "bad line '\\x1b[2J\\x1b[H'");
	errmsg_prefix(&e, "f\x07%s", "x");
	assert_string_equal(e.text, "f\\x07x: bad line '\\x1b[2J\\x1b[H'");
	/* longer than the message: cut at a character, still a string */
	{
		char big[2000];

		memset(big, 'a', sizeof big - 1);
		big[sizeof big - 1] = '\0';
		errmsg_set(&e, "%s", big);
		assert_int_equal(strlen(e.text), sizeof e.text - 1);
	}
}

static void
test_open_kinds(void **state)
{
	struct infile f;
	struct errmsg e;
	char fifo[128];
	time_t t0;

	(void)state;
	/* a FIFO with no writer: refused at once, not waited on */
	snprintf(fifo, sizeof fifo, "%s/fifo", dir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	t0 = time(NULL);
	assert_int_equal(infile_open(&f, fifo, "scenario file", 1024, 80, &e), -1);
	assert_true(time(NULL) - t0 <= 1);
	assert_int_equal(errno, EINVAL);
	assert_non_null(strstr(e.text, "named pipe"));
	assert_non_null(strstr(e.text, fifo));
	/* a device */
	assert_int_equal(infile_open(&f, "/dev/zero", "CPUID dump", 1024, 80, &e), -1);
	assert_non_null(strstr(e.text, "/dev/zero is a device"));
	assert_non_null(strstr(e.text, "CPUID dump"));
	/* a directory */
	assert_int_equal(infile_open(&f, dir, "die map", 1024, 80, &e), -1);
	assert_non_null(strstr(e.text, "is a directory"));
	/* missing: errno for the caller */
	assert_int_equal(infile_open(&f, "/nonexistent/x", "die map", 1024, 80, &e), -1);
	assert_int_equal(errno, ENOENT);
	assert_non_null(strstr(e.text, "/nonexistent/x"));
}

static void
test_size_limit(void **state)
{
	struct infile f;
	struct errmsg e;
	const char *p;
	bool is_dir;

	(void)state;
	p = make("big", "x\n", 2049);
	assert_int_equal(infile_open(&f, p, "settings file", 2048, 80, &e), -1);
	/* the size, the limit as a unit, the kind of file */
	assert_non_null(strstr(e.text, "is 2049 bytes"));
	assert_non_null(strstr(e.text, "2 KiB"));
	assert_non_null(strstr(e.text, "settings file"));
	p = make("ok", "x\n", 2048);
	assert_int_equal(infile_open(&f, p, "settings file", 2048, 80, &e), 0);
	infile_close(&f);
	/* by path, for a library that opens it by name */
	assert_int_equal(infile_check_path(p, "topology", 2047, false, &is_dir, &e), -1);
	assert_non_null(strstr(e.text, "2047 bytes"));
	assert_int_equal(infile_check_path(dir, "topology", 10, true, &is_dir, &e), 0);
	assert_true(is_dir);
	assert_int_equal(infile_check_path("/dev/null", "topology", 10, true, &is_dir, &e), -1);
	assert_non_null(strstr(e.text, "device"));
}

static void
test_lines(void **state)
{
	struct infile f;
	struct errmsg e;
	char buf[16];
	const char *p;

	(void)state;
	p = make("lines", "one\r\ntwo\nthree", 14);
	assert_int_equal(infile_open(&f, p, "scenario file", 100, 8, &e), 0);
	assert_int_equal(infile_getline(&f, buf, sizeof buf, &e), 1);
	assert_string_equal(buf, "one\r");          /* the CR is the format's business */
	assert_int_equal(infile_getline(&f, buf, sizeof buf, &e), 1);
	assert_string_equal(buf, "two");
	assert_int_equal(infile_getline(&f, buf, sizeof buf, &e), 1);
	assert_string_equal(buf, "three");          /* no newline at the end */
	assert_int_equal(f.line, 3);
	assert_int_equal(infile_getline(&f, buf, sizeof buf, &e), 0);
	infile_close(&f);

	/* 9 bytes on line 2 with a limit of 8 */
	p = make("long", "ok\n123456789\n", 13);
	assert_int_equal(infile_open(&f, p, "die map", 100, 8, &e), 0);
	assert_int_equal(infile_getline(&f, buf, sizeof buf, &e), 1);
	assert_int_equal(infile_getline(&f, buf, sizeof buf, &e), -1);
	assert_non_null(strstr(e.text, ":2: line longer than 8 bytes"));
	infile_close(&f);

	/* a NUL byte (a binary file, or /dev/zero copied) */
	p = make_n("nul", "a\nb\0c\n", 6, 6);
	assert_int_equal(infile_open(&f, p, "die map", 100, 8, &e), 0);
	assert_int_equal(infile_getline(&f, buf, sizeof buf, &e), 1);
	assert_int_equal(infile_getline(&f, buf, sizeof buf, &e), -1);
	assert_non_null(strstr(e.text, ":2: a NUL byte"));
	infile_close(&f);
}

static void
test_grows(void **state)
{
	struct infile f;
	struct errmsg e;
	char buf[64], *all;
	size_t len;
	const char *p;
	FILE *fp;

	(void)state;
	/* within the limit when opened, past it when read */
	p = make("grow", "abcdefghi\n", 10);
	assert_int_equal(infile_open(&f, p, "scenario file", 12, 40, &e), 0);
	fp = fopen(p, "a");
	assert_non_null(fp);
	fputs("more\n", fp);
	fclose(fp);
	assert_int_equal(infile_getline(&f, buf, sizeof buf, &e), 1);
	assert_int_equal(infile_getline(&f, buf, sizeof buf, &e), -1);
	assert_non_null(strstr(e.text, "grew past 12 bytes"));
	infile_close(&f);

	/* the whole file at once */
	p = make("slurp", "<a/>\n", 5);
	assert_int_equal(infile_open(&f, p, "topology", 100, 40, &e), 0);
	assert_int_equal(infile_slurp(&f, &all, &len, &e), 0);
	assert_int_equal(len, 5);
	assert_string_equal(all, "<a/>\n");
	free(all);
	infile_close(&f);
	p = make_n("slurpnul", "<a/>\0", 5, 5);
	assert_int_equal(infile_open(&f, p, "topology", 100, 40, &e), 0);
	assert_int_equal(infile_slurp(&f, &all, &len, &e), -1);
	assert_non_null(strstr(e.text, "NUL byte"));
	infile_close(&f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_quote),
		cmocka_unit_test(test_errmsg_escapes),
		cmocka_unit_test(test_open_kinds),
		cmocka_unit_test(test_size_limit),
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_grows),
	};

	return cmocka_run_group_tests_name("infile", tests, setup, teardown);
}
