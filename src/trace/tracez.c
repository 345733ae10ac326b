/* tracez.c: a trace's bytes a block at a time, plain or gzip. The reader
 * (trace_read.c) parses lines in place in its buffer, so no byte goes
 * through stdio one call at a time. A gzip trace is inflated by the
 * inflater configure chose (tracez_inflate.h): Intel ISA-L's igzip where
 * it found it (tracez_isal.c: a replay's inflate in about a fifth of
 * zlib's time), else zlib's inflate (tracez_zlib.c). Both hand out the
 * same bytes and stop at the same errors (tests/cli/test_isal_off.sh): a
 * stream that stops is read up to there, gzip members one after another
 * are read as one, anything after the last member that does not start
 * like one is ignored (as gzip -d does), damaged data or a wrong checksum
 * is EBADMSG after every byte inflated before it. Here: the file, its
 * compressed input and where that ends, for both. */
#include "config.h"
#include "trace/tracez.h"
#include "trace/tracez_inflate.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/i18n.h"
#include "util/xalloc.h"

struct tracez {
	struct tz_input in;     /* the file; gzip: its compressed input */
	FILE *fp;               /* a caller's stream, or NULL */
	bool gz;
	struct tz_inflater *inf;        /* gzip: the inflater */
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

/* The next piece of the file into the input buffer; -1 with in->err on a
 * read error (end of file: in->eof, nothing in the buffer). */
static int
refill(struct tz_input *in)
{
	long n = read_fd(in->fd, in->buf, GZ_IN);

	if (n < 0) {
		in->err = errno;
		return -1;
	}
	in->eof = n == 0;
	in->next = in->buf;
	in->avail = (unsigned)n;
	return 0;
}

int
tz_input_over(struct tz_input *in)
{
	if (in->avail == 0 && !in->eof && refill(in) != 0)
		return -1;
	return in->avail == 0 && in->eof && !in->full;
}

bool
tz_input_next_member(struct tz_input *in)
{
	if (in->avail == 0 && !in->eof && refill(in) != 0)
		return false;
	if (in->avail == 0 || in->next[0] != 0x1f) {
		in->done = true;
		return false;
	}
	return true;
}

long
tracez_read(struct tracez *z, char *buf, size_t len)
{
	size_t got;

	if (z->gz) {
		got = tz_inflater_read(z->inf, &z->in, buf, len);
		/* an error is kept until every byte inflated before it was
		 * handed out */
		if (got == 0 && z->in.err != 0) {
			errno = z->in.err;
			return -1;
		}
		return (long)got;
	}
	if (z->fp != NULL) {
		got = fread(buf, 1, len, z->fp);
		if (got == 0 && ferror(z->fp)) {
			if (errno == 0)
				errno = EIO;
			return -1;
		}
		return (long)got;
	}
	return read_fd(z->in.fd, buf, len);
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
	z->in.fd = fd;
	if (pread(fd, magic, 2, 0) != 2 || magic[0] != 0x1f || magic[1] != 0x8b)
		return z;
	if ((z->inf = tz_inflater_new()) == NULL) {
		errmsg_set(e, _("cannot read the compressed trace %s: out of memory"), path);
		close(fd);
		free(z);
		return NULL;
	}
	z->gz = true;
	z->in.buf = xmalloc(GZ_IN);
	return z;
}

struct tracez *
tracez_stream(FILE *fp)
{
	struct tracez *z = xcalloc(1, sizeof *z);

	z->in.fd = -1;
	z->fp = fp;
	return z;
}

void
tracez_close(struct tracez *z)
{
	if (z == NULL)
		return;
	if (z->gz)
		tz_inflater_free(z->inf);
	if (z->in.fd >= 0)
		close(z->in.fd);
	free(z->in.buf);
	free(z);
}
