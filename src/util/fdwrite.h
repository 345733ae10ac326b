/* fdwrite.h: a whole buffer written to a descriptor. */
#ifndef HTTOP_FDWRITE_H
#define HTTOP_FDWRITE_H

#include <stddef.h>

/* Write all `len` bytes of p to fd, again after EINTR and a short write:
 * 0, or the errno that stopped it (EIO for a write that wrote nothing). */
int fd_write_all(int fd, const void *p, size_t len);

#endif
