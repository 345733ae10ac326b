/* capid.c: CAPID6 of each Skylake-SP / Cascade Lake socket, from the PCU's
 * PCI configuration space in sysfs (doc/hardware.md section 7). The register
 * says which of the XCC die's 28 tile positions hold an enabled CHA. */
#include "config.h"
#include "machine/capid.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/i18n.h"
#include "util/infile.h"

/* Device names we keep while scanning: one more than we accept, so that
 * "too many" can be told apart from "exactly the limit". */
#define CAPID_SCAN_MAX (CAPID_MAX_SOCKETS + 1)

/* buf = "a/b"; -1 if it does not fit. */
static int
join(char *buf, size_t size, const char *a, const char *b)
{
	int n = snprintf(buf, size, "%s/%s", a, b);

	return n < 0 || (size_t)n >= size ? -1 : 0;
}

/* Open a sysfs file under --sysfs-root: a regular file, or -1 (errno
 * EINVAL for anything else). O_NONBLOCK: a named pipe planted in a copied
 * tree must not hang the start. */
static int
open_sysfs(const char *path)
{
	return infile_open_regular(path);
}

/* Read a small sysfs text file into buf; -1 if it cannot be read. */
static int
read_text(const char *path, char *buf, size_t size)
{
	ssize_t n;
	int fd = open_sysfs(path);

	if (fd < 0)
		return -1;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return 0;
}

/* A "0x8086\n"-style id file; -1 if absent or not a number. */
static long
read_hex(const char *dir, const char *name)
{
	char path[4096], buf[32], *end;
	long v;

	if (join(path, sizeof path, dir, name) != 0 || read_text(path, buf, sizeof buf) != 0)
		return -1;
	errno = 0;
	v = strtol(buf, &end, 16);
	if (errno != 0 || end == buf || v < 0)
		return -1;
	return v;
}

static int
read_numa_node(const char *dir)
{
	char path[4096], buf[32], *end;
	long v;

	if (join(path, sizeof path, dir, "numa_node") != 0 ||
	    read_text(path, buf, sizeof buf) != 0)
		return -1;
	v = strtol(buf, &end, 10);
	if (end == buf || v < -1 || v > 1 << 20)
		return -1;
	return (int)v;
}

static bool
ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* Insert a name keeping the list sorted: "dddd:bb:dd.f" names of one
 * width sort by domain, then bus, which is socket order. */
static void
insert_sorted(char names[][16], unsigned *n, const char *name)
{
	unsigned i = *n;

	while (i > 0 && strcmp(names[i - 1], name) > 0) {
		memcpy(names[i], names[i - 1], sizeof names[i]);
		i--;
	}
	snprintf(names[i], sizeof names[i], "%s", name);
	(*n)++;
}

