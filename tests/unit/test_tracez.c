/* test_tracez.c: the gzip reader of traces (src/trace/tracez.c), with the
 * inflater this build has (tracez_isal.c or tracez_zlib.c: configure
 * --with-isal), on
 * streams made here with zlib's deflate: read in pieces of 1 byte to
 * 1 MiB, the same bytes; gzip members one after another read as one;
 * what follows the last member ignored unless it starts like one; a wrong
 * CRC or length, damaged data and refused headers are EBADMSG after every
 * byte before them; a stream cut anywhere reads as its longest prefix,
 * whatever the pieces, and says it was cut (tracez_cut), a whole one
 * does not; a FIFO is refused unless read once, and then read as the
 * file is. tests/cli/test_isal_off.sh compares the two inflaters'
 * replays. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include "unit/testutil.h"

#include "trace/tracez.h"

/* gzip header flags (RFC 1952) */
#define F_HCRC 0x02
#define F_EXTRA 0x04
#define F_NAME 0x08
#define F_COMMENT 0x10

static char tmpdir[256];
static unsigned char *text;     /* the trace text the streams hold */
static size_t ntext;
static bool last_cut;           /* tracez_cut after the last read_steps' end */

struct buf {
	unsigned char *p;
	size_t n, cap;
};

static void
put(struct buf *b, const void *p, size_t n)
{
	if (b->n + n + 1 > b->cap) {
		b->cap = (b->n + n + 1) * 2;
		b->p = realloc(b->p, b->cap);
		assert_non_null(b->p);
	}
	memcpy(b->p + b->n, p, n);
	b->n += n;
}

static void
put_le(struct buf *b, unsigned long v, int bytes)
{
	unsigned char c[4];

	for (int i = 0; i < bytes; i++)
		c[i] = (unsigned char)(v >> (8 * i));
	put(b, c, (size_t)bytes);
}

/* A gzip member's header: method, flags and the fields they name. */
struct hdr {
	int method, flags;
	size_t extra, name, comment;    /* lengths */
	bool bad_hcrc;
};

static void
put_header(struct buf *b, const struct hdr *h)
{
	size_t start = b->n;
	unsigned char base[10] = { 0x1f, 0x8b, (unsigned char)h->method,
	    (unsigned char)h->flags, 0, 0, 0, 0, 0, 3 };
	unsigned char *fill;
	size_t most = h->extra > h->name ? h->extra : h->name;

	put(b, base, sizeof base);
	most = most > h->comment ? most : h->comment;
	fill = malloc(most + 1);
	memset(fill, 'x', most + 1);
	if (h->flags & F_EXTRA) {
		put_le(b, h->extra, 2);
		put(b, fill, h->extra);
	}
	fill[h->name] = 0;
	if (h->flags & F_NAME)
		put(b, fill, h->name + 1);
	fill[h->name] = 'x';
	fill[h->comment] = 0;
	if (h->flags & F_COMMENT)
		put(b, fill, h->comment + 1);
	free(fill);
	if (h->flags & F_HCRC)
		put_le(b, (crc32(0, b->p + start, (uInt)(b->n - start)) & 0xffff) ^ h->bad_hcrc, 2);
}

/* Raw deflate of data at level; a sync flush after the first cut bytes
 * (0: none), whose offset in b (after its empty stored block's 00 00 ff
 * ff) goes to *flush_end. */
static void
put_deflate(struct buf *b, const unsigned char *data, size_t n, int level, size_t cut,
    size_t *flush_end)
{
	unsigned char out[64 * 1024];
	z_stream s;
	int rc;

	memset(&s, 0, sizeof s);
	assert_int_equal(deflateInit2(&s, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY), Z_OK);
	s.next_in = (unsigned char *)data;
	for (int pass = cut > 0 ? 0 : 1; pass < 2; pass++) {
		s.avail_in = (uInt)(pass == 0 ? cut : n - (size_t)(s.next_in - data));
		do {
			s.next_out = out;
			s.avail_out = sizeof out;
			rc = deflate(&s, pass == 0 ? Z_SYNC_FLUSH : Z_FINISH);
			assert_true(rc == Z_OK || rc == Z_STREAM_END || rc == Z_BUF_ERROR);
			put(b, out, sizeof out - s.avail_out);
		} while (s.avail_out == 0);
		if (pass == 0 && flush_end != NULL)
			*flush_end = b->n;
	}
	assert_int_equal(rc, Z_STREAM_END);
	deflateEnd(&s);
}

static void
put_member(struct buf *b, const unsigned char *data, size_t n, int level)
{
	struct hdr h = { .method = 8 };

	put_header(b, &h);
	put_deflate(b, data, n, level, 0, NULL);
	put_le(b, crc32(0, data, (uInt)n), 4);
	put_le(b, (unsigned long)n, 4);
}

