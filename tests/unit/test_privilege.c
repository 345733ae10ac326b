/* test_privilege.c: privilege_drop() (src/sys/privilege.c) as root, in forked
 * children so the test process keeps its own privilege: what is left of
 * the capabilities and user IDs afterwards, read back with capget and
 * getresuid; no_new_privs set; a set-user-ID install (real uid 65534,
 * effective and saved uid 0) becomes uid 65534 for good; and after the
 * drop the settings file is still never written through a symlink while
 * httop runs as root. Skipped when not run as root.
 *
 * CAP_SYS_RAWIO is capability 17 (linux/capability.h), so keeping only it
 * leaves effective = permitted = 1 << 17 = 0x20000. */
#include "config.h"

#include <errno.h>
#include <linux/capability.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "unit/testutil.h"

#include "sys/privilege.h"
#include "ui/settings.h"

static int
caps(uint64_t *eff, uint64_t *perm, uint64_t *inh)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];

	memset(d, 0, sizeof d);
	if (syscall(SYS_capget, &h, d) != 0)
		return -1;
	*eff = (uint64_t)d[1].effective << 32 | d[0].effective;
	*perm = (uint64_t)d[1].permitted << 32 | d[0].permitted;
	*inh = (uint64_t)d[1].inheritable << 32 | d[0].inheritable;
	return 0;
}

/* Run fn in a child; its exit status is 0 or the line that failed. */
static int
in_child(int (*fn)(void))
{
	pid_t pid = fork();
	int st;

	if (pid == 0)
		_exit(fn());
	assert_true(pid > 0);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	return WEXITSTATUS(st);
}

#define CHECK(c) do { if (!(c)) return __LINE__ % 250 + 1; } while (0)

static int
child_keep_rawio(void)
{
	struct errmsg e;
	char what[160];
	uint64_t eff, perm, inh;

	CHECK(privilege_drop(PRIV_KEEP_RAWIO, what, sizeof what, &e) == 0);
	CHECK(caps(&eff, &perm, &inh) == 0);
	CHECK(eff == 0x20000 && perm == 0x20000 && inh == 0);
	CHECK(prctl(PR_GET_NO_NEW_PRIVS, 0L, 0L, 0L, 0L) == 1);
	CHECK(geteuid() == 0);   /* root stays uid 0: there is no one else to be */
	CHECK(strcmp(what, "every capability but CAP_SYS_RAWIO given up") == 0);
	/* A second call finds only CAP_SYS_RAWIO and keeps it. */
	CHECK(privilege_drop(PRIV_KEEP_RAWIO, what, sizeof what, &e) == 0);
	CHECK(caps(&eff, &perm, &inh) == 0 && perm == 0x20000);
	return 0;
}

static int
child_drop_all(void)
{
	struct errmsg e;
	char what[160];
	uint64_t eff, perm, inh;

	CHECK(privilege_drop(0u, what, sizeof what, &e) == 0);
	CHECK(caps(&eff, &perm, &inh) == 0);
	CHECK(eff == 0 && perm == 0 && inh == 0);
	CHECK(strcmp(what, "every capability given up") == 0);
	return 0;
}

/* The sched source run by root keeps CAP_PERFMON (38: 1 << 38 =
 * 0x4000000000) to open a CPU's event again after hotplug; with the
 * msr flag too, both (0x4000020000). A kernel before 5.8 permits no bit
 * 38: nothing is kept. */
static int
child_keep_perfmon(void)
{
	struct errmsg e;
	char what[160];
	uint64_t eff, perm, inh, want;

	CHECK(caps(&eff, &perm, &inh) == 0);
	want = perm & 0x4000000000ull;
	CHECK(privilege_drop(PRIV_KEEP_PERFMON, what, sizeof what, &e) == 0);
	CHECK(caps(&eff, &perm, &inh) == 0);
	CHECK(eff == want && perm == want && inh == 0);
	CHECK(strcmp(what, want ? "every capability but CAP_PERFMON given up" :
	    "every capability given up") == 0);
	return 0;
}

static int
child_keep_both(void)
{
	struct errmsg e;
	char what[160];
	uint64_t eff, perm, inh, want;

	CHECK(caps(&eff, &perm, &inh) == 0);
	want = (perm & 0x4000000000ull) | 0x20000;
	CHECK(privilege_drop(PRIV_KEEP_RAWIO | PRIV_KEEP_PERFMON, what, sizeof what, &e) == 0);
	CHECK(caps(&eff, &perm, &inh) == 0);
	CHECK(eff == want && perm == want && inh == 0);
	return 0;
}

