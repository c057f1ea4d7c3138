/*
 * template.h - the text templates of the templates/ directory and their renderer.
 *
 * Syntax (docs/templates.md):
 *   @NAME@            placeholder, NAME matches [A-Z][A-Z0-9_]*
 *   @if NAME@         directive lines: the line's trimmed text is exactly the
 *   @if !NAME@        directive, nothing else. A scalar is true when it is
 *   @else@            non-empty, a list when it has items.
 *   @endif@
 *   @foreach LIST@    repeats the block once per item of LIST; inside it the
 *   @end@             item's variables hide the outer ones of the same name.
 * Everything else passes through untouched ("@echo", "$@", "a@b.c"). A
 * placeholder or directive naming an unknown variable is an error that names
 * the template and line: templates never render half-filled.
 */
#ifndef LIBWRAP_TEMPLATE_H
#define LIBWRAP_TEMPLATE_H

#include <stdbool.h>
#include <stddef.h>

/* A set of variables: scalars (strings) and lists of nested sets. */
typedef struct lwg_tvars lwg_tvars;

lwg_tvars *tvars_new(void);
void tvars_free(lwg_tvars *vars);

/* Sets (or replaces) a scalar; the value is copied. */
void tvars_set(lwg_tvars *vars, const char *name, const char *value);
void tvars_setf(lwg_tvars *vars, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Sets a scalar to "1" or "" (true or false in @if). */
void tvars_set_bool(lwg_tvars *vars, const char *name, bool value);

/* Declares the list `name` (empty unless items are added); idempotent. */
void tvars_list(lwg_tvars *vars, const char *name);
/* Appends a new, empty item to list `name` (declaring it) and returns the
 * item's variables, which the list owns. */
lwg_tvars *tvars_append(lwg_tvars *vars, const char *name);

/* Renders `text` (len bytes) with `vars`. `origin` names the template in
 * messages. On success returns 0 and a new NUL-terminated string in *out
 * (length in *outlen if not NULL); on error prints
 * "libwrap-gen: ORIGIN:LINE: what" to stderr and returns -1. */
int template_render(const char *text, size_t len, const char *origin,
                    const lwg_tvars *vars, char **out, size_t *outlen);

/* Reads the template file at `path` and renders it; errors as above (an
 * unreadable file is named with the reason). */
int template_render_file(const char *path, const lwg_tvars *vars, char **out,
                         size_t *outlen);

/* The installed template directory, found relative to the running
 * executable (PREFIX/libexec/libwrap/libwrap-gen ->
 * PREFIX/share/libwrap/templates). A new string, or NULL when it cannot be
 * determined. */
char *template_default_dir(void);

/* The template file `arg` names: a path (it has a '/' or exists), else
 * DIR/arg or DIR/arg.in in dir_opt or the installed directory. A new
 * string, or NULL when there is none. */
char *template_find(const char *arg, const char *dir_opt);

/* Length of the variable name ([A-Z][A-Z0-9_]*) at s, up to end; 0 when
 * there is none. */
size_t template_name_length(const char *s, const char *end);

#endif /* LIBWRAP_TEMPLATE_H */
