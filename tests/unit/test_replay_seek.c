/* test_replay_seek.c: the replay source's controls for the live view:
 * counting the trace (scan), reading ahead (peek), jumping to the start
 * and to the end, and the header's text of the position.
 *
 * tests/data/trace/good.trace has 3 samples: seq 0 at time 0, seq 1 at
 * time 1 (after the event "handmade event"), seq 2 at time 2.5. CPU 0's
 * TSC is 0x1000000000, 0x107d2b7500 (2,100,000,000 ticks later), then
 * 0x107d2b78e8 (1000 ticks later); in seq 2 CPU 1 has read error 5 and
 * CPU 3 is offline. truncated.trace is the same cut off inside seq 2:
 * 2 complete samples. */
#include "config.h"

#include <string.h>
#include <unistd.h>

#include "unit/testutil.h"

#include "source/sources.h"
#include "trace/trace.h"
#include "ui/header.h"

struct fix {
	struct machine m;
	struct plan p;
	struct source *src;
	struct sample s;
	struct errmsg e;
};

static void
fix_open(struct fix *f, const char *path)
{
	f->src = replay_source_new(path, &f->m, &f->p, &f->e);
	if (f->src == NULL)
		fail_msg("%s", f->e.text);
	sample_init(&f->s, f->m.topo.max_cpu, f->p.nslots, f->m.topo.ncores, false);
}

static void
fix_close(struct fix *f)
{
	sample_free(&f->s);
	source_close(f->src);
	machine_free(&f->m);
}

/* Read one sample and check its seq and time. */
static void
read_one(struct fix *f, unsigned seq, double time)
{
	int rc = source_read(f->src, &f->s, &f->e);

	if (rc != 0)
		fail_msg("read for seq %u: rc %d: %s", seq, rc, f->e.text);
	assert_int_equal(f->s.seq, seq);
	assert_near(f->s.time, time, 1e-12);
}

static uint64_t
tsc0(struct fix *f)
{
	return sample_row(&f->s, 0)[0];
}

/* Budget 1: one sample per call; the fourth call meets the end. */
static void
test_scan_counts(void **state)
{
	struct fix f;
	struct source_pos ri;

	(void)state;
	fix_open(&f, srcfile("tests/data/trace/good.trace"));
	source_pos(f.src, &ri);
	assert_int_equal(ri.pos, 0);
	assert_false(ri.total_known);
	assert_int_equal(source_scan(f.src, 1, &f.e), 0);
	assert_int_equal(source_scan(f.src, 1, &f.e), 0);
	assert_int_equal(source_scan(f.src, 1, &f.e), 0);
	source_pos(f.src, &ri);
	assert_false(ri.total_known);
	assert_int_equal(source_scan(f.src, 1, &f.e), 1);
	assert_int_equal(source_scan(f.src, 1, &f.e), 1);
	source_pos(f.src, &ri);
	assert_true(ri.total_known);
	assert_int_equal(ri.total, 3);
	assert_near(ri.t_first, 0.0, 0);
	assert_near(ri.t_last, 2.5, 0);
	/* The scan is a second reader: the replay itself is still at 0. */
	assert_int_equal(ri.pos, 0);
	read_one(&f, 0, 0.0);
	assert_true(tsc0(&f) == 0x1000000000ull);
	source_pos(f.src, &ri);
	assert_int_equal(ri.pos, 1);
	assert_false(ri.at_end);
	fix_close(&f);
}

/* ] after the first sample: the next two reads are seq 1 and seq 2 with
 * the values the plain reads give, then the end. */
