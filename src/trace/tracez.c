/* tracez.c: a trace's bytes a block at a time, plain or gzip. The reader
 * (trace_read.c) parses lines in place in its buffer, so no byte goes
 * through stdio one call at a time. A gzip trace is inflated by Intel
 * ISA-L's igzip where configure found it (HAVE_ISAL: a replay's inflate
 * in about a fifth of zlib's time), else by zlib's inflate straight into
 * the reader's buffer. Both hand out the same bytes and stop at the same
 * errors (tests/cli/test_isal_off.sh): a stream that stops is read up to
 * there, gzip members one after another are read as one, anything after
 * the last member that does not start like one is ignored (as gzip -d
 * does), damaged data or a wrong checksum is EBADMSG after every byte
 * inflated before it. ISA-L reads no environment and no file. */
#include "config.h"
#include "trace/tracez.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#ifdef HAVE_ISAL
#include <isa-l/igzip_lib.h>
#endif

#include "util/i18n.h"
#include "util/xalloc.h"

/* Compressed bytes read at a time. */
#define GZ_IN (128u * 1024)

#ifdef HAVE_ISAL
/* Inflated bytes kept for the reader. ISA-L inflates the start of a call
 * into its own window first and, on damaged data, hands out only what
 * fits the output it was given, so the output is never smaller than that
 * window: every byte before the damage reaches the reader. */
#define GZ_OUT (256u * 1024)
_Static_assert(GZ_OUT >= sizeof(((struct inflate_state *)0)->tmp_out_buffer),
    "GZ_OUT holds ISA-L's window");

/* A gzip member's header (RFC 1952), read a byte at a time as zlib reads
 * it: the same headers are refused at the same byte (a header that
 * stops is a file that stops). */
enum hdr_at { HDR_BASE, HDR_XLEN, HDR_EXTRA, HDR_NAME, HDR_COMMENT, HDR_HCRC, HDR_DONE };

#define GZF_HCRC     0x02u
#define GZF_EXTRA    0x04u
#define GZF_NAME     0x08u
#define GZF_COMMENT  0x10u
#define GZF_RESERVED 0xe0u

struct gzhdr {
	enum hdr_at at;
	unsigned pos;           /* bytes of this part read */
	unsigned method, flags;
	unsigned long count;    /* the extra field's length left; the header CRC */
	unsigned long crc;      /* CRC-32 of the header so far */
};
#endif

struct tracez {
	int fd;         /* the file (plain or gzip), or -1 */
	FILE *fp;       /* a caller's stream, or NULL */
	bool gz;
	bool in_eof;    /* read(2) said end of file */
	bool done;      /* the compressed data ended (or stopped) */
	bool full;      /* the last inflate call filled its output: it may
	                 * hold more without another input byte */
	int err;        /* an error met after some bytes were handed out */
	unsigned char *in;
#ifdef HAVE_ISAL
	struct inflate_state *is;
	struct gzhdr hd;
	unsigned char *out;
	size_t out_at, out_end; /* bytes of out not yet handed out */
#else
	bool zinit;     /* zs is initialised (inflateEnd at close) */
	z_stream zs;
#endif
};

static long
read_fd(int fd, void *buf, size_t len)
{
	ssize_t n;

	do
		n = read(fd, buf, len);
	while (n < 0 && errno == EINTR);
	return (long)n;
}

#ifdef HAVE_ISAL
#define AVAIL_IN(z) ((z)->is->avail_in)
#define NEXT_IN(z) ((z)->is->next_in)
#else
#define AVAIL_IN(z) ((z)->zs.avail_in)
#define NEXT_IN(z) ((z)->zs.next_in)
#endif

/* The next piece of the file into the input buffer; -1 with z->err on a
 * read error (end of file: z->in_eof, nothing in the buffer). */
static int
refill(struct tracez *z)
{
	long n = read_fd(z->fd, z->in, GZ_IN);

	if (n < 0) {
		z->err = errno;
		return -1;
	}
	z->in_eof = n == 0;
	NEXT_IN(z) = z->in;
	AVAIL_IN(z) = (unsigned)n;
	return 0;
}

/* Whether the input is used up: the file stops inside the stream (no
 * trailer) once the inflater has nothing more for want of output room.
 * A writer killed after a sync flush: the data so far is good. Refills
 * first (-1: a read error, in z->err). */
static int
input_over(struct tracez *z)
{
	if (AVAIL_IN(z) == 0 && !z->in_eof && refill(z) != 0)
		return -1;
	return AVAIL_IN(z) == 0 && z->in_eof && !z->full;
}

/* After a member's trailer: another gzip member may follow (concatenated
 * files); anything else after it is ignored, as gzip -d does. true when
 * another one starts. */
static bool
next_member(struct tracez *z)
{
	if (AVAIL_IN(z) == 0 && !z->in_eof && refill(z) != 0)
		return false;
	if (AVAIL_IN(z) == 0 || NEXT_IN(z)[0] != 0x1f) {
		z->done = true;
		return false;
	}
	return true;
}

