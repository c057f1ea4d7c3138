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
/* A call's min or max in ticks, less its own measurement's cost. */
uint64_t lw_minmax_c(int32_t region, uint64_t v);

#pragma GCC visibility pop

#endif /* LIBWRAP_RUNTIME_CORE_OUTPUT_H */
