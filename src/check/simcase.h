/* simcase.h: the check on the simulator. The simulator plays the cases
 * itself, from a scenario built here: each core plays one case (a given
 * one, or case `core index mod cases`, so one interval checks them all),
 * its thread 0 and 1 busy in the case's windows at a known clock and IPC. */
#ifndef HTTOP_CHECK_SIMCASE_H
#define HTTOP_CHECK_SIMCASE_H

#include "check/cases.h"
#include "machine/identity.h"
#include "machine/topology.h"
#include "sim/scenario.h"

/* The simulated load's clock, over the nominal one: not the nominal clock,
 * so that a GHz figure that only repeated the nominal clock would fail. */
#define CHECK_SIM_CLOCK_FACTOR 1.25
/* The simulated load's IPC: the loop's 9 instructions in 24 cycles. */
#define CHECK_SIM_IPC (9.0 / 24.0)

/* The clock the simulator plays the check's loads at, GHz: the factor
 * times the TSC clock of `id` (0: not known; the nominal clock then). */
double check_sim_ghz(const struct cpu_identity *id);
/* The case core `core` plays: `only`, or the core's index mod the cases. */
const struct check_case *check_sim_case(unsigned core, const struct check_case *only);
/* The scenario: every core of t plays check_sim_case(core, only) with the
 * given period, clock (GHz; 0 the nominal) and IPC; threads beyond the
 * second sleep. */
void check_sim_scenario(struct scenario *sc, const struct topology *t,
    const struct check_case *only, double period, double ghz, double ipc);

#endif
