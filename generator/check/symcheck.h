/*
 * symcheck.h - symbol truth from the binaries.
 *
 * Resolves the user's link flags (-L, -l, plain paths, -Wl,-rpath) the way
 * GNU ld does: -L dirs, then the system dirs; lib<name>.so before
 * lib<name>.a unless -static / -Bstatic; GNU ld scripts (GROUP, INPUT,
 * AS_NEEDED) followed. Reads the symbol tables with libelf: .dynsym of shared
 * objects, the symbol tables of archive members, and the archive index for
 * members that hold LTO IR (gcc's slim objects, LLVM bitcode). An exported
 * function is a defined, global or weak, STT_FUNC or STT_GNU_IFUNC symbol
 * with default or protected visibility (or a name the index lists for an
 * LTO member); versioned names are reduced to the base name.
 *
 * MISSING: a declared function none of the target libraries export.
 * UNCERTAIN: exported by the targets but also by the libraries a program
 * links without them (libc, libm if not a target, libgcc_s, the compiler
 * runtime): a call might not reach the target.
 */
#ifndef LIBWRAP_SYMCHECK_H
#define LIBWRAP_SYMCHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "model/inventory.h"

typedef struct lwg_libset lwg_libset;

typedef struct lwg_libfile {
    char *path;        /* resolved ELF file or archive */
    char *soname;      /* DT_SONAME, or NULL (archives) */
    bool is_static;
    /* It needs a Fortran compiler's run-time library (libgfortran,
     * libflang, Intel's libifcore...) or calls into one (_gfortran_*). */
    bool fortran_runtime;
    /* An archive with link-time-optimisation members whose symbol tables
     * say nothing: gcc's slim LTO objects (-flto without -ffat-lto-objects:
     * only __gnu_lto_slim and .gnu.lto_ sections), LLVM bitcode (clang
     * -flto). Their functions come from the archive index (elf_getarsym),
     * which gcc-ar, llvm-ar and an ar with the LTO plugin write. */
    bool lto_ir;
    /* ... and the index lists none of their names (ar without the plugin,
     * or no index): what they define cannot be known. */
    bool lto_unindexed;
} lwg_libfile;

/* Resolves `ldflags` and `libs` (shell-like word splitting, quotes honoured).
 * Returns NULL after printing what is wrong ("-lfoo: not found in -L dirs
 * /a /b or the system dirs") to stderr. */
lwg_libset *libset_resolve(const char *ldflags, const char *libs);

/* The libraries a program links without any -l flags (libc, libgcc_s...). */
lwg_libset *libset_default(void);

void libset_free(lwg_libset *set);
size_t libset_count(const lwg_libset *set);
const lwg_libfile *libset_file(const lwg_libset *set, size_t i);
/* True when every target is a static archive (link-time wrappers only). */
bool libset_static_only(const lwg_libset *set);

/* Is `symbol` an exported function of any library in the set? */
bool libset_exports(const lwg_libset *set, const char *symbol);
/* The same, and *file the index (libset_file) of the first file that
 * exports it. */
bool libset_exporter(const lwg_libset *set, const char *symbol, size_t *file);

/* Calls fn(name, file, data) for every function the set exports, `file`
 * the index (libset_file) of the first file that exports it. */
void libset_each(const lwg_libset *set, void (*fn)(const char *name, size_t file, void *data), void *data);

/* Marks the inventory's wrapped functions MISSING or UNCERTAIN. Returns the
 * number of functions marked of each kind through the out parameters. */
void symcheck_inventory(lwg_inventory *inv, const lwg_libset *targets,
                        const lwg_libset *defaults, size_t *n_missing,
                        size_t *n_uncertain);

#endif /* LIBWRAP_SYMCHECK_H */
