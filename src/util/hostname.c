/* hostname.c: the host names httop takes (hostname.h). */
#include "config.h"
#include "util/hostname.h"

#include <string.h>

bool
host_name_ok(const char *s)
{
	size_t n = strlen(s), i;

	if (n == 0 || n > HOST_NAME_LEN || s[0] == '-')
		return false;
	for (i = 0; i < n; i++) {
		char c = s[i];

		/* not isalnum(): the locale must not widen the set */
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		    c == '.' || c == '-' || c == '_'))
			return false;
	}
	return true;
}