/* As if installed set-user-ID root and run by uid 65534. */
static int
child_setuid(void)
{
	struct errmsg e;
	char what[160];
	uid_t r, ef, s;
	uint64_t eff, perm, inh;

	CHECK(setresuid(65534, 0, 0) == 0);
	CHECK(privilege_held());
	CHECK(privilege_drop(PRIV_KEEP_RAWIO, what, sizeof what, &e) == 0);
	CHECK(getresuid(&r, &ef, &s) == 0);
	CHECK(r == 65534 && ef == 65534 && s == 65534);
	CHECK(caps(&eff, &perm, &inh) == 0);
	CHECK(eff == 0x20000 && perm == 0x20000 && inh == 0);
	CHECK(strcmp(what, "user ID 65534 now, every capability but CAP_SYS_RAWIO given up")
	    == 0);
	/* uid 0 cannot be had back. */
	CHECK(setresuid(0, 0, 0) == -1 && errno == EPERM);
	return 0;
}

/* An unprivileged process: nothing to do, nothing said. */
static int
child_unprivileged(void)
{
	struct errmsg e;
	char what[160] = "x";

	CHECK(setresuid(65534, 65534, 65534) == 0);
	CHECK(!privilege_held());
	CHECK(privilege_drop(PRIV_KEEP_RAWIO, what, sizeof what, &e) == 0);
	CHECK(what[0] == '\0');
	return 0;
}

static char dir[64];

/* Root after the drop (CAP_SYS_RAWIO only, still uid 0): the settings
 * file is a symlink to a file elsewhere; saving refuses and the target
 * keeps its text. */
static int
child_symlink(void)
{
	struct ui_settings set;
	struct errmsg e;
	char target[128], link[128], buf[16] = "";
	FILE *fp;

	snprintf(target, sizeof target, "%s/target", dir);
	snprintf(link, sizeof link, "%s/httoprc", dir);
	CHECK((fp = fopen(target, "w")) != NULL);
	fputs("keep\n", fp);
	fclose(fp);
	CHECK(symlink(target, link) == 0);
	CHECK(privilege_drop(PRIV_KEEP_RAWIO, NULL, 0, &e) == 0);
	ui_settings_default(&set);
	CHECK(ui_config_save(link, &set, &e) == -1);
	CHECK(strstr(e.text, "symbolic link") != NULL);
	CHECK((fp = fopen(target, "r")) != NULL);
	CHECK(fgets(buf, sizeof buf, fp) != NULL);
	fclose(fp);
	CHECK(strcmp(buf, "keep\n") == 0);
	unlink(link);
	unlink(target);
	return 0;
}

static void
test_keep_rawio(void **state)
{
	(void)state;
	if (geteuid() != 0)
		skip_because("needs root");
	assert_int_equal(in_child(child_keep_rawio), 0);
}

static void
test_keep_perfmon(void **state)
{
	(void)state;
	if (geteuid() != 0)
		skip_because("needs root");
	assert_int_equal(in_child(child_keep_perfmon), 0);
	assert_int_equal(in_child(child_keep_both), 0);
}

static void
test_drop_all(void **state)
{
	(void)state;
	if (geteuid() != 0)
		skip_because("needs root");
	assert_int_equal(in_child(child_drop_all), 0);
}

static void
test_setuid(void **state)
{
	(void)state;
	if (geteuid() != 0)
		skip_because("needs root");
	assert_int_equal(in_child(child_setuid), 0);
}

static void
test_unprivileged(void **state)
{
	(void)state;
	if (geteuid() != 0)
		skip_because("needs root");
	assert_int_equal(in_child(child_unprivileged), 0);
}

static void
test_symlink(void **state)
{
	(void)state;
	if (geteuid() != 0)
		skip_because("needs root");
	snprintf(dir, sizeof dir, "/tmp/test_privilege.XXXXXX");
	assert_non_null(mkdtemp(dir));
	assert_int_equal(in_child(child_symlink), 0);
	rmdir(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_keep_rawio),
		cmocka_unit_test(test_keep_perfmon),
		cmocka_unit_test(test_drop_all),
		cmocka_unit_test(test_setuid),
		cmocka_unit_test(test_unprivileged),
		cmocka_unit_test(test_symlink),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
