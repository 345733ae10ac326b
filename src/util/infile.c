/* infile.c: files the user named, read with limits (infile.h). */
#include "config.h"
#include "util/infile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/i18n.h"
#include "util/xalloc.h"

const char *
infile_size_text(off_t bytes, char *buf, size_t size)
{
	unsigned long long b = (unsigned long long)bytes;

	if (b >= 1024ull * 1024 && b % (1024ull * 1024) == 0)
		snprintf(buf, size, _("%llu MiB"), b / (1024ull * 1024));
	else if (b >= 1024 && b % 1024 == 0)
		snprintf(buf, size, _("%llu KiB"), b / 1024);
	else
		snprintf(buf, size, ngettext("%llu byte", "%llu bytes", (unsigned long)b), b);
	return buf;
}

/* One line saying why `st` is not something httop reads as a file. */
static int
refuse_type(const struct stat *st, const char *path, const char *what, struct errmsg *e)
{
	errno = EINVAL;
	if (S_ISFIFO(st->st_mode))
		return errmsg_set(e, _("the %s %s is a named pipe, not a file: httop reads only "
		    "regular files; save the data to a file and give that"), what, path);
	if (S_ISCHR(st->st_mode) || S_ISBLK(st->st_mode))
		return errmsg_set(e, _("the %s %s is a device, not a file: httop reads only regular "
		    "files; give a file"), what, path);
	if (S_ISDIR(st->st_mode))
		return errmsg_set(e, _("the %s %s is a directory: give a file"), what, path);
	return errmsg_set(e, _("the %s %s is not a regular file: give a file"), what, path);
}

static int
refuse_size(off_t size, off_t max, const char *path, const char *what, struct errmsg *e)
{
	char lim[32];

	errno = EINVAL;
	return errmsg_set(e, _("the %s %s is %lld bytes, more than the %s httop reads of a %s: "
	    "check that it is the right file"), what, path, (long long)size,
	    infile_size_text(max, lim, sizeof lim), what);
}

int
infile_fdopen(struct infile *f, int fd, const char *path, const char *what, off_t max_size,
    size_t max_line, struct errmsg *e)
{
	struct stat st;
	int fl;

	memset(f, 0, sizeof *f);
	f->path = path;
	f->what = what;
	f->max_size = max_size;
	f->max_line = max_line;
	if (fstat(fd, &st) != 0) {
		int err = errno;

		close(fd);
		errno = err;
		return errmsg_set(e, _("cannot read the %s %s: %s"), what, path, strerror(err));
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return refuse_type(&st, path, what, e);
	}
	if (st.st_size > max_size) {
		close(fd);
		return refuse_size(st.st_size, max_size, path, what, e);
	}
	/* Opened without blocking (a FIFO must not hang the open); reads of a
	 * regular file block as usual. */
	if ((fl = fcntl(fd, F_GETFL)) >= 0 && (fl & O_NONBLOCK))
		(void)fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	if ((f->fp = fdopen(fd, "r")) == NULL) {
		int err = errno;

		close(fd);
		errno = err;
		return errmsg_set(e, _("cannot read the %s %s: %s"), what, path, strerror(err));
	}
	return 0;
}

