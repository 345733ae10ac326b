# threads and topology views, settings file
libhttop_a_SOURCES += src/ui/settings.h src/ui/config.c src/ui/view_threads.c \
	src/ui/view_topology.c
# many nodes: the Nodes view and its header
libhttop_a_SOURCES += src/ui/view_nodes.c src/ui/header_nodes.c
# the die grid view
libhttop_a_SOURCES += src/ui/die_view.h src/ui/die_cells.c src/ui/die_geom.c \
	src/ui/view_die.c
