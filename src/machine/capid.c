/* capid.c: CAPID6 from sysfs. Skeleton: being written. */
#include "config.h"
#include "machine/capid.h"

#include <stdio.h>
#include <string.h>

void
capid6_read(const char *sysfs_root, struct capid_info *ci)
{
	memset(ci, 0, sizeof *ci);
	ci->status = CAPID_NO_DEVICE;
	snprintf(ci->why, sizeof ci->why, "no CAPID6 device under %s", sysfs_root);
}

unsigned
capid6_count(uint32_t capid6)
{
	return (unsigned)__builtin_popcount(capid6 & CAPID6_MASK);
}
