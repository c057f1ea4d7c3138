/*
 * drop.c - one wrapper that does not compile never fails the build.
 *
 *   libwrap-gen drop --inventory NAME.inventory.json --wrappers NAME.wrappers.c
 *                    --log COMPILER_LOG --out NAME.dropped
 *
 * reads the compiler's errors, finds the wrapper each one is in (every C
 * name of function N ends in _N: libwrap_w_N, libwrap_r_N, libwrap_g_N,
 * libwrap_orig_N), and appends "SYMBOL<TAB>file:line: error" for each to
 * NAME.dropped, which the generator reads (--drop) and lists as `compile`
 * in NAME.skipped.txt. The Makefile calls it when the wrappers do not
 * compile, regenerates and compiles again. An error it cannot attribute to
 * a wrapper (a missing header, a broken compiler) fails, and so do errors
 * in every wrapper left: that is not one function's problem. When the
 * compiler quotes the source line (gcc's
 * "  LINE | text") and NAME.wrappers.c no longer has it there, the file was
 * generated again while it compiled (make -j): nothing is dropped, and the
 * exit status 3 says to compile again.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check/drop.h"
#include "util/fileio.h"
#include "model/inventory.h"
#include "util/strbuf.h"

static int read_lines(const char *path, lwg_lines *t)
{
    if (read_file_lines(path, t) == 0)
        return 0;
    fprintf(stderr, "libwrap-gen drop: %s: %s\n", path, strerror(errno));
    return -1;
}

/*
 * The source line gcc quotes under a message, "  157 | text": the text
 * after the one blank that follows '|' (gcc prints "  157 |" alone for an
 * empty line), with its own indentation, so that it compares with the
 * line of the file (gcc expands tabs; the generated file has none). Its
 * number in *lineno; NULL when the line is no quote.
 */
static const char *quoted_line(const char *s, unsigned long *lineno)
{
    while (*s == ' ')
        s++;
    if (*s < '0' || *s > '9')
        return NULL;
    unsigned long n = 0;
    for (; *s >= '0' && *s <= '9'; s++)
        n = n * 10 + (unsigned long)(*s - '0');
    if (s[0] != ' ' || s[1] != '|')
        return NULL;
    s += 2;
    if (*s == ' ')
        s++;
    else if (*s)
        return NULL;
    *lineno = n;
    return s;
}

/* The N of the last libwrap_<word>_N on the line, or -1. */
static long function_index_on(const char *s)
{
    long found = -1;
    for (const char *p = strstr(s, "libwrap_"); p; p = strstr(p + 1, "libwrap_")) {
        const char *q = p + 8;
        while ((*q >= 'a' && *q <= 'z') || *q == '_')
            q++;
        if (q[-1] != '_' || *q < '0' || *q > '9')
            continue;
        char *end;
        long n = strtol(q, &end, 10);
        if (!((*end >= 'a' && *end <= 'z') || (*end >= 'A' && *end <= 'Z') || *end == '_' ||
              (*end >= '0' && *end <= '9')))
            found = n;
    }
    return found;
}

/* The function whose wrapper holds line `lineno` (1-based), or -1: the
 * nearest libwrap_*_N at or above it. */
static long function_at(const lwg_lines *w, unsigned long lineno)
{
    for (unsigned long k = lineno < w->n ? lineno : w->n; k-- > 0;) {
        long n = function_index_on(w->line[k]);
        if (n >= 0)
            return n;
    }
    return -1;
}

int drop_load(lwg_inventory *inv, const char *path)
{
    lwg_lines t = {0};
    if (read_lines(path, &t) != 0)
        return -1;
    size_t n = 0;
    for (size_t k = 0; k < t.n; k++) {
        char *tab = strchr(t.line[k], '\t');
        if (!tab)
            continue;
        *tab = '\0';
        lwg_function *f = inventory_find_symbol(inv, t.line[k]);
        if (f) {
            function_skip(f, LWG_SKIP_COMPILE, tab + 1);
            n += f->skip == LWG_SKIP_COMPILE;
        }
    }
    lines_free(&t);
    return (int)n;
}

