/* topology.c: packages, cores and SMT threads from hwloc (live machine,
 * hwloc XML v1/v2, or a Linux sysfs/procfs root), or built by hand. */
#include "config.h"
#include "machine/topology.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <hwloc.h>

#include "util/i18n.h"
#include "util/textesc.h"
#include "util/infile.h"
#include "util/xalloc.h"
#include "util/xmlcheck.h"

/* An "L3" larger than this is not a core cache: hwloc 1.x recorded the Xeon
 * Phi MCDRAM (cache mode) as a 16 GB L3Cache. Real L3s are well below. */
#define L3_MAX_BYTES (1ULL << 30)

/* An hwloc XML file of a large node with its I/O devices is a few MB. */
#define TOPO_XML_MAX ((off_t)64 * 1024 * 1024)
/* A sysfs copy (hwloc-gather-topology) holds about 50 entries per CPU;
 * each of its files is small (proc/cpuinfo is the largest). */
#define TOPO_DIR_MAX_ENTRIES 500000
#define TOPO_DIR_MAX_FILE ((off_t)16 * 1024 * 1024)

/* Marks an unused thread slot while a core is being built. */
#define SLOT_FREE UINT_MAX

void
topology_init(struct topology *t)
{
	memset(t, 0, sizeof *t);
	t->family = t->model = t->stepping = -1;
}

/* Make cpus[] cover `cpu`; new entries are absent. */
static struct topo_cpu *
cpu_slot(struct topology *t, unsigned cpu)
{
	if (cpu >= t->max_cpu) {
		unsigned n = cpu + 1, i;

		/* Doubling: CPUs come in increasing order while building. */
		if (n > t->cpus_cap) {
			t->cpus_cap = n > 2 * t->cpus_cap ? n : 2 * t->cpus_cap;
			t->cpus = xreallocarray(t->cpus, t->cpus_cap, sizeof *t->cpus);
		}
		for (i = t->max_cpu; i < n; i++) {
			t->cpus[i].present = false;
			t->cpus[i].online = false;
			t->cpus[i].core = TOPO_NO_CORE;
			t->cpus[i].thread = 0;
			t->cpus[i].package = TOPO_NO_PACKAGE;
		}
		t->max_cpu = n;
	}
	return &t->cpus[cpu];
}

static struct topo_core *
core_append(struct topology *t, unsigned package, unsigned die, unsigned l3,
    unsigned core_id)
{
	struct topo_core *c;
	unsigned i;

	if (t->ncores == t->cores_cap) {
		t->cores_cap = t->cores_cap ? 2 * t->cores_cap : 16;
		t->cores = xreallocarray(t->cores, t->cores_cap, sizeof *t->cores);
	}
	c = &t->cores[t->ncores];
	c->package = package;
	c->die = die;
	c->l3 = l3;
	c->core_id = core_id;
	c->index = t->ncores;
	c->nthreads = 0;
	for (i = 0; i < TOPO_MAX_SMT; i++)
		c->cpus[i] = SLOT_FREE;
	t->ncores++;
	return c;
}

static void
core_put(struct topology *t, struct topo_core *c, unsigned cpu, unsigned thread,
    bool online)
{
	struct topo_cpu *tc;

	/* Callers keep thread < TOPO_MAX_SMT; anything else is dropped rather
	 * than written past the array. */
	if (thread >= TOPO_MAX_SMT || c->cpus[thread] != SLOT_FREE)
		return;
	c->cpus[thread] = cpu;
	if (thread + 1 > c->nthreads)
		c->nthreads = thread + 1;
	tc = cpu_slot(t, cpu);
	tc->present = true;
	tc->online = online;
	tc->package = c->package;
}

static size_t
core_hash(unsigned package, unsigned die, unsigned core_id)
{
	uint64_t k = ((uint64_t)package << 42) ^ ((uint64_t)die << 21) ^ core_id;

	/* splitmix64's finaliser: every key bit reaches the low bits. */
	k ^= k >> 30;
	k *= 0xbf58476d1ce4e5b9ULL;
	k ^= k >> 27;
	k *= 0x94d049bb133111ebULL;
	k ^= k >> 31;
	return (size_t)k;
}

static void
index_put(struct topology *t, unsigned core)
{
	const struct topo_core *c = &t->cores[core];
	size_t mask = t->core_index_size - 1, h;

	h = core_hash(c->package, c->die, c->core_id) & mask;
	while (t->core_index[h] != 0)
		h = (h + 1) & mask;
	t->core_index[h] = core + 1;
}

