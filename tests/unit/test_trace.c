/* test_trace.c: the trace format (man/httop-trace.5): writer -> reader
 * round trip, a cut at every byte offset, every class of malformed line
 * with its line number, version refusal, the replay source, and the
 * metrics of a handmade trace worked out by hand. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <string.h>

#include "unit/testutil.h"

#include "machine/machine.h"
#include "metrics/metrics.h"
#include "plan/plan.h"
#include "source/sched/sched_source.h"
#include "source/sources.h"
#include "trace/trace.h"

static char tmpdir[256];

static const char *
tmppath(const char *name)
{
	static char buf[2][512];
	static int which;

	which ^= 1;
	snprintf(buf[which], sizeof buf[which], "%s/%s", tmpdir, name);
	return buf[which];
}

static int
setup_dir(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof tmpdir, "/tmp/test_trace.XXXXXX");
	return mkdtemp(tmpdir) == NULL ? -1 : 0;
}

static int
remove_dir(void **state)
{
	char cmd[400];

	(void)state;
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

/* A 2-core, 2-thread SKX machine with awkward strings. */
static void
make_machine(struct machine *m, struct plan *p)
{
	memset(m, 0, sizeof *m);
	topology_synthetic(&m->topo, 1, 2, 2);
	identity_from_fields(&m->id, "GenuineIntel", 6, 0x55, 4,
	    "Intel(R) Xeon(R) \"quoted\" back\\slash @ 2.10GHz");
	m->id.pmu_version = 4;
	m->id.n_gp = 4;
	m->id.gp_width = 48;
	m->id.n_fixed = 3;
	m->id.fixed_width = 48;
	m->id.tsc_num = 168;
	m->id.tsc_den = 2;
	m->id.crystal_hz = 25000000;
	m->id.base_ratio = 21;
	m->id.base_src = BASE_PLATFORM_INFO;
	m->group = UARCH_SKX;
	snprintf(m->hostname, sizeof m->hostname, "node-7.x_y");
	plan_for_machine(p, m);
	snprintf(p->scale_note, sizeof p->scale_note, "measured 84 = \"table\"\n(2nd line)");
	p->scale = 84;
	p->scale_measured = true;
}

static uint64_t
lcg(uint64_t *x)
{
	*x = *x * 6364136223846793005ull + 1442695040888963407ull;
	return *x ^ (*x >> 29);
}

#define NSAMP 4

/* Samples with full 64-bit values, every state, non-zero errno. */
static void
make_samples(const struct machine *m, const struct plan *p, struct sample *s)
{
	static const double times[NSAMP] = { 0.0, 0.1, 1.0 / 3.0, 12345.678901234567 };
	uint64_t x = 42;
	unsigned i, cpu, k;

	for (i = 0; i < NSAMP; i++) {
		sample_init(&s[i], m->topo.max_cpu, p->nslots, m->topo.ncores, true);
		s[i].seq = i;
		s[i].time = times[i];
		for (cpu = 0; cpu < m->topo.max_cpu; cpu++) {
			s[i].state[cpu] = CPU_READ_OK;
			for (k = 0; k < p->nslots; k++)
				sample_row(&s[i], cpu)[k] = lcg(&x);
		}
		for (k = 0; k < m->topo.ncores * 4; k++)
			s[i].truth[k] = lcg(&x);
	}
	sample_row(&s[1], 0)[0] = UINT64_MAX;
	sample_row(&s[1], 0)[1] = 0;
	s[2].state[1] = CPU_OFFLINE;
	s[2].state[2] = CPU_READ_ERROR;
	s[2].err[2] = EIO;
	s[3].state[3] = CPU_NOT_READ;
	memset(sample_row(&s[3], 3), 0, p->nslots * sizeof(uint64_t));
	s[3].state[1] = CPU_NOT_READ;   /* not read, but holding values: kept */
}

static void
write_trace(const char *path, const struct machine *m, const struct plan *p, struct sample *s)
{
	struct trace_writer *w;
	struct errmsg e;
	FILE *fp = fopen(path, "w");
	unsigned i;

	assert_non_null(fp);
	w = trace_writer_open(fp, m, p, "round trip \\ \"note\"", &e);
	assert_non_null(w);
	for (i = 0; i < NSAMP; i++) {
		if (i == 2) {
			assert_int_equal(trace_write_event(w, 0.25, "cpu 1 offline", &e), 0);
			assert_int_equal(trace_write_event(w, 0.3, "reprogrammed", &e), 0);
		}
		assert_int_equal(trace_write_sample(w, &s[i], &e), 0);
	}
	assert_int_equal(trace_writer_close(w, &e), 0);
	fclose(fp);
}

