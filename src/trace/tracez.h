/* tracez.h: the bytes of a trace, read a block at a time: a plain file
 * (read(2)), a gzip one (told by the magic bytes, not the name; inflated
 * by ISA-L where configure found it, else by zlib, to the same bytes and
 * errors) or a caller's stream. Private to src/trace. */
#ifndef HTTOP_TRACEZ_H
#define HTTOP_TRACEZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "util/errmsg.h"

struct tracez;

/* Open a trace file. It must be a regular file: a device or a directory
 * is refused (a device could feed it forever), and so is a FIFO unless
 * `once` (a batch replay reads the trace once, forward only; the live
 * view reads the file again to jump back): a FIFO is then waited on
 * until its writer comes. Opened with the rights of the moment (httop
 * has given up any privilege by then). NULL with a message naming the
 * file. */
struct tracez *tracez_open(const char *path, bool once, struct errmsg *e);
/* Read from a caller's stream (left open by tracez_close). */
struct tracez *tracez_stream(FILE *fp);
/* Up to len bytes of the trace's text into buf: the count, 0 at the end,
 * -1 with errno set. A gzip stream that simply stops (a recorder killed
 * between two sync flushes: no trailer) reads as ending there (and
 * tracez_cut says so); gzip
 * members one after another read as one stream, and bytes after the last
 * one are ignored unless they start with 1f (then read as a member);
 * corrupt compressed data (or a wrong checksum, or a header zlib refuses)
 * is errno EBADMSG after every byte before it, any other failure EIO or
 * the system's errno. */
long tracez_read(struct tracez *z, char *buf, size_t len);
/* After tracez_read returned 0: whether a gzip stream stopped inside a
 * member, without its trailer (a recording cut short: httop killed, the
 * disk full, or still being written). */
bool tracez_cut(const struct tracez *z);
void tracez_close(struct tracez *z);

#endif