/* Read CAPID6 of one device. Sets ci->status and why[] on failure. */
static int
read_one(const char *devdir, const char *bdf, struct capid_info *ci, uint32_t *out)
{
	char path[4096];
	unsigned char b[4];
	ssize_t n;
	int fd, err;

	if (join(path, sizeof path, devdir, "config") != 0) {
		err = ENAMETOOLONG;
		goto fail;
	}
	fd = open_sysfs(path);
	if (fd < 0) {
		err = errno;
		goto fail;
	}
	n = pread(fd, b, sizeof b, CAPID6_OFFSET);
	err = errno;
	close(fd);
	if (n == (ssize_t)sizeof b) {
		*out = ((uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
		    (uint32_t)b[3] << 24) & CAPID6_MASK;
		return 0;
	}
	if (n >= 0) {
		/* The kernel cuts unprivileged reads at the 64-byte header. */
		ci->status = CAPID_NEED_ROOT;
		snprintf(ci->why, sizeof ci->why,
		    _("CAPID6 of %s is past the first 64 bytes of %s, which only root may "
		    "read: run httop as root, or give --die-map"), bdf, path);
		return -1;
	}
fail:
	if (err == EACCES || err == EPERM) {
		ci->status = CAPID_NEED_ROOT;
		snprintf(ci->why, sizeof ci->why,
		    _("cannot read %s (%s): CAPID6 needs root; run httop as root, or give "
		    "--die-map"), path, strerror(err));
	} else {
		ci->status = CAPID_ERROR;
		snprintf(ci->why, sizeof ci->why,
		    _("cannot read CAPID6 from %s: %s; check that sysfs is mounted, or give "
		    "--die-map"), path, strerror(err));
	}
	return -1;
}

void
capid6_read(const char *sysfs_root, struct capid_info *ci)
{
	char devs[4096], dir[4096];
	char names[CAPID_SCAN_MAX][16];
	unsigned n = 0, i;
	struct dirent *de;
	DIR *dp;

	memset(ci, 0, sizeof *ci);
	for (i = 0; i < CAPID_MAX_SOCKETS; i++)
		ci->numa_node[i] = -1;
	dp = NULL;
	if (join(devs, sizeof devs, sysfs_root, "bus/pci/devices") != 0)
		errno = ENAMETOOLONG;
	else
		dp = opendir(devs);
	if (dp == NULL) {
		ci->status = CAPID_NO_DEVICE;
		snprintf(ci->why, sizeof ci->why,
		    _("cannot open %s (%s): no PCI devices to read CAPID6 from; give "
		    "--die-map to place the cores"), devs, strerror(errno));
		return;
	}
	while ((de = readdir(dp)) != NULL) {
		if (!ends_with(de->d_name, ":" CAPID6_FUNCTION) || strlen(de->d_name) >= 16)
			continue;
		if (join(dir, sizeof dir, devs, de->d_name) != 0)
			continue;
		if (read_hex(dir, "vendor") != CAPID6_VENDOR ||
		    read_hex(dir, "device") != CAPID6_DEVICE)
			continue;
		if (n == CAPID_SCAN_MAX)
			break;
		insert_sorted(names, &n, de->d_name);
	}
	closedir(dp);

	if (n == 0) {
		ci->status = CAPID_NO_DEVICE;
		snprintf(ci->why, sizeof ci->why,
		    _("no Skylake-SP/Cascade Lake PCU (PCI %04x:%04x at function %s) under %s: "
		    "the enabled tiles cannot be read; give --die-map to place the cores"),
		    CAPID6_VENDOR, CAPID6_DEVICE, CAPID6_FUNCTION, devs);
		return;
	}
	if (n > CAPID_MAX_SOCKETS) {
		ci->status = CAPID_ERROR;
		snprintf(ci->why, sizeof ci->why,
		    _("more than %u PCU devices (%04x:%04x) under %s: httop reads CAPID6 of at "
		    "most %u sockets; give --die-map to place the cores"),
		    CAPID_MAX_SOCKETS, CAPID6_VENDOR, CAPID6_DEVICE, devs, CAPID_MAX_SOCKETS);
		return;
	}
	for (i = 0; i < n; i++) {
		if (join(dir, sizeof dir, devs, names[i]) != 0) {
			ci->status = CAPID_ERROR;
			snprintf(ci->why, sizeof ci->why, _("path too long: %s; use a shorter "
			    "--sysfs-root"), devs);
			return;
		}
		if (read_one(dir, names[i], ci, &ci->capid6[i]) != 0) {
			/* Nothing half-read is reported as found. */
			memset(ci->capid6, 0, sizeof ci->capid6);
			return;
		}
		memcpy(ci->bdf[i], names[i], sizeof ci->bdf[i]);
		ci->numa_node[i] = read_numa_node(dir);
	}
	ci->nsockets = n;
	ci->status = CAPID_OK;
}

/* The demo machine: a two-socket Xeon Gold 6154, 18 of the XCC die's 28
 * tiles enabled per socket. No public CAPID6 of a 6154 was found, so these
 * were made for the demo (data/README.md says how): 10 bits clear in each,
 * 5 in each half of the die (bits 0-13 are its left three columns), in a
 * different pattern per socket as real chips have.
 *   socket 0: all bits but 1, 5, 8, 11, 13, 15, 18, 21, 24, 26 = 0x0adb56dd
 *   socket 1: all bits but 0, 3, 6, 10, 12, 14, 17, 20, 23, 27 = 0x076dabb6 */
const struct capid6_given capid6_demo = {
	2, { 0x0adb56ddu, 0x076dabb6u, 0, 0, 0, 0, 0, 0 }, CAPID6_FROM_DEMO,
};

int
capid6_parse_list(const char *text, struct capid6_given *g, struct errmsg *e)
{
	const char *p = text;
	char *end;
	unsigned long long v;

	memset(g, 0, sizeof *g);
	for (;;) {
		if (g->n == CAPID_MAX_SOCKETS)
			return errmsg_set(e, _("'%s' gives more than %d values; give one per package"),
			    text, CAPID_MAX_SOCKETS);
		/* hexadecimal, 0x or not: setpci prints "0adb56dd" */
		if (!isxdigit((unsigned char)*p))
			goto bad;
		errno = 0;
		v = strtoull(p, &end, 16);
		if (end == p || errno != 0 || (*end != ',' && *end != '\0'))
			goto bad;
		/* The whole register as setpci prints it: bits 27:0 are kept,
		 * as when it is read from sysfs. */
		if (v > 0xffffffffull)
			return errmsg_set(e, _("%.*s is wider than the 32-bit CAPID6 register"),
			    (int)(end - p), p);
		v &= CAPID6_MASK;
		if (v == 0)
			return errmsg_set(e, _("%.*s enables no tile (bits 27:0 are 0): give CAPID6 as "
			    "read from PCI %04x:%04x at offset 0x%x"), (int)(end - p), p, CAPID6_VENDOR,
			    CAPID6_DEVICE, CAPID6_OFFSET);
		g->v[g->n++] = (uint32_t)v;
		if (*end == '\0')
			return 0;
		p = end + 1;
	}
bad:
	return errmsg_set(e, _("'%s' is not a list of CAPID6 values; give one number per "
	    "package, e.g. 0x0fafbeff,0x0bfdff7d"), text);
}

unsigned
capid6_count(uint32_t capid6)
{
	return (unsigned)__builtin_popcount(capid6 & CAPID6_MASK);
}
