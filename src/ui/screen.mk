# screen, header, cores view, help, tui front end
libhttop_a_SOURCES += src/ui/ui.h src/ui/screen.h src/ui/tui.h
