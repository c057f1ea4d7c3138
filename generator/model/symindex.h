/*
 * symindex.h - finds functions by symbol or by name in O(log n). The
 * inventory is a plain array in declaration order; the steps that look up
 * thousands of names (duplicates, va_list twins) use this sorted view so
 * that a 10,000-function library stays fast.
 */
#ifndef LIBWRAP_SYMINDEX_H
#define LIBWRAP_SYMINDEX_H

#include <stdbool.h>
#include <stddef.h>

#include "model/inventory.h"

typedef struct lwg_symindex {
    lwg_function **sorted; /* by key, then declaration order */
    size_t n;
    bool by_name;         /* key: f->name, else f->symbol */
} lwg_symindex;

/* The index holds pointers into inv->funcs: do not add functions while it
 * is in use. */
void symindex_build(lwg_symindex *ix, lwg_inventory *inv, bool by_name);
void symindex_free(lwg_symindex *ix);

/* The functions with this key, in declaration order: *count of them from
 * the returned position (NULL when none). */
lwg_function **symindex_find(const lwg_symindex *ix, const char *key, size_t *count);

#endif /* LIBWRAP_SYMINDEX_H */
