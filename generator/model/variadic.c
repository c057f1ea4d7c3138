/*
 * variadic.c - va_list twins (see variadic.h).
 */
#include "model/variadic.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"
#include "model/symindex.h"

/* va_list after parameter adjustment: an array type decays, so the
 * canonical spelling is a pointer to the builtin tag on x86-64 and
 * AArch64-Linux, or a plain builtin pointer/struct elsewhere. */
static bool is_va_list(const lwg_param *p)
{
    return strstr(p->canonical, "__va_list_tag") || strstr(p->canonical, "__builtin_va_list") ||
           strstr(p->type, "va_list") || strcmp(p->canonical, "struct __va_list") == 0;
}

static bool same_type(const lwg_param *a, const lwg_param *b)
{
    return strcmp(a->canonical, b->canonical) == 0;
}

/* Does `twin` take f's fixed parameters, then one va_list, and return the same? */
static bool twin_matches(const lwg_function *f, const lwg_function *twin)
{
    if (twin->variadic || twin->nparams != f->nparams + 1)
        return false;
    if (strcmp(twin->ret_canonical, f->ret_canonical) != 0)
        return false;
    for (size_t i = 0; i < f->nparams; i++)
        if (!same_type(&f->params[i], &twin->params[i]))
            return false;
    return is_va_list(&twin->params[f->nparams]);
}

typedef struct lookup {
    lwg_symindex by_symbol, by_name;
} lookup;

/* The first declaration (not a duplicate) whose symbol or name is `key`. */
static lwg_function *find_declared(const lookup *lk, const char *key)
{
    lwg_function *best = NULL;
    const lwg_symindex *ix[2] = {&lk->by_symbol, &lk->by_name};
    for (int k = 0; k < 2; k++) {
        size_t n;
        lwg_function **hits = symindex_find(ix[k], key, &n);
        for (size_t i = 0; i < n; i++)
            if (hits[i]->skip != LWG_SKIP_DUPLICATE && (!best || hits[i] < best)) {
                best = hits[i];
                break;
            }
    }
    return best;
}

/* Candidate twin names for `name`, in the order they are tried. */
static size_t twin_candidates(const char *name, char *out[10])
{
    size_t n = 0;
    out[n++] = xstrdup_printf("v%s", name);
    /* The printf family: a "v" before "printf" or before up to three
     * letters of kind (gzprintf -> gzvprintf, sqlite3_mprintf ->
     * sqlite3_vmprintf, sqlite3_snprintf -> sqlite3_vsnprintf). */
    const char *pf = strstr(name, "printf");
    if (!pf)
        pf = strstr(name, "scanf");
    for (const char *at = pf; at && at >= name && pf - at <= 3; at--) {
        out[n++] = xstrdup_printf("%.*sv%s", (int)(at - name), name, at);
        if (at == name || at[-1] == '_')
            break;
    }
    out[n++] = xstrdup_printf("%s_v", name);
    out[n++] = xstrdup_printf("%sv", name);
    /* A "v" after the last underscore: sqlite3_str_appendf ->
     * sqlite3_str_vappendf. */
    const char *us = strrchr(name, '_');
    if (us && us[1])
        out[n++] = xstrdup_printf("%.*sv%s", (int)(us + 1 - name), name, us + 1);
    /* ImageMagick's: FormatLocaleString -> FormatLocaleStringList. */
    out[n++] = xstrdup_printf("%sList", name);
    return n;
}

static bool mapped_twin(const lookup *lk, lwg_function *f, const lwg_va_mapping *map, size_t nmap,
                        int *error)
{
    for (size_t m = 0; m < nmap; m++) {
        if (strcmp(map[m].symbol, f->symbol) != 0 && strcmp(map[m].symbol, f->name) != 0)
            continue;
        lwg_function *twin = find_declared(lk, map[m].twin);
        if (!twin) {
            fprintf(stderr, "libwrap-gen: --va-twin %s=%s: %s is not declared by libwrap.h; "
                            "include its header or fix the name\n", map[m].symbol, map[m].twin,
                    map[m].twin);
            *error = 1;
        } else if (!twin_matches(f, twin)) {
            fprintf(stderr, "libwrap-gen: --va-twin %s=%s: %s:%u: %s does not take the fixed "
                            "parameters of %s followed by one va_list\n", map[m].symbol,
                    map[m].twin, twin->file, twin->line, twin->name, f->name);
            *error = 1;
        } else {
            f->va_twin = xstrdup(twin->symbol);
        }
        return true;
    }
    return false;
}

int variadic_resolve(lwg_inventory *inv, const lwg_va_mapping *map, size_t nmap)
{
    int error = 0;
    lookup lk;
    symindex_build(&lk.by_symbol, inv, false);
    symindex_build(&lk.by_name, inv, true);
    for (size_t m = 0; m < nmap; m++) {
        const lwg_function *f = find_declared(&lk, map[m].symbol);
        if (!f || !f->variadic) {
            fprintf(stderr, "libwrap-gen: --va-twin %s=%s: %s is not a declared variadic function\n",
                    map[m].symbol, map[m].twin, map[m].symbol);
            error = 1;
        }
    }
    for (size_t i = 0; i < inv->nfuncs; i++) {
        lwg_function *f = &inv->funcs[i];
        if (!f->variadic || f->skip == LWG_SKIP_DUPLICATE)
            continue;
        if (!mapped_twin(&lk, f, map, nmap, &error)) {
            char *cand[10];
            size_t n = twin_candidates(f->name, cand);
            for (size_t k = 0; k < n; k++) {
                lwg_function *twin = !f->va_twin ? find_declared(&lk, cand[k]) : NULL;
                if (twin && twin_matches(f, twin))
                    f->va_twin = xstrdup(twin->symbol);
                free(cand[k]);
            }
        }
    }
    symindex_free(&lk.by_symbol);
    symindex_free(&lk.by_name);
    return error ? -1 : 0;
}

size_t variadic_skip_twinless(lwg_inventory *inv)
{
    size_t skipped = 0;
    for (size_t i = 0; i < inv->nfuncs && !inv->abi; i++) {
        lwg_function *f = &inv->funcs[i];
        if (f->variadic && !f->va_twin && f->skip == LWG_WRAP) {
            function_skip(f, LWG_SKIP_VARIADIC, "no va_list twin; name one with --va-twin SYM=TWIN");
            skipped++;
        }
    }
    return skipped;
}
