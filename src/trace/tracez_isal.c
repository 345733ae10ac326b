/* tracez_isal.c: gzip traces inflated by Intel ISA-L's igzip
 * (tracez_inflate.h; built where configure found libisal: HAVE_ISAL), a
 * replay's inflate in about a fifth of zlib's time. ISA-L is given the
 * deflate data alone: the gzip header is parsed here a byte at a time as
 * zlib parses it, so that the same headers are refused at the same byte
 * as with tracez_zlib.c; ISA-L checks the trailer. It inflates into a
 * buffer of its own here, handed out to the reader a piece at a time.
 * ISA-L reads no environment and no file. */
#include "config.h"
#include "trace/tracez_inflate.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <isa-l/igzip_lib.h>

#include "util/xalloc.h"

/* Inflated bytes kept for the reader. ISA-L inflates the start of a call
 * into its own window first and, on damaged data, hands out only what
 * fits the output it was given, so the output is never smaller than that
 * window: every byte before the damage reaches the reader. */
#define GZ_OUT (256u * 1024)
_Static_assert(GZ_OUT >= sizeof(((struct inflate_state *)0)->tmp_out_buffer),
    "GZ_OUT holds ISA-L's window");

/* A gzip member's header (RFC 1952), read a byte at a time as zlib reads
 * it: the same headers are refused at the same byte (a header that
 * stops is a file that stops). */
enum hdr_at { HDR_BASE, HDR_XLEN, HDR_EXTRA, HDR_NAME, HDR_COMMENT, HDR_HCRC, HDR_DONE };

#define GZF_HCRC     0x02u
#define GZF_EXTRA    0x04u
#define GZF_NAME     0x08u
#define GZF_COMMENT  0x10u
#define GZF_RESERVED 0xe0u

struct gzhdr {
	enum hdr_at at;
	unsigned pos;           /* bytes of this part read */
	unsigned method, flags;
	unsigned long count;    /* the extra field's length left; the header CRC */
	unsigned long crc;      /* CRC-32 of the header so far */
};

struct tz_inflater {
	struct inflate_state *is;
	struct gzhdr hd;
	unsigned char *out;
	size_t out_at, out_end; /* bytes of out not yet handed out */
};

/* Where the header goes after the part it is in (flags: which parts it has). */
static void
hdr_next(struct gzhdr *h)
{
	static const unsigned need[] = {
		[HDR_XLEN] = GZF_EXTRA, [HDR_EXTRA] = GZF_EXTRA, [HDR_NAME] = GZF_NAME,
		[HDR_COMMENT] = GZF_COMMENT, [HDR_HCRC] = GZF_HCRC,
	};

	h->pos = 0;
	do
		h->at++;
	while (h->at != HDR_DONE &&
	    ((h->flags & need[h->at]) == 0 || (h->at == HDR_EXTRA && h->count == 0)));
}

/* The fixed part: magic (checked with its second byte), method and flags
 * (with the flags' byte), time, extra flags, system. */
static int
hdr_base(struct gzhdr *h, unsigned c)
{
	if (h->pos == 1 && c != 0x8b)
		return -1;
	if (h->pos == 2)
		h->method = c;
	if (h->pos == 3) {
		h->flags = c;
		if (h->method != Z_DEFLATED || (c & GZF_RESERVED) != 0)
			return -1;
	}
	if (++h->pos == 10)
		hdr_next(h);
	return 0;
}

/* One byte of the header: -1 where zlib refuses it (not gzip's magic, a
 * method other than deflate, reserved flags, a wrong header CRC). */
static int
hdr_byte(struct gzhdr *h, unsigned char c)
{
	if (h->at != HDR_HCRC)
		h->crc = crc32(h->crc, &c, 1);
	switch (h->at) {
	case HDR_BASE:
		return hdr_base(h, c);
	case HDR_XLEN:
		h->count |= (unsigned long)c << (8 * h->pos);
		if (++h->pos == 2)
			hdr_next(h);
		return 0;
	case HDR_EXTRA:
		if (--h->count == 0)
			hdr_next(h);
		return 0;
	case HDR_NAME:
	case HDR_COMMENT:
		if (c == 0)
			hdr_next(h);
		return 0;
	case HDR_HCRC:
		h->count |= (unsigned long)c << (8 * h->pos);
		if (++h->pos < 2)
			return 0;
		if (h->count != (h->crc & 0xffff))
			return -1;
		hdr_next(h);
		return 0;
	case HDR_DONE:
		break;
	}
	return 0;
}

