/*
 * parse.h - reads the preprocessed header (libwrap.i) with libclang and
 * fills the inventory with every function it declares, with the skip
 * reasons that follow from the declaration alone (inline, static, hidden,
 * unprototyped, builtin, duplicate, unsupported types). Scope, filters,
 * variadic twins and the symbol check come later (scope.h, variadic.h).
 */
#ifndef LIBWRAP_PARSE_H
#define LIBWRAP_PARSE_H

#include <stddef.h>

#include <stdbool.h>

#include "model/inventory.h"

typedef struct lwg_parse_options {
    const char *source;          /* the .i file */
    const char *language;        /* "c", "c++", or a standard: "c11", "gnu++17" */
    const char *const *declare_void; /* unprototyped SYM() to read as SYM(void) */
    size_t n_declare_void;
    bool abi;                    /* ABI-level forwarding: no type needs spelling */
    const char *target;          /* --target TRIPLE for libclang, or NULL (model/target.h) */
} lwg_parse_options;

/* Returns 0, or -1 after printing clang's diagnostics (PRESUMED-FILE:LINE:COL:
 * error: ...) or what else went wrong to stderr. Fills inv->source,
 * inv->language and inv->funcs; inv->header is set by scope. */
int parse_inventory(lwg_inventory *inv, const lwg_parse_options *opt);


#endif /* LIBWRAP_PARSE_H */