/* The core (package, die, core_id), or NULL; the index kept under half
 * full, rebuilt when it is not there yet (or after topology_finish). */
static struct topo_core *
core_find(struct topology *t, unsigned package, unsigned die, unsigned core_id)
{
	size_t mask, h;
	unsigned i, k;

	if (t->core_index == NULL || 2 * ((size_t)t->ncores + 1) > t->core_index_size) {
		free(t->core_index);
		t->core_index_size = 64;
		while (t->core_index_size < 4 * ((size_t)t->ncores + 1))
			t->core_index_size *= 2;
		t->core_index = xcalloc(t->core_index_size, sizeof *t->core_index);
		for (i = 0; i < t->ncores; i++)
			index_put(t, i);
	}
	mask = t->core_index_size - 1;
	for (h = core_hash(package, die, core_id) & mask; (k = t->core_index[h]) != 0;
	    h = (h + 1) & mask) {
		struct topo_core *c = &t->cores[k - 1];

		if (c->package == package && c->die == die && c->core_id == core_id)
			return c;
	}
	return NULL;
}

void
topology_add_cpu(struct topology *t, unsigned cpu, unsigned package, unsigned die,
    unsigned l3, unsigned core_id, unsigned thread, bool online)
{
	struct topo_core *c = core_find(t, package, die, core_id);

	if (c == NULL) {
		c = core_append(t, package, die, l3, core_id);
		index_put(t, c->index);
	}
	core_put(t, c, cpu, thread, online);
}

static void
index_free(struct topology *t)
{
	free(t->core_index);
	t->core_index = NULL;
	t->core_index_size = 0;
}

static int
core_cmp(const void *a, const void *b)
{
	const struct topo_core *x = a, *y = b;

	if (x->package != y->package)
		return x->package < y->package ? -1 : 1;
	if (x->core_id != y->core_id)
		return x->core_id < y->core_id ? -1 : 1;
	if (x->die != y->die)
		return x->die < y->die ? -1 : 1;
	if (x->cpus[0] != y->cpus[0])
		return x->cpus[0] < y->cpus[0] ? -1 : 1;
	return 0;
}

static int
u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Number of distinct values in v[0..n) (sorts v). */
static unsigned
count_distinct(uint64_t *v, unsigned n)
{
	unsigned i, k = 0;

	qsort(v, n, sizeof *v, u64_cmp);
	for (i = 0; i < n; i++)
		if (i == 0 || v[i] != v[i - 1])
			k++;
	return k;
}

void
topology_finish(struct topology *t)
{
	uint64_t *v;
	unsigned i, j, n;

	index_free(t);   /* cores[] is sorted below */
	/* Close gaps left by missing thread numbers, keeping the order. */
	for (i = 0; i < t->ncores; i++) {
		struct topo_core *c = &t->cores[i];

		for (j = n = 0; j < TOPO_MAX_SMT; j++)
			if (c->cpus[j] != SLOT_FREE)
				c->cpus[n++] = c->cpus[j];
		for (j = n; j < TOPO_MAX_SMT; j++)
			c->cpus[j] = SLOT_FREE;
		c->nthreads = n;
	}
	if (t->ncores > 0)
		qsort(t->cores, t->ncores, sizeof *t->cores, core_cmp);

	t->max_smt = 0;
	for (i = 0; i < t->ncores; i++) {
		struct topo_core *c = &t->cores[i];

		c->index = i;
		if (c->nthreads > t->max_smt)
			t->max_smt = c->nthreads;
		for (j = 0; j < c->nthreads; j++) {
			struct topo_cpu *tc = cpu_slot(t, c->cpus[j]);

			tc->core = i;
			tc->thread = j;
			tc->package = c->package;
		}
	}

	t->ncpus = 0;
	for (i = 0; i < t->max_cpu; i++)
		if (t->cpus[i].present)
			t->ncpus++;

	v = xcalloc(t->ncores + 1, sizeof *v);
	for (i = 0; i < t->ncores; i++)
		v[i] = t->cores[i].package;
	t->npackages = count_distinct(v, t->ncores);
	for (i = 0; i < t->ncores; i++)
		v[i] = (uint64_t)t->cores[i].package << 32 | t->cores[i].die;
	t->ndies = count_distinct(v, t->ncores);
	for (i = n = 0; i < t->ncores; i++)
		if (t->cores[i].l3 != TOPO_NO_L3)
			v[n++] = t->cores[i].l3;
	t->nl3 = count_distinct(v, n);
	free(v);
	/* No room kept past what was built: thousands of nodes' machines
	 * (httop --nodes) each had cores[] doubled to 64 for 36 cores. */
	if (t->ncores > 0 && t->cores_cap > t->ncores) {
		t->cores = xreallocarray(t->cores, t->ncores, sizeof *t->cores);
		t->cores_cap = t->ncores;
	}
	if (t->max_cpu > 0 && t->cpus_cap > t->max_cpu) {
		t->cpus = xreallocarray(t->cpus, t->max_cpu, sizeof *t->cpus);
		t->cpus_cap = t->max_cpu;
	}
}

