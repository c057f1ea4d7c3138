/*
 * commands.h - the subcommands of libwrap-gen, one file each in cmd/;
 * main.c's table dispatches to them with argv[0] set to the subcommand's
 * name. Only these files read argv: the libraries they call take parsed
 * options structs.
 *
 *   libwrap-gen [options] libwrap.i     generate (generate.c)
 *   libwrap-gen check [options]         compile-and-link probes (check.c)
 *   libwrap-gen render TEMPLATE [V=X]   render a template (render.c)
 *   libwrap-gen drop [options]          wrappers that do not compile (drop.c)
 *   libwrap-gen installcheck [options]  the verdict on a measured run (installcheck.c)
 *   libwrap-gen resolve [options]       the files a link line names (resolve.c)
 *   libwrap-gen compile-commands FILE   the preprocessor flags of a compile_commands.json
 *   libwrap-gen language X              c or c++ for a valid -x (language.c)
 *
 * Each returns the process exit status: 0 ok, 1 error, 2 usage.
 */
#ifndef LIBWRAP_GEN_COMMANDS_H
#define LIBWRAP_GEN_COMMANDS_H

int cmd_generate(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_render(int argc, char **argv);
int cmd_drop(int argc, char **argv);
int cmd_installcheck(int argc, char **argv);
int cmd_resolve(int argc, char **argv);
int cmd_compile_commands(int argc, char **argv);
int cmd_language(int argc, char **argv);

#endif /* LIBWRAP_GEN_COMMANDS_H */
