# machine layer: topology (hwloc), CPU identity (libcpuid), uarch groups
libhttop_a_SOURCES += \
	src/machine/topology.c src/machine/topology.h \
	src/machine/identity.c src/machine/identity.h \
	src/machine/uarch.c src/machine/uarch.h \
	src/machine/machine.c src/machine/machine.h
