# replay of trace files. replay_source.c lives with the sources but calls
# the trace reader, and libtrace.a comes before libsource.a on the link line
# (HTTOP_LAYERS), so it is archived in libtrace.a where its calls resolve.
libtrace_a_SOURCES += src/source/replay_source.c
