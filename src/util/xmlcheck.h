/* xmlcheck.h: is a buffer well-formed XML, and if not, where and why.
 * hwloc's built-in XML reader refuses a bad file with EINVAL and nothing
 * else; this says which line is wrong before hwloc sees the file. It
 * checks the structure only (tags, nesting, attributes, comments,
 * processing instructions, CDATA, a DOCTYPE), not what the elements mean. */
#ifndef HTTOP_XMLCHECK_H
#define HTTOP_XMLCHECK_H

#include <stddef.h>

/* Deeper nesting than this is refused (hwloc files nest a few tens). */
#define XMLCHECK_MAX_DEPTH 1000

/* 0 when buf[0..len) is well-formed; else -1 with *line (1-based) and a
 * short reason in why[] (English, for the caller's translated message;
 * names from the file are escaped). */
int xml_check(const char *buf, size_t len, unsigned long *line, char *why, size_t whylen);

#endif
