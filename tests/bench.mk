# tests/bench.mk: the benchmarks' CI gate (bench/run.sh --short against
# bench/baseline.txt). Skips in the sanitizer build and without valgrind.
TESTS += tests/bench/test_bench_gate.sh
EXTRA_DIST += tests/bench/test_bench_gate.sh
