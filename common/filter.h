/*
 * filter.h - the filter language of Score-P (SPEC section 3), shared by the
 * generator (NAME.filter, at generation time) and the runtime
 * (LIBWRAP_FILTERING_FILE, at run time).
 *
 *   LIBWRAP_FILE_NAMES_BEGIN ... LIBWRAP_FILE_NAMES_END       (SCOREP_ also accepted)
 *   LIBWRAP_REGION_NAMES_BEGIN ... LIBWRAP_REGION_NAMES_END
 *   rules: EXCLUDE|INCLUDE [MANGLED|DEMANGLED] pattern... (continuation lines)
 *
 * Rules are evaluated in order, the last match wins, everything is included
 * at start. A file excluded by the file block cannot be re-included by the
 * region block. Patterns are globs: '*' (matches '/' too), '?', '[...]'.
 *
 * Not thread-safe while parsing; matching on a parsed filter is read-only and
 * may run concurrently from any thread.
 */
#ifndef LIBWRAP_COMMON_FILTER_H
#define LIBWRAP_COMMON_FILTER_H

#include <stdbool.h>
#include <stddef.h>

typedef struct lw_filter lw_filter;

/* Parses filter text. `origin` names the source in messages ("app.filter").
 * On error returns NULL and writes "ORIGIN:LINE: what was expected" into
 * err (if errlen > 0). An empty text gives an empty filter (includes all). */
lw_filter *lw_filter_parse(const char *text, size_t len, const char *origin,
                           char *err, size_t errlen);

/* Reads and parses a file; errors as above (an unreadable file names it). */
lw_filter *lw_filter_load(const char *path, char *err, size_t errlen);

void lw_filter_free(lw_filter *filter);

/* True when the file block excludes `file` (a path). NULL filter: false. */
bool lw_filter_excludes_file(const lw_filter *filter, const char *file);

/* True when the function is excluded: its file is excluded, or the region
 * block's last matching rule is EXCLUDE. `mangled` is the linker symbol,
 * `demangled` the readable name (the same string for C); `file` may be NULL.
 * DEMANGLED rules (the default) match `demangled`, MANGLED ones `mangled`. */
bool lw_filter_excludes(const lw_filter *filter, const char *file,
                        const char *mangled, const char *demangled);

/* True when the region block's last matching rule is INCLUDE MANGLED with
 * the symbol itself (no glob): the user named this function to be wrapped
 * (NAME.filter's INCLUDE MANGLED brings back an UNCERTAIN one). */
bool lw_filter_includes(const lw_filter *filter, const char *file,
                        const char *mangled, const char *demangled);
/* Whether `name` is `func` as a header's macro renames it: with a version
 * (ICU's ucnv_open_72), or behind a prefix of at most four characters that
 * begins with '_' (gmp's __gmpz_add for mpz_add). */
bool lw_name_renames(const char *name, const char *func);

/* A literal (no glob) rule of the region block, readable or MANGLED, that
 * names `name` as the header spells it before a macro renames it (gmp's mpz_gcd
 * for __gmpz_gcd: lw_name_renames), where no rule matches `name` itself;
 * its line in *line. NULL when there is none. */
const char *lw_filter_renamed(const lw_filter *filter, const char *name, size_t *line);

/* Where the parameter list of a readable C++ name starts (the '(' of
 * `ns::f(int) const`, of `C::operator()(int)`, of `C::C(int) [base
 * object]`), or SIZE_MAX when the name has none (a C function). Filters match such a name with and without it. */
size_t lw_name_params_start(const char *name);

/* Glob match as used by the filter: '*' matches any run, '/' included. */
bool lw_glob_match(const char *pattern, const char *text);
/* The same, or of `text` without its symbol version (`foo` matches
 * `foo@@V2`, docs/wrappers.md "Symbol versions"). */
bool lw_glob_match_unversioned(const char *pattern, const char *text);

#endif /* LIBWRAP_COMMON_FILTER_H */
