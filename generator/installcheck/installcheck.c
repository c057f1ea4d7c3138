/*
 * installcheck.c - the verdict of `make installcheck` on one measured run
 * of main (installcheck.h).
 *
 * PREFIX.out, PREFIX.err and PREFIX.status are the unwrapped run's (baseline)
 * and the measured run's stdout, stderr and exit status: all three must be
 * identical. The called list names the functions main really called (the
 * audit module liblibwrap_audit.so, audit/, one name a line); every wrapped
 * one among them must have visits in DIR/profile.json. Which functions are
 * wrapped is the inventory's answer (inventory_is_wrapped). The referenced
 * list names main.o's undefined symbols: those wrapped but not called are
 * reported, not failed (a call on a path not taken, a builtin the compiler
 * expanded). Without a called list (a static-only target: no PLT to watch),
 * the referenced ones must all be measured. A call that main's fork()ed
 * child made first ("fork NAME" in the called list) counts in the child's
 * results (DIR/fork-PID/profile.json, whose visits count too); one that
 * no results hold is listed, not failed (a child that ends by _exit
 * writes none).
 */
#include <dirent.h>
#include <errno.h>
#include <json-c/json.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "installcheck/installcheck.h"
#include "model/inventory.h"
#include "profile_format.h"
#include "util/fileio.h"
#include "util/strbuf.h"

typedef struct names {
    char **v;
    size_t n;
} names;

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void names_add(names *s, const char *name, size_t len)
{
    s->v = xrealloc(s->v, (s->n + 1) * sizeof *s->v);
    s->v[s->n++] = xstrdup_printf("%.*s", (int)len, name);
}

static void names_sort(names *s)
{
    qsort(s->v, s->n, sizeof *s->v, cmp_str);
    size_t k = 0;
    for (size_t i = 0; i < s->n; i++) {
        if (k && strcmp(s->v[k - 1], s->v[i]) == 0)
            free(s->v[i]);
        else
            s->v[k++] = s->v[i];
    }
    s->n = k;
}

static bool names_has(const names *s, const char *name)
{
    return s->n && bsearch(&name, s->v, s->n, sizeof *s->v, cmp_str) != NULL;
}

static void names_free(names *s)
{
    for (size_t i = 0; i < s->n; i++)
        free(s->v[i]);
    free(s->v);
}

/* `sym` appended to a message's list, by its readable name where it has
 * one (`readable`: read_wrapped's). */
static void list_add(strbuf *list, const names *readable, const char *sym)
{
    size_t n = strlen(sym), lo = 0, hi = readable->n;
    const char *shown = sym;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strncmp(readable->v[mid], sym, n);
        if (c == 0 && readable->v[mid][n] == '\t') {
            shown = readable->v[mid] + n + 1;
            break;
        }
        if (c < 0 || (c == 0 && readable->v[mid][n] < '\t'))
            lo = mid + 1;
        else
            hi = mid;
    }
    sb_printf(list, "%s%s", list->len ? ", " : "", shown);
}

/* Of the functions in `these` that are wrapped and in neither `seen` nor
 * `seen2` (judged already; either may be NULL): how many were measured
 * (`visited`); the others are listed in `unmeasured`. */
static size_t judge(const names *these, const names *seen, const names *seen2, const names *wrapped,
                    const names *visited, const names *readable, strbuf *unmeasured)
{
    size_t measured = 0;
    for (size_t i = 0; i < these->n; i++) {
        const char *sym = these->v[i];
        if (!names_has(wrapped, sym) || (seen && names_has(seen, sym)) || (seen2 && names_has(seen2, sym)))
            continue;
        if (names_has(visited, sym))
            measured++;
        else
            list_add(unmeasured, readable, sym);
    }
    return measured;
}

/* One name a line; with `forked`, the lines "fork NAME" (the audit
 * module's calls bound first in a fork()ed child) go there. */
static int read_names(const char *path, names *out, names *forked)
{
    lwg_lines t;
    if (read_file_lines(path, &t) != 0) {
        fprintf(stderr, "make: error: %s: %s\n", path, strerror(errno));
        return -1;
    }
    for (size_t k = 0; k < t.n; k++) {
        const char *p = t.line[k];
        size_t n = strlen(p);
        while (n && (p[n - 1] == ' ' || p[n - 1] == '\r'))
            n--;
        if (forked && n > 5 && strncmp(p, "fork ", 5) == 0)
            names_add(forked, p + 5, n - 5);
        else if (n)
            names_add(out, p, n);
    }
    lines_free(&t);
    names_sort(out);
    if (forked)
        names_sort(forked);
    return 0;
}

/* The symbols the inventory wraps: the model's one answer
 * (inventory_is_wrapped), the same that wrote NAME.wrap and the wrappers;
 * and "SYMBOL\tNAME" where the readable name differs (C++), for messages. */
