# /proc/stat source: busy time from the kernel's accounting
libhttop_a_SOURCES += src/source/procstat/procstat_source.c
