/* walltime.c: an interval's wall-clock time as text (walltime.h). */
#include "config.h"
#include "out/walltime.h"

#include <math.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "util/numfmt.h"

/* The last NUMFMT digits of `u`, zero-padded to `width`. */
static char *
put_padded(char *p, uint64_t u, unsigned width)
{
	char tmp[NUMFMT_MAX];
	size_t n = (size_t)(numfmt_u64(tmp, u) - tmp);

	for (; n < width; width--)
		*p++ = '0';
	memcpy(p, tmp, n);
	return p + n;
}

static void
set(char *dst, size_t *len, const char *s)
{
	*len = strlen(s);
	memcpy(dst, s, *len + 1);
}

static void
unknown(struct walltime *w)
{
	w->known = false;
	set(w->unix6, &w->unix6_len, "-");
	set(w->unix3, &w->unix3_len, "-");
	set(w->iso, &w->iso_len, "-");
}

/* The three strings, or false. */
static bool
fill(struct walltime *w, double wall)
{
	uint64_t us, sec, frac;
	struct tm tm;
	time_t t;
	char *p;
	size_t n;

	/* 1e11 s is the year 5138: beyond it a clock is broken, not late. */
	if (!isfinite(wall) || wall <= 0.0 || wall >= 1e11)
		return false;
	us = (uint64_t)llround(wall * 1e6);
	sec = us / 1000000u;
	frac = us % 1000000u;
	t = (time_t)sec;
	if (localtime_r(&t, &tm) == NULL)
		return false;

	p = numfmt_u64(w->unix6, sec);
	*p++ = '.';
	p = put_padded(p, frac, 6);
	*p = '\0';
	w->unix6_len = (size_t)(p - w->unix6);
	/* Milliseconds: the microseconds rounded, carried into the second. */
	p = numfmt_u64(w->unix3, sec + (frac + 500u) / 1000000u);
	*p++ = '.';
	p = put_padded(p, ((frac + 500u) / 1000u) % 1000u, 3);
	*p = '\0';
	w->unix3_len = (size_t)(p - w->unix3);

	n = strftime(w->iso, sizeof w->iso, "%Y-%m-%dT%H:%M:%S", &tm);
	if (n == 0)
		return false;
	p = w->iso + n;
	*p++ = '.';
	p = put_padded(p, frac, 6);
	/* %z is +hhmm; ISO 8601's extended form, which the date has, wants
	 * +hh:mm. */
	n = strftime(p, sizeof w->iso - (size_t)(p - w->iso), "%z", &tm);
	if (n != 5)
		return false;
	memmove(p + 4, p + 3, 3);     /* "+0100\0" -> "+01" ":" "00\0" */
	p[3] = ':';
	w->iso_len = (size_t)(p + 6 - w->iso);
	return true;
}

void
walltime_format(struct walltime *w, double wall)
{
	w->known = fill(w, wall);
	if (!w->known)
		unknown(w);
}