void
topology_synthetic(struct topology *t, unsigned npkg, unsigned ncores_per_pkg, unsigned smt)
{
	unsigned p, c, s, per_thread = npkg * ncores_per_pkg;

	topology_init(t);
	if (smt > TOPO_MAX_SMT)
		smt = TOPO_MAX_SMT;
	/* Linux on Intel servers: thread 0 of every core, package by package,
	 * then thread 1 of every core in the same order. */
	for (s = 0; s < smt; s++)
		for (p = 0; p < npkg; p++)
			for (c = 0; c < ncores_per_pkg; c++)
				topology_add_cpu(t, s * per_thread + p * ncores_per_pkg + c,
				    p, 0, p, c, s, true);
	topology_finish(t);
	snprintf(t->source, sizeof t->source, "synthetic");
}

void
topology_free(struct topology *t)
{
	index_free(t);
	t->cores_cap = t->cpus_cap = 0;
	free(t->cores);
	free(t->cpus);
	t->cores = NULL;
	t->cpus = NULL;
	t->ncores = t->max_cpu = t->ncpus = 0;
}

const struct topo_core *
topology_core_of(const struct topology *t, unsigned cpu)
{
	if (cpu >= t->max_cpu || t->cpus[cpu].core == TOPO_NO_CORE ||
	    t->cpus[cpu].core >= t->ncores)
		return NULL;
	return &t->cores[t->cpus[cpu].core];
}

/* --- hwloc ------------------------------------------------------------ */

static bool
l3_counts(hwloc_obj_t o)
{
	if (hwloc_obj_get_info_by_name(o, "MemorySideCache") != NULL)
		return false;
	return o->attr == NULL || o->attr->cache.size <= L3_MAX_BYTES;
}

/* Per hwloc object of one type, by logical index: the number httop gives
 * it (L3: rank among real L3s; Die: rank within its package). */
struct numbering {
	unsigned n;
	unsigned *num;
};

static void
number_l3(hwloc_topology_t topo, struct numbering *nb)
{
	unsigned i, k = 0;

	nb->n = (unsigned)hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_L3CACHE);
	nb->num = xcalloc(nb->n + 1, sizeof *nb->num);
	for (i = 0; i < nb->n; i++) {
		hwloc_obj_t o = hwloc_get_obj_by_type(topo, HWLOC_OBJ_L3CACHE, i);

		nb->num[i] = l3_counts(o) ? k++ : TOPO_NO_L3;
	}
}

static void
number_dies(hwloc_topology_t topo, struct numbering *nb)
{
	unsigned i, j;

	nb->n = (unsigned)hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_DIE);
	nb->num = xcalloc(nb->n + 1, sizeof *nb->num);
	for (i = 0; i < nb->n; i++) {
		hwloc_obj_t d = hwloc_get_obj_by_type(topo, HWLOC_OBJ_DIE, i);
		hwloc_obj_t p = hwloc_get_ancestor_obj_by_type(topo, HWLOC_OBJ_PACKAGE, d);

		nb->num[i] = 0;
		for (j = 0; j < i; j++) {
			hwloc_obj_t e = hwloc_get_obj_by_type(topo, HWLOC_OBJ_DIE, j);

			if (hwloc_get_ancestor_obj_by_type(topo, HWLOC_OBJ_PACKAGE, e) == p)
				nb->num[i]++;
		}
	}
}

