/*
 * emit/parts.h - what the emitters share (emit.c writes files, the
 * other files of emit/ fill the templates' variables).
 */
#ifndef LIBWRAP_EMIT_PARTS_H
#define LIBWRAP_EMIT_PARTS_H

#include <stdbool.h>

#include "emit/emit.h"
#include "util/template.h"

/* `s` escaped for the inside of a C string literal; a new string. */
char *emit_c_string(const char *s);

/* The rendered files of one run: written only when every template has
 * rendered, so that a template error leaves the previous outputs intact
 * rather than a new wrapper source next to an old response file. */
typedef struct emit_batch emit_batch;

/* Renders templates_dir/TEMPLATE with `vars` into the batch, to be written
 * as outdir/FILENAME. 0, or -1 after a message. */
int emit_render(emit_batch *batch, const lw_emit_options *opt, const char *tmpl,
                const lw_tvars *vars, const char *filename);

/* NAME.wrappers.c and NAME.wrap (emit/wrappers.c). */
int emit_wrappers(const lw_inventory *inv, const lw_emit_options *opt, emit_batch *batch);

/* The same as LIBWRAP_PARAMS_MAX (libwrap/libwrap.h). */
#define LW_PARAMS_MAX 64

/* The parameter table of function f (inventory index i) and its value
 * capture, as template variables of its item (emit/params.c). */
void emit_param_vars(lw_tvars *v, const lw_function *f, size_t i);

/* NAME.skipped.txt, missing.filter and uncertain.filter (emit/lists.c). */
int emit_lists(const lw_inventory *inv, const lw_emit_options *opt, emit_batch *batch);

#endif /* LIBWRAP_EMIT_PARTS_H */
