/* simcase.c: the scenario that plays the check on the simulator
 * (simcase.h). */
#include "config.h"
#include "check/simcase.h"

#include <string.h>

const struct check_case *
check_sim_case(unsigned core, const struct check_case *only)
{
	return only != NULL ? only : &check_cases[core % check_ncases];
}

/* A window as a simulator activity: asleep, busy, or a duty cycle that
 * starts `start` into each period. */
static void
window_activity(struct activity *a, const struct check_window *w, double period, double ghz,
    double ipc)
{
	double len = check_window_len(w);

	memset(a, 0, sizeof *a);
	a->kind = len <= 0.0 ? ACT_IDLE : len >= 1.0 ? ACT_BUSY : ACT_DUTY;
	a->duty = len;
	a->phase = w->start;
	a->period_s = period;
	a->ghz = ghz;
	a->ipc = ipc;
}

void
check_sim_scenario(struct scenario *sc, const struct topology *t,
    const struct check_case *only, double period, double ghz, double ipc)
{
	unsigned c, j;

	scenario_empty(sc, only != NULL ? only->name : "check", t);
	for (c = 0; c < t->ncores; c++) {
		const struct topo_core *tc = &t->cores[c];
		const struct check_case *k = check_sim_case(c, only);

		for (j = 0; j < tc->nthreads && j < 2; j++) {
			struct activity a;

			window_activity(&a, &k->w[j], period, ghz, ipc);
			scenario_set_cpu(sc, tc->cpus[j], &a);
		}
	}
}

double
check_sim_ghz(const struct cpu_identity *id)
{
	double hz = identity_tsc_hz(id);

	return hz > 0.0 ? CHECK_SIM_CLOCK_FACTOR * hz / 1e9 : 0.0;
}
