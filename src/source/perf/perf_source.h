/* perf_source.h: the perf_event source over any perf_sys (the real
 * kernel, or a test's fake one). perf_source_open() in sources.h is this
 * over perf_sys_real(). */
#ifndef HTTOP_PERF_SOURCE_H
#define HTTOP_PERF_SOURCE_H

#include "source/perf/perf_sys.h"
#include "source/source.h"

/* Takes ownership of sys (destroyed on failure too). Fills *plan with the
 * plan this source carries out: the machine's plan with its writes
 * dropped, 64-bit slots, and the slots perf cannot count removed or
 * replaced (the summary says which). Opens nothing yet beyond one probe
 * per event on the first online CPU; program() opens the groups.
 * after_msr: as for perf_source_open(). */
struct source *perf_source_new(struct machine *m, struct plan *plan, struct perf_sys *sys,
    bool after_msr, struct errmsg *e);

#endif
