/*
 * drop.c - `libwrap-gen drop --inventory NAME.inventory.json --wrappers
 * NAME.wrappers.c --log COMPILER_LOG --out NAME.dropped` (check/drop.h).
 */
#include <stdio.h>
#include <string.h>

#include "check/drop.h"
#include "cmd/commands.h"

static void usage(FILE *out)
{
    fputs("usage: libwrap-gen drop --inventory NAME.inventory.json --wrappers NAME.wrappers.c\n"
          "                        --log COMPILER_LOG --out NAME.dropped\n",
          out);
}

int cmd_drop(int argc, char **argv)
{
    const char *inventory = NULL, *wrappers = NULL, *log = NULL, *out = NULL;
    for (int i = 1; i < argc; i++) {
        const char **slot = strcmp(argv[i], "--inventory") == 0  ? &inventory
                            : strcmp(argv[i], "--wrappers") == 0 ? &wrappers
                            : strcmp(argv[i], "--log") == 0      ? &log
                            : strcmp(argv[i], "--out") == 0      ? &out
                                                                 : NULL;
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            usage(stdout);
            return 0;
        }
        if (!slot || i + 1 >= argc) {
            fprintf(stderr, "libwrap-gen drop: %s: unknown option or missing argument\n", argv[i]);
            usage(stderr);
            return 2;
        }
        *slot = argv[++i];
    }
    if (!inventory || !wrappers || !log || !out) {
        usage(stderr);
        return 2;
    }
    drop_options opt = {inventory, wrappers, log, out};
    return drop_record(&opt);
}
