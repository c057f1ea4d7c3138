/*
 * main.c - libwrap-gen (docs/generator.md): one table of subcommands, one
 * file each in cmd/. A first argument that names no subcommand is the
 * generation command's (cmd/generate.c): `libwrap-gen --name NAME ...
 * libwrap.i`.
 *
 * Folders and what each may use (checked by
 * scripts/check-layering-generator.sh; README.md in each folder):
 *   util/          nothing of the generator (common/ only)
 *   model/         util/
 *   parse/         model/, util/ (and libclang)
 *   check/         model/, util/
 *   emit/          model/, util/
 *   installcheck/  model/, util/
 *   cmd/           all of the above; only cmd/ reads argv
 */
#include <string.h>

#include "cmd/commands.h"

static const struct {
    const char *name;
    int (*run)(int argc, char **argv);
} commands[] = {
    {"check", cmd_check},
    {"render", cmd_render},
    {"drop", cmd_drop},
    {"installcheck", cmd_installcheck},
    {"resolve", cmd_resolve},
    {"language", cmd_language},
    {"compile-commands", cmd_compile_commands},
};

int main(int argc, char **argv)
{
    if (argc > 1)
        for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
            if (strcmp(argv[1], commands[i].name) == 0)
                return commands[i].run(argc - 1, argv + 1);
    return cmd_generate(argc, argv);
}
