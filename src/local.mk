# the program: main.c and the top layers. cli/ the command line; app/ the
# modes (one table, app.c) over one run context (context.c, open.c); sys/
# the process: signals, the one wait, privilege, a command, data files.
bin_PROGRAMS += src/httop
src_httop_SOURCES = src/main.c \
	src/cli/options.c src/cli/options.h src/cli/optcheck.c src/cli/optcheck.h \
	src/app/app.c src/app/app.h src/app/context.c src/app/context.h \
	src/app/open.c src/app/mode_batch.c src/app/mode_tui.c src/app/mode_check.c \
	src/app/mode_command.c src/app/mode_command_bare.c src/app/mode_acct.c src/app/mode_nodes.c src/app/nodes.c src/app/nodes.h src/app/nodes_tui.c \
	src/sys/command.c src/sys/command.h \
	src/sys/evloop.c src/sys/evloop.h \
	src/sys/signals.c src/sys/signals.h \
	src/sys/datadir.c src/sys/datadir.h
# No build-tree path goes into the binary: run from the build tree, httop
# finds data/ next to its own executable (src/sys/datadir.c; the link below).
src_httop_LDADD = $(HTTOP_LIBS) $(NCURSESW_LIBS)
# privilege: given up once the devices are open
src_httop_SOURCES += src/sys/privilege.c src/sys/privilege.h