static int read_wrapped(const char *path, names *out, names *readable)
{
    lwg_inventory inv;
    if (inventory_read_json(&inv, path) != 0)
        return -1;
    for (size_t i = 0; i < inv.nfuncs; i++)
        if (inventory_is_wrapped(&inv, &inv.funcs[i])) {
            const char *sym = inv.funcs[i].symbol;
            names_add(out, sym, strlen(sym));
            char *name = inventory_display_name(&inv.funcs[i]);
            if (name && strcmp(name, sym) != 0) {
                char *both = xstrdup_printf("%s\t%s", sym, name);
                names_add(readable, both, strlen(both));
                free(both);
            }
            free(name);
        }
    inventory_free(&inv);
    names_sort(readable);
    names_sort(out);
    return 0;
}

/* The symbols of DIR/profile.json's "functions" with visits > 0, and of
 * the profiles of its fork()ed children (DIR/fork-PID/, nested); a child
 * without results is none of them. */
static int read_visited(const char *dir, names *out, bool child)
{
    char *path = xstrdup_printf("%s/" LWP_FILE, dir);
    size_t len = 0;
    char *text = read_whole_file(path, &len);
    if (!text && child) {
        free(path);
        return 0;
    }
    if (!text) {
        fprintf(stderr, "make: error: %s: %s: is the runtime disabled (LIBWRAP_ENABLE_PROFILING)?\n",
                path, strerror(errno));
        free(path);
        return -1;
    }
    /* A call path nests two levels a call: as deep as libwrap-report reads
     * (MagickCore's own calls nest 15 deep, past json-c's default 32). */
    json_tokener *tok = json_tokener_new_ex(JSON_TOKENER_DEFAULT_DEPTH * 64);
    json_object *root = tok ? json_tokener_parse_ex(tok, text, (int)len) : NULL;
    const char *why = tok && !root ? json_tokener_error_desc(json_tokener_get_error(tok)) : NULL;
    free(text);
    json_object *funcs = NULL;
    if (!root) {
        fprintf(stderr, "make: error: %s: not JSON (%s)\n", path, why ? why : "out of memory");
        json_tokener_free(tok);
        free(path);
        return -1;
    }
    json_tokener_free(tok);
    if (!json_object_object_get_ex(root, LWP_KEY(functions), &funcs) || !json_object_is_type(funcs, json_type_array)) {
        fprintf(stderr, "make: error: %s: not a libwrap profile (no \"functions\" array)\n", path);
        json_object_put(root);
        free(path);
        return -1;
    }
    for (size_t i = 0; i < json_object_array_length(funcs); i++) {
        json_object *f = json_object_array_get_idx(funcs, i), *sym = NULL, *visits = NULL;
        if (json_object_object_get_ex(f, LWP_KEY(symbol), &sym) &&
            json_object_object_get_ex(f, LWP_KEY(visits), &visits) && json_object_get_int64(visits) > 0) {
            /* A versioned region (exp@GLIBC_2.2.5, exp@@GLIBC_2.29) is a
             * call of the wrapped name. */
            const char *s = json_object_get_string(sym);
            names_add(out, s, strcspn(s, "@"));
        }
    }
    json_object_put(root);
    free(path);
    DIR *d = opendir(dir);
    for (struct dirent *de; d && (de = readdir(d)) != NULL;) {
        if (strncmp(de->d_name, "fork-", 5) != 0)
            continue;
        char *sub = xstrdup_printf("%s/%s", dir, de->d_name);
        int rc = read_visited(sub, out, true);
        free(sub);
        if (rc != 0) {
            closedir(d);
            return -1;
        }
    }
    if (d)
        closedir(d);
    names_sort(out);
    return 0;
}

/* Are PREFIX.what of the baseline and of the run byte for byte equal? */
static int same_file(const char *baseline, const char *run, const char *what, bool *same)
{
    char *a = xstrdup_printf("%s.%s", baseline, what), *b = xstrdup_printf("%s.%s", run, what);
    size_t la = 0, lb = 0;
    char *ta = read_whole_file(a, &la), *tb = ta ? read_whole_file(b, &lb) : NULL;
    int rc = 0;
    if (!ta || !tb) {
        fprintf(stderr, "make: error: %s: %s\n", !ta ? a : b, strerror(errno));
        rc = -1;
    } else {
        *same = la == lb && memcmp(ta, tb, la) == 0;
    }
    free(ta);
    free(tb);
    free(a);
    free(b);
    return rc;
}

/* The unwrapped run died by a signal (the shell's status 128 + N): no
 * baseline to compare with, since every run of such a main may crash
 * alike. Said with the signal's name and the file. Or it could not start
 * (127: the loader did not find or could not load a library): said with
 * the loader's words, not blamed on a measured run. */
