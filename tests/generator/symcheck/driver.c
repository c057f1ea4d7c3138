/*
 * driver.c - exercises the symbol check directly (symcheck.h, ldsearch.h),
 * for the generator_symcheck_ tests (generator_symcheck_probe runs `libwrap-gen check` itself).
 *
 *   driver split TEXT                     one [word] per line
 *   driver resolve LDFLAGS LIBS           "PATH SONAME static|shared" per file
 *   driver default                        the same for libset_default()
 *   driver exports LDFLAGS LIBS SYM...    "SYM yes|no" per symbol
 *   driver inventory LDFLAGS LIBS SYM...  "SYM SKIP DETAIL" after symcheck_inventory
 */
#include <stdio.h>
#include <string.h>

#include "model/inventory.h"
#include "check/ldsearch.h"
#include "util/strbuf.h"
#include "check/symcheck.h"

static void print_set(const lwg_libset *set)
{
    for (size_t i = 0; i < libset_count(set); i++) {
        const lwg_libfile *f = libset_file(set, i);
        printf("%s %s %s\n", f->path, f->soname ? f->soname : "-",
               f->is_static ? "static" : "shared");
    }
    printf("static-only %s\n", libset_static_only(set) ? "yes" : "no");
}

int main(int argc, char **argv)
{
    const char *cmd = argc > 1 ? argv[1] : "";
    if (strcmp(cmd, "split") == 0 && argc == 3) {
        lwg_strv w = {0};
        if (words_split(argv[2], "split", &w) != 0)
            return 1;
        for (size_t i = 0; i < w.n; i++)
            printf("[%s]\n", w.v[i]);
        strv_free(&w);
        return 0;
    }
    if (strcmp(cmd, "default") == 0) {
        lwg_libset *set = libset_default();
        if (!set)
            return 1;
        print_set(set);
        libset_free(set);
        return 0;
    }
    if (argc < 4) {
        fprintf(stderr, "usage: driver split|resolve|default|exports|inventory ...\n");
        return 2;
    }
    lwg_libset *set = libset_resolve(argv[2], argv[3]);
    if (!set)
        return 1;
    if (strcmp(cmd, "resolve") == 0) {
        print_set(set);
    } else if (strcmp(cmd, "exports") == 0) {
        for (int i = 4; i < argc; i++)
            printf("%s %s\n", argv[i], libset_exports(set, argv[i]) ? "yes" : "no");
    } else if (strcmp(cmd, "inventory") == 0) {
        lwg_libset *defaults = libset_default();
        lwg_inventory inv;
        inventory_init(&inv);
        for (int i = 4; i < argc; i++) {
            lwg_function *f = inventory_add(&inv);
            f->name = xstrdup(argv[i]);
            f->scope = xstrdup("");
            f->symbol = xstrdup(argv[i]);
        }
        size_t missing = 0, uncertain = 0;
        symcheck_inventory(&inv, set, defaults, &missing, &uncertain);
        for (size_t i = 0; i < inv.nfuncs; i++)
            printf("%s %s %s\n", inv.funcs[i].symbol, lwg_skip_name(inv.funcs[i].skip),
                   inv.funcs[i].skip_detail ? inv.funcs[i].skip_detail : "-");
        printf("missing %zu uncertain %zu\n", missing, uncertain);
        inventory_free(&inv);
        libset_free(defaults);
    }
    libset_free(set);
    return 0;
}
