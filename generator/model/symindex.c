/*
 * symindex.c - sorted lookup of functions by symbol or name (symindex.h).
 */
#include "model/symindex.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"

static const char *key_of(const lwg_symindex *ix, const lwg_function *f)
{
    return ix->by_name ? f->name : f->symbol;
}

/* qsort has no context argument in C11: the key choice is encoded by two
 * comparators. Ties keep declaration order (the array's address order). */
static int order(const lwg_function *a, const lwg_function *b, int c)
{
    if (c)
        return c;
    return (uintptr_t)a < (uintptr_t)b ? -1 : (uintptr_t)a > (uintptr_t)b;
}

static int cmp_symbol(const void *pa, const void *pb)
{
    const lwg_function *a = *(lwg_function *const *)pa, *b = *(lwg_function *const *)pb;
    return order(a, b, strcmp(a->symbol, b->symbol));
}

static int cmp_name(const void *pa, const void *pb)
{
    const lwg_function *a = *(lwg_function *const *)pa, *b = *(lwg_function *const *)pb;
    return order(a, b, strcmp(a->name, b->name));
}

void symindex_build(lwg_symindex *ix, lwg_inventory *inv, bool by_name)
{
    ix->n = inv->nfuncs;
    ix->by_name = by_name;
    ix->sorted = xmalloc((ix->n ? ix->n : 1) * sizeof *ix->sorted);
    for (size_t i = 0; i < ix->n; i++)
        ix->sorted[i] = &inv->funcs[i];
    qsort(ix->sorted, ix->n, sizeof *ix->sorted, by_name ? cmp_name : cmp_symbol);
}

void symindex_free(lwg_symindex *ix)
{
    free(ix->sorted);
    ix->sorted = NULL;
    ix->n = 0;
}

lwg_function **symindex_find(const lwg_symindex *ix, const char *key, size_t *count)
{
    size_t lo = 0, hi = ix->n;
    while (lo < hi) { /* first position whose key is >= key */
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(key_of(ix, ix->sorted[mid]), key) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    size_t end = lo;
    while (end < ix->n && strcmp(key_of(ix, ix->sorted[end]), key) == 0)
        end++;
    *count = end - lo;
    return *count ? &ix->sorted[lo] : NULL;
}
