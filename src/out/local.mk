# out layer: the batch formats (text, csv, json, openmetrics, summary) and
# the node exporter's text file
libhttop_a_SOURCES += \
	src/out/batch.c src/out/batch.h src/out/format.c src/out/format.h \
	src/out/linebuf.c src/out/linebuf.h src/out/walltime.c src/out/walltime.h \
	src/out/text.c src/out/csv.c src/out/json.c \
	src/out/openmetrics.c src/out/ommerge.c src/out/ommerge.h src/out/summary.c \
	src/out/textfile.c src/out/textfile.h \
	src/out/outfile.c src/out/outfile.h
# the recorder (--record): what goes into a trace, through the trace writer
libhttop_a_SOURCES += src/out/record.c src/out/record.h
# the summary of a command's run (httop -- COMMAND)
libhttop_a_SOURCES += src/out/runsum.c src/out/runsum.h
# the writers above behind the run's output interface (run/output.h)
libhttop_a_SOURCES += src/out/outputs.c src/out/outputs.h
