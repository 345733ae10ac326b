/* reason.c: why a figure or a core has no value, in words and as a token. */
#include "config.h"
#include "metrics/metrics.h"

static const struct {
	const char *text;
	const char *code;
} reasons[R_NREASONS] = {
	[R_NONE] = { "ok", "ok" },
	[R_NOT_SELECTED] = { "not selected", "not-selected" },
	[R_OFFLINE] = { "a CPU of the core is offline", "offline" },
	[R_READ_ERROR] = { "reading a counter failed", "read-error" },
	[R_FIRST] = { "no previous sample yet", "first" },
	[R_NO_TIME] = { "the time stamp counter did not advance", "no-time" },
	[R_REPROGRAMMED] = { "counters reprogrammed by another program", "reprogrammed" },
	[R_SKEW] = { "sibling threads read too far apart", "skew" },
	[R_NO_INST] = { "no instructions retired", "no-inst" },
	[R_NOT_HALTED_ZERO] = { "the thread was never active", "never-active" },
	[R_NO_BASE] = { "base frequency unknown", "no-base" },
	[R_NO_SPLIT] = { "no SMT split on this CPU", "no-split" },
	[R_UNAVAILABLE] = { "counter not available on this CPU", "unavailable" },
};

const char *
metrics_reason_text(enum reason r)
{
	if ((unsigned)r >= R_NREASONS)
		return "?";
	return reasons[r].text;
}

const char *
metrics_reason_code(enum reason r)
{
	if ((unsigned)r >= R_NREASONS)
		return "?";
	return reasons[r].code;
}
