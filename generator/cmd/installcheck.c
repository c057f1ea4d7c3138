/*
 * installcheck.c - `libwrap-gen installcheck --mode MODE --inventory
 * NAME.inventory.json --baseline PREFIX --run PREFIX --profile DIR
 * [--called FILE] [--referenced FILE]`: the verdict of `make installcheck` on one measured
 * run (installcheck/installcheck.h).
 */
#include <stdio.h>
#include <string.h>

#include "cmd/commands.h"
#include "installcheck/installcheck.h"

static void usage(FILE *out)
{
    fputs("usage: libwrap-gen installcheck --mode MODE --inventory NAME.inventory.json\n"
          "           --baseline PREFIX --run PREFIX --profile DIR [--called FILE]\n"
          "           [--referenced FILE]\n",
          out);
}

int cmd_installcheck(int argc, char **argv)
{
    const char *mode = NULL, *inventory = NULL, *baseline = NULL, *run = NULL, *profile = NULL,
               *called_path = NULL, *referenced_path = NULL;
    for (int i = 1; i < argc; i++) {
        const char **slot = strcmp(argv[i], "--mode") == 0         ? &mode
                            : strcmp(argv[i], "--inventory") == 0  ? &inventory
                            : strcmp(argv[i], "--baseline") == 0   ? &baseline
                            : strcmp(argv[i], "--run") == 0        ? &run
                            : strcmp(argv[i], "--profile") == 0    ? &profile
                            : strcmp(argv[i], "--called") == 0     ? &called_path
                            : strcmp(argv[i], "--referenced") == 0 ? &referenced_path
                                                                   : NULL;
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            usage(stdout);
            return 0;
        }
        if (!slot || i + 1 >= argc) {
            fprintf(stderr, "libwrap-gen installcheck: %s: unknown option or missing argument\n",
                    argv[i]);
            usage(stderr);
            return 2;
        }
        *slot = argv[++i];
    }
    if (!mode || !inventory || !baseline || !run || !profile || (!called_path && !referenced_path)) {
        usage(stderr);
        return 2;
    }
    installcheck_options opt = {mode, inventory, baseline, run, profile, called_path, referenced_path};
    return installcheck_verdict(&opt);
}
