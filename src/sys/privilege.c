/* privilege.c: give up privilege once the devices are open (privilege.h).
 * Capabilities are read and set with the capget/capset system calls
 * directly (linux/capability.h, version 3: two 32-bit words per set), so
 * httop does not need libcap. */
#include "config.h"
#include "privilege.h"

#include <errno.h>
#include <linux/capability.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <sys/auxv.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "util/i18n.h"

#ifndef PR_CAP_AMBIENT
#define PR_CAP_AMBIENT 47
#define PR_CAP_AMBIENT_CLEAR_ALL 4
#endif
#ifndef CAP_PERFMON
#define CAP_PERFMON 38
#endif
#ifndef PR_SET_NO_NEW_PRIVS
#define PR_SET_NO_NEW_PRIVS 38
#endif

struct caps {
	uint64_t eff, perm, inh;
};

static int
caps_get(struct caps *c)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[_LINUX_CAPABILITY_U32S_3];

	memset(d, 0, sizeof d);
	if (syscall(SYS_capget, &h, d) != 0)
		return -1;
	c->eff = (uint64_t)d[1].effective << 32 | d[0].effective;
	c->perm = (uint64_t)d[1].permitted << 32 | d[0].permitted;
	c->inh = (uint64_t)d[1].inheritable << 32 | d[0].inheritable;
	return 0;
}

static int
caps_set(const struct caps *c)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[_LINUX_CAPABILITY_U32S_3];

	d[0].effective = (uint32_t)c->eff;
	d[1].effective = (uint32_t)(c->eff >> 32);
	d[0].permitted = (uint32_t)c->perm;
	d[1].permitted = (uint32_t)(c->perm >> 32);
	d[0].inheritable = (uint32_t)c->inh;
	d[1].inheritable = (uint32_t)(c->inh >> 32);
	return (int)syscall(SYS_capset, &h, d);
}

bool
privilege_held(void)
{
	uid_t ru, eu, su;
	gid_t rg, eg, sg;
	struct caps c;

	if (getresuid(&ru, &eu, &su) != 0 || getresgid(&rg, &eg, &sg) != 0)
		return true;   /* cannot tell: assume the worst */
	if (ru == 0 || eu == 0 || su == 0 || eu != ru || su != ru || eg != rg || sg != rg)
		return true;
	return caps_get(&c) != 0 || c.perm != 0 || c.eff != 0;
}

bool
privilege_gained(void)
{
	return getauxval(AT_SECURE) != 0;
}

bool
privilege_access_understates(void)
{
	const uint64_t dac = 1ull << CAP_DAC_OVERRIDE | 1ull << CAP_DAC_READ_SEARCH;
	struct caps c;

	/* Root: access(2) takes its permitted set as its effective one. */
	if (getuid() == 0)
		return false;
	return caps_get(&c) != 0 || (c.eff & dac) != 0;
}

/* Is `entry` ("NAME=value") one the allowlist keeps? */
static bool
env_kept(const char *entry)
{
	static const char *const keep[] = {
		"TERM", "LANG", "LANGUAGE", "NO_COLOR", "HOME", "XDG_CONFIG_HOME", "TZ",
	};
	size_t i, n = strcspn(entry, "=");

	if (entry[n] != '=')
		return false;
	if (strncmp(entry, "LC_", 3) == 0)
		return true;
	for (i = 0; i < sizeof keep / sizeof keep[0]; i++) {
		if (strlen(keep[i]) == n && strncmp(entry, keep[i], n) == 0)
			return true;
	}
	return false;
}

/* The allowlisted environment for the life of the process: setenv() may
 * later move `environ` to a copy, and this array must not then be lost. */
static char **volatile scrubbed;

void
privilege_scrub_env(void)
{
	char **kept;
	size_t n = 0, i;

	if (!privilege_gained() || environ == NULL)
		return;
	while (environ[n] != NULL)
		n++;
	kept = calloc(n + 1, sizeof *kept);
	if (kept == NULL) {
		/* No room to keep anything: keep nothing. */
		clearenv();
		return;
	}
	n = 0;
	for (i = 0; environ[i] != NULL; i++) {
		if (env_kept(environ[i]))
			kept[n++] = environ[i];
	}
	/* The strings stay where they are (the initial environment); only
	 * the array is replaced. */
	kept[n] = NULL;
	scrubbed = kept;
	environ = scrubbed;
}

