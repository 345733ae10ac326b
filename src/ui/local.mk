# curses interface
include $(srcdir)/src/ui/screen.mk
include $(srcdir)/src/ui/views.mk
