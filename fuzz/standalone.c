/* standalone.c: a main() for a fuzz harness, so that gcc builds without
 * libFuzzer run files through it (`make check`: the kept corpus and
 * fuzz/regress/). Arguments are files or directories (their files, in
 * name order). Prints one TAP line per file, without a plan: the test
 * script adds it. A crash or sanitizer report ends the run early. A file
 * X.expect beside X holds text that the message for X must contain (its
 * first line); "accepted" means X must be taken without a message. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

/* The first line of PATH.expect into buf; false if there is none. */
static bool
read_expect(const char *path, char *buf, size_t size)
{
	char name[4096];
	FILE *fp;
	bool ok;

	snprintf(name, sizeof name, "%s.expect", path);
	if ((fp = fopen(name, "r")) == NULL)
		return false;
	ok = fgets(buf, (int)size, fp) != NULL;
	fclose(fp);
	buf[strcspn(buf, "\n")] = '\0';
	return ok;
}

static int
run_file(const char *path)
{
	char want[512];
	uint8_t *buf = NULL;
	size_t len = 0, cap = 0, n;
	FILE *fp = fopen(path, "rb");

	if (fp == NULL) {
		printf("not ok - %s: %s\n", path, strerror(errno));
		return 1;
	}
	do {
		if (len == cap) {
			cap = cap ? 2 * cap : 65536;
			if ((buf = realloc(buf, cap)) == NULL)
				abort();
		}
		n = fread(buf + len, 1, cap - len, fp);
		len += n;
	} while (n > 0);
	fclose(fp);
	/* An exact-size copy, so ASan sees a read past the input. */
	{
		uint8_t *exact = malloc(len ? len : 1);

		if (exact == NULL)
			abort();
		memcpy(exact, buf, len);
		free(buf);
		fflush(stdout);
		LLVMFuzzerTestOneInput(exact, len);
		free(exact);
	}
	if (read_expect(path, want, sizeof want)) {
		if (strcmp(want, "accepted") == 0 ? fuzz_last_error[0] != '\0' :
		    strstr(fuzz_last_error, want) == NULL) {
			printf("not ok - %s: message \"%s\", expected \"%s\"\n", path,
			    fuzz_last_error, want);
			return 1;
		}
	}
	printf("ok - %s\n", path);
	fflush(stdout);
	return 0;
}

static int
name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int
run_dir(const char *dir)
{
	struct dirent *de;
	char **names = NULL, path[4096];
	size_t n = 0, i;
	int bad = 0;
	DIR *d = opendir(dir);

	if (d == NULL) {
		printf("not ok - %s: %s\n", dir, strerror(errno));
		return 1;
	}
	while ((de = readdir(d)) != NULL) {
		size_t len = strlen(de->d_name);

		if (de->d_name[0] == '.' ||
		    (len > 7 && strcmp(de->d_name + len - 7, ".expect") == 0))
			continue;
		if ((names = realloc(names, (n + 1) * sizeof *names)) == NULL ||
		    (names[n] = strdup(de->d_name)) == NULL)
			abort();
		n++;
	}
	closedir(d);
	if (n > 0)
		qsort(names, n, sizeof *names, name_cmp);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof path, "%s/%s", dir, names[i]);
		bad |= run_file(path);
		free(names[i]);
	}
	free(names);
	return bad;
}

int
main(int argc, char **argv)
{
	struct stat st;
	int i, bad = 0;

	for (i = 1; i < argc; i++) {
		if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode))
			bad |= run_dir(argv[i]);
		else
			bad |= run_file(argv[i]);
	}
	return bad;
}
