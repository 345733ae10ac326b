/* sim_source.c: the simulator as a source: the msr engine over a virtual
 * PMU driven by a scenario. Time is virtual (it moves by advance() and by
 * the cost of each access), and every sample carries the ground truth. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/scenario.h"
#include "source/sources.h"
#include "sim/sim.h"
#include "sim/vpmu.h"
#include "util/clock.h"
#include "util/i18n.h"
#include "util/xalloc.h"

/* An MSR access is an IPI to the target CPU; about a microsecond, so the
 * reads of one refresh are spread in time as on hardware. */
#define SIM_ACCESS_COST_S 1e-6
/* The wall-clock time of simulated time 0 under the test clock:
 * 2024-01-01T00:00:00Z. */
#define SIM_TEST_EPOCH 1704067200.0

struct sim {
	struct vpmu *v;
	double tsc_hz;
	bool test_clock;           /* wall times from SIM_TEST_EPOCH */
};

/* A sample's wall time: in real time the time of day of its read, as for
 * any live source (the engine stamps it; the simulated time runs ahead of
 * it by the calibration, which is simulated, not waited for); with the
 * test clock (HTTOP_CLOCK=virtual, ignored in a privileged httop as app.c
 * ignores it) a fixed date plus the simulated time, so that every run
 * writes the same times (httop(1), ENVIRONMENT). */
static bool
sim_test_clock(void)
{
	const char *clock = secure_getenv("HTTOP_CLOCK");

	return clock != NULL && strcmp(clock, "virtual") == 0;
}

static void
sim_free(void *p)
{
	struct sim *sim = p;

	vpmu_free(sim->v);
	free(sim);
}

static int
sim_read(struct source *s, struct sample *out, struct errmsg *e)
{
	struct sim *sim = msr_source_ext(s);
	unsigned c;

	if (msr_source_engine_ops()->read(s, out, e) != 0)
		return -1;
	/* The truth right after the counters: later than the first read by
	 * the access cost of the refresh, which is the skew a real run has. */
	if (out->truth != NULL) {
		for (c = 0; c < out->ncores && c < s->m->topo.ncores; c++)
			vpmu_truth(sim->v, c, &out->truth[(size_t)c * 4]);
	}
	out->time = (double)vpmu_now(sim->v) / sim->tsc_hz;
	if (sim->test_clock)
		out->wall = SIM_TEST_EPOCH + out->time;
	return 0;
}

static void
sim_advance(struct source *s, double seconds)
{
	struct sim *sim = msr_source_ext(s);

	if (seconds > 0)
		vpmu_advance(sim->v, (uint64_t)(seconds * sim->tsc_hz + 0.5));
}

/* The engine does the rest; its ops are called through. */
static int
sim_program(struct source *s, const struct plan *p, bool force, struct errmsg *e)
{
	return msr_source_engine_ops()->program(s, p, force, e);
}

static int
sim_restore(struct source *s, struct errmsg *e)
{
	return msr_source_engine_ops()->restore(s, e);
}

static void
sim_emergency_restore(struct source *s)
{
	msr_source_engine_ops()->emergency_restore(s);
}

/* The simulated registers can be read back like real ones (--on-conflict). */
static int
sim_check(struct source *s, const struct cpulist *cpus, bool reclaim, struct source_diff *d,
    unsigned max, struct errmsg *e)
{
	return msr_source_engine_ops()->check(s, cpus, reclaim, d, max, e);
}

static int
sim_read_control(struct source *s, const struct cpulist *cpus, uint32_t msr, uint64_t *val,
    bool *got, struct errmsg *e)
{
	return msr_source_engine_ops()->read_control(s, cpus, msr, val, got, e);
}

static void
sim_close(struct source *s)
{
	msr_source_engine_ops()->close(s);
}

static const struct source_ops sim_ops = {
	.program = sim_program,
	.read = sim_read,
	.advance = sim_advance,
	.restore = sim_restore,
	.emergency_restore = sim_emergency_restore,
	.check = sim_check,
	.read_control = sim_read_control,
	.close = sim_close,
};

struct source *
sim_source_new_scenario(struct machine *m, const struct scenario *sc, const char *detail,
    uint64_t seed, struct errmsg *e)
{
	struct sim *sim;
	struct source *s;
	struct msr_io *io;

	/* A scenario's CAPID6 is the simulated machine's (the die grid). */
	if (sc->capid6.n > 0)
		m->capid6 = sc->capid6;
	sim = xcalloc(1, sizeof *sim);
	sim->v = vpmu_new(m, sc, seed);   /* the vpmu keeps its own copy */
	if (sim->v == NULL) {
		free(sim);
		return errmsg_set(e, _("internal error: the simulator could not be built")), NULL;
	}
	sim->tsc_hz = vpmu_tsc_hz(sim->v);
	sim->test_clock = sim_test_clock();
	vpmu_set_access_cost(sim->v, (uint64_t)(sim->tsc_hz * SIM_ACCESS_COST_S + 0.5));

	io = msr_io_vpmu_new(sim->v);
	s = msr_source_new(m, io, "sim", e);
	if (s == NULL) {
		sim_free(sim);
		return NULL;
	}
	msr_source_set_ext(s, sim, sim_free);
	s->ops = &sim_ops;
	s->virtual_clock = true;
	s->has_truth = true;
	snprintf(s->detail, sizeof s->detail, "%s", detail);
	return s;
}

struct source *
sim_source_new(struct machine *m, const char *scenario, uint64_t seed, struct errmsg *e)
{
	struct scenario sc;
	struct source *s;

	if (scenario_resolve(&sc, scenario, &m->topo, e) != 0)
		return NULL;
	s = sim_source_new_scenario(m, &sc, scenario, seed, e);
	scenario_free(&sc);
	return s;
}
