/*
 * emit.c - writes the generated files (see emit.h): asks each part for its
 * files (wrappers.c: the wrapper source and lists for ld; lists.c: what is
 * not wrapped), rendered into one batch (render.c), then replaces each
 * output file atomically, so that a failed run never leaves a half-written
 * wrapper source for make to compile, nor a new one beside an old response
 * file.
 */
#include "emit/emit.h"

#include <stdio.h>
#include <stdlib.h>

#include "emit/parts.h"
#include "emit/render.h"

/* Every file is rendered before any is written (render.h). */
static int no_templates(const lwg_emit_options *opt)
{
    if (opt->templates_dir)
        return 0;
    fprintf(stderr, "libwrap-gen: no template directory: reinstall libwrap or pass "
                    "--templates DIR\n");
    return -1;
}

int emit_outputs(const lwg_inventory *inv, const lwg_emit_options *opt)
{
    if (no_templates(opt))
        return -1;
    emit_batch batch = {NULL, 0, 0};
    int rc = emit_wrappers(inv, opt, &batch);
    if (rc == 0)
        rc = emit_lists(inv, opt, &batch);
    return emit_batch_write(&batch, rc);
}

int emit_skip_filters(const lwg_inventory *inv, const lwg_emit_options *opt)
{
    if (no_templates(opt))
        return -1;
    emit_batch batch = {NULL, 0, 0};
    return emit_batch_write(&batch, emit_filter_lists(inv, opt, &batch));
}
