/* json.c: one JSON object per interval, on one line (JSON Lines). Absent
 * figures are null, bounds are [lo, hi] arrays, and a non-finite number
 * can never be printed (it would make the line invalid JSON). */
#include "config.h"
#include "out/batch.h"

#include <math.h>

/* Fractions get enough digits that the four shares of a core still sum
 * to 1 within 1e-9 after printing; other figures are shown to 6 digits. */
#define FRAC_FMT "%.12g"
#define NUM_FMT "%.6g"

static void
json_str(FILE *fp, const char *s)
{
	const unsigned char *p;

	fputc('"', fp);
	for (p = (const unsigned char *)s; *p != '\0'; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(fp, "\\%c", *p);
		else if (*p < 0x20 || *p == 0x7f)
			fprintf(fp, "\\u%04x", *p);
		else
			fputc(*p, fp);
	}
	fputc('"', fp);
}

static void
json_num(FILE *fp, const char *fmt, double x)
{
	if (isfinite(x))
		fprintf(fp, fmt, x);
	else
		fputs("null", fp);
}

static void
json_val(FILE *fp, const char *fmt, struct val v)
{
	switch (v.kind) {
	case V_EXACT:
		json_num(fp, fmt, v.v);
		break;
	case V_BOUND:
		fputc('[', fp);
		json_num(fp, fmt, v.lo);
		fputc(',', fp);
		json_num(fp, fmt, v.hi);
		fputc(']', fp);
		break;
	default:
		fputs("null", fp);
		break;
	}
}

/* `"key":value`, preceded by a comma. */
static void
key_val(FILE *fp, const char *key, const char *fmt, struct val v)
{
	fprintf(fp, ",\"%s\":", key);
	json_val(fp, fmt, v);
}

static const char *
bool_str(bool b)
{
	return b ? "true" : "false";
}

/* Why a valid object's figures are absent: ,"absent":{"cpi":"stopped"}
 * with the reason codes, only when one is. */
static void
write_absent(FILE *fp, const char *const *keys, const struct val *const *v, size_t n)
{
	bool any = false;
	size_t i;

	for (i = 0; i < n; i++) {
		if (v[i]->kind != V_NONE || v[i]->why == R_NONE)
			continue;
		fputs(any ? "," : ",\"absent\":{", fp);
		any = true;
		json_str(fp, keys[i]);
		fputc(':', fp);
		json_str(fp, metrics_reason_code(v[i]->why));
	}
	if (any)
		fputc('}', fp);
}

/* The counters another program stopped: ,"stopped":["inst"]. */
static void
write_stopped(FILE *fp, unsigned mask)
{
	unsigned k;
	bool first = true;

	if (mask == 0)
		return;
	fputs(",\"stopped\":[", fp);
	for (k = 0; k < SLOT_NKINDS; k++) {
		if (!(mask & KIND_BIT(k)))
			continue;
		if (!first)
			fputc(',', fp);
		first = false;
		json_str(fp, slot_kind_name((enum slot_kind)k));
	}
	fputc(']', fp);
}

static void
write_agg(FILE *fp, const struct agg_fig *a)
{
	static const char *const keys[] = { "neither", "t0_only", "t1_only", "both", "util",
	    "active_threads", "ghz", "cpi", "both_of_busy" };
	const struct val *const v[] = { &a->neither, &a->t0_only, &a->t1_only, &a->both,
	    &a->util, &a->active_threads, &a->ghz, &a->cpi, &a->both_of_busy };

	fprintf(fp, "\"ncores\":%u,\"nvalid\":%u,\"exact\":%s", a->ncores, a->nvalid,
	    bool_str(a->exact));
	key_val(fp, "neither", FRAC_FMT, a->neither);
	key_val(fp, "t0_only", FRAC_FMT, a->t0_only);
	key_val(fp, "t1_only", FRAC_FMT, a->t1_only);
	key_val(fp, "both", FRAC_FMT, a->both);
	key_val(fp, "util", FRAC_FMT, a->util);
	key_val(fp, "active_threads", NUM_FMT, a->active_threads);
	key_val(fp, "ghz", NUM_FMT, a->ghz);
	key_val(fp, "cpi", NUM_FMT, a->cpi);
	key_val(fp, "both_of_busy", FRAC_FMT, a->both_of_busy);
	write_absent(fp, keys, v, sizeof keys / sizeof keys[0]);
}

