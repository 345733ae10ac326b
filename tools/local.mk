# tools
# httop-ppc2trace: periodic-performance-counters output -> httop trace.
bin_PROGRAMS += tools/httop-ppc2trace
tools_httop_ppc2trace_SOURCES = tools/ppc2trace.c tools/ppc.c tools/ppc.h
tools_httop_ppc2trace_LDADD = $(HTTOP_LIBS)
