/* trace.h — `--trace FILE.json` of run, test and debug (launch/trace.c): a
 * Chrome/Perfetto trace-event timeline of one launch, fed one interpreter
 * event at a time. */
#ifndef PTXI_LAUNCH_TRACE_H
#define PTXI_LAUNCH_TRACE_H

#include <stddef.h>
#include "interp/interp.h"

typedef struct launch_trace launch_trace;

/* Create FILE and write the header; NULL with a message in err. */
launch_trace *launch_trace_open(const char *path, const interp_launch *l, char *err, size_t errlen);
/* After every interp_step / interp_step_warp of the launch being traced. */
void launch_trace_step(launch_trace *t, interp_ctx *c, const interp_event *ev);
/* Close what is open at c's clock and finish the file (c may be NULL).
 * Returns 0, or -1 on a write error.  Frees t. */
int launch_trace_close(launch_trace *t, interp_ctx *c);
/* interp_run's equivalent through the step API, tracing into path.
 * Returns 0 (res filled), or -1 with a message in err. */
int launch_trace_run(const interp_launch *l, interp_result *res, const char *path, char *err, size_t errlen);

#endif
