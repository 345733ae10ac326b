# machine layer: topology (hwloc), CPU identity (libcpuid), uarch groups
libhttop_a_SOURCES += \
	src/machine/topology.c src/machine/topology.h \
	src/machine/identity.c src/machine/identity.h \
	src/machine/uarch.c src/machine/uarch.h \
	src/machine/machine.c src/machine/machine.h
# die grid: map files, CAPID6, the layout built from them
libhttop_a_SOURCES += src/machine/diemap.c src/machine/diemap.h \
	src/machine/capid.c src/machine/capid.h \
	src/machine/dielayout.c src/machine/dielayout.h