static void
test_round_trip(void **state)
{
	struct machine m, m2;
	struct plan p, p2;
	struct sample s[NSAMP], r;
	struct trace_reader *tr;
	struct errmsg e;
	const char *path = tmppath("rt.trace");
	unsigned i, cpu, k;

	(void)state;
	make_machine(&m, &p);
	make_samples(&m, &p, s);
	write_trace(path, &m, &p, s);

	tr = trace_open(path, &m2, &p2, &e);
	if (tr == NULL)
		fail_msg("%s", e.text);
	assert_string_equal(trace_note(tr), "round trip \\ \"note\"");
	assert_string_equal(trace_producer(tr), "httop " PACKAGE_VERSION);
	/* The machine. */
	assert_string_equal(m2.hostname, m.hostname);
	assert_int_equal(m2.group, UARCH_SKX);
	assert_string_equal(m2.id.vendor_str, "GenuineIntel");
	assert_int_equal(m2.id.family, 6);
	assert_int_equal(m2.id.model, 0x55);
	assert_int_equal(m2.id.stepping, 4);
	assert_string_equal(m2.id.brand, m.id.brand);
	assert_int_equal(m2.id.base_ratio, 21);
	assert_int_equal(m2.id.base_src, BASE_TRACE);
	assert_int_equal(m2.id.tsc_num, 168);
	assert_int_equal(m2.id.tsc_den, 2);
	assert_int_equal(m2.id.crystal_hz, 25000000);
	assert_int_equal(m2.id.pmu_version, 4);
	assert_int_equal(m2.id.gp_width, 48);
	assert_int_equal(m2.id.n_fixed, 3);
	assert_int_equal(m2.topo.max_cpu, m.topo.max_cpu);
	assert_int_equal(m2.topo.ncores, m.topo.ncores);
	assert_int_equal(m2.topo.npackages, 1);
	for (cpu = 0; cpu < m.topo.max_cpu; cpu++) {
		assert_int_equal(m2.topo.cpus[cpu].present, m.topo.cpus[cpu].present);
		assert_int_equal(m2.topo.cpus[cpu].thread, m.topo.cpus[cpu].thread);
		assert_int_equal(m2.topo.cpus[cpu].core, m.topo.cpus[cpu].core);
		assert_int_equal(m2.topo.cpus[cpu].online, m.topo.cpus[cpu].online);
	}
	/* The plan, field by field. */
	assert_int_equal(p2.group, p.group);
	assert_int_equal(p2.split, p.split);
	assert_int_equal(p2.nslots, p.nslots);
	assert_int_equal(p2.nwrites, p.nwrites);
	assert_int_equal(p2.scale, 84);
	assert_int_equal(p2.scale_expected, p.scale_expected);
	assert_true(p2.scale_measured);
	/* text comes back escaped for a terminal (textesc.h): the quote as it
	 * is, the newline as \x0a */
	assert_string_equal(p2.scale_note, "measured 84 = \"table\"\\x0a(2nd line)");
	assert_string_equal(p2.summary, p.summary);
	for (k = 0; k < p.nslots; k++) {
		assert_int_equal(p2.slots[k].kind, p.slots[k].kind);
		assert_int_equal(p2.slots[k].msr, p.slots[k].msr);
		assert_int_equal(p2.slots[k].width, p.slots[k].width);
		assert_int_equal(p2.slots[k].thread_mask, p.slots[k].thread_mask);
	}
	for (k = 0; k < p.nwrites; k++) {
		assert_int_equal(p2.writes[k].msr, p.writes[k].msr);
		assert_int_equal(p2.writes[k].value, p.writes[k].value);
		assert_int_equal(p2.writes[k].mask, p.writes[k].mask);
		assert_int_equal(p2.writes[k].busy_mask, p.writes[k].busy_mask);
		assert_int_equal(p2.writes[k].thread_mask, p.writes[k].thread_mask);
		assert_string_equal(p2.writes[k].what, p.writes[k].what);
	}
	/* The samples, bit for bit (times too). */
	sample_init(&r, m2.topo.max_cpu, p2.nslots, m2.topo.ncores, true);
	for (i = 0; i < NSAMP; i++) {
		int rc = trace_next(tr, &r, &e);

		if (rc != 0)
			fail_msg("sample %u: rc %d: %s", i, rc, e.text);
		assert_int_equal(r.seq, i);
		assert_memory_equal(&r.time, &s[i].time, sizeof r.time);
		assert_memory_equal(r.state, s[i].state, m.topo.max_cpu);
		assert_memory_equal(r.err, s[i].err, m.topo.max_cpu * sizeof *r.err);
		assert_memory_equal(r.v, s[i].v, m.topo.max_cpu * p.nslots * sizeof *r.v);
		assert_memory_equal(r.truth, s[i].truth, m.topo.ncores * 4 * sizeof *r.truth);
		assert_string_equal(trace_last_event(tr), i == 2 ?
		    "cpu 1 offline; reprogrammed" : "");
	}
	assert_int_equal(trace_next(tr, &r, &e), 1);
	assert_string_equal(e.text, "");   /* a clean end says nothing */
	assert_int_equal(trace_next(tr, &r, &e), 1);
	trace_close(tr);
	sample_free(&r);
	for (i = 0; i < NSAMP; i++)
		sample_free(&s[i]);
	machine_free(&m2);
	machine_free(&m);
}

static char *
slurp(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	char *buf;
	long n;

	assert_non_null(fp);
	fseek(fp, 0, SEEK_END);
	n = ftell(fp);
	rewind(fp);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, fp), (size_t)n);
	fclose(fp);
	buf[n] = '\0';
	*len = (size_t)n;
	return buf;
}

static void
spill(const char *path, const char *buf, size_t len)
{
	FILE *fp = fopen(path, "wb");

	assert_non_null(fp);
	assert_int_equal(fwrite(buf, 1, len, fp), len);
	fclose(fp);
}

/* A writer killed at any byte: the reader returns exactly the intervals
 * whose "end" line (with its newline) is in the file, then 1; never -1. */