static const char *
tpath(void)
{
	static char p[512];

	snprintf(p, sizeof p, "%s/t.trace.gz", tmpdir);
	return p;
}

static void
write_file(const unsigned char *p, size_t n)
{
	FILE *fp = fopen(tpath(), "w");

	assert_non_null(fp);
	assert_int_equal(fwrite(p, 1, n, fp), n);
	assert_int_equal(fclose(fp), 0);
}

/* The file's bytes through tracez in pieces of step: *err is 0 at a clean
 * end, else the errno of the read that failed (after every byte before). */
static struct buf
read_steps(size_t step, int *err)
{
	struct errmsg e;
	struct tracez *z = tracez_open(tpath(), false, &e);
	struct buf got = { NULL, 0, 0 };
	char *piece = malloc(step);
	long n;

	if (z == NULL)
		fail_msg("%s", e.text);
	*err = 0;
	put(&got, "", 0);
	while ((n = tracez_read(z, piece, step)) != 0) {
		if (n < 0) {
			*err = errno;
			break;
		}
		assert_true((size_t)n <= step);
		put(&got, piece, (size_t)n);
	}
	/* after the end (or the error) it stays there */
	if (*err == 0)
		assert_int_equal(tracez_read(z, piece, step), 0);
	last_cut = tracez_cut(z);
	tracez_close(z);
	free(piece);
	return got;
}

/* The file reads as want[0..nwant) then ends with err, in pieces of
 * every size. */
static void
expect(const unsigned char *want, size_t nwant, int err, const char *what)
{
	static const size_t steps[] = { 1, 7, 4096, 65535, 1u << 20 };
	int got_err;

	for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
		struct buf got = read_steps(steps[i], &got_err);

		if (got.n != nwant || memcmp(got.p, want, nwant) != 0)
			fail_msg("%s, pieces of %zu: %zu bytes read, %zu expected", what,
			    steps[i], got.n, nwant);
		if (got_err != err)
			fail_msg("%s, pieces of %zu: error %d (%s), %d expected", what, steps[i],
			    got_err, strerror(got_err), err);
		free(got.p);
	}
}

static int
setup(void **state)
{
	struct buf t = { NULL, 0, 0 };
	char line[128];
	unsigned long x = 12345;

	(void)state;
	snprintf(tmpdir, sizeof tmpdir, "/tmp/test_tracez.XXXXXX");
	if (mkdtemp(tmpdir) == NULL)
		return -1;
	/* text like a trace's: repeated words, changing hex numbers; over
	 * ISA-L's window and tracez's output buffer (256 KiB) */
	while (t.n < 300 * 1024) {
		x = x * 6364136223846793005ul + 1442695040888963407ul;
		put(&t, line, (size_t)snprintf(line, sizeof line, "cpu %lu %lx %lx\n",
		    (x >> 60) & 0xff, x >> 40, (x >> 20) & 0xfff));
	}
	text = t.p;
	ntext = t.n;
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	unlink(tpath());
	rmdir(tmpdir);
	free(text);
	return 0;
}

static void
test_clean(void **state)
{
	static const int levels[] = { 0, 1, 6, 9 };

	(void)state;
	for (size_t i = 0; i < sizeof levels / sizeof levels[0]; i++) {
		struct buf b = { NULL, 0, 0 };
		char what[64];

		put_member(&b, text, ntext, levels[i]);
		write_file(b.p, b.n);
		snprintf(what, sizeof what, "a whole member at level %d", levels[i]);
		expect(text, ntext, 0, what);
		assert_false(last_cut);
		free(b.p);
	}
}

/* gzip -d reads members one after another as one stream (an empty one
 * too), at any level. */
static void
test_members(void **state)
{
	struct buf b = { NULL, 0, 0 };

	(void)state;
	put_member(&b, text, 1000, 6);
	put_member(&b, text, 0, 6);
	put_member(&b, text + 1000, 200000, 1);
	put_member(&b, text + 201000, ntext - 201000, 0);
	write_file(b.p, b.n);
	expect(text, ntext, 0, "four members");
	assert_false(last_cut);
	free(b.p);
}

/* After the last member: what does not start with gzip's first magic
 * byte is ignored; what does is read as a member (here refused). */
