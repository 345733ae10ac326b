/* trace_write.c: write a trace (man/httop-trace.5): the header at open,
 * then one interval per sample, flushed as soon as it is complete so that
 * a killed writer leaves every finished interval readable. */
#include "config.h"
#include "trace/trace.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "trace/tracefmt.h"
#include "util/i18n.h"
#include "util/xalloc.h"

struct trace_writer {
	FILE *fp;
	const struct machine *m;
	unsigned nslots;
	uint64_t nsamples;
};

/* fflush and ferror, turned into a message naming the cause and the fix. */
static int
check_io(struct trace_writer *w, struct errmsg *e)
{
	int err;

	if (fflush(w->fp) == 0 && !ferror(w->fp))
		return 0;
	err = errno != 0 ? errno : EIO;
	if (err == ENOSPC || err == EDQUOT)
		return errmsg_set(e, _("writing the trace: %s: free some space or record to "
		    "another file system"), strerror(err));
	return errmsg_set(e, _("writing the trace: %s: check the output file or pipe"),
	    strerror(err));
}

static void
put_kv_str(FILE *fp, const char *key, const char *val)
{
	fprintf(fp, " %s=", key);
	tracefmt_put_quoted(fp, val);
}

static void
write_identity(FILE *fp, const struct cpu_identity *id)
{
	fputs("identity", fp);
	put_kv_str(fp, "vendor", id->vendor_str);
	fprintf(fp, " family=%d model=%d stepping=%d", id->family, id->model, id->stepping);
	put_kv_str(fp, "brand", id->brand);
	fputc('\n', fp);

	fprintf(fp, "clock base_ratio=%u", id->base_ratio);
	put_kv_str(fp, "base_src", base_ratio_source_name(id->base_src));
	fputs(" tsc_hz=", fp);
	tracefmt_put_double(fp, identity_tsc_hz(id));
	fprintf(fp, " tsc_num=%u tsc_den=%u crystal_hz=%" PRIu64 " base_mhz=%u max_mhz=%u\n",
	    id->tsc_num, id->tsc_den, id->crystal_hz, id->base_mhz, id->max_mhz);

	fprintf(fp, "pmu version=%u gp=%u gp_width=%u fixed=%u fixed_width=%u "
	    "anythread_deprecated=%d\n", id->pmu_version, id->n_gp, id->gp_width,
	    id->n_fixed, id->fixed_width, id->anythread_deprecated ? 1 : 0);
}

static void
write_topology(FILE *fp, const struct topology *t)
{
	const struct topo_cpu *c;
	const struct topo_core *k;
	unsigned cpu;

	for (cpu = 0; cpu < t->max_cpu; cpu++) {
		c = &t->cpus[cpu];
		if (!c->present)
			continue;
		k = &t->cores[c->core];
		fprintf(fp, "cpu cpu=%u package=%u die=%u l3=%u core=%u thread=%u online=%d\n",
		    cpu, k->package, k->die, k->l3, k->core_id, c->thread, c->online ? 1 : 0);
	}
}

static void
write_plan(FILE *fp, const struct plan *p)
{
	const struct plan_slot *s;
	const struct plan_write *wr;
	unsigned i;

	fprintf(fp, "plan group=%s split=%s nslots=%u nwrites=%u scale_expected=%u scale=%u "
	    "scale_measured=%d", uarch_group_name(p->group), split_method_name(p->split),
	    p->nslots, p->nwrites, p->scale_expected, p->scale, p->scale_measured ? 1 : 0);
	put_kv_str(fp, "scale_note", p->scale_note);
	put_kv_str(fp, "summary", p->summary);
	fputc('\n', fp);
	for (i = 0; i < p->nslots; i++) {
		s = &p->slots[i];
		fprintf(fp, "slot kind=%s msr=0x%" PRIx32 " width=%u threads=0x%x\n",
		    slot_kind_name(s->kind), s->msr, s->width, s->thread_mask);
	}
	for (i = 0; i < p->nwrites; i++) {
		wr = &p->writes[i];
		fprintf(fp, "write msr=0x%" PRIx32 " value=0x%" PRIx64 " mask=0x%" PRIx64
		    " busy=0x%" PRIx64 " threads=0x%x", wr->msr, wr->value, wr->mask,
		    wr->busy_mask, wr->thread_mask);
		put_kv_str(fp, "what", wr->what != NULL ? wr->what : "");
		fputc('\n', fp);
	}
}

