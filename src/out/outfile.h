/* outfile.h: a file httop writes for other programs to read (--record,
 * -o), opened with care: it may be root that writes it. */
#ifndef HTTOP_OUTFILE_H
#define HTTOP_OUTFILE_H

#include <stdbool.h>

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

#endif