static void
test_cut_everywhere(void **state)
{
	struct machine m, m2;
	struct plan p, p2;
	struct sample s[NSAMP], r;
	struct trace_reader *tr;
	struct errmsg e;
	const char *full = tmppath("cut-full.trace"), *cut = tmppath("cut.trace");
	const char *hend;
	size_t len, n, header_len, ends[NSAMP], nends = 0, i;
	char *buf, *q;

	(void)state;
	make_machine(&m, &p);
	make_samples(&m, &p, s);
	write_trace(full, &m, &p, s);
	buf = slurp(full, &len);
	hend = strstr(buf, "\nheader-end\n");
	assert_non_null(hend);
	header_len = (size_t)(hend - buf) + strlen("\nheader-end\n");
	for (q = buf; (q = strstr(q, "\nend seq=")) != NULL; q++)
		ends[nends++] = (size_t)(strchr(q + 1, '\n') - buf) + 1;
	assert_int_equal(nends, NSAMP);

	for (n = 0; n <= len; n++) {
		size_t want = 0, got = 0;
		int rc;

		spill(cut, buf, n);
		tr = trace_open(cut, &m2, &p2, &e);
		if (n < header_len) {
			if (tr != NULL)
				fail_msg("cut at %zu opened a trace without its header", n);
			if (strstr(e.text, "truncated") == NULL && strstr(e.text, "empty") == NULL &&
			    strstr(e.text, "not an httop") == NULL)
				fail_msg("cut at %zu: %s", n, e.text);
			continue;
		}
		if (tr == NULL)
			fail_msg("cut at %zu: %s", n, e.text);
		for (i = 0; i < nends; i++)
			if (ends[i] <= n)
				want++;
		sample_init(&r, m2.topo.max_cpu, p2.nslots, m2.topo.ncores, true);
		while ((rc = trace_next(tr, &r, &e)) == 0) {
			assert_int_equal(r.seq, got);
			got++;
		}
		if (rc != 1)
			fail_msg("cut at %zu: rc %d: %s", n, rc, e.text);
		if (got != want)
			fail_msg("cut at %zu: %zu intervals, expected %zu", n, got, want);
		/* A cut that is not at a line boundary, or inside an interval,
		 * is reported with its line; a clean cut says nothing. */
		if (n < len && n > header_len && buf[n - 1] != '\n')
			assert_true(strstr(e.text, "cut off") != NULL);
		trace_close(tr);
		sample_free(&r);
		machine_free(&m2);
	}
	free(buf);
	for (i = 0; i < NSAMP; i++)
		sample_free(&s[i]);
	machine_free(&m);
}

/* Each malformed file in tests/data/trace gives -1 and this message. The
 * line numbers are those of the edited line (see good.trace). */
static const struct {
	const char *file;
	bool at_open;
	const char *msg;
} bad[] = {
	{ "future-version.trace", true, "future-version.trace:1: trace format version 2.0 is "
	    "newer than this httop reads (version 1): use a newer httop" },
	{ "not-a-trace.trace", true, "not-a-trace.trace:1: not an httop trace" },
	{ "missing-field.trace", true, "missing-field.trace:13: 'cpu' line without the field "
	    "package=" },
	{ "dup-topo.trace", true, "dup-topo.trace:14: cpu 1 is described twice" },
	{ "bad-host.trace", true, "bad-host.trace:6: 'host' line: name=\"tiny\\x1b]0;TITLE\\x07 x\" "
	    "is not a host name" },
	{ "bad-plan.trace", true, "bad-plan.trace:16: 'plan' line: unknown or missing "
	    "group=skylake" },
	{ "slot-count.trace", true, "slot-count.trace:24: the plan has nslots=5 but 4 'slot' "
	    "lines" },
	{ "bad-hex.trace", false, "bad-hex.trace:34: cpu 0: value \"a2b8ze90\" is not a "
	    "hexadecimal number" },
	{ "value-count.trace", false, "value-count.trace:35: cpu 1 has 4 values, the plan has "
	    "5 slots" },
	{ "garbage.trace", false, "garbage.trace:36: not a trace line" },
	{ "dup-cpu.trace", false, "dup-cpu.trace:37: cpu 0 appears twice in sample 2 (seq=1)" },
	{ "cpu-range.trace", false, "cpu-range.trace:38: cpu 7 is not in the trace's topology" },
	{ "no-end.trace", false, "no-end.trace:39: sample 2 (seq=1) has no 'end' line before "
	    "the next 'sample'" },
	/* beyond any recording's length (an interval of centuries) */
	{ "huge-time.trace", false, "huge-time.trace:33: 'sample' line without a valid time=" },
};

/* Read a whole trace: the number of samples, and the last return code. */
static int
read_all(const char *path, unsigned *nsamples, struct errmsg *e)
{
	struct machine m;
	struct plan p;
	struct sample s;
	struct trace_reader *tr = trace_open(path, &m, &p, e);
	int rc;

	*nsamples = 0;
	if (tr == NULL)
		return -2;
	sample_init(&s, m.topo.max_cpu, p.nslots, m.topo.ncores, false);
	while ((rc = trace_next(tr, &s, e)) == 0)
		(*nsamples)++;
	trace_close(tr);
	sample_free(&s);
	machine_free(&m);
	return rc;
}