int drop_record(const drop_options *opt)
{
    const char *inventory = opt->inventory, *wrappers = opt->wrappers, *log = opt->log, *out = opt->out;
    lwg_inventory inv;
    inventory_init(&inv);
    lwg_lines w = {0}, l = {0}, known = {0};
    int rc = 1;
    if (inventory_read_json(&inv, inventory) != 0 || read_lines(wrappers, &w) != 0 ||
        read_lines(log, &l) != 0)
        goto out;
    /* What is already dropped (by the other object's compile under make
     * -j) is not added or warned about again. */
    if (access(out, F_OK) == 0 && read_lines(out, &known) != 0)
        goto out;

    /* "PATH:LINE:COL: error: MESSAGE" where PATH ends with the wrappers'
     * base name (the compiler may print it relative or absolute). */
    const char *base = strrchr(wrappers, '/');
    base = base ? base + 1 : wrappers;
    size_t nbase = strlen(base);
    strbuf dropped = STRBUF_INIT;
    size_t errors = 0, attributed = 0;
    bool *seen = xcalloc(inv.nfuncs ? inv.nfuncs : 1, sizeof *seen);
    for (size_t k = 0; k < l.n; k++) {
        const char *s = l.line[k], *err = strstr(s, ": error: ");
        if (!err)
            continue;
        errors++;
        const char *hit = strstr(s, base);
        unsigned long lineno;
        if (!hit || hit > err || hit[nbase] != ':' || sscanf(hit + nbase + 1, "%lu:", &lineno) != 1)
            continue;
        /* gcc quotes the line: "  157 | text". */
        unsigned long quoted;
        const char *text;
        if (k + 1 < l.n && (text = quoted_line(l.line[k + 1], &quoted)) != NULL && quoted == lineno &&
            (lineno > w.n || strcmp(text, w.line[lineno - 1]) != 0)) {
            fprintf(stderr, "libwrap-gen drop: %s changed while it was compiled: compile again\n",
                    wrappers);
            free(seen);
            sb_free(&dropped);
            rc = 3;
            goto out;
        }
        long n = function_at(&w, lineno);
        /* An error inside a template of the preamble (libwrap_missing<T>
         * instantiated with a type it cannot take): gcc's context before
         * it says which line instantiated it, "FILE:LINE:COL:   required
         * from here", and that line is a wrapper's. */
        for (size_t q = k; n < 0 && q-- > 0 && k - q <= 12;) {
            const char *ctx = l.line[q], *from = strstr(ctx, "required from here");
            if (strstr(ctx, ": error: "))
                break;
            const char *at = from ? strstr(ctx, base) : NULL;
            unsigned long by;
            if (at && at < from && at[nbase] == ':' && sscanf(at + nbase + 1, "%lu:", &by) == 1)
                n = function_at(&w, by);
        }
        if (n < 0 || (size_t)n >= inv.nfuncs)
            continue;
        attributed++;
        if (seen[n])
            continue;
        seen[n] = true;
        bool already = false;
        size_t slen = strlen(inv.funcs[n].symbol);
        for (size_t q = 0; q < known.n && !already; q++)
            already = strncmp(known.line[q], inv.funcs[n].symbol, slen) == 0 && known.line[q][slen] == '\t';
        if (already)
            continue;
        sb_printf(&dropped, "%s\t%s:%lu: %s\n", inv.funcs[n].symbol, base, lineno, err + 9);
    }
    /* Every wrapper left would be dropped: the same error in each (a broken
     * template, compiler or flags), not one function's problem. */
    size_t left = 0, now = 0;
    for (size_t i = 0; i < inv.nfuncs; i++) {
        left += inv.funcs[i].skip == LWG_WRAP;
        now += inv.funcs[i].skip == LWG_WRAP && seen[i];
    }
    free(seen);
    if (left > 1 && now == left) {
        fprintf(stderr,
                "libwrap-gen drop: %s: every one of the %zu wrappers of %s fails to compile: "
                "not one function's problem; see the compiler's messages\n",
                log, left, wrappers);
        sb_free(&dropped);
        goto out;
    }
    if (errors == 0 || attributed < errors) {
        fprintf(stderr, "libwrap-gen drop: %s: %zu of %zu errors are in no wrapper of %s: "
                        "not one function's problem; see the compiler's messages\n",
                log, errors - attributed, errors, wrappers);
        sb_free(&dropped);
        goto out;
    }
    FILE *f = fopen(out, "a");
    if (!f || (dropped.s && fputs(dropped.s, f) == EOF) || fclose(f) != 0) {
        fprintf(stderr, "libwrap-gen drop: %s: %s\n", out, strerror(errno));
        sb_free(&dropped);
        goto out;
    }
    /* One warning per function: "SYMBOL left out: ..." */
    for (char *line = dropped.s, *nl; line && *line; line = nl + 1) {
        nl = strchr(line, '\n');
        *nl = '\0';
        char *tab = strchr(line, '\t');
        *tab = '\0';
        fprintf(stderr, "libwrap-gen drop: warning: %s left out, its wrapper does not compile: %s\n",
                line, tab + 1);
    }
    sb_free(&dropped);
    rc = 0;
out:
    lines_free(&w);
    lines_free(&l);
    lines_free(&known);
    inventory_free(&inv);
    return rc;
}
