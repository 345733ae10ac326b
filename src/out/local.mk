# out layer: the batch formats (text, csv, json)
libhttop_a_SOURCES += \
	src/out/batch.c src/out/batch.h \
	src/out/text.c src/out/csv.c src/out/json.c