static void
test_malformed_files(void **state)
{
	struct errmsg e;
	char rel[128];
	unsigned i, n;
	int rc;

	(void)state;
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		snprintf(rel, sizeof rel, "tests/data/trace/%s", bad[i].file);
		rc = read_all(srcfile(rel), &n, &e);
		if (rc != (bad[i].at_open ? -2 : -1))
			fail_msg("%s: rc %d (%s)", bad[i].file, rc, e.text);
		if (strstr(e.text, bad[i].msg) == NULL)
			fail_msg("%s: message \"%s\", expected \"%s\"", bad[i].file, e.text,
			    bad[i].msg);
		/* Intervals before the bad line (line 33 opens interval 1). */
		if (!bad[i].at_open)
			assert_int_equal(n, 1);
	}
}

static void
test_good_and_truncated(void **state)
{
	struct errmsg e;
	unsigned n;

	(void)state;
	/* good.trace: 3 intervals; the unknown line types and the unknown
	 * key future_key=7 are skipped. */
	assert_int_equal(read_all(srcfile("tests/data/trace/good.trace"), &n, &e), 1);
	assert_int_equal(n, 3);
	assert_string_equal(e.text, "");
	/* truncated.trace stops 20 bytes into line 43, inside its third
	 * sample (seq=2: its seq= count from 0, the message's sample from 1,
	 * as httop numbers samples): the two samples before it make one
	 * interval. */
	assert_int_equal(read_all(srcfile("tests/data/trace/truncated.trace"), &n, &e), 1);
	assert_int_equal(n, 2);
	if (strstr(e.text, "truncated.trace:43: the trace is cut off inside sample 3; "
	    "replayed the 1 interval before it") == NULL)
		fail_msg("%s", e.text);
}

/* CRLF line ends, an overlong line, a NUL byte, an unreadable path. */
static void
test_generated_variants(void **state)
{
	struct errmsg e;
	const char *crlf = tmppath("crlf.trace"), *longl = tmppath("long.trace");
	const char *nul = tmppath("nul.trace");
	char *buf, *out, *p;
	size_t len, o = 0, i;
	unsigned n;

	(void)state;
	buf = slurp(srcfile("tests/data/trace/good.trace"), &len);
	out = malloc(2 * len + 6000);
	assert_non_null(out);
	for (i = 0; i < len; i++) {
		if (buf[i] == '\n')
			out[o++] = '\r';
		out[o++] = buf[i];
	}
	spill(crlf, out, o);
	assert_int_equal(read_all(crlf, &n, &e), 1);
	assert_int_equal(n, 3);

	/* Line 36 (the unknown data line) made 5000 bytes long. */
	p = strstr(buf, "future-data-line x=1\n");
	assert_non_null(p);
	o = (size_t)(p - buf);
	memcpy(out, buf, o);
	memset(out + o, 'x', 5000);
	memcpy(out + o + 5000, p + 20, len - o - 20);
	spill(longl, out, len + 5000 - 20);
	assert_int_equal(read_all(longl, &n, &e), -1);
	assert_non_null(strstr(e.text, "long.trace:36: line longer than 4096 bytes"));

	/* A NUL byte in line 35. */
	p = strstr(buf, "c 1 ok 107d2b7500");
	assert_non_null(p);
	p[5] = '\0';
	spill(nul, buf, len);
	assert_int_equal(read_all(nul, &n, &e), -1);
	assert_non_null(strstr(e.text, "nul.trace:35: NUL byte"));

	assert_int_equal(read_all(tmppath("no-such.trace"), &n, &e), -2);
	assert_non_null(strstr(e.text, "cannot open the trace"));
	free(out);
	free(buf);
}

/* The values of cpu 1 in the second sample of a trace. */
static void
second_row(const char *path, uint64_t *v, unsigned nv)
{
	struct machine m;
	struct plan p;
	struct sample s;
	struct errmsg e;
	struct trace_reader *tr = trace_open(path, &m, &p, &e);
	unsigned i;

	assert_non_null(tr);
	assert_true(p.nslots >= nv);
	sample_init(&s, m.topo.max_cpu, p.nslots, m.topo.ncores, false);
	for (i = 0; i < 2; i++)
		assert_int_equal(trace_next(tr, &s, &e), 0);
	memcpy(v, sample_row(&s, 1), nv * sizeof *v);
	trace_close(tr);
	sample_free(&s);
	machine_free(&m);
}

/* Hex values in upper case, with leading zeros up to 16 digits, or of 16
 * digits at the end of a line read as the same numbers (the reader takes
 * sixteen bytes at a time); a value past 64 bits is refused. */
