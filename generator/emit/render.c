/*
 * render.c - what the emitters share (render.h): templates rendered into a
 * batch of files written together, and C string literals.
 */
#include "emit/render.h"

#include <stdio.h>
#include <stdlib.h>

#include "util/fileio.h"
#include "util/strbuf.h"

char *emit_c_string(const char *s)
{
    strbuf sb = STRBUF_INIT;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            sb_printf(&sb, "\\%c", *p);
        else if (*p < 0x20 || *p == 0x7f)
            sb_printf(&sb, "\\%03o", *p);
        else if (*p == '?' && p[1] == '?')
            sb_put(&sb, "?\\"); /* no trigraphs under -std=c11 */
        else
            sb_putn(&sb, (const char *)p, 1);
    }
    return sb_steal(&sb);
}

int emit_render(emit_batch *batch, const lwg_emit_options *opt, const char *tmpl,
                const lwg_tvars *vars, const char *filename)
{
    char *tpath = xstrdup_printf("%s/%s", opt->templates_dir, tmpl);
    char *text = NULL;
    size_t len = 0;
    int rc = template_render_file(tpath, vars, &text, &len);
    free(tpath);
    if (rc < 0)
        return -1;
    if (batch->n == batch->cap) {
        batch->cap = batch->cap ? 2 * batch->cap : 8;
        batch->files = xrealloc(batch->files, batch->cap * sizeof *batch->files);
    }
    struct emit_file *f = &batch->files[batch->n++];
    f->path = xstrdup_printf("%s/%s", opt->outdir ? opt->outdir : ".", filename);
    f->text = text;
    f->len = len;
    return 0;
}

int emit_batch_write(emit_batch *batch, int rc)
{
    for (size_t i = 0; i < batch->n; i++) {
        if (rc == 0)
            rc = write_file_atomically(batch->files[i].path, batch->files[i].text, batch->files[i].len);
        free(batch->files[i].path);
        free(batch->files[i].text);
    }
    free(batch->files);
    *batch = (emit_batch){NULL, 0, 0};
    return rc;
}