/* A new member: its header first, then ISA-L on the deflate data, which
 * checks the trailer's CRC-32 and length (ISAL_GZIP_NO_HDR_VER). */
static void
member_start(struct tz_inflater *f)
{
	memset(&f->hd, 0, sizeof f->hd);
	isal_inflate_reset(f->is);
	f->is->crc_flag = ISAL_GZIP_NO_HDR_VER;
}

static int
isal_errno(int rc)
{
	switch (rc) {
	case ISAL_INVALID_BLOCK:
	case ISAL_INVALID_SYMBOL:
	case ISAL_INVALID_LOOKBACK:
	case ISAL_INVALID_WRAPPER:
	case ISAL_UNSUPPORTED_METHOD:
	case ISAL_INCORRECT_CHECKSUM:
	case ISAL_NEED_DICT:
		return EBADMSG;         /* corrupt data, or a wrong checksum */
	default:
		return EIO;
	}
}

/* The member's deflate data into out (out_at, out_end). */
static void
inflate_some(struct tz_inflater *f, struct tz_input *in)
{
	struct inflate_state *is = f->is;
	uint32_t in0 = in->avail;
	int rc;

	is->next_in = in->next;
	is->avail_in = in->avail;
	is->next_out = f->out;
	is->avail_out = GZ_OUT;
	rc = isal_inflate(is);
	in->next = is->next_in;
	in->avail = is->avail_in;
	f->out_at = 0;
	f->out_end = GZ_OUT - is->avail_out;
	in->full = is->avail_out == 0;
	if (rc < 0 || rc == ISAL_NEED_DICT)
		in->err = isal_errno(rc);
	else if (is->block_state == ISAL_BLOCK_FINISH) {
		if (tz_input_next_member(in))
			member_start(f);
	} else if (f->out_end == 0 && in->avail == in0 && !in->eof)
		in->err = EIO;  /* no progress (never seen): CPU stays bounded */
}

/* One step: a piece of the header, or of the data, or the end. */
static void
isal_step(struct tz_inflater *f, struct tz_input *in)
{
	int over = tz_input_over(in);

	if (over != 0) {
		in->done = over > 0;
		return;
	}
	if (f->hd.at != HDR_DONE) {
		for (; in->avail > 0 && f->hd.at != HDR_DONE; in->next++, in->avail--)
			if (hdr_byte(&f->hd, in->next[0]) != 0) {
				in->err = EBADMSG;
				return;
			}
		return;
	}
	inflate_some(f, in);
}

/* Inflated bytes into buf: what out holds, then more. */
size_t
tz_inflater_read(struct tz_inflater *f, struct tz_input *in, char *buf, size_t len)
{
	size_t n = 0, k;

	while (n < len) {
		if (f->out_at < f->out_end) {
			k = f->out_end - f->out_at;
			if (k > len - n)
				k = len - n;
			memcpy(buf + n, f->out + f->out_at, k);
			f->out_at += k;
			n += k;
			continue;
		}
		if (in->done || in->err != 0)
			break;
		/* what came so far, rather than wait for a pipe's writer */
		if (n > 0 && tz_input_dry(in))
			break;
		isal_step(f, in);
	}
	return n;
}

struct tz_inflater *
tz_inflater_new(void)
{
	struct tz_inflater *f = xcalloc(1, sizeof *f);

	f->is = xmalloc(sizeof *f->is);
	isal_inflate_init(f->is);
	member_start(f);
	f->out = xmalloc(GZ_OUT);
	return f;
}

void
tz_inflater_free(struct tz_inflater *f)
{
	if (f == NULL)
		return;
	free(f->is);
	free(f->out);
	free(f);
}
