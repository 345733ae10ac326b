# trace layer: httop's trace format (man/httop-trace.5), reader and writer;
# gzip traces: tracez.c inflates them (ISA-L where configure found it,
# else zlib), trace_write.c deflates (zlib).
libhttop_a_SOURCES += \
	src/trace/trace.h src/trace/tracefmt.h src/trace/tracefmt.c \
	src/trace/tracez.h src/trace/tracez.c \
	src/trace/trace_read.c src/trace/trace_write.c
