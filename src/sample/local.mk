# sample: one reading of every counter of every CPU, what sources produce,
# traces store and metrics consume.
libhttop_a_SOURCES += src/sample/sample.c src/sample/sample.h src/sample/jobident.h