#ifdef HAVE_ISAL
/* Where the header goes after the part it is in (flags: which parts it has). */
static void
hdr_next(struct gzhdr *h)
{
	static const unsigned need[] = {
		[HDR_XLEN] = GZF_EXTRA, [HDR_EXTRA] = GZF_EXTRA, [HDR_NAME] = GZF_NAME,
		[HDR_COMMENT] = GZF_COMMENT, [HDR_HCRC] = GZF_HCRC,
	};

	h->pos = 0;
	do
		h->at++;
	while (h->at != HDR_DONE &&
	    ((h->flags & need[h->at]) == 0 || (h->at == HDR_EXTRA && h->count == 0)));
}

/* The fixed part: magic (checked with its second byte), method and flags
 * (with the flags' byte), time, extra flags, system. */
static int
hdr_base(struct gzhdr *h, unsigned c)
{
	if (h->pos == 1 && c != 0x8b)
		return -1;
	if (h->pos == 2)
		h->method = c;
	if (h->pos == 3) {
		h->flags = c;
		if (h->method != Z_DEFLATED || (c & GZF_RESERVED) != 0)
			return -1;
	}
	if (++h->pos == 10)
		hdr_next(h);
	return 0;
}

/* One byte of the header: -1 where zlib refuses it (not gzip's magic, a
 * method other than deflate, reserved flags, a wrong header CRC). */
static int
hdr_byte(struct gzhdr *h, unsigned char c)
{
	if (h->at != HDR_HCRC)
		h->crc = crc32(h->crc, &c, 1);
	switch (h->at) {
	case HDR_BASE:
		return hdr_base(h, c);
	case HDR_XLEN:
		h->count |= (unsigned long)c << (8 * h->pos);
		if (++h->pos == 2)
			hdr_next(h);
		return 0;
	case HDR_EXTRA:
		if (--h->count == 0)
			hdr_next(h);
		return 0;
	case HDR_NAME:
	case HDR_COMMENT:
		if (c == 0)
			hdr_next(h);
		return 0;
	case HDR_HCRC:
		h->count |= (unsigned long)c << (8 * h->pos);
		if (++h->pos < 2)
			return 0;
		if (h->count != (h->crc & 0xffff))
			return -1;
		hdr_next(h);
		return 0;
	case HDR_DONE:
		break;
	}
	return 0;
}

/* A new member: its header first, then ISA-L on the deflate data, which
 * checks the trailer's CRC-32 and length (ISAL_GZIP_NO_HDR_VER). */
static void
member_start(struct tracez *z)
{
	memset(&z->hd, 0, sizeof z->hd);
	isal_inflate_reset(z->is);
	z->is->crc_flag = ISAL_GZIP_NO_HDR_VER;
}

static int
isal_errno(int rc)
{
	switch (rc) {
	case ISAL_INVALID_BLOCK:
	case ISAL_INVALID_SYMBOL:
	case ISAL_INVALID_LOOKBACK:
	case ISAL_INVALID_WRAPPER:
	case ISAL_UNSUPPORTED_METHOD:
	case ISAL_INCORRECT_CHECKSUM:
	case ISAL_NEED_DICT:
		return EBADMSG;         /* corrupt data, or a wrong checksum */
	default:
		return EIO;
	}
}

/* The member's deflate data into out (out_at, out_end). */
static void
inflate_some(struct tracez *z)
{
	struct inflate_state *is = z->is;
	uint32_t in0 = is->avail_in;
	int rc;

	is->next_out = z->out;
	is->avail_out = GZ_OUT;
	rc = isal_inflate(is);
	z->out_at = 0;
	z->out_end = GZ_OUT - is->avail_out;
	z->full = is->avail_out == 0;
	if (rc < 0 || rc == ISAL_NEED_DICT)
		z->err = isal_errno(rc);
	else if (is->block_state == ISAL_BLOCK_FINISH) {
		if (next_member(z))
			member_start(z);
	} else if (z->out_end == 0 && is->avail_in == in0 && !z->in_eof)
		z->err = EIO;   /* no progress (never seen): CPU stays bounded */
}

/* One step: a piece of the header, or of the data, or the end. */
static void
isal_step(struct tracez *z)
{
	struct inflate_state *is = z->is;
	int over = input_over(z);

	if (over != 0) {
		z->done = over > 0;
		return;
	}
	if (z->hd.at != HDR_DONE) {
		for (; is->avail_in > 0 && z->hd.at != HDR_DONE; is->next_in++, is->avail_in--)
			if (hdr_byte(&z->hd, is->next_in[0]) != 0) {
				z->err = EBADMSG;
				return;
			}
		return;
	}
	inflate_some(z);
}

/* Inflated bytes into buf: what out holds, then more. An error is kept
 * (err) until every byte inflated before it was handed out. */
static long
gz_read(struct tracez *z, char *buf, size_t len)
{
	size_t n = 0, k;

	while (n < len) {
		if (z->out_at < z->out_end) {
			k = z->out_end - z->out_at;
			if (k > len - n)
				k = len - n;
			memcpy(buf + n, z->out + z->out_at, k);
			z->out_at += k;
			n += k;
			continue;
		}
		if (z->done || z->err != 0)
			break;
		isal_step(z);
	}
	if (n == 0 && z->err != 0) {
		errno = z->err;
		return -1;
	}
	return (long)n;
}

