# the program: options, the refresh loop, signals, data files
bin_PROGRAMS += src/httop
src_httop_SOURCES = src/main.c \
	src/options.c src/options.h \
	src/app.c src/app.h src/app_priv.h \
	src/app_open.c src/app_batch.c src/app_tui.c src/app_check.c src/app_cmd.c src/app_cmdbare.c \
	src/app_nodes.c src/app_nodes.h src/app_nodes_tui.c \
	src/command.c src/command.h \
	src/outputs.c src/outputs.h \
	src/evloop.c src/evloop.h \
	src/signals.c src/signals.h \
	src/datadir.c src/datadir.h
# No build-tree path goes into the binary: run from the build tree, httop
# finds data/ next to its own executable (src/datadir.c; the link below).
src_httop_LDADD = $(HTTOP_LIBS) $(NCURSESW_LIBS)
# privilege: given up once the devices are open
src_httop_SOURCES += src/privilege.c src/privilege.h