static void
test_hex_forms(void **state)
{
	static const char *const line = "c 1 ok 107d2b7500 3e95ba91 7d2b7521 7d2b7531 17d7881\n";
	static const char *const forms[] = {
		"c 1 ok 107D2B7500 3E95BA91 7d2B7521 7D2b7531 17D7881\n",
		"c 1 ok 000000107d2b7500 000000003e95ba91 7d2b7521 7d2b7531 00000000017d7881\n",
		"c 1 ok 107d2b7500 3e95ba91 7d2b7521 7d2b7531 00000000017d7881\r\n",
	};
	const char *path = tmppath("hex.trace");
	uint64_t want[5], got[5];
	char *buf, *out, *p;
	size_t len, o, i;
	unsigned n;
	struct errmsg e;

	(void)state;
	second_row(srcfile("tests/data/trace/good.trace"), want, 5);
	assert_true(want[0] == 0x107d2b7500ull && want[4] == 0x17d7881ull);
	buf = slurp(srcfile("tests/data/trace/good.trace"), &len);
	p = strstr(buf, line);
	assert_non_null(p);
	o = (size_t)(p - buf);
	out = malloc(len + 200);
	assert_non_null(out);
	for (i = 0; i < sizeof forms / sizeof forms[0] + 1; i++) {
		const char *f = i < sizeof forms / sizeof forms[0] ? forms[i] :
		    "c 1 ok 107d2b7500 3e95ba91 7d2b7521 7d2b7531 100000000017d7881\n";
		size_t nf = strlen(f);

		memcpy(out, buf, o);
		memcpy(out + o, f, nf);
		memcpy(out + o + nf, p + strlen(line), len - o - strlen(line));
		spill(path, out, len - strlen(line) + nf);
		if (i < sizeof forms / sizeof forms[0]) {
			second_row(path, got, 5);
			assert_memory_equal(got, want, sizeof want);
		} else {
			assert_int_equal(read_all(path, &n, &e), -1);
			assert_non_null(strstr(e.text, "is not a hexadecimal number"));
		}
	}
	free(out);
	free(buf);
}

/* A full disk is reported, naming the cause. */
static void
test_write_error(void **state)
{
	struct machine m;
	struct plan p;
	struct errmsg e;
	struct trace_writer *w;
	FILE *fp = fopen("/dev/full", "w");

	(void)state;
	if (fp == NULL)
		skip_because("no /dev/full here");
	make_machine(&m, &p);
	w = trace_writer_open(fp, &m, &p, NULL, &e);
	assert_null(w);
	assert_non_null(strstr(e.text, strerror(ENOSPC)));
	fclose(fp);
	machine_free(&m);
}

/* A creation time gmtime cannot express (a year past INT_MAX) is written
 * as the epoch, and the header still parses; a normal one is written as is. */
static void
test_created_out_of_range(void **state)
{
	struct machine m;
	struct plan p;
	struct errmsg e;
	struct trace_writer *w;
	char *buf = NULL;
	size_t len = 0;
	FILE *fp;

	(void)state;
	make_machine(&m, &p);
	fp = open_memstream(&buf, &len);
	assert_non_null(fp);
	w = trace_writer_open_ex(fp, &m, &p, "test", (time_t)1 << 62, NULL, &e);
	assert_non_null(w);
	assert_int_equal(trace_writer_close(w, &e), 0);
	fclose(fp);
	assert_non_null(strstr(buf, "\ncreated time=1970-01-01T00:00:00Z\n"));
	free(buf);

	buf = NULL;
	fp = open_memstream(&buf, &len);
	assert_non_null(fp);
	w = trace_writer_open_ex(fp, &m, &p, "test", 1795255757, NULL, &e);
	assert_non_null(w);
	assert_int_equal(trace_writer_close(w, &e), 0);
	fclose(fp);
	assert_non_null(strstr(buf, "\ncreated time=2026-11-21T10:09:17Z\n"));
	free(buf);
	machine_free(&m);
}

/* Trace 1.4: the scheduler source's plan (basis=scheduler, clock_hz=1e9)
 * and a CPU whose records were lost (state lost) come back as written; a
 * plan line with basis but no clock_hz is refused. */
static void
test_sched_plan(void **state)
{
	struct machine m, m2;
	struct plan p, p2;
	struct sample s, r;
	struct trace_writer *w;
	struct trace_reader *tr;
	struct errmsg e;
	char *buf = NULL, *at;
	size_t len = 0;
	FILE *fp;

	(void)state;
	make_machine(&m, &p);
	sched_plan(&p, &m);
	sample_init(&s, m.topo.max_cpu, p.nslots, m.topo.ncores, false);
	s.state[0] = CPU_READ_OK;
	s.state[2] = CPU_LOST;
	sample_row(&s, 0)[0] = 1000000000ull;
	fp = open_memstream(&buf, &len);
	assert_non_null(fp);
	w = trace_writer_open_ex(fp, &m, &p, "test", 1795255757, NULL, &e);
	assert_non_null(w);
	assert_int_equal(trace_write_sample(w, &s, &e), 0);
	assert_int_equal(trace_writer_close(w, &e), 0);
	fclose(fp);
	assert_non_null(strstr(buf, " basis=scheduler clock_hz=1000000000\n"));
	/* 1.5: the split named by what it rests on, not the counters' "any" */
	assert_non_null(strstr(buf, "plan group=skx split=sched "));
	assert_non_null(strstr(buf, "\nc 2 lost "));
	spill(tmppath("sched.trace"), buf, len);
	tr = trace_open(tmppath("sched.trace"), &m2, &p2, &e);
	assert_non_null(tr);
	assert_int_equal(p2.basis, PLAN_BASIS_SCHED);
	assert_near(p2.clock_hz, 1e9, 0.0);
	assert_int_equal(p2.split, SPLIT_ANY);
	assert_int_equal(p2.nslots, 3);
	sample_init(&r, m2.topo.max_cpu, p2.nslots, m2.topo.ncores, false);
	assert_int_equal(trace_next(tr, &r, &e), 0);
	assert_int_equal(r.state[0], CPU_READ_OK);
	assert_int_equal(r.state[2], CPU_LOST);
	assert_int_equal(sample_row(&r, 0)[0], 1000000000ull);
	trace_close(tr);
	sample_free(&r);
	machine_free(&m2);
	/* 1.4 wrote the method, "any", beside the basis: the same plan */
	at = strstr(buf, "split=sched ");
	memcpy(at, "split=any   ", strlen("split=sched "));
	spill(tmppath("sched-1.4.trace"), buf, len);
	tr = trace_open(tmppath("sched-1.4.trace"), &m2, &p2, &e);
	assert_non_null(tr);
	assert_int_equal(p2.split, SPLIT_ANY);
	assert_int_equal(p2.basis, PLAN_BASIS_SCHED);
	assert_string_equal(plan_split_name(&p2), "sched");
	trace_close(tr);
	machine_free(&m2);
	/* "sched" needs its basis: with basis=ticks, refused */
	memcpy(at, "split=sched ", strlen("split=sched "));
	at = strstr(buf, " basis=scheduler");
	memcpy(at, " basis=ticks    ", strlen(" basis=scheduler"));
	spill(tmppath("sched-ticks.trace"), buf, len);
	tr = trace_open(tmppath("sched-ticks.trace"), &m2, &p2, &e);
	assert_null(tr);
	assert_non_null(strstr(e.text, "split=sched needs basis=scheduler"));
	memcpy(at, " basis=scheduler", strlen(" basis=scheduler"));
	/* basis without clock_hz */
	at = strstr(buf, " clock_hz=");
	memset(at, ' ', strlen(" clock_hz=1000000000"));
	spill(tmppath("sched-bad.trace"), buf, len);
	tr = trace_open(tmppath("sched-bad.trace"), &m2, &p2, &e);
	assert_null(tr);
	assert_non_null(strstr(e.text, "clock_hz"));
	free(buf);
	sample_free(&s);
	topology_free(&m.topo);
}

