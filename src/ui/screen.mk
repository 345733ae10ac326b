# the screen (terminal, palette, widgets), header, cores view, help, tui front end
libhttop_a_SOURCES += src/ui/ui.h src/ui/screen.h src/ui/tui.h src/ui/scroll.c src/ui/views.c \
	src/ui/term.c src/ui/term.h src/ui/palette.c src/ui/palette.h \
	src/ui/widgets.c src/ui/widgets.h \
	src/ui/flow.c src/ui/flow.h src/ui/header.c src/ui/header_fig.c src/ui/header.h src/ui/cores.h \
	src/ui/view_cores.c src/ui/help.c src/ui/help.h src/ui/tui.c
