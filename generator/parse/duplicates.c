/*
 * duplicates.c - one entry per symbol (internal.h): redeclarations take
 * the asm label of the last one, and a symbol declared twice keeps its
 * first declaration.
 */
#include <stdlib.h>
#include <string.h>

#include "model/symindex.h"
#include "parse/internal.h"
#include "util/strbuf.h"

typedef struct usr_entry {
    const char *usr;
    size_t index;
} usr_entry;

static int cmp_usr(const void *pa, const void *pb)
{
    const usr_entry *a = pa, *b = pb;
    int c = strcmp(a->usr, b->usr);
    return c ? c : (a->index > b->index) - (a->index < b->index);
}

/* An asm label may come with a later redeclaration: glibc declares
 * `sscanf`, then redirects it with __REDIRECT to __isoc99_sscanf. libclang
 * reports the label only on the declarations that follow it, while the
 * compiler binds every call to it, so all declarations of an entity take
 * the symbol of the last one. And in C++ a function is inline when any of
 * its declarations is: yaml-cpp declares YAML::Node's members in the class
 * and defines them `inline` in another header. libclang parses without
 * function bodies here (no definition to ask), so the inline one tells the
 * others: no symbol to intercept, not one the library lacks. (In C a
 * declaration without `inline` makes the inline definition an external
 * one, which the library exports.) */
static void unify_inline(lwg_inventory *inv, const usr_entry *e, size_t n)
{
    bool inl = false;
    for (size_t k = 0; k < n; k++)
        inl |= inv->funcs[e[k].index].skip == LWG_SKIP_INLINE;
    for (size_t k = 0; inl && k < n; k++) {
        lwg_function *f = &inv->funcs[e[k].index];
        f->is_inline = true;
        if (f->skip == LWG_WRAP)
            function_skip(f, LWG_SKIP_INLINE, NULL);
    }
}

void unify_redeclarations(lwg_inventory *inv, char **usr, bool cxx)
{
    usr_entry *e = xmalloc((inv->nfuncs ? inv->nfuncs : 1) * sizeof *e);
    for (size_t i = 0; i < inv->nfuncs; i++)
        e[i] = (usr_entry){usr[i], i};
    qsort(e, inv->nfuncs, sizeof *e, cmp_usr);
    for (size_t i = 0; i < inv->nfuncs;) {
        size_t j = i + 1;
        while (j < inv->nfuncs && e[j].usr[0] && strcmp(e[j].usr, e[i].usr) == 0)
            j++;
        const char *last = inv->funcs[e[j - 1].index].symbol;
        for (size_t k = i; k + 1 < j; k++) {
            lwg_function *f = &inv->funcs[e[k].index];
            if (strcmp(f->symbol, last) != 0) {
                free(f->symbol);
                f->symbol = xstrdup(last);
            }
        }
        if (cxx && j - i > 1)
            unify_inline(inv, e + i, j - i);
        i = j;
    }
    free(e);
}

/* The same symbol declared twice: the first declaration is kept. */
void mark_duplicates(lwg_inventory *inv)
{
    lwg_symindex ix;
    symindex_build(&ix, inv, false);
    for (size_t i = 0; i < ix.n;) {
        size_t n;
        lwg_function **same = symindex_find(&ix, ix.sorted[i]->symbol, &n);
        const lwg_function *g = same[0];
        const char *base = strrchr(g->file, '/');
        for (size_t k = 1; k < n; k++) {
            /* Overrides any other reason: the kept declaration speaks. */
            same[k]->skip = LWG_SKIP_DUPLICATE;
            free(same[k]->skip_detail);
            same[k]->skip_detail =
                xstrdup_printf("first declared at %s:%u", base ? base + 1 : g->file, g->line);
        }
        i += n;
    }
    symindex_free(&ix);
}

