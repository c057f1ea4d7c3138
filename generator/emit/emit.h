/*
 * emit.h - writes every generated file from the inventory, through the text
 * templates in templates/ (template.h renders them). Files are written to a
 * temporary name and renamed: a failure leaves no partial output.
 */
#ifndef LIBWRAP_EMIT_H
#define LIBWRAP_EMIT_H

#include "model/inventory.h"

typedef struct lwg_emit_options {
    const char *outdir;        /* output directory */
    const char *templates_dir; /* directory holding the *.in templates */
    const char *name;          /* the wrapper's NAME */
    const char *soname;        /* the target's DT_SONAME, where the runtime wrappers
                                * look for originals of a privately dlopen()ed target;
                                * NULL: unknown (the global scope is searched) */
} lwg_emit_options;

/* Writes NAME.wrappers.c, NAME.wrap, NAME.skipped.txt, missing.filter and
 * uncertain.filter. Returns 0, or -1 after printing "libwrap-gen: PATH: what". */
int emit_outputs(const lwg_inventory *inv, const lwg_emit_options *opt);

/* Writes only missing.filter and uncertain.filter, from the functions'
 * skip reasons, exactly as emit_outputs does: `libwrap-gen check` rewrites
 * them with the link probes' verdicts. Returns as emit_outputs. */
int emit_skip_filters(const lwg_inventory *inv, const lwg_emit_options *opt);

#endif /* LIBWRAP_EMIT_H */
