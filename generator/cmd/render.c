/*
 * render.c - `libwrap-gen render [--templates DIR] TEMPLATE [VAR=VALUE]...`:
 * one template to stdout (libwrap-init renders its files with it).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/commands.h"
#include "util/strbuf.h"
#include "util/template.h"

static void usage(FILE *out)
{
    fputs("usage: libwrap-gen render [--templates DIR] TEMPLATE [VAR=VALUE]...\n"
          "Renders TEMPLATE (a path, or a name in the template directory, with or\n"
          "without .in) to stdout. VAR matches [A-Z][A-Z0-9_]*; in @if a variable\n"
          "is true when its value is not empty. Syntax: docs/templates.md.\n",
          out);
}

int cmd_render(int argc, char **argv)
{
    const char *dir_opt = NULL;
    int i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            usage(stdout);
            return 0;
        }
        if (strcmp(argv[i], "--templates") == 0 && i + 1 < argc) {
            dir_opt = argv[++i];
        } else if (strncmp(argv[i], "--templates=", 12) == 0) {
            dir_opt = argv[i] + 12;
        } else {
            fprintf(stderr, "libwrap-gen render: unknown option '%s'\n", argv[i]);
            usage(stderr);
            return 2;
        }
    }
    if (i >= argc) {
        fprintf(stderr, "libwrap-gen render: no TEMPLATE given\n");
        usage(stderr);
        return 2;
    }
    const char *tmpl = argv[i++];
    lwg_tvars *vars = tvars_new();
    for (; i < argc; i++) {
        const char *eq = strchr(argv[i], '=');
        size_t len = eq ? template_name_length(argv[i], eq) : 0;
        if (!eq || len == 0 || argv[i] + len != eq) {
            fprintf(stderr,
                    "libwrap-gen render: '%s': expected VAR=VALUE with VAR matching "
                    "[A-Z][A-Z0-9_]*\n",
                    argv[i]);
            tvars_free(vars);
            return 2;
        }
        char *name = xstrdup(argv[i]);
        name[len] = '\0';
        tvars_set(vars, name, eq + 1);
        free(name);
    }
    char *path = template_find(tmpl, dir_opt);
    if (!path) {
        fprintf(stderr,
                "libwrap-gen render: %s: no such template (give a path, or use --templates "
                "DIR)\n",
                tmpl);
        tvars_free(vars);
        return 1;
    }
    char *out = NULL;
    size_t outlen = 0;
    int rc = template_render_file(path, vars, &out, &outlen);
    free(path);
    tvars_free(vars);
    if (rc < 0)
        return 1;
    int status = 0;
    if (fwrite(out, 1, outlen, stdout) != outlen || fflush(stdout) != 0) {
        fprintf(stderr, "libwrap-gen render: writing stdout: %s\n", strerror(errno));
        status = 1;
    }
    free(out);
    return status;
}
