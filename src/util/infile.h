/* infile.h: reading a file the user named, with limits. httop reads whole
 * files at start (scenario, CPUID dump, topology, die map, settings, the
 * importer's input); /dev/zero, a named pipe nobody writes to or a
 * multi-gigabyte file given by mistake must end in one message, not in a
 * hang or an exhausted memory. So:
 * - only a regular file is read: a named pipe, a device, a socket or a
 *   directory is refused before anything can block on it;
 * - a file larger than the caller's limit is refused before it is read,
 *   and reading stops at the limit if the file grows meanwhile;
 * - lines are at most the caller's length, and a NUL byte is refused (no
 *   text format httop reads has one).
 * Every message names the file, the limit and the fix. */
#ifndef HTTOP_INFILE_H
#define HTTOP_INFILE_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "util/errmsg.h"

struct infile {
	FILE *fp;
	const char *path;        /* for messages; the caller's string */
	const char *what;        /* what the file is, for messages ("scenario file") */
	off_t max_size;          /* bytes */
	size_t max_line;         /* bytes of a line without its newline */
	off_t nread;             /* bytes read so far */
	unsigned long line;      /* lines read so far (the current line's number) */
	bool borrowed;           /* fp is the caller's (infile_wrap) */
};

/* Open `path` for reading. `what` names the kind of file in messages
 * (translated, e.g. _("scenario file")). On failure -1 with the message in
 * e; errno is kept from open(2) when the file could not be opened (ENOENT:
 * it does not exist), and is EINVAL when it is not a regular file or too
 * large. */
int infile_open(struct infile *f, const char *path, const char *what, off_t max_size,
    size_t max_line, struct errmsg *e);
/* The same for a descriptor the caller opened (with its own flags); fd is
 * closed on failure. */
int infile_fdopen(struct infile *f, int fd, const char *path, const char *what,
    off_t max_size, size_t max_line, struct errmsg *e);
/* Read an open stream (the caller's; infile_close leaves it open) with the
 * same line and size limits, e.g. a stream a test or fuzzer made. */
void infile_wrap(struct infile *f, FILE *fp, const char *path, const char *what,
    off_t max_size, size_t max_line);
void infile_close(struct infile *f);

/* The next line into buf (size > max_line + 1 bytes), without its '\n'
 * (a '\r' before it is kept: formats say what they do with it).
 * 1: a line; 0: end of file; -1: message in e (line too long, NUL byte,
 * file past its limit, read error). */
int infile_getline(struct infile *f, char *buf, size_t size, struct errmsg *e);

/* The whole file into a new NUL-terminated buffer (*len bytes without the
 * NUL); NUL bytes are refused. 0, or -1 with the message in e. */
int infile_slurp(struct infile *f, char **buf, size_t *len, struct errmsg *e);

/* Check that `path` (following symbolic links) is a regular file of at most
 * max_size bytes, or a directory when dir_ok; *is_dir says which. For
 * inputs a library opens by name. 0, or -1 with the message in e. */
int infile_check_path(const char *path, const char *what, off_t max_size, bool dir_ok,
    bool *is_dir, struct errmsg *e);

/* "1 MiB", "64 KiB", "300 bytes": a limit as messages give it. */
const char *infile_size_text(off_t bytes, char *buf, size_t size);
/* Open a file that must be a regular one, read-only and without blocking
 * (a named pipe planted where a sysfs or cgroup file should be must not
 * hang httop): the descriptor, or -1 with errno (EINVAL: not a regular
 * file). */
int infile_open_regular(const char *path);

#endif
