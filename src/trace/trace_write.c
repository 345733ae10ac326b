/* trace_write.c: write a trace (man/httop-trace.5): the header at open,
 * then one interval per sample. Each piece (the header; an interval with
 * the events before it) is formatted into a memory block first and then
 * handed over whole, so a killed writer leaves every finished interval
 * readable and a failed write can be cut back to the last one. */
#include "config.h"
#include "trace/trace.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "trace/tracefmt.h"
#include "util/i18n.h"
#include "util/fdwrite.h"
#include "util/xalloc.h"

/* gzip output is produced in pieces of this size. */
#define ZCHUNK 65536

struct trace_writer {
	FILE *sink;                /* a caller's stream, or NULL */
	int fd;                    /* or a descriptor we own (-1 if none) */
	bool gzip;
	bool zready;               /* z is initialised */
	z_stream z;
	unsigned char *zout;
	bool regular;              /* fd is a regular file: can be cut back */
	off_t good;                /* its size after the last complete block */
	bool failed;               /* a write failed: nothing more is written */
	char name[256];

	FILE *fp;                  /* the block being formatted (memory) */
	char *buf;
	size_t buflen;

	const struct machine *m;
	unsigned nslots;
	uint64_t nsamples;
	const struct job_ident *job;    /* the header's job line (NULL: none) */
};

/* The message for a failed write: the cause and the fix. */
static int
io_error(struct trace_writer *w, int err, struct errmsg *e)
{
	w->failed = true;
	if (err == ENOSPC || err == EDQUOT)
		return errmsg_set(e, _("writing the trace %s: %s: free some space or record to "
		    "another file system"), w->name, strerror(err));
	if (err == EFBIG)
		return errmsg_set(e, _("writing the trace %s: %s: raise the file size limit "
		    "(ulimit -f) or record a shorter run"), w->name, strerror(err));
	return errmsg_set(e, _("writing the trace %s: %s: check the output file or pipe"),
	    w->name, strerror(err));
}

static void
copy_name(struct trace_writer *w, const char *name)
{
	snprintf(w->name, sizeof w->name, "%s", name != NULL ? name : _("output"));
}

/* Deflate `len` bytes with `flush` and write what comes out. */
static int
deflate_out(struct trace_writer *w, const void *p, size_t len, int flush)
{
	int rc, err;

	w->z.next_in = (Bytef *)(uintptr_t)p;
	w->z.avail_in = (uInt)len;
	do {
		w->z.next_out = w->zout;
		w->z.avail_out = ZCHUNK;
		rc = deflate(&w->z, flush);
		if (rc == Z_STREAM_ERROR)
			return EIO;
		err = fd_write_all(w->fd, w->zout, ZCHUNK - w->z.avail_out);
		if (err != 0)
			return err;
	} while (w->z.avail_out == 0 || (flush == Z_FINISH && rc != Z_STREAM_END));
	return 0;
}

/* A failed block may have left part of itself: cut a regular file back
 * to the end of the last complete one (best effort: the reader copes with
 * a cut-off last line anyway). */
static void
cut_back(struct trace_writer *w)
{
	if (w->fd >= 0 && w->regular && ftruncate(w->fd, w->good) == 0)
		(void)lseek(w->fd, w->good, SEEK_SET);
}

/* Hand the formatted block to the sink and start an empty one. */
static int
send_block(struct trace_writer *w, struct errmsg *e)
{
	off_t len;
	int err = 0;

	if (w->failed)
		return errmsg_set(e, _("writing the trace %s: an earlier write failed"), w->name);
	if (fflush(w->fp) != 0 || (len = ftello(w->fp)) < 0)
		return io_error(w, errno != 0 ? errno : ENOMEM, e);
	if (len == 0)
		return 0;
	if (w->sink != NULL) {
		errno = 0;
		if (fwrite(w->buf, 1, (size_t)len, w->sink) != (size_t)len ||
		    fflush(w->sink) != 0 || ferror(w->sink))
			err = errno != 0 ? errno : EIO;
	} else if (w->gzip) {
		err = deflate_out(w, w->buf, (size_t)len, Z_SYNC_FLUSH);
	} else {
		err = fd_write_all(w->fd, w->buf, (size_t)len);
	}
	rewind(w->fp);
	if (err != 0) {
		cut_back(w);
		return io_error(w, err, e);
	}
	if (w->fd >= 0 && w->regular) {
		off_t at = lseek(w->fd, 0, SEEK_CUR);

		if (at >= 0)
			w->good = at;
	}
	return 0;
}

static void
put_kv_str(FILE *fp, const char *key, const char *val)
{
	fprintf(fp, " %s=", key);
	tracefmt_put_quoted(fp, val);
}

/* 1.6: what named the watched job, each field as the outputs have it. */
static void
write_job(FILE *fp, const struct job_ident *j)
{
	fputs("job", fp);
	put_kv_str(fp, "kind", j->kind);
	put_kv_str(fp, "id", j->id);
	put_kv_str(fp, "user", j->user);
	put_kv_str(fp, "name", j->name);
	put_kv_str(fp, "cgroup", j->cgroup);
	put_kv_str(fp, "pid", j->pid);
	fputc('\n', fp);
}

