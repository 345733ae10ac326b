# util: small helpers with no knowledge of PMUs.
libhttop_a_SOURCES += \
	src/util/errmsg.c src/util/errmsg.h \
	src/util/xalloc.c src/util/xalloc.h \
	src/util/cpulist.c src/util/cpulist.h \
	src/util/numfmt.c src/util/numfmt.h \
	src/util/numparse.c src/util/numparse.h \
	src/util/utf8.c src/util/utf8.h \
	src/util/jsonstr.c src/util/jsonstr.h \
	src/util/clock.c src/util/clock.h \
	src/util/phases.c src/util/phases.h \
	src/util/textesc.c src/util/textesc.h \
	src/util/textput.c src/util/textput.h \
	src/util/textwrap.c src/util/textwrap.h \
	src/util/fdwrite.c src/util/fdwrite.h \
	src/util/hostname.c src/util/hostname.h \
	src/util/infile.c src/util/infile.h \
	src/util/xmlcheck.c src/util/xmlcheck.h \
	src/util/linesplit.c src/util/linesplit.h \
	src/util/i18n.h
