/* fuzz_diemap.c: the die map parser (src/machine/diemap.c) on any bytes.
 * A refused map must come with a message and leave nothing allocated; an
 * accepted one must keep the promises of diemap.h. */
#include "config.h"

#include <string.h>

#include "fuzz.h"
#include "machine/diemap.h"

char fuzz_last_error[512];

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct diemap d;
	struct errmsg e;
	unsigned i, ntiles = 0;
	int max_slot = -1;
	FILE *fp = fuzz_stream(data, size);

	e.text[0] = '\0';
	if (diemap_parse(&d, "fuzz.map", fp, &e) != 0) {
		snprintf(fuzz_last_error, sizeof fuzz_last_error, "%s", e.text);
		FUZZ_ASSERT(e.text[0] != '\0', "refused without a message");
		FUZZ_ASSERT(d.pos == NULL && d.cores == NULL, "refused map keeps memory");
		fclose(fp);
		return 0;
	}
	fuzz_last_error[0] = '\0';
	FUZZ_ASSERT(d.rows >= 1 && d.rows <= DM_MAX_ROWS && d.cols >= 1 && d.cols <= DM_MAX_COLS,
	    "grid %ux%u", d.rows, d.cols);
	FUZZ_ASSERT(d.name[0] != '\0' && memchr(d.name, '\0', sizeof d.name) != NULL, "name");
	for (i = 0; i < d.rows * d.cols; i++) {
		if (d.pos[i].kind != DM_TILE) {
			FUZZ_ASSERT(d.pos[i].slot == -1, "non-tile %u with slot %d", i, d.pos[i].slot);
			continue;
		}
		FUZZ_ASSERT(d.pos[i].slot >= 0 && d.pos[i].slot <= DM_MAX_SLOT, "slot %d",
		    d.pos[i].slot);
		FUZZ_ASSERT(diemap_find_slot(&d, d.pos[i].slot) == (int)i, "slot %d twice",
		    d.pos[i].slot);
		ntiles++;
		if (d.pos[i].slot > max_slot)
			max_slot = d.pos[i].slot;
	}
	FUZZ_ASSERT(ntiles == d.ntiles && max_slot == d.max_slot, "ntiles %u/%u max %d/%d",
	    ntiles, d.ntiles, max_slot, d.max_slot);
	for (i = 0; i < d.ncores; i++) {
		const struct dm_core *c = &d.cores[i];

		FUZZ_ASSERT((c->slot >= 0) != (c->cha >= 0), "core line %u: slot %d cha %d",
		    c->line, c->slot, c->cha);
		if (c->slot >= 0)
			FUZZ_ASSERT(diemap_find_slot(&d, c->slot) >= 0, "core line %u: slot %d",
			    c->line, c->slot);
		if (c->cha >= 0)
			FUZZ_ASSERT(d.numbering == DM_NUM_CAPID6, "cha in a %s map",
			    diemap_numbering_name(d.numbering));
	}
	diemap_free(&d);
	fclose(fp);
	return 0;
}