/* Where a core or lone PU sits: package os_index, die and L3 numbers. */
static void
place_of(hwloc_topology_t topo, hwloc_obj_t o, const struct numbering *dies,
    const struct numbering *l3s, unsigned *pkg, unsigned *die, unsigned *l3)
{
	hwloc_obj_t a;

	a = hwloc_get_ancestor_obj_by_type(topo, HWLOC_OBJ_PACKAGE, o);
	*pkg = (a != NULL && a->os_index != HWLOC_UNKNOWN_INDEX) ? a->os_index : 0;
	a = hwloc_get_ancestor_obj_by_type(topo, HWLOC_OBJ_DIE, o);
	*die = (a != NULL && a->logical_index < dies->n) ? dies->num[a->logical_index] : 0;
	a = hwloc_get_ancestor_obj_by_type(topo, HWLOC_OBJ_L3CACHE, o);
	*l3 = (a != NULL && a->logical_index < l3s->n) ? l3s->num[a->logical_index] :
	    TOPO_NO_L3;
}

static int
parse_int_info(hwloc_obj_t o, const char *name)
{
	const char *v = hwloc_obj_get_info_by_name(o, name);
	char *end;
	long n;

	if (v == NULL || *v == '\0')
		return -1;
	errno = 0;
	n = strtol(v, &end, 0);
	if (errno != 0 || *end != '\0' || n < 0 || n > INT32_MAX)
		return -1;
	return (int)n;
}

/* The CPU identity hwloc recorded: on Package objects (x86 and Linux
 * backends, 1.x files), or on the Machine in some hand-made files. */
static void
read_identity(hwloc_topology_t topo, struct topology *t)
{
	hwloc_obj_t o = NULL;

	for (;;) {
		o = hwloc_get_next_obj_by_type(topo, HWLOC_OBJ_PACKAGE, o);
		if (o == NULL || hwloc_obj_get_info_by_name(o, "CPUVendor") != NULL ||
		    hwloc_obj_get_info_by_name(o, "CPUModel") != NULL)
			break;
	}
	if (o == NULL)
		o = hwloc_get_root_obj(topo);
	text_squeeze(t->vendor, sizeof t->vendor, hwloc_obj_get_info_by_name(o, "CPUVendor"), SIZE_MAX);
	text_squeeze(t->brand, sizeof t->brand, hwloc_obj_get_info_by_name(o, "CPUModel"), SIZE_MAX);
	t->family = parse_int_info(o, "CPUFamilyNumber");
	t->model = parse_int_info(o, "CPUModelNumber");
	t->stepping = parse_int_info(o, "CPUStepping");
}

static int
walk(hwloc_topology_t topo, struct topology *t, struct errmsg *e)
{
	struct numbering dies, l3s;
	hwloc_bitmap_t seen;
	hwloc_const_bitmap_t complete;
	hwloc_obj_t o = NULL;
	unsigned pkg, die, l3;
	int cpu, rc = 0;

	number_dies(topo, &dies);
	number_l3(topo, &l3s);
	seen = hwloc_bitmap_alloc();

	/* Every Core, its PUs in OS-number order: thread 0 is the lowest, the
	 * one Linux lists first in thread_siblings. The Core's cpuset also
	 * covers PUs under a Group below it (KNL files read by hwloc 2.9). */
	while ((o = hwloc_get_next_obj_by_type(topo, HWLOC_OBJ_CORE, o)) != NULL) {
		struct topo_core *c;
		unsigned n = 0, core_id;

		if (o->cpuset == NULL || hwloc_bitmap_iszero(o->cpuset))
			continue;
		if (hwloc_bitmap_weight(o->cpuset) > TOPO_MAX_SMT) {
			rc = errmsg_set(e, _("core %u has %d threads; httop handles at most %d"),
			    o->os_index, hwloc_bitmap_weight(o->cpuset), TOPO_MAX_SMT);
			goto out;
		}
		place_of(topo, o, &dies, &l3s, &pkg, &die, &l3);
		core_id = o->os_index != HWLOC_UNKNOWN_INDEX ? o->os_index : o->logical_index;
		c = core_append(t, pkg, die, l3, core_id);
		hwloc_bitmap_foreach_begin(cpu, o->cpuset)
			core_put(t, c, (unsigned)cpu, n++, true);
		hwloc_bitmap_foreach_end();
		hwloc_bitmap_or(seen, seen, o->cpuset);
	}

	/* A PU with no Core above it (some virtual machines): a core of its own. */
	o = NULL;
	while ((o = hwloc_get_next_obj_by_type(topo, HWLOC_OBJ_PU, o)) != NULL) {
		if (hwloc_bitmap_isset(seen, o->os_index))
			continue;
		place_of(topo, o, &dies, &l3s, &pkg, &die, &l3);
		core_put(t, core_append(t, pkg, die, l3, o->os_index), o->os_index, 0, true);
		hwloc_bitmap_set(seen, o->os_index);
	}
	if (t->ncores == 0) {
		rc = errmsg_set(e, _("no processing units in the topology"));
		goto out;
	}

	/* Present but offline: in the complete cpuset with no PU object. */
	complete = hwloc_topology_get_complete_cpuset(topo);
	hwloc_bitmap_foreach_begin(cpu, complete)
		if (!hwloc_bitmap_isset(seen, (unsigned)cpu)) {
			struct topo_cpu *tc = cpu_slot(t, (unsigned)cpu);
			hwloc_obj_t p = NULL;

			tc->present = true;
			tc->online = false;
			while ((p = hwloc_get_next_obj_by_type(topo, HWLOC_OBJ_PACKAGE, p)) != NULL)
				if (p->complete_cpuset != NULL &&
				    hwloc_bitmap_isset(p->complete_cpuset, (unsigned)cpu))
					break;
			tc->package = p != NULL ? p->os_index : TOPO_NO_PACKAGE;
		}
	hwloc_bitmap_foreach_end();

	read_identity(topo, t);
	topology_finish(t);
out:
	hwloc_bitmap_free(seen);
	free(dies.num);
	free(l3s.num);
	return rc;
}