static void
test_seek_end(void **state)
{
	struct fix f;
	struct source_pos ri;

	(void)state;
	fix_open(&f, srcfile("tests/data/trace/good.trace"));
	read_one(&f, 0, 0.0);
	assert_int_equal(source_seek_end(f.src, &f.e), 0);
	source_pos(f.src, &ri);
	assert_int_equal(ri.pos, 1);      /* 3 samples, 2 pending */
	assert_true(ri.total_known);
	read_one(&f, 1, 1.0);
	assert_true(tsc0(&f) == 0x107d2b7500ull);
	assert_string_equal(f.src->events, "handmade event");
	read_one(&f, 2, 2.5);
	assert_true(tsc0(&f) == 0x107d2b78e8ull);
	assert_string_equal(f.src->events, "");
	source_pos(f.src, &ri);
	assert_int_equal(ri.pos, 3);
	assert_true(ri.at_end);
	assert_int_equal(source_read(f.src, &f.s, &f.e), 1);
	/* And back to the start from there. */
	assert_int_equal(source_rewind(f.src, &f.e), 0);
	source_pos(f.src, &ri);
	assert_int_equal(ri.pos, 0);
	assert_false(ri.at_end);
	read_one(&f, 0, 0.0);
	assert_true(tsc0(&f) == 0x1000000000ull);
	read_one(&f, 1, 1.0);
	fix_close(&f);
}

/* [ in the middle, twice (the two reopened readers take turns). */
static void
test_rewind(void **state)
{
	struct fix f;
	struct source_pos ri;
	int i;

	(void)state;
	fix_open(&f, srcfile("tests/data/trace/good.trace"));
	for (i = 0; i < 3; i++) {
		read_one(&f, 0, 0.0);
		read_one(&f, 1, 1.0);
		assert_int_equal(source_rewind(f.src, &f.e), 0);
	}
	read_one(&f, 0, 0.0);
	read_one(&f, 1, 1.0);
	read_one(&f, 2, 2.5);
	assert_int_equal(source_read(f.src, &f.s, &f.e), 1);
	source_pos(f.src, &ri);
	assert_true(ri.at_end);
	assert_int_equal(ri.pos, 3);
	fix_close(&f);
}

/* The live view paces by the next sample's time: peek reads it ahead,
 * the read hands it out, and the end is known once peek meets it. */
static void
test_peek(void **state)
{
	struct fix f;
	struct source_pos ri;
	double t = -1;

	(void)state;
	fix_open(&f, srcfile("tests/data/trace/good.trace"));
	assert_int_equal(source_peek_time(f.src, &t, &f.e), 0);
	assert_near(t, 0.0, 0);
	read_one(&f, 0, 0.0);
	assert_int_equal(source_peek_time(f.src, &t, &f.e), 0);
	assert_near(t, 1.0, 0);
	/* Peeking twice reads nothing more. */
	assert_int_equal(source_peek_time(f.src, &t, &f.e), 0);
	assert_near(t, 1.0, 0);
	source_pos(f.src, &ri);
	assert_int_equal(ri.pos, 1);
	read_one(&f, 1, 1.0);
	assert_string_equal(f.src->events, "handmade event");
	read_one(&f, 2, 2.5);
	source_pos(f.src, &ri);
	assert_false(ri.at_end);          /* not known yet: no scan, no peek */
	assert_int_equal(source_peek_time(f.src, &t, &f.e), 1);
	source_pos(f.src, &ri);
	assert_true(ri.at_end);
	assert_int_equal(source_read(f.src, &f.s, &f.e), 1);
	/* A rewind forgets the sample read ahead. */
	assert_int_equal(source_rewind(f.src, &f.e), 0);
	read_one(&f, 0, 0.0);
	fix_close(&f);
}

/* A trace cut off inside its third interval: 2 samples, and ] gives the
 * interval between them. */
static void
test_truncated(void **state)
{
	struct fix f;
	struct source_pos ri;

	(void)state;
	fix_open(&f, srcfile("tests/data/trace/truncated.trace"));
	assert_int_equal(source_seek_end(f.src, &f.e), 0);
	source_pos(f.src, &ri);
	assert_int_equal(ri.total, 2);
	assert_near(ri.t_last, 1.0, 0);
	read_one(&f, 0, 0.0);
	read_one(&f, 1, 1.0);
	assert_int_equal(source_read(f.src, &f.s, &f.e), 1);
	fix_close(&f);
}

