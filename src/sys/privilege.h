/* privilege.h: httop uses privilege only to open the counter devices.
 * Once they are open it gives up everything else, so that a bug in the
 * screen, the settings file or a parser cannot use root's powers. */
#ifndef HTTOP_PRIVILEGE_H
#define HTTOP_PRIVILEGE_H

#include <stdbool.h>
#include <stddef.h>

#include "util/errmsg.h"

/* Root, set-user-ID or set-group-ID, or any capability permitted? */
bool privilege_held(void);
/* Did this exec give httop more than its user has (set-user-ID,
 * set-group-ID or file capabilities: the kernel's AT_SECURE)? Root
 * running httop gains nothing: its environment is its own. */
bool privilege_gained(void);
/* With privilege_gained(): keep only the environment variables a
 * terminal program needs (TERM, LANG, LANGUAGE, LC_*, NO_COLOR, HOME,
 * XDG_CONFIG_HOME, TZ), as sudo does, so that no library reads a user's
 * plugin path, XML file or sysfs root while httop holds privilege.
 * Call first thing in main, before any library is initialised. */
void privilege_scrub_env(void);
/* Does access(2) understate what this process's own calls may do? It
 * judges as the real user, and a user other than root with no
 * capability; a process of such a user whose effective set holds
 * CAP_DAC_OVERRIDE or CAP_DAC_READ_SEARCH (an ambient capability, say)
 * may open or run more than it says. True then, or when the set cannot
 * be read. */
bool privilege_access_understates(void);

/* What privilege_drop may keep, where it was permitted. */
#define PRIV_KEEP_RAWIO   1u   /* CAP_SYS_RAWIO */
#define PRIV_KEEP_PERFMON 2u   /* CAP_PERFMON (Linux 5.8 on) */

/* After every device is open. Installed set-user-ID root, switch every
 * user and group ID to the real ones for good; then keep no capability
 * but those `keep` names that were permitted: CAP_SYS_RAWIO (the msr
 * driver checks it when a CPU's device is opened again after hotplug, and
 * msr-safe lets it bypass the allowlist), CAP_PERFMON (the sched source
 * run by root opens a CPU's event again when the CPU comes back online,
 * which perf_event_paranoid above 0 refuses without it), with no inheritable or ambient
 * ones, and set no_new_privs so no later exec regains any. Nothing to do
 * without privilege. 0, or -1 with a message; `what` (may be NULL) gets
 * one line saying what was given up, empty if nothing. */
int privilege_drop(unsigned keep, char *what, size_t len, struct errmsg *e);

#endif
