/* test_record.c: httop --record (src/out/record.c) on the real skx-6140
 * topology (72 CPUs, core n = CPUs {n, n + 36}) with the 6154's CPUID:
 * which files it refuses, the events it derives from the samples and the
 * interval, gzip traces cut at every byte, and a write error (the file
 * size limit) that leaves the file cut back to its last complete sample. */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "unit/testutil.h"

#include "machine/machine.h"
#include "metrics/metrics.h"
#include "plan/plan.h"
#include "out/record.h"
#include "trace/trace.h"

#define SKX_XML "hwloc/skx-6140-2s-18c-ht.x86.xml"
#define SKX_CPUID "cpuid/skx-6154-2s-18c-ht.cpuid.txt"
#define NSAMP 5

static char tmpdir[256];
static struct machine m;
static struct plan plan;

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
setup(void **state)
{
	struct errmsg e;
	char xml[4096];

	(void)state;
	umask(022);
	snprintf(tmpdir, sizeof tmpdir, "/tmp/test_record.XXXXXX");
	if (mkdtemp(tmpdir) == NULL)
		return -1;
	/* fixture() has one buffer: copy the first path. */
	snprintf(xml, sizeof xml, "%s", fixture(SKX_XML));
	if (machine_load(&m, xml, fixture(SKX_CPUID), &e) != 0) {
		fprintf(stderr, "# %s\n", e.text);
		return -1;
	}
	plan_for_machine(&plan, &m);
	plan.scale = 84;
	plan.scale_measured = true;
	return 0;
}

