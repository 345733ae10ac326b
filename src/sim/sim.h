/* sim.h: the simulated machine as a counter source. */
#ifndef HTTOP_SIM_H
#define HTTOP_SIM_H

#include <stdint.h>

#include "source/msr/msr_io.h"
#include "sim/scenario.h"
#include "source/source.h"

struct vpmu;

/* The simulator: the msr engine over a vpmu driven by a scenario (built-in
 * name or file), with a virtual clock. Samples carry the ground truth. */
struct source *sim_source_new(struct machine *m, const char *scenario, uint64_t seed,
    struct errmsg *e);
/* The same over a scenario built in code (httop --check); `detail` names it. */
struct source *sim_source_new_scenario(struct machine *m, const struct scenario *sc,
    const char *detail, uint64_t seed, struct errmsg *e);

/* An msr_io whose reads and writes go to the virtual PMU: the msr engine
 * runs unchanged over the simulator. */
struct msr_io *msr_io_vpmu_new(struct vpmu *v);

#endif
