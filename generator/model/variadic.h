/*
 * variadic.h - variadic functions and their va_list twins.
 *
 * A variadic F cannot forward its arguments; it is wrapped by calling its
 * twin that takes a va_list (printf -> vprintf). The twin is found by name
 * (vF, the printf family's xxxprintf -> xxxvprintf, F_v, Fv) and must take
 * F's fixed parameters followed by exactly one va_list. `--va-twin SYM=TWIN`
 * names a twin the rule misses. Variadics without a twin are skipped as
 * LWG_SKIP_VARIADIC.
 */
#ifndef LIBWRAP_VARIADIC_H
#define LIBWRAP_VARIADIC_H

#include <stddef.h>

#include "model/inventory.h"

typedef struct lwg_va_mapping {
    const char *symbol; /* the variadic function (symbol or name) */
    const char *twin;   /* its va_list twin (symbol or name) */
} lwg_va_mapping;

/* Sets va_twin on every variadic function that has a twin. A manual
 * mapping whose twin is not declared or does not match is an error:
 * returns -1 after printing what is wrong, else 0. */
int variadic_resolve(lwg_inventory *inv, const lwg_va_mapping *map, size_t nmap);
/* Unless the inventory forwards at the ABI level (which needs no twin),
 * skips the variadic functions still wrapped that have no twin: after the
 * symbol check, so that one the target does not export is MISSING, not a
 * variadic without a twin (advice that cannot help). Returns how many. */
size_t variadic_skip_twinless(lwg_inventory *inv);

#endif /* LIBWRAP_VARIADIC_H */
