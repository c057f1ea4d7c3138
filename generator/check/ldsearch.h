/*
 * ldsearch.h - find the files a link line names, the way GNU ld does.
 *
 * Words are split like a shell does (quotes and backslashes honoured).
 * Understood: -L DIR, -LDIR, -l NAME, -lNAME, -l:FILE, plain paths to .so /
 * .a files, -static, -Bstatic, -Bdynamic, -Wl,... carrying -L, -l, -rpath,
 * -Bstatic/-Bdynamic/-static. Every other word is ignored. The search order
 * is the -L dirs in order, then the compiler's library dirs
 * (`cc -print-search-dirs`), or the usual multiarch dirs when the compiler
 * does not answer. A file that is neither ELF nor an ar archive is read as a
 * GNU ld script (GROUP, INPUT, AS_NEEDED) and the files it names follow.
 * The default libraries are read off the compiler driver's own link line
 * (`$CC -### /dev/null`), so a wrapper driver's own libraries count.
 */
#ifndef LIBWRAP_LDSEARCH_H
#define LIBWRAP_LDSEARCH_H

#include <stdbool.h>
#include <stddef.h>

#include "check/symcheck.h"
#include "util/words.h"

/* The resolved files of a link line, in link order, without duplicates. */
typedef struct lwg_ldfiles {
    lwg_libfile *files;
    size_t n, cap;
} lwg_ldfiles;

void ldfiles_free(lwg_ldfiles *lf);

/* The compiler used to ask for the system dirs: $CC, else "cc". */
const char *ldsearch_compiler(void);

/* The system library dirs, computed once. */
const lwg_strv *ldsearch_system_dirs(void);

/* Resolves the words of `ldflags` then `libs` into lf. Returns 0, or -1
 * after printing which library was not found and where it was looked for. */
int ldsearch_resolve(const char *ldflags, const char *libs, lwg_ldfiles *lf);

/* The libraries a program links without -l flags: those on the link line
 * the compiler driver ($CC, ldsearch_compiler) prints for `-###`, resolved
 * in its -L dirs: libc and the compiler runtime, libstdc++ and libm for a
 * C++ driver, the library a wrapper driver adds by itself (mpicc's -lmpi).
 * A driver that prints no link line gets -lc, -lgcc_s and libgcc.a.
 * Returns 0, or -1 after a message when not even -lc is found. */
int ldsearch_default(lwg_ldfiles *lf);

#endif /* LIBWRAP_LDSEARCH_H */
