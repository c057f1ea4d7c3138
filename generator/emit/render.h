/*
 * render.h - what the emitters share: templates rendered into a batch of
 * files that are written only when every template has rendered (a template
 * error leaves the previous outputs intact rather than a new wrapper source
 * next to an old response file), and C string literals. The parts
 * (parts.h) and the orchestrator (emit.c) use it; it uses neither.
 */
#ifndef LIBWRAP_GEN_EMIT_RENDER_H
#define LIBWRAP_GEN_EMIT_RENDER_H

#include <stddef.h>

#include "emit/emit.h"
#include "util/template.h"

/* `s` escaped for the inside of a C string literal; a new string. */
char *emit_c_string(const char *s);

/* The rendered files of one run; start with {NULL, 0, 0}. */
typedef struct emit_batch {
    struct emit_file {
        char *path;
        char *text;
        size_t len;
    } *files;
    size_t n, cap;
} emit_batch;

/* Renders templates_dir/TEMPLATE with `vars` into the batch, to be written
 * as outdir/FILENAME. 0, or -1 after a message. */
int emit_render(emit_batch *batch, const lwg_emit_options *opt, const char *tmpl,
                const lwg_tvars *vars, const char *filename);

/* When rc is 0, writes every file of the batch atomically, in order, up to
 * the first failure; frees the batch either way. Returns rc, or -1 after
 * "libwrap-gen: PATH: what" for a file that could not be written. */
int emit_batch_write(emit_batch *batch, int rc);

#endif /* LIBWRAP_GEN_EMIT_RENDER_H */