static int
teardown(void **state)
{
	char cmd[400];

	(void)state;
	machine_free(&m);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

static off_t
file_size(const char *path)
{
	struct stat st;

	assert_int_equal(stat(path, &st), 0);
	return st.st_size;
}

/* Directories and devices are refused; a link only when privileged; a
 * regular file is emptied; a new one gets 0644 (umask 022). */
static void
test_open(void **state)
{
	struct recorder *r;
	struct errmsg e;
	struct stat st;
	FILE *fp;

	(void)state;
	assert_null(record_open(tmpdir, false, false, &e));
	assert_non_null(strstr(e.text, strerror(EISDIR)));
	assert_null(record_open("/dev/zero", false, false, &e));
	assert_non_null(strstr(e.text, "character device"));
	assert_null(record_open(tmppath("no/such/dir"), false, false, &e));
	assert_non_null(strstr(e.text, strerror(ENOENT)));

	/* An old file of 11 bytes: emptied at open, before anything is written. */
	fp = fopen(tmppath("old.trace"), "w");
	assert_non_null(fp);
	fputs("old content", fp);
	fclose(fp);
	assert_int_equal(symlink(tmppath("old.trace"), tmppath("link.trace")), 0);
	assert_null(record_open(tmppath("link.trace"), false, true, &e));
	assert_non_null(strstr(e.text, "symbolic link"));
	assert_int_equal(file_size(tmppath("old.trace")), 11);
	r = record_open(tmppath("link.trace"), false, false, &e);
	assert_non_null(r);
	assert_int_equal(file_size(tmppath("old.trace")), 0);
	assert_int_equal(record_close(r, &e), 0);

	r = record_open(tmppath("new.trace"), false, true, &e);
	assert_non_null(r);
	assert_int_equal(stat(tmppath("new.trace"), &st), 0);
	assert_int_equal(st.st_mode & 07777, 0644);
	assert_int_equal(record_close(r, &e), 0);

	assert_true(record_gzip("x.trace.gz", false));
	assert_true(record_gzip("x.trace", true));
	assert_false(record_gzip("x.trace", false));
	assert_false(record_gzip(".gz", false));
}

/* Sample i: every CPU of cores 0 and 5 read (CPUs 0, 36, 5, 41), values
 * 1000 * i + 10 * cpu + slot; the others not read. The offline CPUs
 * per sample are those in `off[i]`. */
static const char *const off[NSAMP] = { "", "5,41,7", "7", "", "" };

static void
make_sample(struct sample *s, unsigned i)
{
	static const unsigned read_cpus[] = { 0, 36, 5, 41, 7, 43 };
	unsigned k, j, cpu;
	char list[16], *tok, *save;

	memset(s->v, 0, (size_t)s->max_cpu * s->nslots * sizeof *s->v);
	memset(s->state, CPU_NOT_READ, s->max_cpu);
	memset(s->err, 0, s->max_cpu * sizeof *s->err);
	s->seq = i;
	s->time = 0.5 * i;
	for (j = 0; j < sizeof read_cpus / sizeof read_cpus[0]; j++) {
		cpu = read_cpus[j];
		s->state[cpu] = CPU_READ_OK;
		for (k = 0; k < s->nslots; k++)
			sample_row(s, cpu)[k] = 1000u * i + 10u * cpu + k;
	}
	snprintf(list, sizeof list, "%s", off[i]);
	for (tok = strtok_r(list, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save)) {
		cpu = (unsigned)atoi(tok);
		s->state[cpu] = CPU_OFFLINE;
		memset(sample_row(s, cpu), 0, s->nslots * sizeof(uint64_t));
	}
}

/* Writes NSAMP samples; interval 2 invalid, interval 3 reprogrammed.
 * Returns -1 at the first failure (message in *e), else 0. */
static int
write_run(const char *path, bool gzip, struct errmsg *e)
{
	struct recorder *r = record_open(path, gzip, false, e);
	struct interval iv;
	struct sample s;
	unsigned i;
	int rc = 0;

	if (r == NULL)
		return -1;
	sample_init(&s, m.topo.max_cpu, plan.nslots, m.topo.ncores, false);
	interval_init(&iv, &m);
	if (record_start(r, &m, &plan, false, "test run", e) != 0)
		rc = -1;
	for (i = 0; rc == 0 && i < NSAMP; i++) {
		make_sample(&s, i);
		iv.valid = i != 2;
		snprintf(iv.reason_c, sizeof iv.reason_c, "%s", i == 2 ? "core 5 (CPUs 5, 41): offline" : "");
		snprintf(iv.reason, sizeof iv.reason, "%s", i == 2 ? "Kern 5 (CPUs 5, 41): offline" : "");
		if (i == 0)
			rc = record_first(r, &s, NULL, e);
		else
			rc = record_interval(r, &s, &iv, i == 3 ? "PERFEVTSEL0 changed on CPUs 0-35" : "", e);
	}
	if (record_close(r, rc == 0 ? e : NULL) != 0)
		rc = -1;
	interval_free(&iv);
	sample_free(&s);
	return rc;
}

/* Sample by sample: the events before it, by hand from off[] and
 * write_run: sample 1 takes CPUs 5, 7, 41 offline (a list with no range
 * of three: "5,7,41"), and interval 1 is valid; sample 2 brings 5 and 41
 * back (7 stays), interval 2 is invalid; sample 3: 7 back, and the
 * conflict note; sample 4: nothing. */
static const char *const want_events[NSAMP] = {
	"",
	"offline cpus 5,7,41",
	"online cpus 5,41; invalid: core 5 (CPUs 5, 41): offline",
	"online cpu 7; reprogrammed: PERFEVTSEL0 changed on CPUs 0-35",
	"",
};

/* Reads `path` back: every sample equal to make_sample's, the events as
 * above. Returns how many samples came back. */
static unsigned
read_back(const char *path, unsigned want_n)
{
	struct machine m2;
	struct plan p2;
	struct errmsg e;
	struct trace_reader *rd;
	struct sample s, want;
	unsigned n = 0;
	int rc;

	rd = trace_open(path, &m2, &p2, &e);
	if (rd == NULL)
		fail_msg("%s", e.text);
	assert_int_equal(p2.scale, 84);
	assert_true(p2.scale_measured);
	assert_int_equal(m2.topo.ncpus, 72);
	assert_string_equal(trace_note(rd), "test run");
	sample_init(&s, m2.topo.max_cpu, p2.nslots, m2.topo.ncores, false);
	sample_init(&want, m2.topo.max_cpu, p2.nslots, m2.topo.ncores, false);
	while ((rc = trace_next(rd, &s, &e)) == 0) {
		make_sample(&want, n);
		assert_int_equal(s.seq, n);
		assert_true(s.time == want.time);
		assert_memory_equal(s.v, want.v, (size_t)s.max_cpu * s.nslots * sizeof *s.v);
		assert_memory_equal(s.state, want.state, s.max_cpu);
		assert_string_equal(trace_last_event(rd), want_events[n]);
		n++;
	}
	assert_int_equal(rc, 1);
	assert_int_equal(n, want_n);
	sample_free(&s);
	sample_free(&want);
	trace_close(rd);
	machine_free(&m2);
	return n;
}

static void
test_events_plain(void **state)
{
	struct errmsg e;
	unsigned char b[2];
	FILE *fp;

	(void)state;
	if (write_run(tmppath("ev.trace"), false, &e) != 0)
		fail_msg("%s", e.text);
	fp = fopen(tmppath("ev.trace"), "r");
	assert_int_equal(fread(b, 1, 2, fp), 2);
	fclose(fp);
	assert_memory_equal(b, "ht", 2);
	read_back(tmppath("ev.trace"), NSAMP);
}

/* A gzip trace reads back the same; cut at every byte (a recorder killed
 * anywhere, even inside the gzip header), a reader either refuses the
 * header or returns a prefix of the samples, never an error, and the
 * prefix never shrinks as the cut moves on. */
static void
test_gzip_cuts(void **state)
{
	struct errmsg e;
	struct machine m2;
	struct plan p2;
	struct trace_reader *rd;
	struct sample s;
	unsigned char *buf;
	off_t size, len;
	unsigned n, last = 0;
	FILE *fp;
	int rc;

	(void)state;
	if (write_run(tmppath("ev.trace.gz"), false, &e) != 0)
		fail_msg("%s", e.text);
	read_back(tmppath("ev.trace.gz"), NSAMP);
	size = file_size(tmppath("ev.trace.gz"));
	buf = malloc((size_t)size);
	fp = fopen(tmppath("ev.trace.gz"), "r");
	assert_int_equal(fread(buf, 1, (size_t)size, fp), (size_t)size);
	fclose(fp);
	assert_int_equal(buf[0], 0x1f);
	assert_int_equal(buf[1], 0x8b);
	for (len = 0; len <= size; len++) {
		fp = fopen(tmppath("cut.gz"), "w");
		assert_int_equal(fwrite(buf, 1, (size_t)len, fp), (size_t)len);
		fclose(fp);
		rd = trace_open(tmppath("cut.gz"), &m2, &p2, &e);
		if (rd == NULL) {
			assert_int_equal(last, 0);
			continue;
		}
		sample_init(&s, m2.topo.max_cpu, p2.nslots, m2.topo.ncores, false);
		n = 0;
		while ((rc = trace_next(rd, &s, &e)) == 0)
			n++;
		if (rc != 1)
			fail_msg("cut at %lld of %lld: %s", (long long)len, (long long)size, e.text);
		assert_true(n >= last);
		last = n;
		sample_free(&s);
		trace_close(rd);
		machine_free(&m2);
	}
	assert_int_equal(last, NSAMP);
	free(buf);
}

/* A write error mid-run. The limit falls inside sample 3's block (the
 * header and samples 0-2 take S3 bytes, measured on a first run; sample
 * 3 ends at S4): write(2) fills the file up to the limit, then fails with
 * EFBIG; the recorder cuts the file back to S3 and says it keeps 3
 * samples. The reader then finds exactly samples 0-2, with no note of a
 * cut-off line. */
static void
limit_run(const char *name, bool gzip)
{
	struct rlimit old, lim;
	struct errmsg e;
	off_t s3, s4;
	char want[600];

	if (write_run(tmppath("sizes.trace"), gzip, &e) != 0)
		fail_msg("%s", e.text);
	/* The sizes after 3 and 4 samples: from a run that stops there. */
	{
		struct recorder *r = record_open(tmppath("sizes.trace"), gzip, false, &e);
		struct interval iv;
		struct sample s;
		unsigned i;

		assert_non_null(r);
		sample_init(&s, m.topo.max_cpu, plan.nslots, m.topo.ncores, false);
		interval_init(&iv, &m);
		assert_int_equal(record_start(r, &m, &plan, false, "test run", &e), 0);
		for (i = 0; i < 4; i++) {
			make_sample(&s, i);
			iv.valid = i != 2;
			snprintf(iv.reason_c, sizeof iv.reason_c, "%s",
			    i == 2 ? "core 5 (CPUs 5, 41): offline" : "");
			if (i == 0)
				assert_int_equal(record_first(r, &s, NULL, &e), 0);
			else
				assert_int_equal(record_interval(r, &s, &iv, i == 3 ?
				    "PERFEVTSEL0 changed on CPUs 0-35" : "", &e), 0);
			if (i == 2)
				s3 = file_size(tmppath("sizes.trace"));
		}
		s4 = file_size(tmppath("sizes.trace"));
		assert_int_equal(record_samples(r), 4);
		interval_free(&iv);
		sample_free(&s);
		assert_int_equal(record_close(r, &e), 0);
	}
	assert_true(s4 > s3);
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
	lim = old;
	lim.rlim_cur = (rlim_t)(s3 + (s4 - s3) / 2);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
	assert_int_equal(write_run(tmppath(name), gzip, &e), -1);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	snprintf(want, sizeof want, "recording stopped; %s keeps its first 3 samples: writing "
	    "the trace %s: %s: raise the file size limit (ulimit -f) or record a shorter run",
	    tmppath(name), tmppath(name), strerror(EFBIG));
	assert_string_equal(e.text, want);
	assert_int_equal(file_size(tmppath(name)), s3);
	read_back(tmppath(name), 3);
}

static void
test_write_error(void **state)
{
	(void)state;
	limit_run("limit.trace", false);
	limit_run("limit.trace.gz", true);
}

/* A header that cannot be written: /dev/full, which is taken (like a
 * pipe) although it is not a regular file. */
static void
test_dev_full(void **state)
{
	struct recorder *r;
	struct errmsg e;

	(void)state;
	r = record_open("/dev/full", false, false, &e);
	if (r == NULL)
		skip_because("no /dev/full here");
	assert_int_equal(record_start(r, &m, &plan, false, NULL, &e), -1);
	assert_non_null(strstr(e.text, "--record: writing the trace /dev/full: "));
	assert_non_null(strstr(e.text, strerror(ENOSPC)));
	assert_non_null(strstr(e.text, "free some space"));
	assert_int_equal(record_close(r, &e), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_open),
		cmocka_unit_test(test_events_plain),
		cmocka_unit_test(test_gzip_cuts),
		cmocka_unit_test(test_write_error),
		cmocka_unit_test(test_dev_full),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
