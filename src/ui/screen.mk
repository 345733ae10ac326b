# screen, header, cores view, help, tui front end
libhttop_a_SOURCES += src/ui/ui.h src/ui/screen.h src/ui/tui.h src/ui/scroll.c \
	src/ui/screen.c src/ui/header.c src/ui/header.h src/ui/cores.h \
	src/ui/view_cores.c src/ui/help.c src/ui/help.h src/ui/tui.c