/* hwloc 2.x has no call to set the Linux fsroot; the Linux component reads
 * HWLOC_FSROOT when it is instantiated, inside hwloc_topology_load(). Set it
 * for that call only and put the old value back. */
struct env_save {
	const char *name;
	char *old;
	bool had;
};

static void
env_push(struct env_save *s, const char *name, const char *value)
{
	const char *old = getenv(name);

	s->name = name;
	s->had = old != NULL;
	s->old = old != NULL ? xstrdup(old) : NULL;
	setenv(name, value, 1);
}

static void
env_pop(struct env_save *s)
{
	if (s->had)
		setenv(s->name, s->old, 1);
	else
		unsetenv(s->name);
	free(s->old);
}

static bool
is_file_in(const char *dir, const char *name)
{
	char path[4096];
	struct stat st;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	return stat(path, &st) == 0;
}

/* --- what is handed to hwloc ------------------------------------------ */

/* hwloc opens the files of a sysfs copy by name, blocking: a named pipe or
 * a device in the tree would hang the start or never end (/dev/zero).
 * Walk the parts hwloc reads first, not following links but checking what
 * each points at. nftw has no user pointer: the state is static (one walk
 * at a time, at start). */
static struct {
	unsigned long entries;
	char bad[4096];
	const char *why;
	off_t size;
} walk_state;

static int
walk_entry(const char *path, const struct stat *lst, int flag, struct FTW *ftw)
{
	struct stat st;
	const struct stat *sp = lst;

	(void)ftw;
	if (++walk_state.entries > TOPO_DIR_MAX_ENTRIES) {
		walk_state.why = "entries";
		return 1;
	}
	if (flag == FTW_SL) {
		/* A dangling link is harmless: hwloc finds nothing there. */
		if (stat(path, &st) != 0)
			return 0;
		sp = &st;
	} else if (flag != FTW_F) {
		return 0;       /* directories, unreadable ones included */
	}
	if (S_ISDIR(sp->st_mode))
		return 0;
	if (!S_ISREG(sp->st_mode)) {
		snprintf(walk_state.bad, sizeof walk_state.bad, "%s", path);
		walk_state.why = S_ISFIFO(sp->st_mode) ? "fifo" :
		    (S_ISCHR(sp->st_mode) || S_ISBLK(sp->st_mode)) ? "device" : "other";
		return 1;
	}
	if (sp->st_size > TOPO_DIR_MAX_FILE) {
		snprintf(walk_state.bad, sizeof walk_state.bad, "%s", path);
		walk_state.why = "size";
		walk_state.size = sp->st_size;
		return 1;
	}
	return 0;
}

/* /proc of a copy holds cpuinfo and a few more; of a live root, one
 * directory per process, which hwloc does not read. */
static bool
proc_skip(const char *name)
{
	return isdigit((unsigned char)name[0]) || strcmp(name, "self") == 0 ||
	    strcmp(name, "thread-self") == 0;
}

