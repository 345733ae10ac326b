/* linesplit.h: a byte stream that comes in reads (a pipe's) cut into
 * lines. Each line ended by '\n' is handed on without it; the part of a
 * line not ended yet is kept for the next read, up to `max` bytes, and
 * what comes beyond that is as `over` says.
 *
 * A fixed room (linesplit_fixed, max + 1 bytes): every line goes through
 * it and is handed on there, NUL-terminated. A grown one (linesplit_grown):
 * a line whole in the read is handed on from the read itself (not
 * NUL-terminated), one that came in pieces from the part kept, which is
 * let go after it (many quiet streams would each hold a line's room). */
#ifndef HTTOP_UTIL_LINESPLIT_H
#define HTTOP_UTIL_LINESPLIT_H

#include <stdbool.h>
#include <stddef.h>

enum linesplit_over {
	LINESPLIT_CUT,    /* the line's bytes past max are dropped */
	LINESPLIT_SPLIT,  /* max bytes are handed on as a line, the rest
			   * goes on as the next */
	LINESPLIT_FAIL,   /* the part is dropped, and the rest of that read:
			   * linesplit_feed returns -1 (a line that ends
			   * past max is dropped, without -1) */
};

struct linesplit {
	char *part;                /* the line so far */
	size_t len;                /* its bytes kept */
	size_t cap;                /* part's room */
	size_t max;                /* the longest part kept */
	enum linesplit_over over;
	bool grown;                /* part grows as lines need (else fixed) */
	size_t last;               /* grown: the last line kept in pieces, its
				    * length (up to LINESPLIT_HINT_MAX): the
				    * next one's first room */
};

/* A grown room starts at most this large from the last line's length: a
 * stream of lines that come in pieces (srun's of 1 KiB) is not copied
 * anew at each growth, and a stream whose last line was huge holds no
 * more than this for a part of the next. */
#define LINESPLIT_HINT_MAX (64u << 10)

/* A line, len bytes at s (a room's lines have a NUL after them). */
typedef void linesplit_fn(void *arg, const char *s, size_t len);

/* In a room of max + 1 bytes, allocated now. */
void linesplit_fixed(struct linesplit *ls, size_t max, enum linesplit_over over);
/* In a room grown here as the lines need, up to max. */
void linesplit_grown(struct linesplit *ls, size_t max, enum linesplit_over over);
/* The n bytes of one read: each line ended in them handed to fn(arg, ...);
 * 0, or -1 (LINESPLIT_FAIL) when a line ran past max. */
int linesplit_feed(struct linesplit *ls, const char *buf, size_t n, linesplit_fn *fn, void *arg);
/* n bytes that hold no '\n' (a piece of a line its caller cut out of a
 * stream of its own, srun's): what linesplit_feed does with them, without
 * looking for one. */
int linesplit_feed_piece(struct linesplit *ls, const char *buf, size_t n, linesplit_fn *fn,
    void *arg);
/* The part of a line kept, dropped (a stream started again). */
void linesplit_reset(struct linesplit *ls);
/* The part not ended (the stream's end), NUL-terminated in a fixed
 * room. */
const char *linesplit_rest(const struct linesplit *ls, size_t *len);
void linesplit_free(struct linesplit *ls);

#endif
