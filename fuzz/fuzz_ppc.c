/* fuzz_ppc.c: the importer (tools/ppc.c, httop-ppc2trace) on any bytes,
 * and the trace it writes read back by the trace reader.
 *
 * The input is the counter file, optionally followed by the register
 * programming (without it, that of the real Stampede2 run is used):
 *
 *     LUA TEXT
 *     --8<-- perfevtsel
 *     core_msr_perfevtsel.input TEXT
 *     --8<-- control
 *     core_msr_control.input TEXT
 *
 * A line "-- opts sockets=N smt=N model=N scale=N" in the counter file
 * (a comment to the importer) sets those options; the default is one
 * socket without SMT, which fits any nr_cpus. */
#include "config.h"

#include <stdbool.h>
#include <string.h>

#include "fuzz.h"
#include "machine/machine.h"
#include "plan/plan.h"
#include "ppc.h"
#include "sample/sample.h"
#include "trace/trace.h"

/* tests/fixtures/real/stampede2-c591-803/core_msr_perfevtsel.input */
static const char stampede2_perfevtsel[] =
	"0 95 0x186 0 0x0042003c CPU_CLK_UNHALTED.KERNEL\n"
	"0 95 0x187 1 0x0063013c CPU_CLK_UNHALTED.REF_XCLK\n"
	"0 95 0x188 2 0x004200c0 INST_RETIRED.KERNEL\n"
	"0 95 0x189 3 0x004310b0 OFFCORE_REQUESTS.L3_MISS_DEMAND_DATA_READ\n";

#define SEL_MARK "\n--8<-- perfevtsel\n"
#define CTL_MARK "\n--8<-- control\n"

/* Cut [*data, *data + *size) at `mark`: the part after it goes to
 * *rest / *rest_size; false if the mark is not there. */
static bool
cut(const uint8_t *data, size_t *size, const char *mark, const uint8_t **rest,
    size_t *rest_size)
{
	size_t len = strlen(mark);
	const uint8_t *p = memmem(data, *size, mark, len);

	if (p == NULL)
		return false;
	*rest = p + len;
	*rest_size = *size - (size_t)(p - data) - len;
	*size = (size_t)(p - data) + 1;   /* keep the newline before the mark */
	return true;
}

/* The value of `key=` on the options line, within [lo, hi]. */
static void
opt(const char *line, const char *key, long lo, long hi, long *out)
{
	const char *p = strstr(line, key);
	long v;

	if (p == NULL)
		return;
	v = strtol(p + strlen(key), NULL, 10);
	if (v >= lo && v <= hi)
		*out = v;
}

static void
parse_opts(const uint8_t *data, size_t size, struct ppc_opts *o)
{
	const uint8_t *p = memmem(data, size, "-- opts ", 8), *end;
	char line[200];
	size_t n;

	memset(o, 0, sizeof *o);
	o->sockets = o->smt = 1;
	o->family = 6;
	o->model = o->stepping = -1;
	o->host = "fuzz";
	if (p == NULL)
		return;
	end = memchr(p, '\n', size - (size_t)(p - data));
	n = (size_t)((end != NULL ? end : data + size) - p);
	if (n >= sizeof line)
		n = sizeof line - 1;
	memcpy(line, p, n);
	line[n] = '\0';
	opt(line, "sockets=", 1, 64, &o->sockets);
	opt(line, "smt=", 1, 4, &o->smt);
	opt(line, "model=", 0, 0xff, &o->model);
	opt(line, "scale=", 1, 100000, &o->scale);
}

/* The converted trace must read back whole: the converter and the reader
 * agree on the format, and a converted file has at least two samples. */
static void
read_back(char *buf, size_t len)
{
	struct trace_reader *r;
	struct machine m;
	struct plan plan;
	struct sample s;
	struct errmsg e;
	FILE *fp = fuzz_stream((const uint8_t *)buf, len);
	unsigned n = 0;
	int rc;

	e.text[0] = '\0';
	r = trace_open_stream(fp, "converted.trace", &m, &plan, &e);
	FUZZ_ASSERT(r != NULL, "the reader refuses the converted trace: %s", e.text);
	sample_init(&s, m.topo.max_cpu, plan.nslots, m.topo.ncores, false);
	while ((rc = trace_next(r, &s, &e)) == 0)
		n++;
	FUZZ_ASSERT(rc == 1 && e.text[0] == '\0', "reading the converted trace: %s", e.text);
	FUZZ_ASSERT(n >= 2, "converted trace has %u samples", n);
	sample_free(&s);
	trace_close(r);
	machine_free(&m);
	fclose(fp);
}

char fuzz_last_error[512];

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *sel = (const uint8_t *)stampede2_perfevtsel, *ctl = NULL;
	size_t sel_size = sizeof stampede2_perfevtsel - 1, ctl_size = 0, lua_size = size;
	struct ppc_input lua_in, sel_in, ctl_in = { NULL, "fuzz/control" };
	struct ppc_opts o;
	struct errmsg e;
	char *buf = NULL;
	size_t len = 0;
	FILE *out;
	int rc;

	if (cut(data, &lua_size, SEL_MARK, &sel, &sel_size))
		cut(sel, &sel_size, CTL_MARK, &ctl, &ctl_size);
	parse_opts(data, lua_size, &o);
	lua_in = (struct ppc_input){ fuzz_stream(data, lua_size), "fuzz/c1-1.perfcounts.lua" };
	sel_in = (struct ppc_input){ fuzz_stream(sel, sel_size), "fuzz/perfevtsel" };
	if (ctl != NULL)
		ctl_in.fp = fuzz_stream(ctl, ctl_size);
	if ((out = open_memstream(&buf, &len)) == NULL)
		abort();

	e.text[0] = '\0';
	rc = ppc_convert(&o, lua_in, sel_in, ctl_in, out, 1, &e);
	FUZZ_ASSERT(fclose(out) == 0, "open_memstream");
	snprintf(fuzz_last_error, sizeof fuzz_last_error, "%s", rc != 0 ? e.text : "");
	if (rc != 0)
		FUZZ_ASSERT(e.text[0] != '\0', "conversion failed without a message");
	else
		read_back(buf, len);
	free(buf);
	fclose(lua_in.fp);
	fclose(sel_in.fp);
	if (ctl_in.fp != NULL)
		fclose(ctl_in.fp);
	return 0;
}
