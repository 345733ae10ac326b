# bench/local.mk: `make bench` runs the full benchmarks (several minutes;
# needs root, /dev/fuse, tmux, valgrind, strace; htop for its column) and
# prints the table that BENCHMARKS.md records.
EXTRA_DIST += bench/lib.sh bench/run.sh bench/reads.sh bench/instr.sh \
	bench/screen.sh bench/bytes.sh \
	bench/baseline.txt bench/README.md bench/bursts.py \
	bench/refresh-cpu.sh bench/draw-cpu.sh bench/targets.py bench/sched.py \
	bench/epilog.sh bench/nodes-instr.sh bench/nodes-targets.sh

# The whole cost of watching context switches (issue 37; run.sh's bench_whole),
# and what it and sched.py share (the switching load, the bench's cpuset).
EXTRA_DIST += bench/whole.py bench/lib.py bench/replay-builds.py

# The CPU time of reading + metrics per refresh, measured on a tape of the
# engine's reads (no system call in the timed loop).
noinst_PROGRAMS += bench/httop-refresh-cpu
bench_httop_refresh_cpu_SOURCES = bench/refresh_cpu.c
bench_httop_refresh_cpu_LDADD = $(HTTOP_LIBS)

# The switching load of the scheduler source's benchmark (bench/sched.py).
noinst_PROGRAMS += bench/httop-pingpong
bench_httop_pingpong_SOURCES = bench/pingpong.c

# The fake MSR device is a test program: configure without --disable-tests.
# The fixtures are unpacked as for make check (tests/fixtures.mk).
bench: all
	$(MAKE) $(AM_MAKEFLAGS) tests/fakemsr/fakemsr$(EXEEXT) $(FIXTURES_UNPACKED)
	HTTOP_FIXTURES='$(abs_top_builddir)/tests/unpacked' \
	FIXTURES='$(abs_top_builddir)/tests/unpacked' \
	$(SHELL) $(top_srcdir)/bench/run.sh $(abs_top_builddir)
.PHONY: bench
