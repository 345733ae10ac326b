/* tracez_inflate.h: what tracez.c shares with the inflater configure chose
 * for gzip traces: tracez_isal.c (Intel ISA-L's igzip, HAVE_ISAL) or
 * tracez_zlib.c (zlib's inflate, --without-isal); the automake conditional
 * HAVE_ISAL builds one of them (src/trace/local.mk), the tarball has both.
 * tracez.c reads the compressed file and tells where the data ends (the
 * file stops, bytes after the last member); the inflater turns the
 * members into bytes. Both hand out the same bytes and stop at the same
 * errors (tests/cli/test_isal_off.sh). Private to src/trace/tracez*.c. */
#ifndef HTTOP_TRACEZ_INFLATE_H
#define HTTOP_TRACEZ_INFLATE_H

#include <stdbool.h>
#include <stddef.h>

/* Compressed bytes read at a time. */
#define GZ_IN (128u * 1024)

/* The compressed input, and where inflating it came to. The inflater
 * takes its bytes from next (avail of them) and leaves next and avail
 * after what it used. */
struct tz_input {
	int fd;                 /* the file (plain or gzip), or -1 */
	unsigned char *buf;     /* GZ_IN bytes read from it (gzip only) */
	unsigned char *next;    /* its bytes not yet used */
	unsigned avail;
	bool eof;       /* read(2) said end of file */
	bool done;      /* the compressed data ended (or stopped) */
	bool cut;       /* ... stopped: the file ends inside a member,
	                 * before its trailer (a recording cut short) */
	bool full;      /* the last inflate call filled its output: it may
	                 * hold more without another input byte */
	int err;        /* an error met after some bytes were handed out */
	bool pipe;      /* a FIFO or pipe: a read may wait for its writer,
	                 * so it waits woken by an ending signal too */
};

/* A pipe with no byte to read now (its writer slower than the reader, or
 * stalled): an inflater that has some output hands it out rather than
 * wait, so what came is replayed as it comes. Never for a file. */
bool tz_input_dry(const struct tz_input *in);
/* Whether the input is used up: the file stops inside the stream (no
 * trailer) once the inflater has nothing more for want of output room.
 * A writer killed after a sync flush: the data so far is good, and
 * in->cut says the stream stopped (the inflaters call this inside a
 * member only). Refills first: 1 used up, 0 not, -1 a read error
 * (in->err). */
int tz_input_over(struct tz_input *in);
/* After a member's trailer: true when another gzip member starts
 * (concatenated files); anything else after it is ignored, as gzip -d
 * does (in->done), a read error is in->err. */
bool tz_input_next_member(struct tz_input *in);

/* The inflater of one gzip trace (the magic bytes said gzip). */
struct tz_inflater;

/* NULL: out of memory. */
struct tz_inflater *tz_inflater_new(void);
/* Up to len inflated bytes into buf: the count, 0 once the data ended
 * (in->done) or an error stopped it (in->err: tracez_read reports it
 * when every byte inflated before it was handed out). */
size_t tz_inflater_read(struct tz_inflater *f, struct tz_input *in, char *buf, size_t len);
void tz_inflater_free(struct tz_inflater *f);

#endif