static void
test_trailing(void **state)
{
	static const struct {
		const char *tail;
		size_t n;
		int err;
		bool cut;       /* a member that starts and stops (gzip -d: "unexpected
		                 * end of file") */
	} tails[] = {
		{ "\0\0\0\0\0\0\0\0", 8, 0, false },
		{ "hello\n", 6, 0, false },
		{ "\x1f", 1, 0, true },                 /* a member's start, cut */
		{ "\x1f\x8b\x08", 3, 0, true },         /* the same */
		{ "\x1fhello", 6, EBADMSG, false },     /* not gzip's magic */
		{ "\x1f\x8b\x09\x00", 4, EBADMSG, false }, /* not deflate */
		{ "\x1f\x8b\x08\xe0", 4, EBADMSG, false }, /* reserved flags */
	};

	(void)state;
	for (size_t i = 0; i < sizeof tails / sizeof tails[0]; i++) {
		struct buf b = { NULL, 0, 0 };
		char what[64];

		put_member(&b, text, ntext, 6);
		put(&b, tails[i].tail, tails[i].n);
		write_file(b.p, b.n);
		snprintf(what, sizeof what, "trailing bytes #%zu", i);
		expect(text, ntext, tails[i].err, what);
		if (tails[i].err == 0 && last_cut != tails[i].cut)
			fail_msg("%s: cut %d, %d expected", what, last_cut, tails[i].cut);
		free(b.p);
	}
}

/* A wrong CRC-32 or length in the trailer: every byte, then EBADMSG. */
static void
test_trailer(void **state)
{
	(void)state;
	for (int k = 8; k >= 1; k -= 4) {
		struct buf b = { NULL, 0, 0 };

		put_member(&b, text, ntext, 6);
		b.p[b.n - (size_t)k] ^= 1;
		write_file(b.p, b.n);
		expect(text, ntext, EBADMSG, k == 8 ? "a wrong CRC-32" : "a wrong length");
		free(b.p);
	}
}

/* The optional header fields (an extra field of 64 KiB, a name longer
 * than a read, a comment, a header CRC: right and wrong), a method other
 * than deflate and reserved flags. */
static void
test_header(void **state)
{
	static const struct {
		struct hdr h;
		int err;
	} hs[] = {
		{ { 8, F_EXTRA, 65535, 0, 0, false }, 0 },
		{ { 8, F_EXTRA, 0, 0, 0, false }, 0 },
		{ { 8, F_NAME | F_COMMENT, 0, 300000, 1000, false }, 0 },
		{ { 8, F_HCRC | F_EXTRA | F_NAME | F_COMMENT, 3, 2, 1, false }, 0 },
		{ { 8, F_HCRC | F_NAME, 0, 200000, 0, true }, EBADMSG },
		{ { 9, 0, 0, 0, 0, false }, EBADMSG },
		{ { 8, 0x40, 0, 0, 0, false }, EBADMSG },
	};

	(void)state;
	for (size_t i = 0; i < sizeof hs / sizeof hs[0]; i++) {
		struct buf b = { NULL, 0, 0 };
		char what[64];

		put_header(&b, &hs[i].h);
		put_deflate(&b, text, ntext, 6, 0, NULL);
		put_le(&b, crc32(0, text, (uInt)ntext), 4);
		put_le(&b, (unsigned long)ntext, 4);
		write_file(b.p, b.n);
		snprintf(what, sizeof what, "header #%zu", i);
		expect(text, hs[i].err == 0 ? ntext : 0, hs[i].err, what);
		free(b.p);
	}
}

/* Damaged data where both inflaters stop at the same byte: the stored
 * block of a sync flush (as the recorder writes after each sample) whose
 * length's complement is wrong. Every byte before it, then EBADMSG. */
static void
test_damaged(void **state)
{
	struct buf b = { NULL, 0, 0 };
	struct hdr h = { .method = 8 };
	size_t cut = 200001, flush_end = 0;

	(void)state;
	put_header(&b, &h);
	put_deflate(&b, text, ntext, 6, cut, &flush_end);
	put_le(&b, crc32(0, text, (uInt)ntext), 4);
	put_le(&b, (unsigned long)ntext, 4);
	assert_memory_equal(b.p + flush_end - 4, "\0\0\xff\xff", 4);
	write_file(b.p, flush_end);
	expect(text, cut, 0, "cut after a sync flush");
	b.p[flush_end - 1] = 0xfe;
	write_file(b.p, b.n);
	expect(text, cut, EBADMSG, "a stored block's length damaged");
	free(b.p);
}

/* A member cut anywhere (a recorder killed): its longest prefix, the same
 * in pieces of 1 byte as of 1 MiB, growing with the cut, no error. The
 * first 300 bytes (from the magic's two: one byte is a plain file), the
 * last 300 and some in between. */