/* Trace 1.3: each sample's wall-clock time (wall=) goes through to the
 * last bit; a sample without one (a trace before 1.3, or a writer that
 * did not know) gets the header's created time plus its time; a trace
 * without either has none (0); a wall= that is not a time is an error.
 *   good.trace (1.0): created 2024-01-01T00:00:00Z = 1704067200 s, samples
 *   at time 0, 1, 2.5: wall 1704067200, 1704067201, 1704067202.5. */
static void
test_wall_time(void **state)
{
	static const double walls[3] = { 1795255757.1234567, 1795255758.000001, 0.0 };
	static const double times[3] = { 0.5, 1.5, 2.75 };
	static const double good[3] = { 1704067200.0, 1704067201.0, 1704067202.5 };
	struct machine m, m2;
	struct plan p, p2;
	struct sample s, r;
	struct trace_writer *w;
	struct trace_reader *tr;
	struct errmsg e;
	char *buf = NULL, *at;
	size_t len = 0;
	FILE *fp;
	unsigned i;

	(void)state;
	make_machine(&m, &p);
	sample_init(&s, m.topo.max_cpu, p.nslots, m.topo.ncores, false);
	fp = open_memstream(&buf, &len);
	assert_non_null(fp);
	w = trace_writer_open_ex(fp, &m, &p, "test", 1795255757, NULL, &e);
	assert_non_null(w);
	for (i = 0; i < 3; i++) {
		s.seq = i;
		s.time = times[i];
		s.wall = walls[i];
		s.state[0] = CPU_READ_OK;
		assert_int_equal(trace_write_sample(w, &s, &e), 0);
	}
	assert_int_equal(trace_writer_close(w, &e), 0);
	fclose(fp);
	assert_non_null(strstr(buf, "httop-trace 1.6\n"));
	assert_non_null(strstr(buf, "\nsample seq=0 time=0.5 wall=1795255757.1234567\n"));
	assert_non_null(strstr(buf, "\nsample seq=2 time=2.75\n"));
	spill(tmppath("wall.trace"), buf, len);
	tr = trace_open(tmppath("wall.trace"), &m2, &p2, &e);
	if (tr == NULL)
		fail_msg("%s", e.text);
	sample_init(&r, m2.topo.max_cpu, p2.nslots, m2.topo.ncores, false);
	for (i = 0; i < 3; i++) {
		double want = walls[i] > 0.0 ? walls[i] : 1795255757.0 + times[i];

		assert_int_equal(trace_next(tr, &r, &e), 0);
		assert_memory_equal(&r.wall, &want, sizeof want);
	}
	trace_close(tr);
	machine_free(&m2);
	sample_free(&r);

	/* A version 1.0 trace: created plus time. */
	tr = trace_open(srcfile("tests/data/trace/good.trace"), &m2, &p2, &e);
	assert_non_null(tr);
	sample_init(&r, m2.topo.max_cpu, p2.nslots, m2.topo.ncores, false);
	for (i = 0; i < 3; i++) {
		assert_int_equal(trace_next(tr, &r, &e), 0);
		assert_true(r.wall == good[i]);
	}
	trace_close(tr);
	machine_free(&m2);
	sample_free(&r);

	/* No created line, no wall=: not known. */
	at = strstr(buf, "\ncreated time=");
	assert_non_null(at);
	memcpy(at + 1, "xreated", 7);
	spill(tmppath("nowall.trace"), buf, len);
	tr = trace_open(tmppath("nowall.trace"), &m2, &p2, &e);
	assert_non_null(tr);
	sample_init(&r, m2.topo.max_cpu, p2.nslots, m2.topo.ncores, false);
	assert_int_equal(trace_next(tr, &r, &e), 0);
	assert_true(r.wall == walls[0]);
	assert_int_equal(trace_next(tr, &r, &e), 0);
	assert_int_equal(trace_next(tr, &r, &e), 0);
	assert_true(r.wall == 0.0);
	trace_close(tr);
	machine_free(&m2);
	sample_free(&r);

	/* A wall= that is not a time. */
	at = strstr(buf, "wall=1795255758.000001");
	assert_non_null(at);
	memcpy(at + 5, "x", 1);
	spill(tmppath("badwall.trace"), buf, len);
	tr = trace_open(tmppath("badwall.trace"), &m2, &p2, &e);
	assert_non_null(tr);
	sample_init(&r, m2.topo.max_cpu, p2.nslots, m2.topo.ncores, false);
	assert_int_equal(trace_next(tr, &r, &e), 0);
	assert_int_equal(trace_next(tr, &r, &e), -1);
	if (strstr(e.text, "'sample' line with a wall= that is not a time") == NULL)
		fail_msg("%s", e.text);
	trace_close(tr);
	machine_free(&m2);
	sample_free(&r);

	free(buf);
	sample_free(&s);
	machine_free(&m);
}

