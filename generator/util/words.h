/*
 * words.h - a growable list of strings, and the one splitter of option
 * values into words (--cppflags, --ldflags, --libs, --cc, a compile
 * command): one answer to an unterminated quote everywhere.
 */
#ifndef LIBWRAP_GEN_WORDS_H
#define LIBWRAP_GEN_WORDS_H

#include <stdbool.h>
#include <stddef.h>

/* A growable list of strings. */
typedef struct lwg_strv {
    char **v;
    size_t n, cap;
} lwg_strv;

void strv_push(lwg_strv *sv, const char *s);
bool strv_contains(const lwg_strv *sv, const char *s);
void strv_free(lwg_strv *sv);

/* Splits `text` into words like sh does (no expansion). Returns 0, or -1
 * after printing "libwrap-gen: WHAT: unterminated quote" (what names the
 * option, for example "--ldflags"). A NULL text gives no words. */
int words_split(const char *text, const char *what, lwg_strv *words);

#endif /* LIBWRAP_GEN_WORDS_H */
