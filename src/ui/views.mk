# threads and topology views, settings file
libhttop_a_SOURCES += src/ui/settings.h src/ui/config.c
