# the program
bin_PROGRAMS += src/httop
src_httop_SOURCES = src/main.c
src_httop_LDADD = $(HTTOP_LIBS) $(NCURSESW_LIBS)
