/* testutil.h: shared helpers for the cmocka unit tests. */
#ifndef HTTOP_TESTUTIL_H
#define HTTOP_TESTUTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

/* Path of a test fixture (tests/fixtures, as make check unpacks it into
 * the build tree's tests/unpacked: $HTTOP_FIXTURES). Static buffer. */
static inline const char *
fixture(const char *rel)
{
	static char buf[4096];
	const char *base = getenv("HTTOP_FIXTURES");
	const char *build = getenv("HTTOP_BUILDDIR");

	if (base != NULL && *base != '\0')
		snprintf(buf, sizeof buf, "%s/%s", base, rel);
	else
		snprintf(buf, sizeof buf, "%s/tests/unpacked/%s", build ? build : ".", rel);
	return buf;
}

/* Path of a file in the source tree ($HTTOP_SRCDIR). Static buffer. */
static inline const char *
srcfile(const char *rel)
{
	static char buf[4096];
	const char *base = getenv("HTTOP_SRCDIR");

	snprintf(buf, sizeof buf, "%s/%s", base ? base : ".", rel);
	return buf;
}

/* Skip the current test, saying why: the reason goes on a TAP comment line
 * that tests/tap-run joins to cmocka's "# SKIP" line (and run-suite lists). */
#define skip_because(why) do { \
	printf("# skip: %s\n", (why)); \
	fflush(stdout); \
	skip(); \
} while (0)

/* |a - b| <= tol, with both values in the failure message. */
#define assert_near(a, b, tol) do { \
	double a_ = (a), b_ = (b), t_ = (tol); \
	if (!(a_ - b_ <= t_ && b_ - a_ <= t_)) \
		fail_msg("%s = %.9g, expected %.9g +- %.3g", #a, a_, b_, t_); \
} while (0)

#endif