/* Set-user-ID or set-group-ID: become the real user and group for good.
 * KEEPCAPS carries the permitted set across the switch away from uid 0
 * (the effective set is cleared by it and set again by the caller). */
static int
drop_ids(char *what, size_t len, struct errmsg *e)
{
	uid_t ru, eu, su;
	gid_t rg, eg, sg;
	size_t n;

	if (getresuid(&ru, &eu, &su) != 0 || getresgid(&rg, &eg, &sg) != 0)
		return errmsg_set(e, _("cannot read the process's user IDs: %s"), strerror(errno));
	if ((eg != rg || sg != rg) && setresgid(rg, rg, rg) != 0)
		return errmsg_set(e, _("cannot give up the set-group-ID group %u: %s; install "
		    "httop without the set-group-ID bit"), (unsigned)eg, strerror(errno));
	if (ru == 0 || (eu == ru && su == ru))
		return 0;
	if (prctl(PR_SET_KEEPCAPS, 1L, 0L, 0L, 0L) != 0 || setresuid(ru, ru, ru) != 0) {
		int err = errno;

		prctl(PR_SET_KEEPCAPS, 0L, 0L, 0L, 0L);
		return errmsg_set(e, _("cannot give up the set-user-ID user %u: %s; install httop "
		    "with file capabilities instead (see httop(1), PRIVILEGE)"), (unsigned)eu,
		    strerror(err));
	}
	prctl(PR_SET_KEEPCAPS, 0L, 0L, 0L, 0L);
	if (getresuid(&ru, &eu, &su) != 0 || eu != ru || su != ru)
		return errmsg_set(e, _("the set-user-ID user is still held after setresuid; "
		    "install httop with file capabilities instead (see httop(1), PRIVILEGE)"));
	if (what != NULL) {
		n = strlen(what);
		snprintf(what + n, len - n, _("%suser ID %u now"), n > 0 ? ", " : "", (unsigned)ru);
	}
	return 0;
}

int
privilege_drop(unsigned keep, char *what, size_t len, struct errmsg *e)
{
	const uint64_t rawio = 1ull << CAP_SYS_RAWIO, perfmon = 1ull << CAP_PERFMON;
	struct caps c, want;
	size_t n;

	if (what != NULL && len > 0)
		what[0] = '\0';
	if (!privilege_held())
		return 0;
	if (caps_get(&c) != 0)
		return errmsg_set(e, _("cannot read the process's capabilities: %s"),
		    strerror(errno));
	if (drop_ids(what, len, e) != 0)
		return -1;
	memset(&want, 0, sizeof want);
	if ((keep & PRIV_KEEP_RAWIO) && (c.perm & rawio) != 0)
		want.perm |= rawio;
	/* Only where the kernel knows it (5.8 on): an older one permits no
	 * bit 38. */
	if ((keep & PRIV_KEEP_PERFMON) && (c.perm & perfmon) != 0)
		want.perm |= perfmon;
	want.eff = want.perm;
	if (caps_set(&want) != 0)
		return errmsg_set(e, _("cannot give up capabilities: %s"), strerror(errno));
	/* Not fatal: kernels before 4.3 have no ambient set at all. */
	prctl(PR_CAP_AMBIENT, (long)PR_CAP_AMBIENT_CLEAR_ALL, 0L, 0L, 0L);
	if (prctl(PR_SET_NO_NEW_PRIVS, 1L, 0L, 0L, 0L) != 0)
		return errmsg_set(e, _("cannot set no_new_privs: %s"), strerror(errno));
	if (what != NULL && (c.perm & ~want.perm) != 0) {
		n = strlen(what);
		snprintf(what + n, len - n, "%s%s", n > 0 ? ", " : "",
		    want.perm == rawio ? _("every capability but CAP_SYS_RAWIO given up") :
		    want.perm == perfmon ? _("every capability but CAP_PERFMON given up") :
		    want.perm != 0 ? _("every capability but CAP_SYS_RAWIO and CAP_PERFMON given up") :
		    _("every capability given up"));
	}
	return 0;
}
