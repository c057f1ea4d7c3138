/*
 * language.h - the -x of libwrap-gen and libwrap-init: c, c++, or a
 * standard libclang parses (gcc's aliases c9x, c++1z, gnu++2a included).
 */
#ifndef LIBWRAP_GEN_LANGUAGE_H
#define LIBWRAP_GEN_LANGUAGE_H

#include <stdbool.h>

/* Is x a language or standard libclang parses? */
bool parse_language_valid(const char *x);

/* What a valid -x is, for messages. */
extern const char parse_language_expected[];

/* True for the language names that mean C++ ("c++", "c++17", "gnu++20"). */
int parse_language_is_cxx(const char *language);

#endif /* LIBWRAP_GEN_LANGUAGE_H */