static void
test_cuts(void **state)
{
	struct buf b = { NULL, 0, 0 };
	size_t last = 0, len;
	int err;

	(void)state;
	put_member(&b, text, 20000, 6);
	put_member(&b, text + 20000, 20000, 9);
	for (len = 2; len <= b.n; len += len < 300 || len + 300 > b.n ? 1 : 997) {
		struct buf one, big;

		write_file(b.p, len);
		one = read_steps(1, &err);
		if (err != 0)
			fail_msg("cut at %zu of %zu: %s", len, b.n, strerror(err));
		big = read_steps(1u << 20, &err);
		if (err != 0)
			fail_msg("cut at %zu of %zu: %s", len, b.n, strerror(err));
		if (one.n != big.n || memcmp(one.p, big.p, one.n) != 0)
			fail_msg("cut at %zu of %zu: %zu bytes in pieces of 1, %zu in one", len,
			    b.n, one.n, big.n);
		if (big.n < last || big.n > 40000 || memcmp(big.p, text, big.n) != 0)
			fail_msg("cut at %zu of %zu: %zu bytes, not a prefix after %zu", len, b.n,
			    big.n, last);
		/* cut anywhere before the second member's trailer ends: cut */
		if (last_cut != (len < b.n))
			fail_msg("cut at %zu of %zu: tracez_cut says %d", len, b.n, last_cut);
		last = big.n;
		free(one.p);
		free(big.p);
	}
	assert_int_equal(last, 40000);
	free(b.p);
}

/* A plain file and a caller's stream: their bytes as they are. */
static void
test_plain(void **state)
{
	struct tracez *z;
	FILE *fp;
	char *piece = malloc(ntext + 1);
	long n;

	(void)state;
	write_file(text, ntext);
	expect(text, ntext, 0, "a plain file");
	fp = fopen(tpath(), "r");
	assert_non_null(fp);
	z = tracez_stream(fp);
	n = tracez_read(z, piece, ntext + 1);
	assert_int_equal(n, (long)ntext);
	assert_memory_equal(piece, text, ntext);
	assert_int_equal(tracez_read(z, piece, ntext), 0);
	assert_false(tracez_cut(z));
	tracez_close(z);
	assert_int_equal(fclose(fp), 0);
	free(piece);
	/* a plain file ending anywhere: no gzip, no cut */
	write_file(text, 1000);
	expect(text, 1000, 0, "a plain file cut");
	assert_false(last_cut);
}

/* A FIFO: refused at once (no writer waited on) unless read once; then
 * its bytes, gzip told by its first two (read, as a FIFO has no pread):
 * a whole member, one cut before its trailer, a plain text, and one byte. */
static void
test_fifo(void **state)
{
	static const size_t lens[] = { 0, 8, 0, 1 };    /* bytes dropped at the end */
	char fifo[300];
	struct errmsg e;
	struct buf b = { NULL, 0, 0 };

	(void)state;
	snprintf(fifo, sizeof fifo, "%s/f", tmpdir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	e.text[0] = '\0';
	assert_null(tracez_open(fifo, false, &e));
	assert_non_null(strstr(e.text, "is a FIFO (a pipe): the live view cannot replay it, as "
	    "it reads the trace again to go back; save the trace to a file and replay that, or "
	    "replay the pipe in batch mode (-b)"));
	put_member(&b, text, 50000, 6);
	for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
		const unsigned char *p = i < 2 ? b.p : text;
		size_t n = i < 2 ? b.n - lens[i] : i == 2 ? 50000 : 1;
		struct tracez *z;
		struct buf got = { NULL, 0, 0 };
		char piece[4096];
		pid_t pid;
		long k;
		int st;

		/* the writer comes after the reader opened it */
		if ((pid = fork()) == 0) {
			int fd;

			usleep(100000);
			fd = open(fifo, O_WRONLY);
			_exit(fd < 0 || write(fd, p, n) != (ssize_t)n ? 1 : 0);
		}
		assert_true(pid > 0);
		z = tracez_open(fifo, true, &e);
		if (z == NULL)
			fail_msg("%s", e.text);
		put(&got, "", 0);
		while ((k = tracez_read(z, piece, sizeof piece)) > 0)
			put(&got, piece, (size_t)k);
		assert_int_equal(k, 0);
		assert_int_equal(tracez_cut(z), i == 1);
		tracez_close(z);
		assert_int_equal(waitpid(pid, &st, 0), pid);
		assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
		assert_int_equal(got.n, i < 2 ? 50000 : n);
		assert_memory_equal(got.p, text, got.n);
		free(got.p);
	}
	free(b.p);
	unlink(fifo);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clean),
		cmocka_unit_test(test_members),
		cmocka_unit_test(test_trailing),
		cmocka_unit_test(test_trailer),
		cmocka_unit_test(test_header),
		cmocka_unit_test(test_damaged),
		cmocka_unit_test(test_cuts),
		cmocka_unit_test(test_fifo),
		cmocka_unit_test(test_plain),
	};

#ifdef HAVE_ISAL
	printf("# the inflater: ISA-L\n");
#else
	printf("# the inflater: zlib\n");
#endif
	return cmocka_run_group_tests(tests, setup, teardown);
}
