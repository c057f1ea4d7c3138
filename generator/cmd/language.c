/*
 * language.c - `libwrap-gen language X`: c or c++ for a valid -x
 * (libwrap-init asks it), else fails with what is expected.
 */
#include <stdio.h>

#include "cmd/commands.h"
#include "parse/language.h"

/* `libwrap-gen language X`: prints c or c++ for a valid -x, else fails. */
int cmd_language(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: libwrap-gen language X\n");
        return 2;
    }
    if (!parse_language_valid(argv[1])) {
        fprintf(stderr, "libwrap-gen: -x %s: %s\n", argv[1], parse_language_expected);
        return 1;
    }
    puts(parse_language_is_cxx(argv[1]) ? "c++" : "c");
    return 0;
}
