/*
 * output.h - a process's results (profile_write.c): profile.json and
 * profile.txt.
 */
#ifndef LIBWRAP_RUNTIME_CORE_OUTPUT_H
#define LIBWRAP_RUNTIME_CORE_OUTPUT_H

#include "core/measure/measure.h"

struct lw_json;

/* Internal to the runtime's shared object: hidden, so that -fPIC code
 * reaches it directly instead of through the GOT. */
#pragma GCC visibility push(hidden)

/* ---- profile_write.c --------------------------------------------------- */


int lw_profile_write(const char *dir);
/* "metrics": the definitions of the first `n` metrics (profile.json and
 * the job's reduced profile). */
void lw_json_metric_defs(struct lw_json *j, size_t n);


/* Derives the exclusive and compensated times of a call tree (idempotent). */
void lw_tree_finish(lw_node *n);
/* A call path's shortest and longest call in ticks, less their own
 * measurement's cost, within its mean (after lw_tree_finish). */
void lw_node_minmax(const lw_node *n, uint64_t *min_c, uint64_t *max_c);
/* Those in whole ns beside an inclusive time of `incl_ns` (its ticks
 * rounded to the nearest) for `visits` calls: the min rounded down, the max
 * up, so that min <= inclusive / visits <= max holds in ns as in ticks; a
 * single call's are its inclusive time. */
void lw_minmax_ns(uint64_t visits, uint64_t incl_ns, uint64_t min_c, uint64_t max_c, uint64_t *min_ns,
                  uint64_t *max_ns);

#pragma GCC visibility pop

#endif /* LIBWRAP_RUNTIME_CORE_OUTPUT_H */
