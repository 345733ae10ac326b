/* fuzz_trace.c: the trace reader (src/trace/trace_read.c) on any bytes.
 * Open, read every interval, close; a failure must come with a message,
 * and what a successful open returns must hold together (every CPU of the
 * topology inside the sample, a plan no larger than its arrays).
 *
 * Built twice: target trace reads the bytes as a stream (trace_open_stream,
 * the text parser alone); target tracez (FUZZ_TRACE_FILE) puts them in a
 * memory file and opens it by name (trace_open), so gzip input goes through
 * the magic check and the inflater the build has (src/trace/tracez.c,
 * tracez_isal.c or tracez_zlib.c): corrupt or cut compressed
 * data must end in a message, never in a crash or a hang. */
#include "config.h"

#include <string.h>
#ifdef FUZZ_TRACE_FILE
#include <sys/mman.h>
#include <unistd.h>
#endif

#include "fuzz.h"
#include "machine/machine.h"
#include "plan/plan.h"
#include "sample/sample.h"
#include "trace/trace.h"

/* Enough intervals to reach every line type; bounds the time per input. */
#define MAX_INTERVALS 10000

char fuzz_last_error[512];

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct trace_reader *r;
	struct machine m;
	struct plan plan;
	struct sample s;
	struct errmsg e;
	unsigned i, n = 0;
	int rc;
#ifdef FUZZ_TRACE_FILE
	char path[64];
	int fd = memfd_create("fuzz.trace", MFD_CLOEXEC);

	if (fd < 0 || (size > 0 && write(fd, data, size) != (ssize_t)size)) {
		perror("fuzz: memfd");
		abort();
	}
	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	e.text[0] = '\0';
	r = trace_open(path, &m, &plan, &e);
	close(fd);   /* the reader has its own descriptor */
#else
	FILE *fp = fuzz_stream(data, size);

	e.text[0] = '\0';
	r = trace_open_stream(fp, "fuzz.trace", &m, &plan, &e);
#endif
	snprintf(fuzz_last_error, sizeof fuzz_last_error, "%s", e.text);
	if (r == NULL) {
		FUZZ_ASSERT(e.text[0] != '\0', "open failed without a message");
#ifndef FUZZ_TRACE_FILE
		fclose(fp);
#endif
		return 0;
	}
	FUZZ_ASSERT(plan.nslots >= 1 && plan.nslots <= PLAN_MAX_SLOTS, "nslots %u", plan.nslots);
	FUZZ_ASSERT(plan.nwrites <= PLAN_MAX_WRITES, "nwrites %u", plan.nwrites);
	for (i = 0; i < plan.nwrites; i++)
		FUZZ_ASSERT(plan.writes[i].what != NULL, "write %u without what", i);
	FUZZ_ASSERT(m.topo.ncpus >= 1 && m.topo.ncores >= 1, "empty topology");
	for (i = 0; i < m.topo.max_cpu; i++)
		if (m.topo.cpus[i].present)
			FUZZ_ASSERT(topology_core_of(&m.topo, i) != NULL, "cpu %u has no core", i);
	(void)strlen(trace_producer(r));
	(void)strlen(trace_note(r));

	sample_init(&s, m.topo.max_cpu, plan.nslots, m.topo.ncores, true);
	while ((rc = trace_next(r, &s, &e)) == 0 && ++n < MAX_INTERVALS)
		(void)strlen(trace_last_event(r));
	snprintf(fuzz_last_error, sizeof fuzz_last_error, "%s", e.text);
	if (rc < 0)
		FUZZ_ASSERT(e.text[0] != '\0', "trace_next failed without a message");
	if (rc != 0)   /* once ended, it stays ended */
		FUZZ_ASSERT(trace_next(r, &s, &e) == rc, "second end differs");
	sample_free(&s);
	trace_close(r);
	machine_free(&m);
#ifndef FUZZ_TRACE_FILE
	fclose(fp);
#endif
	return 0;
}
