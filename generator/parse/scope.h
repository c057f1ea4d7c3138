/*
 * scope.h - the default scope: which declarations belong to the wrapped
 * library and which to the system (docs/scope.md).
 *
 * The include tree is rebuilt from the line markers of the preprocessed file
 * (`# N "file" flags`: flag 1 enters an include, 2 returns from one). The
 * primary file is libwrap.h; the headers it includes are "named". A header
 * is in scope when it is named, lies under one of the user's -I directories,
 * or is included by an in-scope header, and it is not a standard C, POSIX or
 * C++ library header nor in the compiler's own include directory. Everything
 * below an out-of-scope header is out of scope. A named standard header
 * (math.h) is in scope only when libwrap.h names nothing else: a library
 * whose headers need <stdio.h> first does not wrap stdio. The same holds
 * when libwrap.h declares functions itself.
 */
#ifndef LIBWRAP_SCOPE_H
#define LIBWRAP_SCOPE_H

#include <stdbool.h>

#include "model/inventory.h"

typedef struct lwg_scope lwg_scope;

/* Reads the line markers of `source`; `cppflags` gives the -I directories
 * (may be NULL). Returns NULL after printing why to stderr. */
lwg_scope *scope_load(const char *source, const char *cppflags);
void scope_free(lwg_scope *scope);

/* The primary file (the first line marker): libwrap.h. */
const char *scope_primary(const lwg_scope *scope);

/* Is `file` (as the line markers spell it) in scope? If not and `why` is
 * given, *why points to a reason owned by the scope. Valid after
 * scope_apply. */
bool scope_contains(const lwg_scope *scope, const char *file, const char **why);

/* Is `path` a header of the compiler's own include directory (gcc's,
 * clang's: <stddef.h>, the intrinsics)? */
bool scope_compiler_header(const char *path);

/* The headers libwrap.h names itself that are in scope, joined by ", "
 * into `buf` (at most `len` bytes, "..." when cut); "" when none. */
void scope_named_in_scope(const lwg_scope *scope, char *buf, size_t len);

/* Decides the scope of every header (it depends on whether libwrap.h
 * declares functions itself), sets inv->header, makes every function's
 * file an absolute path and marks out-of-scope functions
 * LWG_SKIP_OUT_OF_SCOPE.
 * Returns the number of functions in scope, duplicates not counted. */
size_t scope_apply(lwg_inventory *inv, lwg_scope *scope);

#endif /* LIBWRAP_SCOPE_H */
