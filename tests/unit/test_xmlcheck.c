/* test_xmlcheck.c: the well-formedness check run before hwloc reads an
 * XML topology (util/xmlcheck.c), on hand-written documents: each fault
 * found on the line it is on, with its reason; what is well-formed passes,
 * however its text, values and blanks run over lines. */
#include "unit/testutil.h"

#include <stdlib.h>
#include <string.h>

#include "util/xmlcheck.h"

/* 0 or -1 from xml_check of the string, the line and reason in *line, why. */
static int
check(const char *doc, unsigned long *line, char *why, size_t len)
{
	*line = 0;
	why[0] = '\0';
	return xml_check(doc, strlen(doc), line, why, len);
}

static void
test_good(void **state)
{
	static const char *const docs[] = {
		"<a/>",
		"\xef\xbb\xbf<?xml version=\"1.0\"?>\n<!DOCTYPE topology SYSTEM \"hwloc.dtd\">\n"
		    "<topology version=\"2.0\">\n  <object type=\"Machine\" cpuset=\"0xff\">\n"
		    "    <info name=\"a\" value='x\ny'/>\n  </object>\n</topology>\n",
		"<a>text with > and ' and \"\n over lines<b x=\"1\"   y = '2'/><!-- a\n comment -->"
		    "<![CDATA[ <not a tag> ]]></a>\n\n",
	};
	unsigned long line;
	char why[200];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof docs / sizeof docs[0]; i++) {
		if (check(docs[i], &line, why, sizeof why) != 0)
			fail_msg("document %zu: line %lu: %s", i, line, why);
	}
}

/* Each fault: the document, the line to report, a piece of the reason. */
static void
test_faults(void **state)
{
	static const struct {
		const char *doc;
		unsigned long line;
		const char *why;
	} cases[] = {
		{ "<a>\n<b>\n</a>", 3, "</a>" },
		{ "<a>\n<b c=\"1\n2\n", 2, "does not end" },
		{ "<a>\n\n<b c=\"1\n<c/>\"/></a>", 4, "'<' inside the value of attribute c" },
		{ "<a>\n<b c=1/></a>", 2, "attribute c is not in quotes" },
		{ "<a>\n<b cc/></a>", 2, "attribute cc has no '=\"value\"'" },
		{ "<a>\n<b c=\"1\"d=\"2\"/></a>", 2, "expected an attribute" },
		{ "<a>\n<b>\n\ntext\n", 5, "the file ends inside <b> opened on line 2" },
		{ "<a/>\n\n<b/>", 3, "a second top-level element" },
		{ "text\n<a/>", 1, "text before the first element" },
		{ "<a/>\nx", 2, "text after the end of the document" },
		{ "<a>\n<!-- never closed\n</a>", 2, "comment" },
		{ "<a>\n< b/></a>", 2, "not followed by a tag name" },
		{ "<a>\n<b x=\"1\"", 2, "ends inside the tag <b>" },
	};
	unsigned long line;
	char why[200];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		if (check(cases[i].doc, &line, why, sizeof why) != -1)
			fail_msg("case %zu passed", i);
		if (line != cases[i].line || strstr(why, cases[i].why) == NULL)
			fail_msg("case %zu: line %lu (want %lu): '%s' (want '%s')", i, line,
			    cases[i].line, why, cases[i].why);
	}
}

/* A large document (a 1024-CPU topology has about 3,000 elements of many
 * attributes): passes, and its last line is counted. */
static void
test_large(void **state)
{
	size_t n = 20000, i, o = 0, cap = n * 80 + 64;
	char *doc = malloc(cap), why[200];
	unsigned long line;

	(void)state;
	assert_non_null(doc);
	o += (size_t)snprintf(doc + o, cap - o, "<t>\n");
	for (i = 0; i < n; i++)
		o += (size_t)snprintf(doc + o, cap - o, "  <o type=\"PU\" os_index=\"%zu\" "
		    "cpuset=\"0x%08zx\"/>\n", i, i);
	/* cut short: an element begun on the last line */
	snprintf(doc + o, cap - o, "<x");
	assert_int_equal(xml_check(doc, o + 2, &line, why, sizeof why), -1);
	assert_int_equal(line, n + 2);
	assert_non_null(strstr(why, "ends inside the tag <x>"));
	/* closed */
	o += (size_t)snprintf(doc + o, cap - o, "</t>\n");
	assert_int_equal(xml_check(doc, o, &line, why, sizeof why), 0);
	free(doc);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good),
		cmocka_unit_test(test_faults),
		cmocka_unit_test(test_large),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
