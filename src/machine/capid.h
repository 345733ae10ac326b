/* capid.h: which tiles of a Skylake-SP / Cascade Lake XCC die are enabled,
 * from the CAPID6 register of each socket's PCU (PCI device 8086:2083,
 * function 1e.3, config offset 0x9C, bits 27:0; doc/hardware.md section 7),
 * read through sysfs. Reading past the first 64 bytes of a PCI config
 * file needs root (CAP_SYS_ADMIN): the kernel returns a short read. */
#ifndef HTTOP_CAPID_H
#define HTTOP_CAPID_H

#include <stdbool.h>
#include <stdint.h>

#include "util/errmsg.h"

#define CAPID6_VENDOR 0x8086
#define CAPID6_DEVICE 0x2083
#define CAPID6_FUNCTION "1e.3"
#define CAPID6_OFFSET 0x9C
#define CAPID6_MASK 0x0FFFFFFFu    /* 28 tile positions of the XCC die */
#define CAPID_MAX_SOCKETS 8

enum capid_status {
	CAPID_OK = 0,
	CAPID_NO_DEVICE,     /* no 8086:2083 at function 1e.3: not this kind of chip,
	                      * or no sysfs */
	CAPID_NEED_ROOT,     /* the config file is readable only up to 64 bytes */
	CAPID_ERROR,         /* anything else: why[] says what */
};

struct capid_info {
	enum capid_status status;
	unsigned nsockets;                  /* devices found, in PCI bus order */
	uint32_t capid6[CAPID_MAX_SOCKETS]; /* masked with CAPID6_MASK */
	char bdf[CAPID_MAX_SOCKETS][16];    /* "0000:16:1e.3" */
	int numa_node[CAPID_MAX_SOCKETS];   /* from sysfs, -1 if not given */
	char why[320];                      /* for any status but OK: the cause and the fix */
};

/* CAPID6 not read from this machine's PCI space but given with the
 * machine: by --capid6, by a scenario file's capid6 line, or the demo
 * machine's. One value per package, in package order. */
enum capid6_origin {
	CAPID6_FROM_OPTION = 0,  /* --capid6 */
	CAPID6_FROM_SCENARIO,    /* a scenario file's capid6 line */
	CAPID6_FROM_DEMO,        /* the demo machine's (made for it: data/README.md) */
};

struct capid6_given {
	unsigned n;                          /* 0: none given */
	uint32_t v[CAPID_MAX_SOCKETS];
	enum capid6_origin origin;
};

/* The demo machine's two values: constructed, not read from a chip (see
 * data/README.md, "The demo's CAPID6"). */
extern const struct capid6_given capid6_demo;

/* "VALUE[,VALUE...]": one per package, hexadecimal with or without 0x,
 * each the 32-bit register (as setpci prints it) of which bits
 * 27:0 are kept and must not all be 0. 0, or -1 with a message (without
 * the option's name: the caller adds it). */
int capid6_parse_list(const char *text, struct capid6_given *g, struct errmsg *e);

/* Scan `sysfs_root`/bus/pci/devices (sysfs_root "/sys" on a live machine)
 * for the PCU devices and read CAPID6 from each. Sockets are numbered in
 * PCI bus order: the lowest bus is socket 0. Never fails hard: the status
 * and why[] say what was found. */
void capid6_read(const char *sysfs_root, struct capid_info *ci);
/* Bits set in the 28-bit field. */
unsigned capid6_count(uint32_t capid6);

#endif
