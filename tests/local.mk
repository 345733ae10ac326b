# tests: each area lists its own test programs and scripts in tests/*.mk.
# Every test prints TAP (cmocka with CMOCKA_MESSAGE_OUTPUT=TAP, or sh).
TEST_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
TEST_LIBS = $(HTTOP_LIBS) $(CMOCKA_LIBS)
EXTRA_DIST += tests/unit/testutil.h tests/lib.sh tests/json_schema.py

include $(srcdir)/tests/fixtures.mk
include $(srcdir)/tests/harness.mk
include $(srcdir)/tests/util.mk
include $(srcdir)/tests/machine.mk
include $(srcdir)/tests/plan.mk
include $(srcdir)/tests/sim.mk
include $(srcdir)/tests/msr.mk
include $(srcdir)/tests/trace.mk
include $(srcdir)/tests/fuzz.mk
include $(srcdir)/tests/out.mk
include $(srcdir)/tests/cli.mk
include $(srcdir)/tests/ui.mk
include $(srcdir)/tests/views.mk
include $(srcdir)/tests/tui.mk
include $(srcdir)/tests/diemap.mk
include $(srcdir)/tests/die.mk
include $(srcdir)/tests/dielayout.mk
include $(srcdir)/tests/perf.mk
include $(srcdir)/tests/sched.mk
include $(srcdir)/tests/safe.mk
include $(srcdir)/tests/conflict.mk
include $(srcdir)/tests/stopped.mk
include $(srcdir)/tests/bench.mk
include $(srcdir)/tests/record.mk
include $(srcdir)/tests/export.mk
include $(srcdir)/tests/install.mk
include $(srcdir)/tests/packaging.mk
include $(srcdir)/tests/replay.mk
include $(srcdir)/tests/i18n.mk
include $(srcdir)/tests/check.mk
include $(srcdir)/tests/job.mk
include $(srcdir)/tests/nodes.mk
include $(srcdir)/tests/procstat.mk
include $(srcdir)/tests/serial.mk