static bool
gz_init(struct tracez *z)
{
	z->is = xmalloc(sizeof *z->is);
	isal_inflate_init(z->is);
	member_start(z);
	z->out = xmalloc(GZ_OUT);
	return true;
}

static void
gz_end(struct tracez *z)
{
	free(z->is);
	free(z->out);
}
#else /* !HAVE_ISAL: zlib */

/* What inflate said. */
static void
zlib_rc(struct tracez *z, int rc)
{
	if (rc == Z_STREAM_END) {
		if (next_member(z))
			inflateReset(&z->zs);
	} else if (rc == Z_DATA_ERROR || rc == Z_NEED_DICT) {
		z->err = EBADMSG;       /* corrupt data, or a wrong checksum */
	} else if (rc == Z_MEM_ERROR) {
		z->err = ENOMEM;
	} else if (rc != Z_OK && rc != Z_BUF_ERROR) {
		z->err = EIO;
	}
}

/* Inflate into buf. Not gzread: on damaged data it drops what it inflated
 * in the same call, and the reader must get every byte before the damage.
 * An error is therefore kept (err) until those bytes were handed out. */
static long
gz_read(struct tracez *z, char *buf, size_t len)
{
	z_stream *zs = &z->zs;
	long n;
	int over, rc;

	if (len > 1u << 30)
		len = 1u << 30;
	zs->next_out = (unsigned char *)buf;
	zs->avail_out = (uInt)len;
	while (zs->avail_out > 0 && !z->done && z->err == 0) {
		if ((over = input_over(z)) != 0) {
			z->done = over > 0;
			break;
		}
		rc = inflate(zs, Z_NO_FLUSH);
		z->full = zs->avail_out == 0;
		zlib_rc(z, rc);
	}
	n = (long)(len - zs->avail_out);
	if (n == 0 && z->err != 0) {
		errno = z->err;
		return -1;
	}
	return n;
}

/* gzip only (16 + 15): the magic said so */
static bool
gz_init(struct tracez *z)
{
	if (inflateInit2(&z->zs, 16 + MAX_WBITS) != Z_OK)
		return false;
	z->zinit = true;
	return true;
}

static void
gz_end(struct tracez *z)
{
	if (z->zinit)
		inflateEnd(&z->zs);
}
#endif

long
tracez_read(struct tracez *z, char *buf, size_t len)
{
	size_t got;

	if (z->gz)
		return gz_read(z, buf, len);
	if (z->fp != NULL) {
		got = fread(buf, 1, len, z->fp);
		if (got == 0 && ferror(z->fp)) {
			if (errno == 0)
				errno = EIO;
			return -1;
		}
		return (long)got;
	}
	return read_fd(z->fd, buf, len);
}

static const char *
file_kind(mode_t mode)
{
	if (S_ISDIR(mode))
		return _("a directory");
	if (S_ISFIFO(mode))
		return _("a FIFO");
	if (S_ISCHR(mode) || S_ISBLK(mode))
		return _("a device");
	if (S_ISSOCK(mode))
		return _("a socket");
	return _("not a regular file");
}

struct tracez *
tracez_open(const char *path, struct errmsg *e)
{
	unsigned char magic[2];
	struct tracez *z;
	struct stat st;
	int fd;

	/* O_NONBLOCK: opening a FIFO must not wait for a writer before it
	 * can be refused. */
	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) < 0) {
		if (errno == ENOENT || errno == ENOTDIR)
			errmsg_set(e, _("cannot open the trace %s: %s; give the path of a file "
			    "httop --record wrote"), path, strerror(errno));
		else
			errmsg_set(e, _("cannot open the trace %s: %s"), path, strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) != 0) {
		errmsg_set(e, _("cannot open the trace %s: %s"), path, strerror(errno));
		close(fd);
		return NULL;
	}
	if (!S_ISREG(st.st_mode)) {
		errmsg_set(e, _("%s is %s, not a trace file: give the file --record wrote "
		    "(a compressed one is read as it is)"), path, file_kind(st.st_mode));
		close(fd);
		return NULL;
	}
	(void)fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	z = xcalloc(1, sizeof *z);
	z->fd = fd;
	if (pread(fd, magic, 2, 0) != 2 || magic[0] != 0x1f || magic[1] != 0x8b)
		return z;
	if (!gz_init(z)) {
		errmsg_set(e, _("cannot read the compressed trace %s: out of memory"), path);
		close(fd);
		free(z);
		return NULL;
	}
	z->gz = true;
	z->in = xmalloc(GZ_IN);
	return z;
}

struct tracez *
tracez_stream(FILE *fp)
{
	struct tracez *z = xcalloc(1, sizeof *z);

	z->fd = -1;
	z->fp = fp;
	return z;
}

void
tracez_close(struct tracez *z)
{
	if (z == NULL)
		return;
	if (z->gz)
		gz_end(z);
	if (z->fd >= 0)
		close(z->fd);
	free(z->in);
	free(z);
}
