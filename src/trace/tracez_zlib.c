/* tracez_zlib.c: gzip traces inflated by zlib (tracez_inflate.h; built
 * --without-isal or where configure found no ISA-L): zlib parses the
 * gzip header and checks the trailer, and inflates straight into the
 * reader's buffer. Not gzread: on damaged data it drops what it inflated
 * in the same call, and the reader must get every byte before the
 * damage. */
#include "config.h"
#include "trace/tracez_inflate.h"

#include <errno.h>
#include <stdlib.h>
#include <zlib.h>

#include "util/xalloc.h"

struct tz_inflater {
	z_stream zs;
};

/* What inflate said. */
static void
zlib_rc(struct tz_inflater *f, struct tz_input *in, int rc)
{
	if (rc == Z_STREAM_END) {
		if (tz_input_next_member(in))
			inflateReset(&f->zs);
	} else if (rc == Z_DATA_ERROR || rc == Z_NEED_DICT) {
		in->err = EBADMSG;      /* corrupt data, or a wrong checksum */
	} else if (rc == Z_MEM_ERROR) {
		in->err = ENOMEM;
	} else if (rc != Z_OK && rc != Z_BUF_ERROR) {
		in->err = EIO;
	}
}

size_t
tz_inflater_read(struct tz_inflater *f, struct tz_input *in, char *buf, size_t len)
{
	z_stream *zs = &f->zs;
	int over, rc;

	if (len > 1u << 30)
		len = 1u << 30;
	zs->next_out = (unsigned char *)buf;
	zs->avail_out = (uInt)len;
	while (zs->avail_out > 0 && !in->done && in->err == 0) {
		/* what came so far, rather than wait for a pipe's writer */
		if (zs->avail_out < len && !in->full && tz_input_dry(in))
			break;
		if ((over = tz_input_over(in)) != 0) {
			in->done = over > 0;
			break;
		}
		zs->next_in = in->next;
		zs->avail_in = in->avail;
		rc = inflate(zs, Z_NO_FLUSH);
		in->next = zs->next_in;
		in->avail = zs->avail_in;
		in->full = zs->avail_out == 0;
		zlib_rc(f, in, rc);
	}
	return len - zs->avail_out;
}

/* gzip only (16 + 15): the magic said so */
struct tz_inflater *
tz_inflater_new(void)
{
	struct tz_inflater *f = xcalloc(1, sizeof *f);

	if (inflateInit2(&f->zs, 16 + MAX_WBITS) != Z_OK) {
		free(f);
		return NULL;
	}
	return f;
}

void
tz_inflater_free(struct tz_inflater *f)
{
	if (f == NULL)
		return;
	inflateEnd(&f->zs);
	free(f);
}
