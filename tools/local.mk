# tools
# httop-ppc2trace: periodic-performance-counters output -> httop trace.
bin_PROGRAMS += tools/httop-ppc2trace
tools_httop_ppc2trace_SOURCES = tools/ppc2trace.c tools/ppc.c tools/ppc.h
tools_httop_ppc2trace_LDADD = $(HTTOP_LIBS)
# httop-schema: the JSON Schema of --format json, made from the table of
# figures (src/metrics/figures.c) and data/httop.schema.in.json when httop
# is built (data/local.mk); run at build time, not installed.
noinst_PROGRAMS += tools/httop-schema
tools_httop_schema_SOURCES = tools/schema.c
tools_httop_schema_LDADD = $(HTTOP_LIBS)
