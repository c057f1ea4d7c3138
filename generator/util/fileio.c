/*
 * fileio.c - whole-file input and atomic output (see fileio.h).
 */
#include "util/fileio.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/strbuf.h"

char *read_whole_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    strbuf sb = STRBUF_INIT;
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        sb_putn(&sb, chunk, n);
    int err = ferror(f) ? (errno ? errno : EIO) : 0;
    fclose(f);
    if (err) {
        sb_free(&sb);
        errno = err;
        return NULL;
    }
    *len = sb.len;
    return sb_steal(&sb);
}

int write_file_atomically(const char *path, const char *data, size_t len)
{
    /* The PID keeps two concurrent generator runs (make -j) from sharing a
     * temporary file. */
    char *tmp = xstrdup_printf("%s.tmp.%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "wb");
    if (!f) {
        fprintf(stderr, "libwrap-gen: %s: cannot create: %s (is the output directory writable?)\n",
                tmp, strerror(errno));
        free(tmp);
        return -1;
    }
    bool ok = fwrite(data, 1, len, f) == len;
    int err = errno;
    if (fclose(f) != 0 && ok) {
        ok = false;
        err = errno;
    }
    if (ok && rename(tmp, path) != 0) {
        ok = false;
        err = errno;
    }
    if (!ok) {
        fprintf(stderr, "libwrap-gen: %s: cannot write: %s\n", path, strerror(err));
        unlink(tmp);
    }
    free(tmp);
    return ok ? 0 : -1;
}

int read_file_lines(const char *path, lwg_lines *t)
{
    size_t len = 0;
    t->n = 0;
    t->line = NULL;
    t->text = read_whole_file(path, &len);
    if (!t->text)
        return -1;
    size_t cap = 1024;
    t->line = xmalloc(cap * sizeof *t->line);
    for (char *p = t->text; p < t->text + len;) {
        if (t->n == cap)
            t->line = xrealloc(t->line, (cap *= 2) * sizeof *t->line);
        t->line[t->n++] = p;
        char *nl = memchr(p, '\n', (size_t)(t->text + len - p));
        if (!nl)
            break;
        *nl = '\0';
        p = nl + 1;
    }
    return 0;
}

void lines_free(lwg_lines *t)
{
    free(t->text);
    free(t->line);
}
