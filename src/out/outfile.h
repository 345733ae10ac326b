/* outfile.h: a file httop writes for other programs to read (--record,
 * -o), opened with care: it may be root that writes it; a text for a
 * person written to a stream in one go (memout). */
#ifndef HTTOP_OUTFILE_H
#define HTTOP_OUTFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "util/errmsg.h"

/* Open `path` to write, for option `opt` ("--record", "-o"; it starts the
 * messages): created (mode 0644 before the umask) if it does not exist.
 * One that exists must be a regular file, truncated only once its type is
 * known (so a device named by mistake is never touched), or a pipe,
 * /dev/null or /dev/full, taken as a stream; a directory, a device or a
 * socket is refused. When `privileged` (root, set-user-ID, capabilities)
 * a symbolic link is refused too (O_NOFOLLOW): a planted link could aim
 * the file at any other. Ignores SIGXFSZ, so that a file size limit is a
 * write error (EFBIG) like a full disk. Call it after privilege is given
 * up. Returns the descriptor (close-on-exec), or -1 with a message naming
 * the option, the file, the cause and the fix. */
int outfile_open(const char *opt, const char *path, bool privileged, struct errmsg *e);

/* A text for a person (a summary) written a piece at a time into memory,
 * then to its stream in one go, so that a write that fails is one call
 * whose errno is the cause: not whatever an earlier call, or a later one
 * of the many fprintf, left in errno. */
struct memout {
	FILE *fp;                   /* write the text here */
	char *buf;
	size_t len;
};

/* 0, or the errno of open_memstream. */
int memout_open(struct memout *mo);
/* The text to `to`, flushed; `mo` is freed either way. 0, or the errno
 * of the call that failed (EIO when it gave none). */
int memout_write(struct memout *mo, FILE *to);

#endif