/* 1.6: the job's CPUs at this sample as "job-cpus" lines of ranges, a
 * line again after JOB_CPUS_LINE characters (a reader's line is at most
 * TRACE_LINE_MAX); one empty line for none. */
#define JOB_CPUS_LINE 2000
static void
write_job_cpus(FILE *fp, const struct sample *s)
{
	unsigned cpu = 0, end, n = s->max_cpu;
	size_t len = 0;
	int w;

	fputs("job-cpus", fp);
	while (cpu < n) {
		if (!s->job[cpu]) {
			cpu++;
			continue;
		}
		for (end = cpu; end + 1 < n && s->job[end + 1]; end++)
			;
		if (len > JOB_CPUS_LINE) {
			fputs("\njob-cpus", fp);
			len = 0;
		}
		w = end > cpu ? fprintf(fp, "%s%u-%u", len > 0 ? "," : " ", cpu, end) :
		    fprintf(fp, "%s%u", len > 0 ? "," : " ", cpu);
		len += w > 0 ? (size_t)w : 0;
		cpu = end + 1;
	}
	fputc('\n', fp);
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

/* A CPU the trace can describe: present and in a core. A CPU that was
 * offline when the topology was read can be present with no core (its
 * core and thread are unknown): it has no figures and is left out. */
static bool
in_core(const struct topology *t, unsigned cpu)
{
	return t->cpus[cpu].present && t->cpus[cpu].core < t->ncores;
}

static void
write_topology(FILE *fp, const struct topology *t)
{
	const struct topo_cpu *c;
	const struct topo_core *k;
	unsigned cpu;

	for (cpu = 0; cpu < t->max_cpu; cpu++) {
		c = &t->cpus[cpu];
		if (!in_core(t, cpu))
			continue;
		k = &t->cores[c->core];
		fprintf(fp, "cpu cpu=%u package=%u die=%u ", cpu, k->package, k->die);
		/* A CPU without an L3 (Xeon Phi): "none", not TOPO_NO_L3's value */
		if (k->l3 == TOPO_NO_L3)
			fputs("l3=none", fp);
		else
			fprintf(fp, "l3=%u", k->l3);
		fprintf(fp, " core=%u thread=%u online=%d\n", k->core_id, c->thread,
		    c->online ? 1 : 0);
	}
}

static void
write_plan(FILE *fp, const struct plan *p)
{
	const struct plan_slot *s;
	const struct plan_write *wr;
	unsigned i;

	fprintf(fp, "plan group=%s split=%s nslots=%u nwrites=%u scale_expected=%u scale=%u "
	    "scale_measured=%d", uarch_group_name(p->group), plan_split_name(p),
	    p->nslots, p->nwrites, p->scale_expected, p->scale, p->scale_measured ? 1 : 0);
	put_kv_str(fp, "scale_note", p->scale_note);
	put_kv_str(fp, "summary", p->summary);
	/* Only a plan that is not the counters' says so: older readers
	 * read every trace of the counters as before. */
	if (p->basis != PLAN_BASIS_COUNTERS)
		fprintf(fp, " basis=%s clock_hz=%.0f", plan_basis_name(p->basis), p->clock_hz);
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

static void
writer_free(struct trace_writer *w)
{
	if (w->zready)
		deflateEnd(&w->z);
	free(w->zout);
	if (w->fp != NULL)
		fclose(w->fp);
	free(w->buf);
	if (w->fd >= 0)
		close(w->fd);
	free(w);
}

/* The writer's common part: the memory block, then the header in it,
 * sent. Frees w and returns NULL on failure. */
static struct trace_writer *
writer_start(struct trace_writer *w, const struct machine *m, const struct plan *plan,
    const char *producer, time_t created, const char *note, bool truth, struct errmsg *e)
{
	char when[32];
	struct tm tm;
	FILE *fp;

	if (plan->nslots == 0 || plan->nslots > PLAN_MAX_SLOTS) {
		errmsg_set(e, _("cannot record a plan with %u counters"), plan->nslots);
		writer_free(w);
		return NULL;
	}
	if ((w->fp = open_memstream(&w->buf, &w->buflen)) == NULL) {
		errmsg_set(e, _("writing the trace %s: %s"), w->name, strerror(errno));
		writer_free(w);
		return NULL;
	}
	w->m = m;
	w->nslots = plan->nslots;
	if (created == 0)
		created = time(NULL);
	/* A time gmtime cannot express (year past INT_MAX) is not a date the
	 * reader could parse: the epoch says "unknown" in a form it takes. */
	if (gmtime_r(&created, &tm) == NULL ||
	    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		snprintf(when, sizeof when, "1970-01-01T00:00:00Z");

	fp = w->fp;
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
	if (w->job != NULL)
		write_job(fp, w->job);
	write_identity(fp, &m->id);
	write_topology(fp, &m->topo);
	write_plan(fp, plan);
	if (truth)
		fprintf(fp, "truth cores=%u\n", m->topo.ncores);
	fputs("header-end\n", fp);
	if (send_block(w, e) != 0) {
		writer_free(w);
		return NULL;
	}
	return w;
}

struct trace_writer *
trace_writer_open_ex(FILE *fp, const struct machine *m, const struct plan *plan,
    const char *producer, time_t created, const char *note, struct errmsg *e)
{
	struct trace_writer *w = xcalloc(1, sizeof *w);

	w->sink = fp;
	w->fd = -1;
	copy_name(w, NULL);
	return writer_start(w, m, plan, producer, created, note, false, e);
}

struct trace_writer *
trace_writer_open(FILE *fp, const struct machine *m, const struct plan *plan,
    const char *note, struct errmsg *e)
{
	return trace_writer_open_ex(fp, m, plan, NULL, 0, note, e);
}

struct trace_writer *
trace_writer_open_fd(int fd, const struct trace_wopts *o, const struct machine *m,
    const struct plan *plan, struct errmsg *e)
{
	struct trace_writer *w = xcalloc(1, sizeof *w);
	struct stat st;

	w->fd = fd;
	copy_name(w, o->name);
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
		w->regular = true;
		w->good = lseek(fd, 0, SEEK_CUR);
		if (w->good < 0)
			w->good = 0;
	}
	if (o->gzip) {
		w->gzip = true;
		w->zout = xmalloc(ZCHUNK);
		/* 15 + 16: a gzip wrapper (header and trailer) around deflate. */
		if (deflateInit2(&w->z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8,
		    Z_DEFAULT_STRATEGY) != Z_OK) {
			errmsg_set(e, _("writing the trace %s: cannot start zlib's compressor"),
			    w->name);
			writer_free(w);
			return NULL;
		}
		w->zready = true;
	}
	w->job = o->job;
	return writer_start(w, m, plan, NULL, 0, o->note, o->truth, e);
}

uint64_t
trace_writer_count(const struct trace_writer *w)
{
	return w->nsamples;
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
	FILE *fp = w->fp;
	unsigned cpu, i, k;

	if (s->nslots != w->nslots)
		return errmsg_set(e, _("recording a sample of %u counters with a plan of %u"),
		    s->nslots, w->nslots);
	fprintf(fp, "sample seq=%" PRIu64 " time=", s->seq);
	tracefmt_put_double(fp, s->time);
	/* 1.3: the wall-clock time of the read, to the last bit. */
	if (s->wall > 0.0) {
		fputs(" wall=", fp);
		tracefmt_put_double(fp, s->wall);
	}
	fputc('\n', fp);
	for (cpu = 0; cpu < s->max_cpu && cpu < t->max_cpu; cpu++) {
		/* A CPU that was not read and holds nothing needs no line: the
		 * reader starts every interval from "notread, zeros". */
		if (!in_core(t, cpu) || row_is_empty(s, cpu))
			continue;
		fprintf(fp, "c %u %s", cpu, tracefmt_state_name(s->state[cpu]));
		if (s->err[cpu] != 0)
			fprintf(fp, "=%d", s->err[cpu]);
		v = sample_row_c(s, cpu);
		for (i = 0; i < s->nslots; i++)
			fprintf(fp, " %" PRIx64, v[i]);
		fputc('\n', fp);
	}
	if (s->truth != NULL) {
		for (k = 0; k < s->ncores; k++) {
			fprintf(fp, "t %u", k);
			for (i = 0; i < 4; i++)
				fprintf(fp, " %" PRIx64, s->truth[k * 4 + i]);
			fputc('\n', fp);
		}
	}
	if (s->has_job && s->job != NULL)
		write_job_cpus(fp, s);
	fprintf(fp, "end seq=%" PRIu64 "\n", s->seq);
	if (send_block(w, e) != 0)
		return -1;
	w->nsamples++;
	return 0;
}

int
trace_write_event(struct trace_writer *w, double time, const char *text, struct errmsg *e)
{
	if (w->failed)
		return errmsg_set(e, _("writing the trace %s: an earlier write failed"), w->name);
	/* Kept in the block: it goes out with the interval after it. */
	fputs("event time=", w->fp);
	tracefmt_put_double(w->fp, time);
	put_kv_str(w->fp, "text", text);
	fputc('\n', w->fp);
	return 0;
}

int
trace_writer_close(struct trace_writer *w, struct errmsg *e)
{
	int rc = 0, err;

	if (w == NULL)
		return 0;
	if (!w->failed) {
		/* Events after the last interval, then the gzip trailer. */
		rc = send_block(w, e);
		if (rc == 0 && w->gzip && (err = deflate_out(w, "", 0, Z_FINISH)) != 0) {
			cut_back(w);
			rc = io_error(w, err, e);
		}
	}
	if (w->fd >= 0) {
		err = close(w->fd);
		w->fd = -1;
		/* NFS reports a lost write at close. */
		if (err != 0 && rc == 0 && errno != EINTR)
			rc = io_error(w, errno, e);
	}
	writer_free(w);
	return rc;
}
