/*
 * emit/parts.h - the parts of the output that emit.c puts together: each
 * fills template variables from the inventory and renders its files into
 * the batch (render.h). Parts never call emit.c.
 */
#ifndef LIBWRAP_GEN_EMIT_PARTS_H
#define LIBWRAP_GEN_EMIT_PARTS_H

#include <stdbool.h>

#include "emit/emit.h"
#include "emit/render.h"
#include "util/template.h"

/* NAME.wrappers.c, NAME.wrap and NAME.versions (wrappers.c). */
int emit_wrappers(const lwg_inventory *inv, const lwg_emit_options *opt, emit_batch *batch);

/* The same as LIBWRAP_PARAMS_MAX (libwrap/libwrap.h). */
#define LWG_PARAMS_MAX 64

/* The parameter table of function f (inventory index i) and its value
 * capture, as template variables of its item (params.c). */
void emit_param_vars(lwg_tvars *v, const lwg_function *f, size_t i);

/* NAME.skipped.txt, missing.filter and uncertain.filter (lists.c). */
int emit_lists(const lwg_inventory *inv, const lwg_emit_options *opt, emit_batch *batch);

/* Only missing.filter and uncertain.filter, exactly as emit_lists renders
 * them (lists.c). */
int emit_filter_lists(const lwg_inventory *inv, const lwg_emit_options *opt, emit_batch *batch);

#endif /* LIBWRAP_GEN_EMIT_PARTS_H */