static int
check_tree(const char *root, struct errmsg *e)
{
	static const char *const parts[] = { "sys", "proc", NULL };
	char path[4096], lim[32];
	unsigned i;
	int rc = 0;

	memset(&walk_state, 0, sizeof walk_state);
	/* An hwloc-gather-cpuid dump: the files are at the top. */
	if (is_file_in(root, "hwloc-cpuid-info") && !is_file_in(root, "sys"))
		rc = nftw(root, walk_entry, 32, FTW_PHYS);
	for (i = 0; rc == 0 && parts[i] != NULL; i++) {
		snprintf(path, sizeof path, "%s/%s", root, parts[i]);
		if (!is_file_in(root, parts[i]))
			continue;
		if (strcmp(parts[i], "proc") == 0) {
			struct dirent *d;
			DIR *dp = opendir(path);

			while (rc == 0 && dp != NULL && (d = readdir(dp)) != NULL) {
				char sub[sizeof path + 258];

				if (d->d_name[0] == '.' || proc_skip(d->d_name))
					continue;
				snprintf(sub, sizeof sub, "%s/%s", path, d->d_name);
				rc = nftw(sub, walk_entry, 32, FTW_PHYS);
			}
			if (dp != NULL)
				closedir(dp);
		} else {
			rc = nftw(path, walk_entry, 32, FTW_PHYS);
		}
	}
	if (rc == 0 || walk_state.why == NULL)
		return 0;       /* nftw's own errors: hwloc will say what it can't read */
	if (strcmp(walk_state.why, "entries") == 0)
		return errmsg_set(e, _("topology %s has more than %d entries under sys/ and proc/: "
		    "give a copy made by hwloc-gather-topology, not a live root"), root,
		    TOPO_DIR_MAX_ENTRIES);
	if (strcmp(walk_state.why, "size") == 0)
		return errmsg_set(e, _("topology %s: %s is %lld bytes, more than the %s httop lets "
		    "hwloc read of one file of a sysfs copy: check the copy"), root, walk_state.bad,
		    (long long)walk_state.size, infile_size_text(TOPO_DIR_MAX_FILE, lim, sizeof lim));
	return errmsg_set(e, _("topology %s: %s is %s, which hwloc would wait on or read without "
	    "end: a sysfs copy holds only files, directories and links; remove it or copy the "
	    "tree again with hwloc-gather-topology"), root, walk_state.bad,
	    strcmp(walk_state.why, "fifo") == 0 ? _("a named pipe") :
	    strcmp(walk_state.why, "device") == 0 ? _("a device") : _("not a regular file"));
}

/* Every os_index of the file within what a machine can have: hwloc sizes
 * a bitmap by it (a NUMA node numbered 4294967295 made it take 512 MB).
 * 0, or the line of the first one past TOPO_OS_INDEX_MAX. */
#define TOPO_OS_INDEX_MAX (1ul << 20)

static unsigned long
os_index_too_large(const char *buf, size_t len, unsigned long *value)
{
	static const char key[] = "os_index=\"";
	const char *p = buf, *end = buf + len;
	unsigned long line = 1;

	while (p < end) {
		const char *k = memmem(p, (size_t)(end - p), key, sizeof key - 1), *q;
		unsigned long v = 0;

		if (k == NULL)
			return 0;
		for (q = p; q < k; q++)
			line += *q == '\n';
		for (q = k + sizeof key - 1; q < end && *q >= '0' && *q <= '9'; q++)
			if (v <= TOPO_OS_INDEX_MAX)
				v = v * 10 + (unsigned long)(*q - '0');
		if (v > TOPO_OS_INDEX_MAX) {
			*value = v;
			return line;
		}
		p = q;
	}
	return 0;
}

/* The XML file, read whole within its limit and checked to be well-formed
 * XML, so a broken file is refused with its first bad line instead of
 * hwloc's "Invalid argument". */
static int
read_xml(const char *path, char **buf, size_t *len, struct errmsg *e)
{
	struct infile f;
	unsigned long line, big = 0;
	char why[256];
	int rc;

	if (infile_open(&f, path, _("topology"), TOPO_XML_MAX, 0, e) != 0) {
		if (errno == EINVAL)
			return -1;
		return errmsg_set(e, _("cannot read topology %s: %s; give an hwloc XML file "
		    "(lstopo-no-graphics --of xml FILE) or a sysfs root directory"), path,
		    strerror(errno));
	}
	rc = infile_slurp(&f, buf, len, e);
	infile_close(&f);
	if (rc != 0)
		return -1;
	if (xml_check(*buf, *len, &line, why, sizeof why) != 0) {
		free(*buf);
		*buf = NULL;
		return errmsg_set(e, _("topology %s:%lu: %s: this is not well-formed XML; write "
		    "the file again with lstopo-no-graphics --of xml FILE"), path, line, why);
	}
	if ((line = os_index_too_large(*buf, *len, &big)) != 0) {
		free(*buf);
		*buf = NULL;
		return errmsg_set(e, _("topology %s:%lu: an os_index above %lu, more than a machine "
		    "has; write the file again with lstopo-no-graphics --of xml FILE"), path, line,
		    TOPO_OS_INDEX_MAX);
	}
	return 0;
}

