/* test_msr_state.c: the saved-state file of a run that programs MSRs
 * (source/msr/msr_state.c): what a run writes is what the next one reads
 * back, a torn or foreign file is worth nothing, and the directory's rules
 * (owned by us, writable by nobody else) hold. */
#include "unit/testutil.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "source/msr/msr_state.h"

#define TEXT \
	"httop-state 1\n" \
	"boot 5b0c7d5e-1111-2222-3333-444455556666\n" \
	"pid 4242 987654\n" \
	"devices /tmp/x/%u/msr\n" \
	"msr 0 0x38d 0x3000 0xfff 0x3333\n" \
	"msr 0 0x186 0x0 0xffffffffffffffff 0x63013c\n" \
	"end\n"

static void
test_parse(void **state)
{
	struct msr_state_entry *ent;
	unsigned long long start;
	char boot[64], *dev;
	size_t n;
	long pid;

	(void)state;
	assert_int_equal(msr_state_parse(TEXT, strlen(TEXT), boot, sizeof boot, &pid, &start,
	    &dev, &ent, &n), 0);
	assert_string_equal(boot, "5b0c7d5e-1111-2222-3333-444455556666");
	assert_int_equal(pid, 4242);
	assert_true(start == 987654ull);
	assert_string_equal(dev, "/tmp/x/%u/msr");
	assert_int_equal(n, 2);
	assert_int_equal(ent[0].cpu, 0);
	assert_int_equal(ent[0].msr, 0x38d);
	assert_true(ent[0].saved == 0x3000 && ent[0].own == 0xfff && ent[0].wrote == 0x3333);
	assert_true(ent[1].msr == 0x186 && ent[1].own == ~0ull && ent[1].wrote == 0x63013c);
	free(dev);
	free(ent);
}

/* Each of these is refused whole. */
static void
test_refused(void **state)
{
	static const char *const bad[] = {
		"",
		/* torn: no end line */
		"httop-state 1\nboot b\npid 1 2\ndevices d\nmsr 0 0x38d 0x0 0xfff 0x333\n",
		/* cut in the middle of a line */
		"httop-state 1\nboot b\npid 1 2\ndevices d\nmsr 0 0x38d 0x0 0xf",
		/* another version */
		"httop-state 2\nboot b\npid 1 2\ndevices d\nend\n",
		/* junk after a number, an MSR beyond 32 bits */
		"httop-state 1\nboot b\npid 1 2\ndevices d\nmsr 0 0x38d 0x0 0xfff 0x333x\nend\n",
		"httop-state 1\nboot b\npid 1 2\ndevices d\nmsr 0 0x100000000 0 1 1\nend\n",
		/* a line after the end */
		"httop-state 1\nboot b\npid 1 2\ndevices d\nend\nmsr 0 0x38d 0 1 1\n",
		/* an empty boot ID */
		"httop-state 1\nboot \npid 1 2\ndevices d\nend\n",
	};
	struct msr_state_entry *ent;
	unsigned long long start;
	char boot[64], *dev;
	size_t i, n;
	long pid;

	(void)state;
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		assert_int_equal(msr_state_parse(bad[i], strlen(bad[i]), boot, sizeof boot, &pid,
		    &start, &dev, &ent, &n), -1);
		assert_null(dev);
		assert_null(ent);
	}
}

/* A run writes its state; another run (a second open of the directory,
 * here the same process) finds it, live: its own PID and start time. A
 * clean end removes it. */
static void
test_round_trip(void **state)
{
	char dir[] = "/tmp/test_msr_state.XXXXXX";
	struct msr_state_entry e[2] = {
		{ 3, 0x38d, 0x3000, 0xfff, 0x3333 },
		{ 3, 0x38f, 0x2, 0x700000001ull, 0x700000003ull },
	};
	struct msr_state *a, *b;
	struct errmsg err;

	(void)state;
	assert_non_null(mkdtemp(dir));
	a = msr_state_open(dir, &err);
	assert_non_null(a);
	assert_int_equal(msr_state_write(a, "/dev/cpu/%u/msr", e, 2), 0);
	/* The second open is refused its own name (O_EXCL), the same PID. */
	b = msr_state_open(dir, &err);
	assert_null(b);
	assert_non_null(strstr(err.text, "cannot create"));
	msr_state_remove(a);
	msr_state_free(a);
	assert_int_equal(rmdir(dir), 0);   /* nothing left in it */
}

/* A directory others may write to is not httop's. */
static void
test_dir_rules(void **state)
{
	char dir[] = "/tmp/test_msr_state.XXXXXX", link[64];
	struct errmsg err;

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(chmod(dir, 0777), 0);
	assert_null(msr_state_open(dir, &err));
	assert_non_null(strstr(err.text, "no one else can write"));
	assert_int_equal(chmod(dir, 0700), 0);
	snprintf(link, sizeof link, "%s.link", dir);
	assert_int_equal(symlink(dir, link), 0);
	assert_null(msr_state_open(link, &err));   /* a link is not followed */
	assert_int_equal(unlink(link), 0);
	assert_int_equal(rmdir(dir), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_dir_rules),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
