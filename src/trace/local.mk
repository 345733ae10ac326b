# trace layer: httop's trace format (man/httop-trace.5), reader and writer;
# gzip traces: tracez.c reads them and tracez_isal.c (ISA-L, where
# configure found it: the conditional HAVE_ISAL) or tracez_zlib.c (zlib)
# inflates them, both behind tracez_inflate.h; the tarball has both.
# trace_write.c deflates (zlib).
libhttop_a_SOURCES += \
	src/trace/trace.h src/trace/tracefmt.h src/trace/tracefmt.c \
	src/trace/tracez.h src/trace/tracez.c src/trace/tracez_inflate.h \
	src/trace/trace_read.c src/trace/trace_write.c
if HAVE_ISAL
libhttop_a_SOURCES += src/trace/tracez_isal.c
else
libhttop_a_SOURCES += src/trace/tracez_zlib.c
endif
