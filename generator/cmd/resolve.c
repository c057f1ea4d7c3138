/*
 * resolve.c - `libwrap-gen resolve [--ldflags FLAGS] [--libs LIBS]`: the
 * files a link line names, one a line, with the symbol check's resolver
 * (libwrap-init uses it, so init and generation agree on every flag form).
 */
#include <stdio.h>
#include <string.h>

#include "check/ldsearch.h"
#include "cmd/commands.h"

int cmd_resolve(int argc, char **argv)
{
    const char *ldflags = NULL, *libs = NULL;
    for (int i = 1; i < argc; i++) {
        const char **slot = strcmp(argv[i], "--ldflags") == 0 ? &ldflags
                            : strcmp(argv[i], "--libs") == 0  ? &libs
                                                              : NULL;
        if (!slot || i + 1 >= argc) {
            fprintf(stderr, "libwrap-gen resolve: %s: unknown option or missing argument\n"
                            "usage: libwrap-gen resolve [--ldflags FLAGS] [--libs LIBS]\n",
                    argv[i]);
            return 2;
        }
        *slot = argv[++i];
    }
    lwg_ldfiles lf = {0};
    if (ldsearch_resolve(ldflags, libs, &lf) != 0) {
        ldfiles_free(&lf);
        return 1;
    }
    for (size_t i = 0; i < lf.n; i++) {
        const lwg_libfile *f = &lf.files[i];
        if (f->is_static)
            printf("static\t%s\n", f->path);
        else
            printf("shared\t%s\n", f->path);
    }
    ldfiles_free(&lf);
    return fflush(stdout) == 0 ? 0 : 1;
}
