/*
 * commands.h - the subcommands of libwrap-gen. main.c parses the generate
 * command (the default) and dispatches the others to these entry points,
 * each with argv[0] set to the subcommand's name.
 *
 *   libwrap-gen [options] libwrap.i     generate (main.c)
 *   libwrap-gen check [options]         compile-and-link probes (probe.c)
 *   libwrap-gen render TEMPLATE [V=X]   render a template (template.c)
 *   libwrap-gen drop [options]          wrappers that do not compile (drop.c)
 *   libwrap-gen installcheck [options]  the verdict on a measured run (installcheck.c)
 *   libwrap-gen resolve [options]       the files a link line names (ldsearch.c)
 *   libwrap-gen compile-commands FILE   the preprocessor flags of a compile_commands.json
 *   libwrap-gen language X              c or c++ for a valid -x (main.c)
 *
 * Each returns the process exit status: 0 ok, 1 error, 2 usage.
 */
#ifndef LIBWRAP_COMMANDS_H
#define LIBWRAP_COMMANDS_H

#include <stddef.h>

int probe_command(int argc, char **argv);
int render_command(int argc, char **argv);
int drop_command(int argc, char **argv);
int installcheck_command(int argc, char **argv);
int resolve_command(int argc, char **argv);
int compile_commands_command(int argc, char **argv);

struct lw_inventory;
/* Reads a NAME.dropped file (drop.c) and leaves its functions out as
 * LW_SKIP_COMPILE. Returns how many, or -1 after a message. */
int drop_load(struct lw_inventory *inv, const char *path);
/* Gives the inventory's candidates the verdicts of a `check` cache
 * (check.cache: the link probes' answer replaces the symbol tables');
 * *changed counts the functions whose verdict it changed. 0, or -1 after a
 * message. */
int probe_apply_cache(struct lw_inventory *inv, const char *path, size_t *changed);

#endif /* LIBWRAP_COMMANDS_H */