/* Where the core sits: {"row","col"} in its package's grid, the tile's
 * number ("id") and the CHA when known; null when the layout does not
 * place it. */
static void
write_tile(FILE *fp, const struct die_layout *l, unsigned core)
{
	const struct core_place *p;

	fputs(",\"tile\":", fp);
	if (l == NULL || core >= l->ncores || !l->cores[core].placed) {
		fputs("null", fp);
		return;
	}
	p = &l->cores[core];
	fprintf(fp, "{\"row\":%u,\"col\":%u", p->row, p->col);
	if (p->slot >= 0)
		fprintf(fp, ",\"id\":%d", p->slot);
	if (p->cha >= 0)
		fprintf(fp, ",\"cha\":%d", p->cha);
	fputc('}', fp);
}

static void
write_core(FILE *fp, const struct die_layout *l, const struct topo_core *tc,
    const struct core_fig *c)
{
	/* The four-way split exists only for cores of exactly two threads. */
	bool two = tc->nthreads == 2;
	struct val none = val_absent(R_NO_SPLIT);
	static const char *const keys[] = { "neither", "t0_only", "t1_only", "both", "util",
	    "active_threads", "issue_util", "cpi", "ghz" };
	const struct val *const v[] = { two ? &c->neither : &none, two ? &c->t0_only : &none,
	    two ? &c->t1_only : &none, two ? &c->both : &none, &c->util, &c->active_threads,
	    &c->issue_util, &c->cpi, &c->ghz };
	unsigned t;

	fprintf(fp, "{\"package\":%u,\"core\":%u,\"cpus\":[", tc->package, tc->core_id);
	for (t = 0; t < tc->nthreads && t < TOPO_MAX_SMT; t++)
		fprintf(fp, "%s%u", t ? "," : "", tc->cpus[t]);
	fputc(']', fp);
	write_tile(fp, l, tc->index);
	key_val(fp, "neither", FRAC_FMT, two ? c->neither : none);
	key_val(fp, "t0_only", FRAC_FMT, two ? c->t0_only : none);
	key_val(fp, "t1_only", FRAC_FMT, two ? c->t1_only : none);
	key_val(fp, "both", FRAC_FMT, two ? c->both : none);
	fprintf(fp, ",\"exact\":%s", bool_str(c->exact));
	key_val(fp, "util", FRAC_FMT, c->util);
	key_val(fp, "active_threads", NUM_FMT, c->active_threads);
	key_val(fp, "issue_util", FRAC_FMT, c->issue_util);
	key_val(fp, "cpi", NUM_FMT, c->cpi);
	key_val(fp, "ghz", NUM_FMT, c->ghz);
	fprintf(fp, ",\"valid\":%s", bool_str(c->reason == R_NONE));
	if (c->reason != R_NONE) {
		fputs(",\"reason\":", fp);
		json_str(fp, metrics_reason_code(c->reason));
		fputs(",\"reason_text\":", fp);
		json_str(fp, metrics_reason_text(c->reason));
	}
	if (c->fallback != R_NONE) {
		fputs(",\"fallback\":", fp);
		json_str(fp, metrics_reason_code(c->fallback));
	}
	if (c->reason == R_NONE)
		write_absent(fp, keys, v, sizeof keys / sizeof keys[0]);
	write_stopped(fp, c->stopped);
	fputs(",\"inconsistency\":", fp);
	json_num(fp, FRAC_FMT, c->inconsistency);
	/* Multiplexed counts, scaled by enabled/running (perf source). */
	if (c->scaled)
		fputs(",\"scaled\":true", fp);
	if (c->has_truth) {
		fputs(",\"truth\":{\"neither\":", fp);
		json_num(fp, FRAC_FMT, c->truth[0]);
		fputs(",\"t0_only\":", fp);
		json_num(fp, FRAC_FMT, c->truth[1]);
		fputs(",\"t1_only\":", fp);
		json_num(fp, FRAC_FMT, c->truth[2]);
		fputs(",\"both\":", fp);
		json_num(fp, FRAC_FMT, c->truth[3]);
		fputc('}', fp);
	}
	fputc('}', fp);
}