/* The replay source over good.trace, and the metrics of interval 0 -> 1
 * worked out by hand from the values in good.trace:
 *   dTSC = 0x107d2b7500 - 0x1000000000 = 0x7d2b7500 = 2,100,000,000 = T.
 *   core 0 (cpus 0, 2): ref0 = 0x3e95bab0 - 0x30 = 1,050,000,000,
 *     ref1 = 0x258d09b2 - 0x32 = 630,000,000, any = (0xe4e200 - 0x40) = 15,000,000
 *     counts x 84 = 1,260,000,000 ticks. N = (T - any)/T = 0.84/2.1 = 0.4;
 *     A = (any - ref1)/T = 0.63/2.1 = 0.3; B = (any - ref0)/T = 0.21/2.1 = 0.1;
 *     C = (ref0 + ref1 - any)/T = 0.42/2.1 = 0.2.
 *     cpu 0: cycles 0x515c3f60 - 0x20 = 1,365,000,000, inst 0xa2b87e90 - 0x10 =
 *     2,730,000,000: GHz = 1.365/1.05 x 2.1 = 2.73, IPC = 2.73/1.365 = 2,
 *     util = 1.05/2.1 = 0.5. cpu 2: cycles 819,000,000, inst 409,500,000:
 *     GHz = 0.819/0.63 x 2.1 = 2.73, IPC 0.5, util 0.3.
 *   core 1 (cpus 1, 3): both threads 2.1e9 ref, any 25,000,000 x 84 = 2.1e9:
 *     both = 1, the others 0. cpu 3's instructions wrap at 48 bits:
 *     0x3e95b980 - 0xffffffffff00 mod 2^48 = 0x3e95b980 + 0x100 =
 *     1,050,000,000: IPC = 1.05e9 / 2.1e9 = 0.5.
 *   Interval 1 -> 2: cpu 3 offline, cpu 1 read error: core 1 is R_OFFLINE. */
/* 1.6: a watched job's name (awkward strings) in the header and its CPUs
 * with each sample, read back as written: every other CPU of 2048, a
 * list too long for one line (several job-cpus lines, each within the
 * reader's limit), none, all; a sample without them has none said. */
static void
test_job_round_trip(void **state)
{
	static const char *const name = "r\xc3\xa9sum\xc3\xa9 \"x\" \\ \n\x1b[31m";
	const char *path = tmppath("job.trace");
	struct job_ident id, *back;
	struct trace_wopts o;
	struct trace_writer *w;
	struct trace_reader *tr;
	struct machine m, m2;
	struct plan p, p2;
	struct sample s, r;
	struct errmsg e;
	unsigned i, cpu, lines = 0, longest = 0, len;
	FILE *fp;
	char line[8192];
	int fd;

	(void)state;
	make_machine(&m, &p);
	topology_free(&m.topo);
	topology_synthetic(&m.topo, 1, 1024, 2);
	memset(&id, 0, sizeof id);
	snprintf(id.kind, sizeof id.kind, "slurm");
	snprintf(id.id, sizeof id.id, "4242_7");
	snprintf(id.user, sizeof id.user, "al\tice");
	snprintf(id.name, sizeof id.name, "%s", name);
	snprintf(id.cgroup, sizeof id.cgroup, "/system.slice/slurmstepd.scope/job_4242");
	memset(&o, 0, sizeof o);
	o.name = path;
	o.job = &id;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0);
	w = trace_writer_open_fd(fd, &o, &m, &p, &e);
	if (w == NULL)
		fail_msg("%s", e.text);
	sample_init(&s, m.topo.max_cpu, p.nslots, m.topo.ncores, false);
	for (i = 0; i < 4; i++) {
		s.seq = i;
		s.time = i;
		s.state[0] = CPU_READ_OK;
		/* every other CPU; none; all; not said */
		s.has_job = i < 3;
		for (cpu = 0; cpu < m.topo.max_cpu; cpu++)
			s.job[cpu] = i == 0 ? cpu % 2 == 0 : i == 2;
		assert_int_equal(trace_write_sample(w, &s, &e), 0);
	}
	assert_int_equal(trace_writer_close(w, &e), 0);
	fp = fopen(path, "r");
	assert_non_null(fp);
	while (fgets(line, sizeof line, fp) != NULL) {
		len = (unsigned)strlen(line);
		if (strncmp(line, "job-cpus", 8) == 0) {
			lines++;
			longest = len > longest ? len : longest;
		}
	}
	fclose(fp);
	/* sample 0's list is cut into lines; 1 and 2 have one each */
	assert_true(lines >= 5);
	assert_true(longest < 4096);

	tr = trace_open(path, &m2, &p2, &e);
	if (tr == NULL)
		fail_msg("%s", e.text);
	back = (struct job_ident *)trace_job(tr);
	assert_non_null(back);
	assert_string_equal(back->kind, "slurm");
	assert_string_equal(back->id, "4242_7");
	assert_string_equal(back->user, "al\tice");
	assert_string_equal(back->name, name);
	assert_string_equal(back->cgroup, id.cgroup);
	assert_string_equal(back->pid, "");
	sample_init(&r, m2.topo.max_cpu, p2.nslots, m2.topo.ncores, false);
	for (i = 0; i < 4; i++) {
		assert_int_equal(trace_next(tr, &r, &e), 0);
		assert_int_equal(r.has_job, i < 3);
		for (cpu = 0; i < 3 && cpu < m2.topo.max_cpu; cpu++)
			assert_int_equal(r.job[cpu], i == 0 ? cpu % 2 == 0 : i == 2);
	}
	trace_close(tr);
	machine_free(&m2);
	sample_free(&r);
	sample_free(&s);
	topology_free(&m.topo);

	/* A trace without a job line: none. */
	tr = trace_open(srcfile("tests/data/trace/good.trace"), &m2, &p2, &e);
	assert_non_null(tr);
	assert_null(trace_job(tr));
	trace_close(tr);
	machine_free(&m2);
}

