/* hostname.h: what httop takes as a host name, wherever one comes from
 * (--host, this machine's name, a trace's "host" line, a node's JSON
 * line): a name a DNS or Slurm host may have, so that it needs no
 * escaping in any output, stays one field of the summary's columns and
 * can be handed to ssh, srun and a node's --host as it is. */
#ifndef HTTOP_HOSTNAME_H
#define HTTOP_HOSTNAME_H

#include <stdbool.h>

/* The longest host name (struct machine's hostname holds it; a DNS
 * label is at most as long). */
#define HOST_NAME_LEN 63

/* 1 to HOST_NAME_LEN ASCII letters, digits, '.', '-' and '_', not '-'
 * first (it would be an option). */
bool host_name_ok(const char *s);

#endif