static void
write_thread(FILE *fp, const struct topology *topo, unsigned cpu, const struct thread_fig *th)
{
	const struct topo_cpu *tc = &topo->cpus[cpu];
	static const char *const keys[] = { "util", "cpi", "nominal_cpi", "ghz", "net_ghz",
	    "ipc" };
	const struct val *const v[] = { &th->util, &th->cpi, &th->nominal_cpi, &th->ghz,
	    &th->net_ghz, &th->ipc };

	fprintf(fp, "{\"cpu\":%u,\"package\":%u,\"core\":%u,\"thread\":%u", cpu, tc->package,
	    topo->cores[tc->core].core_id, tc->thread);
	fprintf(fp, ",\"valid\":%s", bool_str(th->reason == R_NONE));
	if (th->reason != R_NONE) {
		fputs(",\"reason\":", fp);
		json_str(fp, metrics_reason_code(th->reason));
	}
	key_val(fp, "util", FRAC_FMT, th->util);
	key_val(fp, "cpi", NUM_FMT, th->cpi);
	key_val(fp, "nominal_cpi", NUM_FMT, th->nominal_cpi);
	key_val(fp, "ghz", NUM_FMT, th->ghz);
	key_val(fp, "net_ghz", NUM_FMT, th->net_ghz);
	key_val(fp, "ipc", NUM_FMT, th->ipc);
	if (th->reason == R_NONE) {
		write_absent(fp, keys, v, sizeof keys / sizeof keys[0]);
		write_stopped(fp, th->stopped);
	}
	if (th->scaled)
		fputs(",\"scaled\":true", fp);
	fputc('}', fp);
}

void
out_json_write(struct batch *b, const struct interval *iv)
{
	FILE *fp = b->fp;
	const struct topology *topo = &b->m->topo;
	unsigned i;
	bool first;

	fputs("{\"time\":", fp);
	json_num(fp, "%.6f", iv->time);
	fputs(",\"interval\":", fp);
	json_num(fp, "%.6f", iv->dt);
	fprintf(fp, ",\"valid\":%s", bool_str(iv->valid));
	if (!iv->valid) {
		fputs(",\"reason\":", fp);
		json_str(fp, iv->reason_c);
	}
	fputs(",\"host\":", fp);
	json_str(fp, b->m->hostname);
	fputs(",\"source\":", fp);
	json_str(fp, b->source_name);
	fputs(",\"group\":", fp);
	json_str(fp, uarch_group_name(b->p->group));
	fputs(",\"split\":", fp);
	json_str(fp, split_method_name(b->p->split));
	fprintf(fp, ",\"scale\":%u", b->p->scale);
	fputs(",\"layout\":", fp);
	if (b->layout != NULL) {
		json_str(fp, layout_kind_name(b->layout->kind));
		fputs(",\"layout_basis\":", fp);
		json_str(fp, layout_basis_name(b->layout->basis));
		fprintf(fp, ",\"cores_assumed\":%s", bool_str(b->layout->cores_assumed));
		/* Why the layout is not physical (needs root, ...), when it is not. */
		if (b->layout->note[0] != '\0') {
			fputs(",\"layout_note\":", fp);
			json_str(fp, b->layout->note);
		}
	} else {
		fputs("null", fp);
	}

	fputs(",\"node\":{", fp);
	write_agg(fp, &iv->node);
	fputs("},\"packages\":[", fp);
	for (i = 0; i < iv->npackages && i < topo->npackages; i++) {
		fprintf(fp, "%s{\"package\":%u,", i ? "," : "", b->pkg_id[i]);
		write_agg(fp, &iv->packages[i]);
		fputc('}', fp);
	}
	fputs("],\"cores\":[", fp);
	first = true;
	for (i = 0; i < iv->ncores && i < topo->ncores; i++) {
		if (!out_core_shown(iv, i))
			continue;
		if (!first)
			fputc(',', fp);
		first = false;
		write_core(fp, b->layout, &topo->cores[i], &iv->cores[i]);
	}
	fputs("],\"threads\":[", fp);
	first = true;
	for (i = 0; i < iv->max_cpu && i < topo->max_cpu; i++) {
		if (!out_thread_shown(iv, i) || !topo->cpus[i].present)
			continue;
		if (!first)
			fputc(',', fp);
		first = false;
		write_thread(fp, topo, i, &iv->threads[i]);
	}
	fputs("]}\n", fp);
}
