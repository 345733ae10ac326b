/* fdwrite.c: a whole buffer written to a descriptor (fdwrite.h). */
#include "config.h"
#include "util/fdwrite.h"

#include <errno.h>
#include <unistd.h>

int
fd_write_all(int fd, const void *p, size_t len)
{
	const char *c = p;
	ssize_t n;

	while (len > 0) {
		n = write(fd, c, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return errno;
		if (n == 0)
			return EIO;
		c += n;
		len -= (size_t)n;
	}
	return 0;
}