struct trace_writer *
trace_writer_open_ex(FILE *fp, const struct machine *m, const struct plan *plan,
    const char *producer, time_t created, const char *note, struct errmsg *e)
{
	struct trace_writer *w;
	char when[32];
	struct tm tm;

	if (plan->nslots == 0 || plan->nslots > PLAN_MAX_SLOTS) {
		errmsg_set(e, _("cannot record a plan with %u counters"), plan->nslots);
		return NULL;
	}
	w = xcalloc(1, sizeof *w);
	w->fp = fp;
	w->m = m;
	w->nslots = plan->nslots;
	if (created == 0)
		created = time(NULL);
	gmtime_r(&created, &tm);
	strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);

	errno = 0;
	fprintf(fp, "httop-trace %d.%d\n", TRACE_VERSION, TRACE_MINOR);
	fputs("producer", fp);
	put_kv_str(fp, "text", producer != NULL ? producer : "httop " PACKAGE_VERSION);
	fprintf(fp, "\ncreated time=%s\n", when);
	fputs("host", fp);
	put_kv_str(fp, "name", m->hostname);
	fputc('\n', fp);
	if (note != NULL && *note != '\0') {
		fputs("note", fp);
		put_kv_str(fp, "text", note);
		fputc('\n', fp);
	}
	write_identity(fp, &m->id);
	write_topology(fp, &m->topo);
	write_plan(fp, plan);
	fputs("header-end\n", fp);
	if (check_io(w, e) != 0) {
		free(w);
		return NULL;
	}
	return w;
}

struct trace_writer *
trace_writer_open(FILE *fp, const struct machine *m, const struct plan *plan,
    const char *note, struct errmsg *e)
{
	return trace_writer_open_ex(fp, m, plan, NULL, 0, note, e);
}

static bool
row_is_empty(const struct sample *s, unsigned cpu)
{
	const uint64_t *v = sample_row_c(s, cpu);
	unsigned i;

	if (s->state[cpu] != CPU_NOT_READ || s->err[cpu] != 0)
		return false;
	for (i = 0; i < s->nslots; i++) {
		if (v[i] != 0)
			return false;
	}
	return true;
}

int
trace_write_sample(struct trace_writer *w, const struct sample *s, struct errmsg *e)
{
	const struct topology *t = &w->m->topo;
	const uint64_t *v;
	unsigned cpu, i, k;

	if (s->nslots != w->nslots)
		return errmsg_set(e, _("recording a sample of %u counters with a plan of %u"),
		    s->nslots, w->nslots);
	errno = 0;
	fprintf(w->fp, "sample seq=%" PRIu64 " time=", s->seq);
	tracefmt_put_double(w->fp, s->time);
	fputc('\n', w->fp);
	for (cpu = 0; cpu < s->max_cpu && cpu < t->max_cpu; cpu++) {
		/* A CPU that was not read and holds nothing needs no line: the
		 * reader starts every interval from "notread, zeros". */
		if (!t->cpus[cpu].present || row_is_empty(s, cpu))
			continue;
		fprintf(w->fp, "c %u %s", cpu, tracefmt_state_name(s->state[cpu]));
		if (s->err[cpu] != 0)
			fprintf(w->fp, "=%d", s->err[cpu]);
		v = sample_row_c(s, cpu);
		for (i = 0; i < s->nslots; i++)
			fprintf(w->fp, " %" PRIx64, v[i]);
		fputc('\n', w->fp);
	}
	if (s->truth != NULL) {
		for (k = 0; k < s->ncores; k++) {
			fprintf(w->fp, "t %u", k);
			for (i = 0; i < 4; i++)
				fprintf(w->fp, " %" PRIx64, s->truth[k * 4 + i]);
			fputc('\n', w->fp);
		}
	}
	fprintf(w->fp, "end seq=%" PRIu64 "\n", s->seq);
	w->nsamples++;
	return check_io(w, e);
}

int
trace_write_event(struct trace_writer *w, double time, const char *text, struct errmsg *e)
{
	errno = 0;
	fputs("event time=", w->fp);
	tracefmt_put_double(w->fp, time);
	put_kv_str(w->fp, "text", text);
	fputc('\n', w->fp);
	return check_io(w, e);
}

int
trace_writer_close(struct trace_writer *w, struct errmsg *e)
{
	int rc;

	if (w == NULL)
		return 0;
	errno = 0;
	rc = check_io(w, e);
	free(w);
	return rc;
}
