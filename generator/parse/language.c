/*
 * language.c - the languages and standards libwrap-gen accepts as -x
 * (language.h).
 */
#include "parse/language.h"

#include <string.h>

/* The languages and standards libclang parses, gcc's aliases included
 * (c9x, c++1z, gnu++2a...): -x of libwrap-gen and of libwrap-init. */
bool parse_language_valid(const char *x)
{
    static const char *const ok[] = {
        "c", "c++", "c89", "c90", "c99", "c9x", "c11", "c1x", "c17", "c18", "c2x", "c23",
        "gnu89", "gnu90", "gnu99", "gnu9x", "gnu11", "gnu1x", "gnu17", "gnu18", "gnu2x", "gnu23",
        "iso9899:1990", "iso9899:1999", "iso9899:2011", "iso9899:2017", "iso9899:2018",
        "c++98", "c++03", "c++0x", "c++11", "c++1y", "c++14", "c++1z", "c++17", "c++2a", "c++20",
        "c++2b", "c++23", "gnu++98", "gnu++03", "gnu++0x", "gnu++11", "gnu++1y", "gnu++14",
        "gnu++1z", "gnu++17", "gnu++2a", "gnu++20", "gnu++2b", "gnu++23"};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
        if (strcmp(x, ok[i]) == 0)
            return true;
    return false;
}

const char parse_language_expected[] =
    "expected c, c++, a C standard (c99, c11, c17, gnu11, c9x...) or a C++ one (c++11, c++17, "
    "gnu++20, c++1z...) that libclang parses";

int parse_language_is_cxx(const char *language)
{
    return language && strstr(language, "++") != NULL;
}
