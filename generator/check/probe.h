/*
 * probe.h - the compile-and-link probes of `make check` (docs/symcheck.md):
 * every candidate symbol of an inventory (a wrapped function, or one the
 * symbol tables left out as MISSING or UNCERTAIN) is linked in a tiny
 * program with the target libraries and without them; the verdicts replace
 * the symbol tables'. `libwrap-gen check` (cmd/check.c) runs them.
 */
#ifndef LIBWRAP_GEN_PROBE_H
#define LIBWRAP_GEN_PROBE_H

#include <stdbool.h>
#include <stddef.h>

#include "model/inventory.h"

typedef struct probe_options {
    const char *inventory;  /* the inventory's path, for messages */
    const char *cc;         /* the compiler driver, split as a shell would */
    const char *cppflags, *ldflags, *libs;
    const char *header;     /* --header as given, or NULL */
    const char *header_abs; /* the same as an absolute path (probes compile elsewhere) */
    const char *outdir;     /* where check.cache lives */
    long jobs;              /* parallel worker processes, at least 1 */
    bool quiet;
} probe_options;

typedef struct probe_summary {
    size_t symbols;   /* distinct candidate symbols */
    size_t missing;   /* do not link with the targets */
    size_t uncertain; /* link without them too */
    bool cached;      /* every verdict came from OUTDIR/check.cache */
} probe_summary;

/* Probes inv's candidates (verdicts cached in OUTDIR/check.cache) and gives
 * the functions their verdicts. 0, or -1 after a message. */
int probe_check(lwg_inventory *inv, const probe_options *opt, probe_summary *sum);

/* Gives the inventory's candidates the verdicts of a check.cache (the link
 * probes' answer replaces the symbol tables'); *changed counts the
 * functions whose verdict it changed, *unprobed the symbols it has no
 * verdict for (declared since the cache was written), which keep the
 * symbol tables' verdicts. 0, or -1 after a message. */
int probe_apply_cache(lwg_inventory *inv, const char *path, size_t *changed, size_t *unprobed);

#endif /* LIBWRAP_GEN_PROBE_H */