static int baseline_failed(const char *baseline)
{
    char *path = xstrdup_printf("%s.status", baseline);
    size_t len = 0;
    char *text = read_whole_file(path, &len);
    int st = text ? atoi(text) : 0;
    free(text);
    char *err_path = xstrdup_printf("%s.err", baseline);
    char *err = st == 127 ? read_whole_file(err_path, &len) : NULL;
    free(err_path);
    if (err && strstr(err, "error while loading shared libraries")) {
        char *nl = strchr(err, '\n');
        if (nl)
            *nl = '\0';
        fprintf(stderr,
                "make: error: %s: main, run unwrapped, could not start (status 127): %s; fix LDFLAGS "
                "(-L, -Wl,-rpath) or the library so that main runs by itself\n",
                path, err);
        free(err);
        free(path);
        return 1;
    }
    free(err);
    if (st > 128 && st < 128 + 65) {
        fprintf(stderr,
                "make: error: %s: main, run unwrapped, was killed by signal %d (%s): fix main.c; "
                "installcheck compares the measured runs with a main that ends by itself\n",
                path, st - 128, strsignal(st - 128));
        free(path);
        return 1;
    }
    free(path);
    return 0;
}

int installcheck_verdict(const installcheck_options *opt)
{
    const char *mode = opt->mode, *inventory = opt->inventory, *baseline = opt->baseline, *run = opt->run,
               *profile = opt->profile, *called_path = opt->called, *referenced_path = opt->referenced;
    int rc = 1;
    names wrapped = {0}, readable = {0}, called = {0}, forked = {0}, referenced = {0}, visited = {0};
    static const char *const what[] = {"status", "out", "err"};
    if (baseline_failed(baseline))
        goto out;
    for (size_t k = 0; k < 3; k++) {
        bool same = false;
        if (same_file(baseline, run, what[k], &same) != 0)
            goto out;
        if (!same) {
            fprintf(stderr,
                    "make: error: %s behaves differently from main: diff %s.%s %s.%s (exit status, "
                    "stdout and stderr must be identical)\n",
                    run, baseline, what[k], run, what[k]);
            goto out;
        }
    }
    if (read_wrapped(inventory, &wrapped, &readable) != 0 ||
        (called_path && read_names(called_path, &called, &forked) != 0) ||
        (referenced_path && read_names(referenced_path, &referenced, NULL) != 0))
        goto out;

    /* What main called (or, without the audit, what it references) among
     * the wrapped functions: each must have been measured. Said before
     * the results are read: a main that calls none leaves none. */
    const names *calls = called_path ? &called : &referenced;
    size_t expected = 0;
    for (size_t i = 0; i < calls->n; i++)
        expected += names_has(&wrapped, calls->v[i]);
    for (size_t i = 0; i < forked.n; i++)
        expected += names_has(&wrapped, forked.v[i]) && !names_has(&called, forked.v[i]);
    if (expected == 0) {
        fprintf(stderr, "make: error: main %s none of the wrapped functions: add calls of the "
                        "library to the main program (README.md, 'main calls no wrapped function')\n",
                called_path ? "called" : "references");
        goto out;
    }
    if (read_visited(profile, &visited, false) != 0)
        goto out;
    strbuf missed = STRBUF_INIT, not_called = STRBUF_INIT, child_missed = STRBUF_INIT;
    size_t measured = judge(calls, NULL, NULL, &wrapped, &visited, &readable, &missed);
    /* Calls a fork()ed child made: in its results, or listed (a child
     * that ends by _exit writes none). */
    measured += judge(&forked, &called, NULL, &wrapped, &visited, &readable, &child_missed);
    /* Referenced but not seen bound: a path not taken, an inline
     * expansion, or a call through the function's address (main takes it
     * too: the loader binds it at the start, not at a call, which the
     * audit leaves out), which its visits tell. */
    if (called_path)
        measured += judge(&referenced, &called, &forked, &wrapped, &visited, &readable, &not_called);
    if (missed.len && (called_path || measured == 0)) {
        fprintf(stderr, "make: error: %s: main %s these wrapped functions but they were not "
                        "measured: %s (README.md, 'installcheck fails')\n",
                mode, called_path ? "called" : "references (a static-only target leaves no record of "
                                               "which it called)",
                missed.s);
    } else {
        /* Without a record of the calls (a static-only target, no PLT to
         * watch), those main references on paths it did not take (C++
         * error paths inlined from the headers) are listed, not failed,
         * once some were measured. */
        printf("  OK    %s: %zu wrapped function%s that main %s %s measured; stdout, stderr "
               "and exit status identical\n",
               mode, measured, measured == 1 ? "" : "s", called_path ? "called" : "references",
               measured == 1 ? "was" : "were");
        if (not_called.len)
            printf("        referenced by main but not called on this run: %s\n", not_called.s);
        if (missed.len)
            printf(
                "        referenced by main, not measured (a static-only target leaves no record "
                "of which main called): %s\n",
                missed.s);
        if (child_missed.len)
            printf(
                "        called in a fork()ed child that left no results (one that ends by _exit "
                "writes none): %s\n",
                child_missed.s);
        rc = 0;
    }
    sb_free(&missed);
    sb_free(&not_called);
    sb_free(&child_missed);
out:
    names_free(&wrapped);
    names_free(&readable);
    names_free(&called);
    names_free(&forked);
    names_free(&referenced);
    names_free(&visited);
    return rc;
}
