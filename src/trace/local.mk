# trace layer: httop's trace format (man/httop-trace.5), reader and writer;
# gzip traces through zlib (tracez.c reads them, trace_write.c deflates).
libhttop_a_SOURCES += \
	src/trace/trace.h src/trace/tracefmt.h src/trace/tracefmt.c \
	src/trace/tracez.h src/trace/tracez.c \
	src/trace/trace_read.c src/trace/trace_write.c
