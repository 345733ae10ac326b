# tests/bench.mk: the benchmarks' CI gate (bench/run.sh --short against
# bench/baseline.txt). Skips in the sanitizer build and without valgrind.
TESTS += tests/bench/test_bench_gate.sh tests/bench/test_refresh_cpu.sh \
	tests/bench/test_whole_report.sh tests/bench/test_pingpong_pace.sh
EXTRA_DIST += tests/bench/test_bench_gate.sh tests/bench/test_refresh_cpu.sh \
	tests/bench/test_whole_report.sh tests/bench/test_pingpong_pace.sh
