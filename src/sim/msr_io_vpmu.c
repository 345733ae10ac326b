/* msr_io_vpmu.c: the msr_io backend over the simulator. The msr engine
 * above it cannot tell it from /dev/cpu/%u/msr. The vpmu is borrowed: the
 * sim source owns it and frees it after destroying this. */
#include "config.h"
#include "source/msr/msr_io.h"

#include <errno.h>
#include <stdlib.h>

#include "sim/sim.h"
#include "sim/vpmu.h"
#include "util/i18n.h"
#include "util/xalloc.h"

struct msr_io_vpmu {
	struct msr_io io;       /* first: the engine holds a struct msr_io * */
	struct vpmu *v;
};

static struct vpmu *
vpmu_of(struct msr_io *io)
{
	return ((struct msr_io_vpmu *)io)->v;
}

static int
vio_open(struct msr_io *io, unsigned cpu, struct errmsg *e)
{
	struct vpmu *v = vpmu_of(io);

	if (!vpmu_cpu_present(v, cpu)) {
		errmsg_set(e, _("CPU %u is not in the simulated machine: choose CPUs of its topology "
		    "(--cpus)"), cpu);
		return -ENXIO;
	}
	if (!vpmu_cpu_online(v, cpu)) {
		errmsg_set(e, _("CPU %u of the simulated machine is offline: leave it out (--cpus)"),
		    cpu);
		return -ENXIO;
	}
	return 0;
}

static int
vio_rd(struct msr_io *io, unsigned cpu, uint32_t msr, uint64_t *val)
{
	io->nreads++;
	return vpmu_rdmsr(vpmu_of(io), cpu, msr, val);
}

static int
vio_wr(struct msr_io *io, unsigned cpu, uint32_t msr, uint64_t val)
{
	io->nwrites++;
	return vpmu_wrmsr(vpmu_of(io), cpu, msr, val);
}

static int
vio_wr_async(struct msr_io *io, unsigned cpu, uint32_t msr, uint64_t val)
{
	io->nwrites++;
	return vpmu_wrmsr_async(vpmu_of(io), cpu, msr, val);
}

static void
vio_close(struct msr_io *io, unsigned cpu)
{
	(void)io;
	(void)cpu;
}

static void
vio_destroy(struct msr_io *io)
{
	free(io);
}

struct msr_io *
msr_io_vpmu_new(struct vpmu *v)
{
	struct msr_io_vpmu *x = xcalloc(1, sizeof *x);

	x->io.open_cpu = vio_open;
	x->io.rd = vio_rd;
	x->io.wr = vio_wr;
	x->io.wr_async = vio_wr_async;
	x->io.close_cpu = vio_close;
	x->io.destroy = vio_destroy;
	x->v = v;
	return &x->io;
}