/* --cpus 1 (core 1: CPUs 1 and 3): the tail samples are masked too. */
static void
test_seek_end_selected(void **state)
{
	struct fix f;

	(void)state;
	fix_open(&f, srcfile("tests/data/trace/good.trace"));
	cpulist_free(&f.src->selected);
	f.src->selected.n = f.m.topo.max_cpu;
	f.src->selected.has = calloc(f.m.topo.max_cpu, sizeof *f.src->selected.has);
	f.src->selected.has[1] = f.src->selected.has[3] = true;
	assert_int_equal(source_seek_end(f.src, &f.e), 0);
	read_one(&f, 1, 1.0);
	assert_int_equal(f.s.state[0], CPU_NOT_READ);
	assert_int_equal(f.s.state[1], CPU_READ_OK);
	assert_int_equal(f.s.state[2], CPU_NOT_READ);
	assert_int_equal(f.s.state[3], CPU_READ_OK);
	/* seq 2: CPU 1's read error and CPU 3's offline state are kept. */
	read_one(&f, 2, 2.5);
	assert_int_equal(f.s.state[0], CPU_NOT_READ);
	assert_int_equal(f.s.state[1], CPU_READ_ERROR);
	assert_int_equal(f.s.err[1], 5);
	assert_int_equal(f.s.state[3], CPU_OFFLINE);
	fix_close(&f);
}

/* The file replaced by something that is not a trace: the rewind fails
 * with a message and the replay goes on where it was. */
static void
test_rewind_fails(void **state)
{
	char path[] = "/tmp/httop-test-seek-XXXXXX";
	char cmd[2 * 4096 + 64];   /* two srcfile() paths and the command */
	struct fix f;
	int fd;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	assert_true(snprintf(cmd, sizeof cmd, "cp '%s' '%s'", srcfile("tests/data/trace/good.trace"),
	    path) < (int)sizeof cmd);
	assert_int_equal(system(cmd), 0);
	fix_open(&f, path);
	read_one(&f, 0, 0.0);
	assert_true(snprintf(cmd, sizeof cmd, "cp '%s' '%s'",
	    srcfile("tests/data/trace/not-a-trace.trace"), path) < (int)sizeof cmd);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(source_rewind(f.src, &f.e), -1);
	assert_non_null(strstr(f.e.text, "reading the trace again"));
	read_one(&f, 1, 1.0);
	fix_close(&f);
	unlink(path);
}

/* The header: sample 17 of 59 at 18.4 s of 57.9 s, speed 2^1. */
static void
test_header_text(void **state)
{
	struct replay_view rv;
	char buf[160];

	(void)state;
	memset(&rv, 0, sizeof rv);
	rv.pos = 17;
	rv.total = 59;
	rv.total_known = true;
	rv.at = 18.44;
	rv.length = 57.86;
	rv.speed = 1;
	header_replay_text(buf, sizeof buf, &rv);
	assert_string_equal(buf, "17/59 (18.4 s of 57.9 s) x2");
	rv.pos = 59;
	rv.at = 57.86;
	rv.speed = -2;
	rv.at_end = true;
	header_replay_text(buf, sizeof buf, &rv);
	assert_string_equal(buf, "59/59 (57.9 s of 57.9 s) x1/4 end of replay");
	/* Not counted yet: no total, no length. */
	memset(&rv, 0, sizeof rv);
	rv.pos = 3;
	rv.at = 2.04;
	rv.length = -1;
	header_replay_text(buf, sizeof buf, &rv);
	assert_string_equal(buf, "3/? (2.0 s) x1");
	/* 125 s = 2 min 5 s; 3725 s = 1 h 2 min 5 s; x64 = 2^6. */
	header_duration_text(buf, sizeof buf, 125.0);
	assert_string_equal(buf, "2:05");
	header_duration_text(buf, sizeof buf, 3725.0);
	assert_string_equal(buf, "1:02:05");
	header_duration_text(buf, sizeof buf, -1.0);
	assert_string_equal(buf, "0.0 s");
	header_speed_text(buf, sizeof buf, 6);
	assert_string_equal(buf, "x64");
	header_speed_text(buf, sizeof buf, -1);
	assert_string_equal(buf, "x1/2");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scan_counts),
		cmocka_unit_test(test_seek_end),
		cmocka_unit_test(test_rewind),
		cmocka_unit_test(test_peek),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_seek_end_selected),
		cmocka_unit_test(test_rewind_fails),
		cmocka_unit_test(test_header_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
