/* tracez.h: open a trace for reading, plain or gzip-compressed (told by
 * the gzip magic bytes, not the name). Private to src/trace. */
#ifndef HTTOP_TRACEZ_H
#define HTTOP_TRACEZ_H

#include <stdio.h>

#include "util/errmsg.h"

/* A stream over the trace's text: the file itself, or zlib's inflated view
 * of it. A gzip stream that simply stops (a recorder killed between two
 * sync flushes: no trailer) reads as ending there; corrupt compressed data
 * (or a wrong checksum) is a read error with errno EBADMSG, any other
 * failure EIO or the system's errno. NULL with a message naming the file. */
FILE *tracez_open(const char *path, struct errmsg *e);

#endif
