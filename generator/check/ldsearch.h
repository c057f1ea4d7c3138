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

/* The libraries a program links without -l flags: -lc, -lgcc_s, libgcc.a. */
int ldsearch_default(lwg_ldfiles *lf);

#endif /* LIBWRAP_LDSEARCH_H */
