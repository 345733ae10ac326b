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
#include "trace/trace.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <poll.h>
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
	/* A FIFO: its first bytes, read to tell gzip from plain (a FIFO
	 * has no pread), handed out first. */
	unsigned char head[2];
	unsigned nhead, head_at;
};

/* A pipe's writer may stall for good (a recording paused, a remote end
 * hung): the wait for its bytes is also woken by wake_fd (an ending
 * signal), which is then a read error EINTR (the caller asks
 * signals_caught()). A file never waits. */
static int wake_fd = -1;

void
trace_wake_fd(int fd)
{
	wake_fd = fd;
}

static long
read_fd(const struct tz_input *in, void *buf, size_t len)
{
	struct pollfd pfd[2] = {
		{ .fd = in->fd, .events = POLLIN, .revents = 0 },
		{ .fd = wake_fd, .events = POLLIN, .revents = 0 },
	};
	ssize_t n;

	while (in->pipe) {
		if (poll(pfd, pfd[1].fd >= 0 ? 2 : 1, -1) < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (pfd[1].revents & POLLIN) {
			errno = EINTR;
			return -1;
		}
		if (pfd[0].revents != 0)
			break;
	}
	do
		n = read(in->fd, buf, len);
	while (n < 0 && errno == EINTR);
	return (long)n;
}

/* The next piece of the file into the input buffer; -1 with in->err on a
 * read error (end of file: in->eof, nothing in the buffer). */
static int
refill(struct tz_input *in)
{
	long n = read_fd(in, in->buf, GZ_IN);

	if (n < 0) {
		in->err = errno;
		return -1;
	}
	in->eof = n == 0;
	in->next = in->buf;
	in->avail = (unsigned)n;
	return 0;
}

bool
tz_input_dry(const struct tz_input *in)
{
	struct pollfd pfd = { .fd = in->fd, .events = POLLIN, .revents = 0 };

	if (!in->pipe || in->avail > 0 || in->eof)
		return false;
	return poll(&pfd, 1, 0) == 0;
}

int
tz_input_over(struct tz_input *in)
{
	if (in->avail == 0 && !in->eof && refill(in) != 0)
		return -1;
	if (in->avail == 0 && in->eof && !in->full) {
		in->cut = true;
		return 1;
	}
	return 0;
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
	if (z->head_at < z->nhead) {
		got = z->nhead - z->head_at;
		if (got > len)
			got = len;
		memcpy(buf, z->head + z->head_at, got);
		z->head_at += (unsigned)got;
		return (long)got;
	}
	return read_fd(&z->in, buf, len);
}

bool
tracez_cut(const struct tracez *z)
{
	return z->gz && z->in.cut;
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

/* The first two bytes of a FIFO (fewer where it ends first), after
 * waiting for its writer: opened without blocking, a FIFO reads as
 * ended until a writer opens it. -1 with errno on a read error. */
static int
fifo_head(struct tracez *z)
{
	long n;

	(void)fcntl(z->in.fd, F_SETFL, fcntl(z->in.fd, F_GETFL) & ~O_NONBLOCK);
	z->in.pipe = true;
	while (z->nhead < sizeof z->head) {
		if ((n = read_fd(&z->in, z->head + z->nhead, sizeof z->head - z->nhead)) < 0)
			return -1;
		if (n == 0)
			break;
		z->nhead += (unsigned)n;
	}
	return 0;
}

struct tracez *
tracez_open(const char *path, bool once, struct errmsg *e)
{
	unsigned char magic[2];
	struct tracez *z;
	struct stat st;
	bool fifo;
	int fd;

	/* O_NONBLOCK: opening a FIFO must not wait for a writer before it
	 * can be refused. The file is opened with the rights httop runs
	 * with then (a set-ID httop has given its privilege up). */
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
	fifo = S_ISFIFO(st.st_mode);
	if (fifo && !once) {
		errmsg_set(e, _("%s is a FIFO (a pipe): the live view cannot replay it, as it "
		    "reads the trace again to go back; save the trace to a file and replay that, "
		    "or replay the pipe in batch mode (-b)"), path);
		close(fd);
		return NULL;
	}
	if (!S_ISREG(st.st_mode) && !fifo) {
		errmsg_set(e, _("%s is %s, not a trace file: give the file --record wrote "
		    "(a compressed one is read as it is)"), path, file_kind(st.st_mode));
		close(fd);
		return NULL;
	}
	z = xcalloc(1, sizeof *z);
	z->in.fd = fd;
	if (fifo) {
		if (fifo_head(z) != 0) {
			errmsg_set(e, _("cannot read the trace %s: %s"), path, strerror(errno));
			tracez_close(z);
			return NULL;
		}
		memcpy(magic, z->head, sizeof magic);
		if (z->nhead != 2 || magic[0] != 0x1f || magic[1] != 0x8b)
			return z;
	} else {
		(void)fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
		if (pread(fd, magic, 2, 0) != 2 || magic[0] != 0x1f || magic[1] != 0x8b)
			return z;
	}
	if ((z->inf = tz_inflater_new()) == NULL) {
		errmsg_set(e, _("cannot read the compressed trace %s: out of memory"), path);
		tracez_close(z);
		return NULL;
	}
	z->gz = true;
	z->in.buf = xmalloc(GZ_IN);
	/* A FIFO's magic bytes, read already: the inflater's first input */
	z->in.next = z->in.buf;
	z->in.avail = z->nhead;
	memcpy(z->in.buf, z->head, z->nhead);
	z->head_at = z->nhead;
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