/* hwloc says why it refuses an XML file only on stderr, and only with
 * HWLOC_XML_VERBOSE set (read once, at its first XML load). Catch what it
 * writes during the load in a temporary file, to quote its reason. */
struct capture {
	FILE *tmp;
	int saved;
};

static void
capture_begin(struct capture *c)
{
	c->saved = -1;
	fflush(stderr);
	c->tmp = tmpfile();
	if (c->tmp == NULL)
		return;
	c->saved = dup(STDERR_FILENO);
	if (c->saved < 0 || dup2(fileno(c->tmp), STDERR_FILENO) < 0) {
		if (c->saved >= 0)
			close(c->saved);
		c->saved = -1;
		fclose(c->tmp);
		c->tmp = NULL;
	}
}

/* Lines hwloc adds to every refusal, which say nothing of the cause. */
static bool
generic_line(const char *l)
{
	return *l == '\0' || strstr(l, "Failed to parse XML input") != NULL ||
	    strstr(l, "generated by hwloc, try enabling") != NULL ||
	    strstr(l, "component discovery failed") != NULL ||
	    strstr(l, "XML import failed") != NULL;
}

/* End the capture; the first line with a cause goes to why[] (without
 * hwloc's "NAME: " prefix), "" if none. */
static void
capture_end(struct capture *c, char *why, size_t len)
{
	char line[512];

	why[0] = '\0';
	if (c->tmp == NULL)
		return;
	fflush(stderr);
	dup2(c->saved, STDERR_FILENO);
	close(c->saved);
	rewind(c->tmp);
	while (why[0] == '\0' && fgets(line, sizeof line, c->tmp) != NULL) {
		char *p = line, *colon;

		line[strcspn(line, "\r\n")] = '\0';
		if (generic_line(line))
			continue;
		/* "xmlbuffer: unrecognized object type string Bogus" */
		colon = strstr(line, ": ");
		if (colon != NULL && colon - line < 64 && strchr(line, ' ') > colon)
			p = colon + 2;
		snprintf(why, len, "%.*s", (int)(len - 1), p);
	}
	fclose(c->tmp);
}

/* What --topology names, checked before hwloc sees it: a directory (a
 * sysfs copy or an hwloc-gather-cpuid dump, its tree walked) or an XML
 * file, read whole into *xml. */
static int
check_input(const char *path, bool *dir, char **xml, size_t *xml_len, struct errmsg *e)
{
	if (infile_check_path(path, _("topology"), TOPO_XML_MAX, true, dir, e) != 0) {
		if (errno == EINVAL)
			return -1;
		return errmsg_set(e, _("cannot read topology %s: %s; give an hwloc XML "
		    "file (lstopo-no-graphics --of xml FILE) or a sysfs root directory"),
		    path, strerror(errno));
	}
	if (*dir && !is_file_in(path, "sys") && !is_file_in(path, "hwloc-cpuid-info"))
		return errmsg_set(e, _("topology %s is a directory without sys/: give "
		    "the top of a Linux sysfs/procfs copy (hwloc-gather-topology)"), path);
	if (*dir)
		return check_tree(path, e);
	return read_xml(path, xml, xml_len, e);
}

/* Point hwloc at the input: the live machine (path NULL), a sysfs copy or
 * a CPUID dump (through the environment, restored by the caller), or the
 * XML buffer. */
static int
set_input(hwloc_topology_t topo, struct topology *t, const char *path, bool dir,
    const char *xml, size_t xml_len, struct env_save *env, struct errmsg *e)
{
	if (path == NULL) {
		snprintf(t->source, sizeof t->source, "live");
		return 0;
	}
	snprintf(t->source, sizeof t->source, "%s", path);
	if (dir && is_file_in(path, "hwloc-cpuid-info")) {
		/* An hwloc-gather-cpuid dump: the x86 backend alone builds the
		 * topology from the recorded CPUID of every PU. */
		env_push(env, "HWLOC_CPUID_PATH", path);
		hwloc_topology_set_components(topo, HWLOC_TOPOLOGY_COMPONENTS_FLAG_BLACKLIST, "linux");
	} else if (dir) {
		/* Without this the x86 backend annotates the copy with the CPUID
		 * of the host we run on (hwloc 2.9). */
		env_push(env, "HWLOC_FSROOT", path);
		hwloc_topology_set_components(topo, HWLOC_TOPOLOGY_COMPONENTS_FLAG_BLACKLIST, "x86");
	} else if (hwloc_topology_set_xmlbuffer(topo, xml, (int)xml_len + 1) != 0) {
		/* the file as checked, not whatever its name points at by now */
		return errmsg_set(e, _("topology %s is not a readable hwloc XML file (%s); write "
		    "one with lstopo-no-graphics --of xml FILE"), path, strerror(errno));
	}
	return 0;
}