static void
test_replay_metrics(void **state)
{
	struct machine m;
	struct plan p;
	struct errmsg e;
	struct source *src;
	struct sample s0, s1, s2;
	struct metrics_ctx c;
	struct interval iv;

	(void)state;
	src = replay_source_new(srcfile("tests/data/trace/good.trace"), &m, &p, &e);
	if (src == NULL)
		fail_msg("%s", e.text);
	assert_string_equal(src->name, "replay");
	assert_true(src->virtual_clock);
	assert_null(src->ops->program);
	assert_ptr_equal(src->m, &m);
	assert_ptr_equal(src->plan, &p);
	assert_int_equal(source_program(src, &p, false, &e), 0);
	assert_string_equal(m.hostname, "tiny");
	assert_int_equal(m.topo.ncores, 2);

	sample_init(&s0, m.topo.max_cpu, p.nslots, m.topo.ncores, false);
	sample_init(&s1, m.topo.max_cpu, p.nslots, m.topo.ncores, false);
	sample_init(&s2, m.topo.max_cpu, p.nslots, m.topo.ncores, false);
	assert_int_equal(source_read(src, &s0, &e), 0);
	assert_int_equal(source_read(src, &s1, &e), 0);
	assert_string_equal(src->events, "handmade event");
	assert_int_equal(source_read(src, &s2, &e), 0);
	assert_int_equal(source_read(src, &s2, &e), 1);

	metrics_ctx_init(&c, &m, &p);
	interval_init(&iv, &m);
	metrics_compute(&c, &s0, &s1, &iv);
	assert_int_equal(iv.cores[0].reason, R_NONE);
	assert_true(iv.cores[0].exact);
	assert_near(iv.cores[0].neither.v, 0.4, 1e-12);
	assert_near(iv.cores[0].t0_only.v, 0.3, 1e-12);
	assert_near(iv.cores[0].t1_only.v, 0.1, 1e-12);
	assert_near(iv.cores[0].both.v, 0.2, 1e-12);
	assert_near(iv.threads[0].ghz.v, 2.73, 1e-12);
	assert_near(iv.threads[0].ipc.v, 2.0, 1e-12);
	assert_near(iv.threads[0].util.v, 0.5, 1e-12);
	assert_near(iv.threads[2].ghz.v, 2.73, 1e-12);
	assert_near(iv.threads[2].ipc.v, 0.5, 1e-12);
	assert_near(iv.threads[2].util.v, 0.3, 1e-12);
	assert_int_equal(iv.cores[1].reason, R_NONE);
	assert_near(iv.cores[1].both.v, 1.0, 1e-12);
	assert_near(iv.cores[1].neither.v, 0.0, 1e-12);
	assert_near(iv.threads[3].ipc.v, 0.5, 1e-12);
	assert_int_equal(iv.threads[3].d_inst, 1050000000);

	metrics_compute(&c, &s1, &s2, &iv);
	assert_int_equal(iv.cores[1].reason, R_OFFLINE);
	assert_false(iv.valid);

	interval_free(&iv);
	sample_free(&s0);
	sample_free(&s1);
	sample_free(&s2);
	source_close(src);
	machine_free(&m);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_cut_everywhere),
		cmocka_unit_test(test_malformed_files),
		cmocka_unit_test(test_good_and_truncated),
		cmocka_unit_test(test_generated_variants),
		cmocka_unit_test(test_hex_forms),
		cmocka_unit_test(test_write_error),
		cmocka_unit_test(test_created_out_of_range),
		cmocka_unit_test(test_wall_time),
		cmocka_unit_test(test_sched_plan),
		cmocka_unit_test(test_replay_metrics),
		cmocka_unit_test(test_job_round_trip),
	};

	return cmocka_run_group_tests(tests, setup_dir, remove_dir);
}
