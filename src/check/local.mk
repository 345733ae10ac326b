# check: httop --check (httop(1), CHECK): the cases and the shares they
# imply, the tolerances and verdicts, the figures of one case, the report
# (text and JSON), the load threads and what they ran, /proc/stat, the
# simulator's scenario.
libhttop_a_SOURCES += \
	src/check/cases.c src/check/cases.h \
	src/check/verdict.c src/check/verdict.h \
	src/check/measure.c src/check/measure.h \
	src/check/beside.c src/check/beside.h \
	src/check/report.c src/check/report.h \
	src/check/load.c src/check/load.h \
	src/check/ran.c src/check/ran.h \
	src/check/procstat.c src/check/procstat.h \
	src/check/simcase.c src/check/simcase.h