int
infile_open(struct infile *f, const char *path, const char *what, off_t max_size,
    size_t max_line, struct errmsg *e)
{
	int fd;

	memset(f, 0, sizeof *f);
	/* O_NONBLOCK: opening a FIFO for reading would wait for a writer. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		int err = errno;

		errmsg_set(e, _("cannot open the %s %s: %s; check the name and that you may "
		    "read it"), what, path, strerror(err));
		errno = err;
		return -1;
	}
	return infile_fdopen(f, fd, path, what, max_size, max_line, e);
}

void
infile_wrap(struct infile *f, FILE *fp, const char *path, const char *what, off_t max_size,
    size_t max_line)
{
	memset(f, 0, sizeof *f);
	f->fp = fp;
	f->path = path;
	f->what = what;
	f->max_size = max_size;
	f->max_line = max_line;
	f->borrowed = true;
}

void
infile_close(struct infile *f)
{
	if (f->fp != NULL && !f->borrowed)
		fclose(f->fp);
	f->fp = NULL;
}

/* One more byte read: -1 with the message once the file is past its limit
 * (it grew after it was opened). */
static int
count_byte(struct infile *f, struct errmsg *e)
{
	char lim[32];

	if (++f->nread > f->max_size)
		return errmsg_set(e, _("the %s %s grew past %s while httop read it: give a "
		    "file that is not being written to"), f->what, f->path,
		    infile_size_text(f->max_size, lim, sizeof lim));
	return 0;
}

int
infile_getline(struct infile *f, char *buf, size_t size, struct errmsg *e)
{
	size_t n = 0;
	int c;

	c = getc(f->fp);
	if (c == EOF) {
		if (ferror(f->fp))
			return errmsg_set(e, _("cannot read the %s %s: %s"), f->what, f->path,
			    strerror(errno));
		return 0;
	}
	f->line++;
	for (; c != EOF; c = getc(f->fp)) {
		if (count_byte(f, e) != 0)
			return -1;
		if (c == '\n')
			break;
		if (c == '\0')
			return errmsg_set(e, _("%s:%lu: a NUL byte: a %s is text; check that this "
			    "is the right file"), f->path, f->line, f->what);
		if (n >= f->max_line || n + 1 >= size)
			return errmsg_set(e, _("%s:%lu: line longer than %zu bytes, the limit for "
			    "a %s: check that this is the right file"), f->path, f->line,
			    f->max_line, f->what);
		buf[n++] = (char)c;
	}
	if (c == EOF && ferror(f->fp))
		return errmsg_set(e, _("cannot read the %s %s: %s"), f->what, f->path,
		    strerror(errno));
	buf[n] = '\0';
	return 1;
}

/* The compressor whose magic number starts `p` (n bytes), and the command
 * that undoes it, or NULL: a file given compressed is said so, not taken
 * for a text with a NUL byte. */
static const char *
compressed(const char *p, size_t n, const char **undo)
{
	static const struct {
		const char *magic, *name, *undo;
		size_t len;
	} z[] = {
		{ "\x1f\x8b", "gzip", "gunzip", 2 },
		{ "\xfd" "7zXZ\0", "xz", "unxz", 6 },
		{ "\x28\xb5\x2f\xfd", "zstd", "unzstd", 4 },
		{ "BZh", "bzip2", "bunzip2", 3 },
	};
	size_t i;

	for (i = 0; i < sizeof z / sizeof z[0]; i++)
		if (n >= z[i].len && memcmp(p, z[i].magic, z[i].len) == 0) {
			*undo = z[i].undo;
			return z[i].name;
		}
	return NULL;
}

int
infile_slurp(struct infile *f, char **out, size_t *len, struct errmsg *e)
{
	size_t cap = 4096, n = 0, k;
	char *buf = xmalloc(cap + 1);

	for (;;) {
		if (n == cap) {
			cap *= 2;
			buf = xrealloc(buf, cap + 1);
		}
		k = fread(buf + n, 1, cap - n, f->fp);
		if (k == 0)
			break;
		if (memchr(buf + n, '\0', k) != NULL) {
			const char *undo, *z = n == 0 ? compressed(buf, k, &undo) : NULL;

			free(buf);
			if (z != NULL)
				return errmsg_set(e, _("the %s %s is compressed (%s): httop reads it "
				    "plain; decompress it first (%s %s)"), f->what, f->path, z, undo,
				    f->path);
			return errmsg_set(e, _("the %s %s holds a NUL byte: it is text; check that "
			    "this is the right file"), f->what, f->path);
		}
		n += k;
		f->nread += (off_t)k;
		if (f->nread > f->max_size) {
			char lim[32];

			free(buf);
			return errmsg_set(e, _("the %s %s grew past %s while httop read it: give a "
			    "file that is not being written to"), f->what, f->path,
			    infile_size_text(f->max_size, lim, sizeof lim));
		}
	}
	if (ferror(f->fp)) {
		int err = errno;

		free(buf);
		return errmsg_set(e, _("cannot read the %s %s: %s"), f->what, f->path,
		    strerror(err));
	}
	buf[n] = '\0';
	*out = buf;
	*len = n;
	return 0;
}

int
infile_check_path(const char *path, const char *what, off_t max_size, bool dir_ok,
    bool *is_dir, struct errmsg *e)
{
	struct stat st;

	if (is_dir != NULL)
		*is_dir = false;
	if (stat(path, &st) != 0) {
		int err = errno;

		errmsg_set(e, _("cannot open the %s %s: %s; check the name and that you may "
		    "read it"), what, path, strerror(err));
		errno = err;
		return -1;
	}
	if (S_ISDIR(st.st_mode) && dir_ok) {
		if (is_dir != NULL)
			*is_dir = true;
		return 0;
	}
	if (!S_ISREG(st.st_mode))
		return refuse_type(&st, path, what, e);
	if (st.st_size > max_size)
		return refuse_size(st.st_size, max_size, path, what, e);
	return 0;
}

int
infile_open_regular(const char *path)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		errno = EINVAL;
		return -1;
	}
	return fd;
}
