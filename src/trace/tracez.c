/* tracez.c: a trace's bytes a block at a time, plain or gzip (zlib's
 * inflate straight into the reader's buffer). The reader (trace_read.c)
 * parses lines in place there, so no byte goes through stdio one call at
 * a time. */
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

#include "util/i18n.h"
#include "util/xalloc.h"

/* Compressed bytes read at a time. */
#define GZ_IN (128u * 1024)

struct tracez {
	int fd;         /* the file (plain or gzip), or -1 */
	FILE *fp;       /* a caller's stream, or NULL */
	bool gz;
	bool zinit;     /* zs is initialised (inflateEnd at close) */
	bool in_eof;    /* read(2) said end of file */
	bool done;      /* the compressed data ended (or stopped) */
	int err;        /* an error met after some bytes were handed out */
	z_stream zs;
	unsigned char *in;
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
	z->zs.next_in = z->in;
	z->zs.avail_in = (uInt)n;
	return 0;
}

/* Inflate into buf. Not gzread: on damaged data it drops what it inflated
 * in the same call, and the reader must get every byte before the damage.
 * An error is therefore kept (err) until those bytes were handed out. */
static long
gz_read(struct tracez *z, char *buf, size_t len)
{
	z_stream *zs = &z->zs;
	long n;
	int rc;

	if (len > 1u << 30)
		len = 1u << 30;
	zs->next_out = (unsigned char *)buf;
	zs->avail_out = (uInt)len;
	while (zs->avail_out > 0 && !z->done && z->err == 0) {
		if (zs->avail_in == 0 && !z->in_eof && refill(z) != 0)
			break;
		if (zs->avail_in == 0) {
			/* The file stops inside the stream (no trailer): a writer
			 * killed after a sync flush; the data so far is good. */
			z->done = true;
			break;
		}
		rc = inflate(zs, Z_NO_FLUSH);
		if (rc == Z_STREAM_END) {
			/* Another gzip member may follow (concatenated files);
			 * anything else after the trailer is ignored, as gzip -d
			 * does. */
			if (zs->avail_in == 0 && !z->in_eof && refill(z) != 0)
				break;
			if (zs->avail_in == 0 || zs->next_in[0] != 0x1f)
				z->done = true;
			else
				inflateReset(zs);
		} else if (rc == Z_DATA_ERROR || rc == Z_NEED_DICT) {
			z->err = EBADMSG;       /* corrupt data, or a wrong checksum */
		} else if (rc == Z_MEM_ERROR) {
			z->err = ENOMEM;
		} else if (rc != Z_OK && rc != Z_BUF_ERROR) {
			z->err = EIO;
		}
	}
	n = (long)(len - zs->avail_out);
	if (n == 0 && z->err != 0) {
		errno = z->err;
		return -1;
	}
	return n;
}

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
	/* gzip only (16 + 15): the magic said so */
	if (inflateInit2(&z->zs, 16 + MAX_WBITS) != Z_OK) {
		errmsg_set(e, _("cannot read the compressed trace %s: out of memory"), path);
		close(fd);
		free(z);
		return NULL;
	}
	z->gz = z->zinit = true;
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
	if (z->zinit)
		inflateEnd(&z->zs);
	if (z->fd >= 0)
		close(z->fd);
	free(z->in);
	free(z);
}
