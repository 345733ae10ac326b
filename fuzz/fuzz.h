/* fuzz.h: what the fuzz harnesses share. Each harness defines the libFuzzer
 * entry point; fuzz/standalone.c gives it a main() that runs files through
 * it, so the same code checks the corpus and fuzz/regress/ under gcc in
 * `make check`, without clang. */
#ifndef HTTOP_FUZZ_H
#define HTTOP_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The message the code under test gave for the last input ("" if it took
 * it): defined by each harness, checked by standalone.c against X.expect. */
extern char fuzz_last_error[512];

/* The input as a read-only stream. glibc's fmemopen refuses a size of 0,
 * and the empty file is a case worth running: /dev/null stands in. */
static inline FILE *
fuzz_stream(const uint8_t *data, size_t size)
{
	FILE *fp;

	if (size == 0)
		fp = fopen("/dev/null", "r");
	else
		fp = fmemopen((void *)(uintptr_t)data, size, "r");
	if (fp == NULL) {
		perror("fuzz: fmemopen");
		abort();
	}
	return fp;
}

/* A broken promise of the code under test: report it like a sanitizer
 * would, so the fuzzer keeps the input. */
#define FUZZ_ASSERT(cond, ...) do {                                      \
	if (!(cond)) {                                                   \
		fprintf(stderr, "fuzz: %s:%d: %s: ", __FILE__, __LINE__, #cond); \
		fprintf(stderr, __VA_ARGS__);                            \
		fputc('\n', stderr);                                     \
		abort();                                                 \
	}                                                                \
} while (0)

#endif