/* hwloc_topology_load; for an XML buffer with hwloc's verbose reason for a
 * refusal in why[] ("" if none). */
static int
load_catching(hwloc_topology_t topo, bool xml, char *why, size_t whylen)
{
	struct env_save verbose = { NULL, NULL, false };
	struct capture cap = { NULL, -1 };
	int rc, err;

	why[0] = '\0';
	if (xml) {
		env_push(&verbose, "HWLOC_XML_VERBOSE", "1");
		capture_begin(&cap);
	}
	errno = 0;
	rc = hwloc_topology_load(topo);
	err = errno;
	if (xml) {
		capture_end(&cap, why, whylen);
		env_pop(&verbose);
	}
	errno = err;
	return rc;
}

/* hwloc's plugins (libhwloc-plugins, which Debian's libhwloc recommends)
 * bring PCI, OpenCL, GL and a libxml2 XML reader: nothing httop uses, each
 * a library to map at start, and the libxml2 reader gives other reasons for
 * a refused file than the built-in one. hwloc looks for them once, when the
 * first topology of the process is made, in HWLOC_PLUGINS_PATH: an empty
 * path names no directory, so none is loaded and every machine reads the
 * same way whether the package is there or not (httop(1), FILES). */
static int
topology_init_hwloc(hwloc_topology_t *topo)
{
	struct env_save plugins = { NULL, NULL, false };
	int rc, err;

	env_push(&plugins, "HWLOC_PLUGINS_PATH", "");
	rc = hwloc_topology_init(topo);
	err = errno;
	env_pop(&plugins);
	errno = err;
	return rc;
}

int
topology_load(struct topology *t, const char *xml_path, struct errmsg *e)
{
	hwloc_topology_t topo;
	struct env_save env = { NULL, NULL, false };
	char *xml = NULL, hwloc_why[256];
	size_t xml_len = 0;
	bool dir = false;
	int rc;

	topology_init(t);
	if (xml_path != NULL && check_input(xml_path, &dir, &xml, &xml_len, e) != 0)
		return -1;
	if (topology_init_hwloc(&topo) != 0) {
		free(xml);
		return errmsg_set(e, _("hwloc could not start: %s"), strerror(errno));
	}
	/* Keep CPUs a cgroup hides from us: httop watches whole cores. */
	hwloc_topology_set_flags(topo, HWLOC_TOPOLOGY_FLAG_INCLUDE_DISALLOWED);
	if (set_input(topo, t, xml_path, dir, xml, xml_len, &env, e) != 0) {
		hwloc_topology_destroy(topo);
		free(xml);
		return -1;
	}
	rc = load_catching(topo, xml != NULL, hwloc_why, sizeof hwloc_why);
	if (env.name != NULL)
		env_pop(&env);
	free(xml);
	if (rc != 0 && xml_path != NULL && !dir) {
		/* The file is well-formed XML (read_xml): hwloc refuses what it
		 * holds, and its verbose output says what. */
		rc = errmsg_set(e, _("topology %s is not a readable hwloc XML file (%s); write "
		    "one with lstopo-no-graphics --of xml FILE"), xml_path,
		    hwloc_why[0] ? hwloc_why : errno ? strerror(errno) : _("hwloc refused it"));
	} else if (rc != 0) {
		rc = errmsg_set(e, _("cannot load topology %s: %s; check that it is an hwloc "
		    "XML file (v1 or v2) or a sysfs root"), xml_path ? xml_path : "of this machine",
		    errno ? strerror(errno) : _("hwloc refused it"));
	}
	if (rc != 0) {
		hwloc_topology_destroy(topo);
		return rc;
	}
	rc = walk(topo, t, e);
	hwloc_topology_destroy(topo);
	if (rc != 0) {
		errmsg_prefix(e, _("topology %s"), t->source);
		topology_free(t);
	}
	return rc;
}
