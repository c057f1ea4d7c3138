/*
 * commands.h - the subcommands of libwrap-gen. main.c parses the generate
 * command (the default) and dispatches the others to these entry points,
 * each with argv[0] set to the subcommand's name.
 *
 *   libwrap-gen [options] libwrap.i     generate (main.c)
 *   libwrap-gen check [options]         compile-and-link probes (probe.c)
 *   libwrap-gen render TEMPLATE [V=X]   render a template (template.c)
 *
 * Each returns the process exit status: 0 ok, 1 error, 2 usage.
 */
#ifndef LIBWRAP_COMMANDS_H
#define LIBWRAP_COMMANDS_H

int probe_command(int argc, char **argv);
int render_command(int argc, char **argv);

#endif /* LIBWRAP_COMMANDS_H */
