# tests for many nodes (src/cluster): the node list, the JSON reader, the
# job's figures, the transports; httop --nodes end to end
check_PROGRAMS += tests/unit/test_hostlist tests/unit/test_nodeiv
tests_unit_test_hostlist_SOURCES = tests/unit/test_hostlist.c
tests_unit_test_hostlist_CFLAGS = $(TEST_CFLAGS) -I$(top_srcdir)/tests
tests_unit_test_hostlist_LDADD = $(TEST_LIBS)
tests_unit_test_nodeiv_SOURCES = tests/unit/test_nodeiv.c
tests_unit_test_nodeiv_CFLAGS = $(TEST_CFLAGS) -I$(top_srcdir)/tests
tests_unit_test_nodeiv_LDADD = $(TEST_LIBS) -lm
TESTS += tests/unit/test_hostlist tests/unit/test_nodeiv
check_PROGRAMS += tests/unit/test_passon
tests_unit_test_passon_SOURCES = tests/unit/test_passon.c
tests_unit_test_passon_CFLAGS = $(TEST_CFLAGS) -I$(top_srcdir)/tests
tests_unit_test_passon_LDADD = $(TEST_LIBS)
TESTS += tests/unit/test_passon
NODES_TESTS = tests/cli/test_nodes.sh tests/tui/test_tui_nodes.sh tests/cli/test_nodes_ssh.sh \
	tests/cli/test_nodes_untrusted.sh tests/tui/test_tui_untrusted.sh \
	tests/cli/test_nodes_hostile.sh tests/tui/test_tui_nodes_quiet.sh \
	tests/bench/test_nodes_scale.sh tests/cli/test_nodes_srun.sh tests/cli/test_nodes_compact.sh \
	tests/tui/test_nodes_replay_restart.sh
NODES_TESTS += tests/cli/test_nodes_count.sh tests/cli/test_nodes_lag.sh tests/cli/test_nodes_clock.sh
TESTS += $(NODES_TESTS)
EXTRA_DIST += $(NODES_TESTS) tests/nodes/as-host.sh tests/nodes/hostile.py \
	tests/nodes/fake-node.py tests/nodes/fake-srun.py bench/replay-nodes.py bench/replay-srun.py bench/replay-node bench/nodes-scale.sh
EXTRA_DIST += tests/data/nodes/two-cores.json tests/data/nodes/demo.jsonl \
    tests/data/nodes/zen-full.jsonl tests/data/nodes/zen-compact.jsonl \
    tests/data/nodes/knl-full.jsonl tests/data/nodes/knl-compact.jsonl
