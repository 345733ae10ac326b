/* outputs.h: the run's outputs (run/output.h) over the writers httop has:
 * the batch format on standard output, the node exporter's textfile, the
 * recorder and the averaging history. The live view's output is in
 * mode_tui.c, with the screen it draws. */
#ifndef HTTOP_OUTPUTS_H
#define HTTOP_OUTPUTS_H

#include "metrics/history.h"
#include "out/batch.h"
#include "out/record.h"
#include "out/textfile.h"
#include "run/output.h"

/* self: a struct batch *. Also says on standard error what the data
 * recorded (a replay's events) and the conflict policy's lines. */
extern const struct output_ops output_batch;
/* self: a struct textfile *. */
extern const struct output_ops output_textfile;
/* self: a struct recorder *; its header is written once the plan is
 * programmed (start). Closing it is the owner's (record_close). */
extern const struct output_ops output_record;
/* self: a struct history *. */
extern const struct output_ops output_history;

#endif
