# the bpf source: the scheduler's figures counted in the kernel by an eBPF
# program (switch.bpf.c: built with clang -target bpf, then bpftool gen
# skeleton into switch.skel.h, which carries it in the binary). The
# tarball has the program's source, not what is generated from it; without
# clang, bpftool or libbpf (configure) bpf_source.c builds to an opener
# that says why.
libhttop_a_SOURCES += src/source/bpf/bpf_source.c src/source/bpf/bpf_source.h \
	src/source/bpf/bpf_core.h
EXTRA_DIST += src/source/bpf/switch.bpf.c
if HAVE_BPF
nodist_libhttop_a_SOURCES = src/source/bpf/switch.skel.h
BUILT_SOURCES += src/source/bpf/switch.skel.h
CLEANFILES += src/source/bpf/switch.bpf.o src/source/bpf/switch.skel.h
src/source/bpf/switch.bpf.o: $(srcdir)/src/source/bpf/switch.bpf.c $(srcdir)/src/source/bpf/bpf_core.h
	@$(MKDIR_P) src/source/bpf
	$(AM_V_GEN)$(CLANG) -g -O2 -target bpf -Wall -Werror \
	    -fdebug-prefix-map=$(abs_top_srcdir)=. -fdebug-prefix-map=$(abs_top_builddir)=. \
	    -I$(top_srcdir)/src $(BPF_CPPFLAGS) $(LIBBPF_CFLAGS) \
	    -c $(srcdir)/src/source/bpf/switch.bpf.c -o $@
src/source/bpf/switch.skel.h: src/source/bpf/switch.bpf.o
	$(AM_V_GEN)$(BPFTOOL) gen skeleton src/source/bpf/switch.bpf.o name httop_bpf >$@.tmp && \
	    mv $@.tmp $@
endif
