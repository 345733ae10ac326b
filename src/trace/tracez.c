/* tracez.c: plain or gzip traces behind one FILE. A gzip trace is read
 * through zlib's gzFile wrapped in a stdio stream (fopencookie), so the
 * reader's line parser does not know the difference. */
#include "config.h"
#include "trace/tracez.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "util/i18n.h"

static ssize_t
gz_cookie_read(void *cookie, char *buf, size_t size)
{
	gzFile gz = cookie;
	int n, zerr;

	if (size > 1u << 30)
		size = 1u << 30;
	n = gzread(gz, buf, (unsigned)size);
	if (n >= 0)
		return n;
	gzerror(gz, &zerr);
	/* "unexpected end of file": the writer stopped after a sync flush
	 * (killed, or a full disk): the data so far is good. */
	if (zerr == Z_BUF_ERROR)
		return 0;
	/* Corrupt deflate data or a wrong CRC or length: the reader names it. */
	if (zerr == Z_DATA_ERROR)
		errno = EBADMSG;
	else
		errno = zerr == Z_ERRNO && errno != 0 ? errno : EIO;
	return -1;
}

static int
gz_cookie_close(void *cookie)
{
	gzclose_r(cookie);
	return 0;
}

FILE *
tracez_open(const char *path, struct errmsg *e)
{
	cookie_io_functions_t io = { .read = gz_cookie_read, .close = gz_cookie_close };
	unsigned char magic[2];
	gzFile gz;
	FILE *fp;
	int fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		errmsg_set(e, _("cannot open the trace %s: %s"), path, strerror(errno));
		return NULL;
	}
	if (pread(fd, magic, 2, 0) != 2 || magic[0] != 0x1f || magic[1] != 0x8b) {
		if ((fp = fdopen(fd, "r")) == NULL) {
			errmsg_set(e, _("cannot open the trace %s: %s"), path, strerror(errno));
			close(fd);
		}
		return fp;
	}
	if ((gz = gzdopen(fd, "rb")) == NULL) {
		errmsg_set(e, _("cannot read the compressed trace %s: out of memory"), path);
		close(fd);
		return NULL;
	}
	if ((fp = fopencookie(gz, "r", io)) == NULL) {
		errmsg_set(e, _("cannot read the compressed trace %s: %s"), path, strerror(errno));
		gzclose_r(gz);
	}
	return fp;
}
