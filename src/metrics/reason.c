/* reason.c: why a figure or a core has no value, in words and as a token.
 * The words are marked for translation (outputs call _()); the tokens are
 * stable and never translated. */
#include "config.h"
#include "metrics/metrics.h"
#include "util/i18n.h"

static const struct {
	const char *text;
	const char *code;
} reasons[R_NREASONS] = {
	[R_NONE] = { N_("ok"), "ok" },
	[R_NOT_SELECTED] = { N_("not selected"), "not-selected" },
	[R_OFFLINE] = { N_("a CPU of the core is offline"), "offline" },
	[R_READ_ERROR] = { N_("reading a counter failed"), "read-error" },
	[R_FIRST] = { N_("no previous sample yet"), "first" },
	[R_NO_TIME] = { N_("the time stamp counter did not advance"), "no-time" },
	[R_REPROGRAMMED] = { N_("counters reprogrammed by another program"), "reprogrammed" },
	[R_SKEW] = { N_("sibling threads read too far apart"), "skew" },
	[R_NO_INST] = { N_("no instructions retired"), "no-inst" },
	[R_NOT_HALTED_ZERO] = { N_("the thread was never active"), "never-active" },
	[R_NO_BASE] = { N_("base frequency unknown"), "no-base" },
	[R_NO_SPLIT] = { N_("no SMT split on this CPU"), "no-split" },
	[R_UNAVAILABLE] = { N_("counter not available on this CPU"), "unavailable" },
	[R_TIME_BACK] = { N_("time went backwards (samples out of order: their time stamp counters or times)"),
	    "time-backwards" },
	[R_STOPPED] = { N_("counter stopped"), "stopped" },
	[R_NOT_COUNTED] = { N_("the source counts no instructions or cycles"), "not-counted" },
	[R_LOST] = { N_("records lost, or what the CPU did is not known exactly (a switch the kernel did not "
	    "record: the source's events say which)"), "lost" },
	[R_TOO_SHORT] = { N_("too short to measure (under 0.05 s)"), "too-short" },
	[R_NO_STEAL] = { N_("the source does not read steal time (--source procstat does)"),
	    "no-steal" },
	[R_NO_JOB] = { N_("no job's tasks told apart: a watched job and the scheduler's record "
	    "needed (--source sched or bpf, or msr or perf as root)"), "no-job" },
	[R_NO_RECORD] = { N_("no job's tasks told apart: the scheduler's record beside the "
	    "counters did not open or failed (root, or perf_event_paranoid 0 or less)"),
	    "no-record" },
	[R_NO_CGROUP_EVENTS] = { N_("the job's CPI and GHz are the CPUs': no perf cgroup events "
	    "count its tasks alone"), "no-cgroup-events" },
	[R_NOT_READ] = { N_("not read by this source"), "not-read" },
	[R_JOB_UNTRACKED] = { N_("the job has more processes than the bpf source tracks "
	    "(16,384)"), "job-untracked" },
};

const char *
metrics_reason_text(enum reason r)
{
	if ((unsigned)r >= R_NREASONS)
		return "?";
	return reasons[r].text;
}

/* Absent because the running source does not provide the input (it
 * counts no instructions or cycles, reads no steal time, tells no job's
 * tasks apart, or reads nothing the figure is made from): no trouble of
 * the interval, only what the source is. */
bool
metrics_reason_not_read(enum reason r)
{
	return r == R_NOT_COUNTED || r == R_NO_STEAL || r == R_NO_JOB || r == R_NO_RECORD ||
	    r == R_NOT_READ;
}

const char *
metrics_reason_code(enum reason r)
{
	if ((unsigned)r >= R_NREASONS)
		return "?";
	return reasons[r].code;
}
