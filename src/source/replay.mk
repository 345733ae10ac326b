# replay of trace files
