/*
 * strbuf.h - growable strings and aborting allocators for the generator.
 *
 * The generator is a short-lived command: running out of memory is not a
 * condition it can recover from, so these helpers print one line and exit
 * instead of making every caller check for NULL.
 */
#ifndef LIBWRAP_STRBUF_H
#define LIBWRAP_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

typedef struct strbuf {
    char *s;     /* always NUL-terminated once anything was added */
    size_t len;
    size_t cap;
} strbuf;

#define STRBUF_INIT {NULL, 0, 0}

void *xmalloc(size_t n);
void *xcalloc(size_t count, size_t n);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrdup_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

void sb_put(strbuf *sb, const char *s);
void sb_putn(strbuf *sb, const char *s, size_t n);
void sb_printf(strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Returns the string (never NULL, "" when empty) and resets sb. */
char *sb_steal(strbuf *sb);
void sb_free(strbuf *sb);

#endif /* LIBWRAP_STRBUF_H */
