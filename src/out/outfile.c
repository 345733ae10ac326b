/* outfile.c: opening a file httop writes for others (outfile.h). */
#include "config.h"
#include "out/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "util/i18n.h"

/* What kind of file, for the message refusing it. */
static const char *
file_kind(mode_t mode)
{
	if (S_ISDIR(mode))
		return _("a directory");
	if (S_ISBLK(mode))
		return _("a block device");
	if (S_ISCHR(mode))
		return _("a character device");
	if (S_ISSOCK(mode))
		return _("a socket");
	return _("not a regular file");
}

/* A regular file is truncated only after its type is known; a pipe,
 * /dev/null (1,3) and /dev/full (1,7) take a stream as it comes. */
static int
check_file(const char *opt, int fd, const char *path, struct errmsg *e)
{
	struct stat st;

	if (fstat(fd, &st) != 0)
		return errmsg_set(e, _("%s %s: %s"), opt, path, strerror(errno));
	if (S_ISREG(st.st_mode)) {
		if (ftruncate(fd, 0) != 0)
			return errmsg_set(e, _("%s %s: cannot empty the file: %s; give "
			    "another file"), opt, path, strerror(errno));
		return 0;
	}
	if (S_ISFIFO(st.st_mode))
		return 0;
	if (S_ISCHR(st.st_mode) && (st.st_rdev == makedev(1, 3) || st.st_rdev == makedev(1, 7)))
		return 0;
	return errmsg_set(e, _("%s %s: is %s, not a file httop may overwrite; give the "
	    "name of a regular file"), opt, path, file_kind(st.st_mode));
}

int
outfile_open(const char *opt, const char *path, bool privileged, struct errmsg *e)
{
	int flags = O_WRONLY | O_CREAT | O_CLOEXEC | O_NOCTTY;
	struct sigaction sa;
	struct stat st;
	int fd;

	if (*path == '\0')
		return errmsg_set(e, _("%s: empty file name; give the file to write"), opt);
	if (privileged)
		flags |= O_NOFOLLOW;
	if ((fd = open(path, flags, 0644)) < 0) {
		if (privileged && errno == ELOOP && lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
			return errmsg_set(e, _("%s %s: is a symbolic link, which httop does not "
			    "follow when it runs with privilege; give the file it points to"), opt,
			    path);
		return errmsg_set(e, _("%s %s: cannot create the file: %s; check the "
		    "directory and its permissions"), opt, path, strerror(errno));
	}
	if (check_file(opt, fd, path, e) != 0) {
		close(fd);
		return -1;
	}
	/* A file size limit is then EFBIG from write(2), not a killing signal. */
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = SIG_IGN;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGXFSZ, &sa, NULL);
	return fd;
}

int
memout_open(struct memout *mo)
{
	mo->buf = NULL;
	mo->len = 0;
	errno = 0;
	mo->fp = open_memstream(&mo->buf, &mo->len);
	return mo->fp != NULL ? 0 : errno != 0 ? errno : ENOMEM;
}

int
memout_write(struct memout *mo, FILE *to)
{
	int err = 0;

	errno = 0;
	if (fclose(mo->fp) != 0) {
		err = errno != 0 ? errno : ENOMEM;
	} else {
		/* Each call's errno taken at once: nothing runs in between. */
		errno = 0;
		if (mo->len > 0 && fwrite(mo->buf, 1, mo->len, to) != mo->len)
			err = errno != 0 ? errno : EIO;
		errno = 0;
		if (err == 0 && fflush(to) != 0)
			err = errno != 0 ? errno : EIO;
	}
	free(mo->buf);
	mo->fp = NULL;
	mo->buf = NULL;
	mo->len = 0;
	return err;
}
