/*
 * filter_check.c - test driver: applies a filter file to the functions read
 * from stdin and prints the decision for each, for the golden tests.
 *
 *   filter_check FILTER < queries
 *
 * A query line is "SYMBOL[<tab>NAME[<tab>FILE]]": NAME (which may hold
 * spaces, as C++ names do) defaults to SYMBOL, as for C; FILE defaults to
 * none. Blank lines and lines starting with '#' are skipped. Output lines are
 * "exclude SYMBOL" or "include SYMBOL". A filter that does not parse prints
 * its message to stdout and exits 1, so the golden file records it.
 */
#include "filter.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: filter_check FILTER < queries\n");
        return 2;
    }
    char err[1024];
    lw_filter *f = lw_filter_load(argv[1], err, sizeof err);
    if (!f) {
        printf("error: %s\n", err);
        return 1;
    }
    char *line = NULL;
    size_t cap = 0;
    while (getline(&line, &cap, stdin) > 0) {
        char *save = NULL;
        char *symbol = strtok_r(line, "\t\n", &save);
        if (!symbol || symbol[0] == '#')
            continue;
        char *name = strtok_r(NULL, "\t\n", &save);
        char *file = name ? strtok_r(NULL, "\t\n", &save) : NULL;
        bool excluded = lw_filter_excludes(f, file, symbol, name ? name : symbol);
        printf("%s %s\n", excluded ? "exclude" : "include", symbol);
    }
    free(line);
    lw_filter_free(f);
    return 0;
}
