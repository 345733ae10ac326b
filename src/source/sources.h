/* sources.h: constructors for every counter source. Each returns a source
 * that owns its private state; source_close() restores and frees it. */
#ifndef HTTOP_SOURCES_H
#define HTTOP_SOURCES_H

#include <stdint.h>

#include "source/msr_io.h"
#include "source/source.h"

/* MSR engine over any msr_io (takes ownership of io). `name` is what the
 * header shows ("msr", "sim"). Opens every present CPU's device up front
 * and keeps it open; an open error names the cause and the fix (modprobe
 * msr, root or CAP_SYS_RAWIO, ...). */
struct source *msr_source_new(struct machine *m, struct msr_io *io, const char *name,
    struct errmsg *e);
/* The real thing: /dev/cpu/%u/msr or --msr-path TEMPLATE. */
struct source *msr_source_open(struct machine *m, const char *path_template, struct errmsg *e);
/* The simulator: the msr engine over a vpmu driven by a scenario (built-in
 * name or file), with a virtual clock. Samples carry the ground truth. */
struct source *sim_source_new(struct machine *m, const char *scenario, uint64_t seed,
    struct errmsg *e);
/* A recorded trace. Fills *m and *plan from the trace header; the source
 * points at them, so they must outlive it. */
struct source *replay_source_new(const char *path, struct machine *m, struct plan *plan,
    struct errmsg *e);

#endif
