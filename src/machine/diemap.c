/* diemap.c: read a die map file (man/httop-diemap.5). Skeleton: the
 * parser is being written. */
#include "config.h"
#include "machine/diemap.h"

#include <stdlib.h>
#include <string.h>

int
diemap_parse(struct diemap *d, const char *name, FILE *fp, struct errmsg *e)
{
	(void)fp;
	memset(d, 0, sizeof *d);
	return errmsg_set(e, "%s: die maps are not supported yet", name);
}

int
diemap_load(struct diemap *d, const char *path, struct errmsg *e)
{
	return diemap_parse(d, path, NULL, e);
}

void
diemap_free(struct diemap *d)
{
	free(d->pos);
	free(d->cores);
	memset(d, 0, sizeof *d);
}

int
diemap_find_slot(const struct diemap *d, int slot)
{
	(void)d;
	(void)slot;
	return -1;
}

const char *
diemap_numbering_name(enum dm_numbering n)
{
	switch (n) {
	case DM_NUM_CAPID6: return "capid6";
	case DM_NUM_TILE: return "tile";
	case DM_NUM_CORE: return "core";
	}
	return "?";
}
