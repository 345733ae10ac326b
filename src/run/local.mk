# run: one run of httop: the source, the metrics and the outputs behind
# one interface (output.h), a refresh in run_step(); the pacer that says
# when; the conflict policy (--on-conflict) a step applies.
libhttop_a_SOURCES += src/run/run.c src/run/run.h src/run/output.h \
	src/run/pacer.c src/run/pacer.h \
	src/run/conflict.c src/run/conflict.h
