/* delta.c: differences of free-running counters that wrap at their width. */
#include "config.h"
#include "metrics/metrics.h"

/* A counter of `width` bits that went from prev to cur advanced by
 * (cur - prev) mod 2^width: one wrap is taken as one wrap. More than one
 * wrap per interval cannot be seen; a 48-bit counter at 10 GHz needs 7.8
 * hours to wrap once. */
uint64_t
counter_delta(uint64_t prev, uint64_t cur, unsigned width)
{
	uint64_t mask = width == 0 || width >= 64 ? ~0ull : (1ull << width) - 1;

	return (cur - prev) & mask;
}
