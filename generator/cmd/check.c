/*
 * check.c - `libwrap-gen check` (make check): the compile-and-link probes
 * of an inventory's symbols (check/probe.h), then missing.filter and
 * uncertain.filter written again with their verdicts, as at generation.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check/probe.h"
#include "cmd/commands.h"
#include "emit/emit.h"
#include "model/inventory.h"
#include "util/strbuf.h"
#include "util/template.h"

static void usage(FILE *out)
{
    fputs("usage: libwrap-gen check --inventory NAME.inventory.json --cc CC\n"
          "           [--cppflags FLAGS] [--ldflags FLAGS] [--libs LIBS]\n"
          "           [--header libwrap.h] [--templates DIR] [-j N] [-o DIR] [--quiet]\n"
          "Confirms every candidate symbol with compile-and-link probes and writes\n"
          "DIR/missing.filter and DIR/uncertain.filter.\n", out);
}

typedef struct check_options {
    probe_options probe;
    const char *templates;
    char *header_abs; /* owned */
} check_options;

/* 0, -1 after --help, or the exit status of a usage error. */
static int parse_options(int argc, char **argv, check_options *co)
{
    static const struct option longopts[] = {
        { "inventory", required_argument, NULL, 'i' },
        { "cc", required_argument, NULL, 'c' },
        { "cppflags", required_argument, NULL, 'P' },
        { "ldflags", required_argument, NULL, 'L' },
        { "libs", required_argument, NULL, 'l' },
        { "header", required_argument, NULL, 'H' },
        { "templates", required_argument, NULL, 'T' },
        { "jobs", required_argument, NULL, 'j' },
        { "quiet", no_argument, NULL, 'q' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    *co = (check_options){ .probe = { .outdir = ".", .jobs = sysconf(_SC_NPROCESSORS_ONLN) } };
    probe_options *opt = &co->probe;
    optind = 0; /* main may have run getopt already: start over */
    int c;
    char *end;
    while ((c = getopt_long(argc, argv, "j:o:qh", longopts, NULL)) != -1) {
        switch (c) {
        case 'i': opt->inventory = optarg; break;
        case 'c': opt->cc = optarg; break;
        case 'P': opt->cppflags = optarg; break;
        case 'L': opt->ldflags = optarg; break;
        case 'l': opt->libs = optarg; break;
        case 'H': opt->header = optarg; break;
        case 'T': co->templates = optarg; break;
        case 'o': opt->outdir = optarg; break;
        case 'q': opt->quiet = true; break;
        case 'j':
            opt->jobs = strtol(optarg, &end, 10);
            if (*end || opt->jobs < 1 || opt->jobs > 1024) {
                fprintf(stderr, "libwrap-gen: check: -j %s: give a number from 1 to 1024\n",
                        optarg);
                return 2;
            }
            break;
        case 'h': usage(stdout); return -1;
        default: usage(stderr); return 2;
        }
    }
    if (optind < argc || !opt->inventory || !opt->cc) {
        fprintf(stderr, "libwrap-gen: check: %s\n", optind < argc ? "unexpected argument"
                        : "--inventory and --cc are required");
        usage(stderr);
        return 2;
    }
    if (opt->jobs < 1)
        opt->jobs = 1;
    /* The probes are compiled in a temporary dir: the header must not be
     * looked up relative to it. */
    if (opt->header) {
        opt->header_abs = co->header_abs = realpath(opt->header, NULL);
        if (!co->header_abs) {
            fprintf(stderr, "libwrap-gen: check: --header %s: %s\n", opt->header,
                    strerror(errno));
            return 1;
        }
    }
    return 0;
}

int cmd_check(int argc, char **argv)
{
    check_options co;
    int prc = parse_options(argc, argv, &co);
    if (prc != 0) {
        free(co.header_abs);
        return prc < 0 ? 0 : prc;
    }
    const probe_options *opt = &co.probe;
    lwg_inventory inv;
    if (inventory_read_json(&inv, opt->inventory) != 0) {
        free(co.header_abs);
        return 1;
    }
    const char *name = inv.name ? inv.name : "libwrap";
    int status = 1;
    probe_summary sum = {0};
    char *templates = co.templates ? xstrdup(co.templates) : template_default_dir();
    if (!templates) {
        fprintf(stderr, "libwrap-gen: check: no template directory next to this program "
                        "(PREFIX/share/libwrap/templates); name one with --templates DIR\n");
        goto out;
    }
    if (probe_check(&inv, opt, &sum) != 0)
        goto out;
    lwg_emit_options eopt = { .outdir = opt->outdir, .templates_dir = templates, .name = name };
    if (emit_skip_filters(&inv, &eopt) != 0)
        goto out;
    printf("CHECK %s: %zu symbols, %zu linked, %zu MISSING (%s/missing.filter), "
           "%zu UNCERTAIN (%s/uncertain.filter)%s\n", name, sum.symbols,
           sum.symbols - sum.missing - sum.uncertain, sum.missing, opt->outdir, sum.uncertain,
           opt->outdir, sum.cached ? ", cached" : "");
    status = 0;
out:
    inventory_free(&inv);
    free(templates);
    free(co.header_abs);
    return status;
}
