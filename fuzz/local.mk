# fuzz: libFuzzer harnesses for the trace reader (as text, and through
# trace_open for gzip traces), the importer
# (httop-ppc2trace) and the die map parser; see fuzz/README.md.
# configure CC=clang --enable-fuzzing, then `make fuzz` (FUZZ_TIME seconds
# per target, one target after the other). tests/fuzz.mk runs the same
# harnesses over the corpus and fuzz/regress/ under gcc in make check.
FUZZ_TARGETS = trace tracez ppc diemap
FUZZ_TIME = 600
FUZZ_RSS = 2048
FUZZ_FLAGS =
FUZZ_WORK = fuzz-work

EXTRA_DIST += fuzz/README.md fuzz/fuzz.h fuzz/standalone.c \
	fuzz/fuzz_trace.c fuzz/fuzz_ppc.c fuzz/fuzz_diemap.c \
	fuzz/corpus fuzz/regress fuzz/dict

if ENABLE_FUZZING
noinst_PROGRAMS += fuzz/fuzz_trace fuzz/fuzz_tracez fuzz/fuzz_ppc fuzz/fuzz_diemap
fuzz_fuzz_trace_SOURCES = fuzz/fuzz_trace.c fuzz/fuzz.h
fuzz_fuzz_trace_LDFLAGS = $(AM_LDFLAGS) -fsanitize=fuzzer
fuzz_fuzz_trace_LDADD = $(HTTOP_LIBS)
# The same harness through trace_open: gzip traces (src/trace/tracez*.c).
fuzz_fuzz_tracez_SOURCES = fuzz/fuzz_trace.c fuzz/fuzz.h
fuzz_fuzz_tracez_CPPFLAGS = $(AM_CPPFLAGS) -DFUZZ_TRACE_FILE
fuzz_fuzz_tracez_LDFLAGS = $(AM_LDFLAGS) -fsanitize=fuzzer
fuzz_fuzz_tracez_LDADD = $(HTTOP_LIBS)
fuzz_fuzz_ppc_SOURCES = fuzz/fuzz_ppc.c fuzz/fuzz.h tools/ppc.c tools/ppc.h
fuzz_fuzz_ppc_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tools
fuzz_fuzz_ppc_LDFLAGS = $(AM_LDFLAGS) -fsanitize=fuzzer
fuzz_fuzz_ppc_LDADD = $(HTTOP_LIBS)
fuzz_fuzz_diemap_SOURCES = fuzz/fuzz_diemap.c fuzz/fuzz.h
fuzz_fuzz_diemap_LDFLAGS = $(AM_LDFLAGS) -fsanitize=fuzzer
fuzz_fuzz_diemap_LDADD = $(HTTOP_LIBS)

# Each target grows a working corpus in $(FUZZ_WORK)/NAME, seeded from the
# kept one; crashes land in $(FUZZ_WORK)/NAME/crash-*. `make fuzz-merge`
# minimises the working corpus back into fuzz/corpus/NAME.
fuzz: fuzz/fuzz_trace fuzz/fuzz_tracez fuzz/fuzz_ppc fuzz/fuzz_diemap
	@set -e; for t in $(FUZZ_TARGETS); do \
	  mkdir -p $(FUZZ_WORK)/$$t; \
	  echo "fuzz: $$t for $(FUZZ_TIME) s"; \
	  d=$$t; test $$t != tracez || d=trace; \
	  ./fuzz/fuzz_$$t -max_total_time=$(FUZZ_TIME) -rss_limit_mb=$(FUZZ_RSS) \
	    -dict=$(srcdir)/fuzz/dict/$$d.dict -artifact_prefix=$(FUZZ_WORK)/$$t/ \
	    -print_final_stats=1 $(FUZZ_FLAGS) \
	    $(FUZZ_WORK)/$$t $(srcdir)/fuzz/corpus/$$t; \
	done
fuzz-merge: fuzz/fuzz_trace fuzz/fuzz_tracez fuzz/fuzz_ppc fuzz/fuzz_diemap
	@set -e; for t in $(FUZZ_TARGETS); do \
	  mkdir -p $(FUZZ_WORK)/merged-$$t; \
	  ./fuzz/fuzz_$$t -merge=1 -rss_limit_mb=$(FUZZ_RSS) $(FUZZ_WORK)/merged-$$t \
	    $(srcdir)/fuzz/corpus/$$t $(FUZZ_WORK)/$$t; \
	done
	@echo "fuzz-merge: review $(FUZZ_WORK)/merged-*, then replace fuzz/corpus/* with them"
else
fuzz fuzz-merge:
	@echo "make $@: configure with CC=clang --enable-fuzzing first (fuzz/README.md)" >&2
	@exit 1
endif
.PHONY: fuzz fuzz-merge

clean-fuzz:
	rm -rf $(FUZZ_WORK)
.PHONY: clean-fuzz
