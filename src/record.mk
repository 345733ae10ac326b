# record: httop --record FILE, the recorder the refresh loops call;
# between the metrics (interval validity) and the trace writer.
libhttop_a_SOURCES += src/record.c src/record.h
