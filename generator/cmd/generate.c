/*
 * generate.c - `libwrap-gen [options] libwrap.i`: the generation command
 * (docs/generator.md).
 *
 * Pipeline: parse libwrap.i (parse/) -> default scope (parse/scope.c) ->
 * the user's filter (common/filter.h) -> variadic twins (model/variadic.c)
 * -> symbol check against the target libraries (check/) -> outputs: the
 * inventory as JSON and as a dump, then everything else through
 * emit_outputs() (emit/).
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check/drop.h"
#include "check/probe.h"
#include "cmd/commands.h"
#include "emit/emit.h"
#include "filter.h"
#include "model/inventory.h"
#include "parse/fortran.h"
#include "parse/language.h"
#include "parse/parse.h"
#include "parse/scope.h"
#include "util/fileio.h"
#include "util/strbuf.h"
#include "check/symcheck.h"
#include "util/template.h"
#include "model/target.h"
#include "model/variadic.h"

typedef struct gen_options {
    const char *name;
    const char *language;
    const char *outdir;
    const char *filter;
    const char *cppflags;
    const char *ldflags;
    const char *libs;
    const char *templates;
    const char *source;
    bool dump;
    bool quiet;
    lwg_va_mapping *va_map;
    size_t n_va_map;
    const char **declare_void;
    size_t n_declare_void;
    bool abi; /* --forward abi (default on x86-64 and AArch64) or typed */
    bool forward_set; /* --forward given */
    const char *target; /* --target TRIPLE: the wrappers' machine (model/target.h) */
    const char *drop; /* NAME.dropped: wrappers that did not compile */
    const char *probed; /* check.cache: the link probes' verdicts (make check) */
} gen_options;

static void usage(FILE *out)
{
    fputs("usage: libwrap-gen --name NAME [-x c|c++] [-o DIR] [--filter FILE]\n"
          "                   [--cppflags FLAGS] [--ldflags FLAGS] [--libs LIBS]\n"
          "                   [--va-twin SYM=TWIN]... [--declare-void SYM]...\n"
          "                   [--forward abi|typed] [--target TRIPLE] [--drop FILE] [--probed FILE]\n"
          "                   [--templates DIR] [--dump] [--quiet] libwrap.i\n"
          "       libwrap-gen check [options]\n"
          "       libwrap-gen drop [options]\n"
          "       libwrap-gen installcheck [options]\n"
          "       libwrap-gen resolve [--ldflags FLAGS] [--libs LIBS]\n"
          "       libwrap-gen compile-commands compile_commands.json\n"
          "       libwrap-gen language X\n"
          "       libwrap-gen render TEMPLATE [VAR=VALUE]...\n"
          "See docs/generator.md.\n",
          out);
}

static bool is_identifier(const char *s)
{
    if (!s || !(*s == '_' || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z')))
        return false;
    for (; *s; s++)
        if (!(*s == '_' || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
              (*s >= '0' && *s <= '9')))
            return false;
    return true;
}

/* Returns 0, or the exit status for a usage error. */
static int parse_args(int argc, char **argv, gen_options *o)
{
    enum { OPT_NAME = 256, OPT_FILTER, OPT_CPPFLAGS, OPT_LDFLAGS, OPT_LIBS, OPT_VA_TWIN,
           OPT_DECLARE_VOID, OPT_TEMPLATES, OPT_DUMP, OPT_QUIET, OPT_FORWARD, OPT_DROP, OPT_PROBED, OPT_TARGET,
           OPT_HELP };
    static const struct option longopts[] = {
        {"name", required_argument, NULL, OPT_NAME},
        {"filter", required_argument, NULL, OPT_FILTER},
        {"cppflags", required_argument, NULL, OPT_CPPFLAGS},
        {"ldflags", required_argument, NULL, OPT_LDFLAGS},
        {"libs", required_argument, NULL, OPT_LIBS},
        {"va-twin", required_argument, NULL, OPT_VA_TWIN},
        {"declare-void", required_argument, NULL, OPT_DECLARE_VOID},
        {"templates", required_argument, NULL, OPT_TEMPLATES},
        {"dump", no_argument, NULL, OPT_DUMP},
        {"quiet", no_argument, NULL, OPT_QUIET},
        {"forward", required_argument, NULL, OPT_FORWARD},
        {"target", required_argument, NULL, OPT_TARGET},
        {"drop", required_argument, NULL, OPT_DROP},
        {"probed", required_argument, NULL, OPT_PROBED},
        {"help", no_argument, NULL, OPT_HELP},
        {NULL, 0, NULL, 0},
    };
    memset(o, 0, sizeof *o);
    o->language = "c";
    o->outdir = ".";
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "x:o:h", longopts, NULL)) != -1) {
        switch (c) {
        case OPT_NAME: o->name = optarg; break;
        case 'x': o->language = optarg; break;
        case 'o': o->outdir = optarg; break;
        case OPT_FILTER: o->filter = optarg; break;
        case OPT_CPPFLAGS: o->cppflags = optarg; break;
        case OPT_LDFLAGS: o->ldflags = optarg; break;
        case OPT_LIBS: o->libs = optarg; break;
        case OPT_TEMPLATES: o->templates = optarg; break;
        case OPT_DUMP: o->dump = true; break;
        case OPT_QUIET: o->quiet = true; break;
        case OPT_DROP: o->drop = optarg; break;
        case OPT_PROBED: o->probed = optarg; break;
        case OPT_TARGET: o->target = optarg; break;
        case OPT_FORWARD:
            o->forward_set = true;
            if (strcmp(optarg, "abi") == 0) {
                o->abi = true;
            } else if (strcmp(optarg, "typed") == 0) {
                o->abi = false;
            } else {
                fprintf(stderr, "libwrap-gen: --forward %s: expected abi or typed\n", optarg);
                return 2;
            }
            break;
        case OPT_VA_TWIN: {
            char *eq = strchr(optarg, '=');
            if (!eq || eq == optarg || !eq[1]) {
                fprintf(stderr, "libwrap-gen: --va-twin %s: expected SYM=TWIN\n", optarg);
                return 2;
            }
            *eq = '\0';
            o->va_map = xrealloc(o->va_map, (o->n_va_map + 1) * sizeof *o->va_map);
            o->va_map[o->n_va_map++] = (lwg_va_mapping){optarg, eq + 1};
            break;
        }
        case OPT_DECLARE_VOID:
            o->declare_void = xrealloc(o->declare_void, (o->n_declare_void + 1) * sizeof(char *));
            o->declare_void[o->n_declare_void++] = optarg;
            break;
        case 'h':
        case OPT_HELP:
            usage(stdout);
            exit(0);
        default:
            if (optopt && optopt < 256)
                fprintf(stderr, "libwrap-gen: option -%c: unknown or missing its argument\n", optopt);
            else
                fprintf(stderr, "libwrap-gen: %s: unknown option or missing argument\n",
                        argv[optind - 1]);
            usage(stderr);
            return 2;
        }
    }
    if (optind != argc - 1) {
        fprintf(stderr, "libwrap-gen: %s\n",
                optind >= argc ? "no input: name the preprocessed libwrap.i" : "more than one input file");
        usage(stderr);
        return 2;
    }
    o->source = argv[optind];
    /* The forwarding is the target's, not the generator's machine's. */
    const char *arch = target_arch(o->target);
    if (!o->forward_set)
        o->abi = target_has_abi(arch);
    else if (o->abi && !target_has_abi(arch)) {
        fprintf(stderr, "libwrap-gen: --forward abi: ABI-level forwarding exists for x86-64 and "
                        "AArch64 only, not %s; use --forward typed\n", arch);
        return 2;
    }
    if (!is_identifier(o->name)) {
        fprintf(stderr, "libwrap-gen: --name %s: a C identifier is required (it names the "
                        "wrapper's files and symbols)\n", o->name ? o->name : "(missing)");
        return 2;
    }
    if (!parse_language_valid(o->language)) {
        fprintf(stderr, "libwrap-gen: -x %s: %s\n", o->language, parse_language_expected);
        return 2;
    }
    return 0;
}

static int write_dump(const lwg_inventory *inv, const char *path)
{
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (!mem) {
        fprintf(stderr, "libwrap-gen: %s: %s\n", path, strerror(errno));
        return -1;
    }
    inventory_dump(inv, mem);
    fclose(mem);
    int rc = write_file_atomically(path, text, len);
    free(text);
    return rc;
}

static size_t count_skip(const lwg_inventory *inv, lwg_skip why)
{
    size_t n = 0;
    for (size_t i = 0; i < inv->nfuncs; i++)
        n += inv->funcs[i].skip == why;
    return n;
}

/* After each step, nothing wrapped is an error that names the step. */
static bool nothing_left(const lwg_inventory *inv, const char *source, const char *step,
                         const char *advice)
{
    if (inventory_count_wrapped(inv) > 0)
        return false;
    fprintf(stderr, "libwrap-gen: %s: nothing left to wrap after %s; %s\n", source, step, advice);
    return true;
}

/* What to say when the symbol check left nothing to wrap: how many it left
 * out of each kind and why, in the check's own words (the first function's
 * reason), and what to do. Only MISSING: the flags name libraries that do
 * not export the functions. UNCERTAIN: the targets export them, but a
 * program links them without the targets too. */
static char *symbol_check_advice(const lwg_inventory *inv, const gen_options *o)
{
    size_t missing = 0, uncertain = 0;
    const char *why_missing = NULL, *why_uncertain = NULL;
    for (size_t i = 0; i < inv->nfuncs; i++) {
        const lwg_function *f = &inv->funcs[i];
        if (f->skip == LWG_SKIP_MISSING && missing++ == 0)
            why_missing = f->skip_detail;
        else if (f->skip == LWG_SKIP_UNCERTAIN && uncertain++ == 0)
            why_uncertain = f->skip_detail;
    }
    strbuf sb = STRBUF_INIT;
    if (uncertain == 0) {
        sb_printf(&sb, "the target libraries export none of the declared functions (%zu MISSING",
                  missing);
        if (why_missing)
            sb_printf(&sb, ": %s", why_missing);
        sb_put(&sb, "); check --ldflags/--libs (--dump shows every function's reason)");
        return sb_steal(&sb);
    }
    bool probed = why_uncertain && strncmp(why_uncertain, "link probe:", 11) == 0;
    sb_printf(&sb, "%s%zu function%s UNCERTAIN", missing ? "" : "all ", uncertain,
              uncertain == 1 ? " is" : "s are");
    if (why_uncertain)
        sb_printf(&sb, " (%s)", why_uncertain);
    if (missing) {
        sb_printf(&sb, " and %zu MISSING", missing);
        if (why_missing)
            sb_printf(&sb, " (%s)", why_missing);
    }
    sb_printf(&sb, ": the targets export %s, but a program links %s without --ldflags/--libs "
              "too, from a library the compiler links by itself, so a call might not reach "
              "the targets",
              uncertain == 1 ? "it" : "them", uncertain == 1 ? "it" : "them");
    if (probed)
        sb_put(&sb, " (the link probes of make check found that with its compiler: check.cache)");
    sb_printf(&sb, ". If the compiler is a wrapper driver that adds the target library itself "
              "(mpicc adds -lmpi; `CC -### /dev/null` shows its link line), name that same "
              "library file in --libs%s; to wrap %s anyway, add INCLUDE MANGLED rules for %s "
              "symbol%s to %s (docs/symcheck.md); --dump shows every function's reason",
              probed ? " and run make check again" : "", uncertain == 1 ? "it" : "them",
              uncertain == 1 ? "its" : "their", uncertain == 1 ? "" : "s",
              o->filter ? o->filter : "the filter file");
    return sb_steal(&sb);
}

static int apply_filter(lwg_inventory *inv, const char *path)
{
    char err[1024];
    lw_filter *filter = lw_filter_load(path, err, sizeof err);
    if (!filter) {
        fprintf(stderr, "%s\n", err);
        return -1;
    }
    for (size_t i = 0; i < inv->nfuncs; i++) {
        lwg_function *f = &inv->funcs[i];
        if (f->skip != LWG_WRAP)
            continue;
        char *display = inventory_display_name(f);
        if (lw_filter_excludes(filter, f->file, f->symbol, display))
            function_skip(f, LWG_SKIP_FILTERED, path);
        f->filter_included = lw_filter_includes(filter, f->file, f->symbol, display);
        free(display);
    }
    lw_filter_free(filter);
    return 0;
}

/* The link probes' verdicts (make check's check.cache) replace the symbol
 * tables' when they are newer than every target library; *use tells
 * whether they were used, how many verdicts they changed and for how many
 * symbols they had none (declared since: the symbol tables' verdicts stay). */
typedef struct probe_use {
    bool applied;
    size_t changed, unprobed;
} probe_use;

static int apply_probes(lwg_inventory *inv, const gen_options *o, const lwg_libset *targets,
                        probe_use *use)
{
    struct stat cache;
    if (stat(o->probed, &cache) != 0) {
        fprintf(stderr, "libwrap-gen: --probed %s: %s\n", o->probed, strerror(errno));
        return -1;
    }
    for (size_t i = 0; i < libset_count(targets); i++) {
        struct stat lib;
        const char *path = libset_file(targets, i)->path;
        if (stat(path, &lib) == 0 && lib.st_mtime > cache.st_mtime) {
            fprintf(stderr, "libwrap-gen: note: %s is older than %s: its link probe verdicts are "
                            "not used; run make check again\n", o->probed, path);
            return 0;
        }
    }
    if (probe_apply_cache(inv, o->probed, &use->changed, &use->unprobed) != 0)
        return -1;
    use->applied = true;
    return 0;
}

/* The Fortran-ABI names the targets export, and which target exports
 * each (the warning names those of the names it lists). */
struct fortran_names {
    lwg_strv names;
    size_t *from, cap; /* per name: its target file */
};

static void add_fortran_name(const char *name, size_t file, void *data)
{
    struct fortran_names *f = data;
    if (fortran_name(name)) {
        strv_push(&f->names, name);
        if (f->names.n > f->cap) {
            f->cap = f->cap ? 2 * f->cap : 64;
            f->from = xrealloc(f->from, f->cap * sizeof *f->from);
        }
        f->from[f->names.n - 1] = file;
    }
}

/* The static archives beside the shared targets (libfoo.a next to
 * libfoo.so: what a -static or -Bstatic link of the same -lfoo takes), and
 * the functions that a shared target with such an archive exports and none
 * of the archives defines (static_missing). A target without an archive
 * marks none of its functions: a static link could not take it anyway, and
 * the weak reference would let a dynamic link drop it (--as-needed) and
 * call nothing (libxslt beside libxml2.a). Nothing where a target is an
 * archive itself. */
static void mark_static_missing(lwg_inventory *inv, const lwg_libset *targets)
{
    strbuf libs = STRBUF_INIT;
    size_t n = libset_count(targets);
    bool shared = true, *has_archive = xcalloc(n ? n : 1, sizeof *has_archive);
    for (size_t i = 0; i < n && shared; i++) {
        const lwg_libfile *lib = libset_file(targets, i);
        const char *base = strrchr(lib->path, '/');
        const char *so = strstr(base ? base : lib->path, ".so");
        shared = !lib->is_static && so;
        char *archive = shared ? xstrdup_printf("%.*s.a", (int)(so - lib->path), lib->path) : NULL;
        if (archive && access(archive, R_OK) == 0 && !strpbrk(archive, " \t'\"\\")) {
            sb_printf(&libs, "%s%s", libs.len ? " " : "", archive);
            has_archive[i] = true;
        }
        free(archive);
    }
    lwg_libset *archives = shared && libs.len ? libset_resolve("", libs.s) : NULL;
    for (size_t i = 0; archives && i < inv->nfuncs; i++) {
        lwg_function *f = &inv->funcs[i];
        size_t file;
        f->static_missing = f->symbol && libset_exporter(targets, f->symbol, &file) && has_archive[file] &&
                            !libset_exports(archives, f->symbol);
    }
    if (archives)
        libset_free(archives);
    free(has_archive);
    sb_free(&libs);
}

/* Marks MISSING and UNCERTAIN functions; *soname gets the targets'
 * DT_SONAMEs, in their order, joined by ':' (the runtime wrappers look for
 * originals there, and ask whether any of them is loaded). */
static int symbol_check(lwg_inventory *inv, const gen_options *o, char **soname, probe_use *probes)
{
    lwg_libset *targets = libset_resolve(o->ldflags ? o->ldflags : "", o->libs ? o->libs : "");
    if (!targets)
        return -1;
    lwg_libset *defaults = libset_default();
    size_t n_missing = 0, n_uncertain = 0;
    symcheck_inventory(inv, targets, defaults, &n_missing, &n_uncertain);
    mark_static_missing(inv, targets);
    if (libset_count(targets)) {
        size_t nlibs = libset_count(targets);
        struct fortran_names fortran = {{0}, NULL, 0};
        libset_each(targets, add_fortran_name, &fortran);
        bool fortran_runtime = false;
        const char **libnames = xcalloc(nlibs, sizeof *libnames);
        for (size_t i = 0; i < nlibs; i++) {
            const lwg_libfile *lib = libset_file(targets, i);
            const char *base = strrchr(lib->path, '/');
            fortran_runtime |= lib->fortran_runtime;
            libnames[i] = lib->soname ? lib->soname : base ? base + 1 : lib->path;
        }
        fortran_undeclared(inv, &fortran.names, fortran.from, libnames, nlibs, fortran_runtime, o->cppflags);
        free(libnames);
        free(fortran.from);
        strv_free(&fortran.names);
    }
    if (o->probed && apply_probes(inv, o, targets, probes) != 0) {
        if (defaults)
            libset_free(defaults);
        libset_free(targets);
        return -1;
    }
    /* An UNCERTAIN function that NAME.filter includes by its symbol is
     * wrapped (docs/symcheck.md). */
    for (size_t i = 0; i < inv->nfuncs; i++) {
        lwg_function *f = &inv->funcs[i];
        if (f->skip == LWG_SKIP_UNCERTAIN && f->filter_included) {
            f->skip = LWG_WRAP;
            free(f->skip_detail);
            f->skip_detail = NULL;
        }
    }
    /* The names the runtime knows the targets by: their sonames; a shared
     * library without one (made without -Wl,-soname) by its path, which
     * the loader also matches when the program loads it by another path
     * to the same file (dlopen, ctypes). */
    strbuf sonames = STRBUF_INIT;
    for (size_t i = 0; i < libset_count(targets); i++) {
        const lwg_libfile *lib = libset_file(targets, i);
        const char *name = lib->soname ? lib->soname : lib->is_static ? NULL : lib->path;
        if (!name || strchr(name, ':'))
            continue;
        bool seen = false;
        for (size_t k = 0; k < i && !seen; k++) {
            const lwg_libfile *other = libset_file(targets, k);
            const char *o = other->soname ? other->soname : other->is_static ? NULL : other->path;
            seen = o && strcmp(o, name) == 0;
        }
        if (!seen)
            sb_printf(&sonames, "%s%s", sonames.s ? ":" : "", name);
    }
    *soname = sonames.s; /* NULL: none */
    if (defaults)
        libset_free(defaults);
    libset_free(targets);
    return 0;
}

static int ensure_dir(const char *dir)
{
    struct stat st;
    if (stat(dir, &st) == 0) {
        if (S_ISDIR(st.st_mode))
            return 0;
        fprintf(stderr, "libwrap-gen: -o %s: not a directory\n", dir);
        return -1;
    }
    if (mkdir(dir, 0777) != 0) {
        fprintf(stderr, "libwrap-gen: -o %s: %s\n", dir, strerror(errno));
        return -1;
    }
    return 0;
}

/* On a terminal, the step under way, rewritten in place ("GEN   qt:
 * parsing libwrap.i (3/6)"), so that a large library (Qt: seconds of
 * parsing) shows progress; nothing in logs. step NULL clears the line. */
static void progress(const gen_options *o, const char *step, int k)
{
    static int tty = -1;
    if (tty < 0)
        tty = !o->quiet && !o->dump && isatty(STDERR_FILENO);
    if (!tty)
        return;
    if (step)
        fprintf(stderr, "\rGEN   %s: %s (%d/6)\033[K", o->name, step, k);
    else
        fprintf(stderr, "\r\033[K");
    fflush(stderr);
}

static int generate(const gen_options *o)
{
    int rc = 1;
    lwg_inventory inv;
    inventory_init(&inv);
    lwg_scope *scope = NULL;
    char *templates = NULL;
    char *json_path = NULL, *dump_path = NULL, *soname = NULL;
    probe_use probes = {0};

    lwg_parse_options popt = {o->source, o->language, o->declare_void, o->n_declare_void, o->abi,
                              o->target};
    progress(o, "parsing", 1);
    int parsed = parse_inventory(&inv, &popt);
    progress(o, NULL, 0);
    if (parsed != 0)
        goto out;
    progress(o, "scope", 2);
    inv.name = xstrdup(o->name);
    inv.abi = o->abi;
    if (o->abi)
        (void)target_adjust_inventory(&inv, target_arch(o->target));
    scope = scope_load(o->source, o->cppflags);
    if (!scope)
        goto out;
    size_t in_scope = scope_apply(&inv, scope);
    char named[512];
    scope_named_in_scope(scope, named, sizeof named);
    char advice[1024];
    /* Headers in scope that declare no function (tiff.h, whose functions
     * tiffio.h declares): named, so that the user looks for another. */
    if (!in_scope && named[0])
        snprintf(advice, sizeof advice,
                 "libwrap.h includes %s, which declare%s no function of the library: include the "
                 "header that declares its functions (see docs/scope.md)",
                 named, strchr(named, ',') ? "" : "s");
    else
        snprintf(advice, sizeof advice, "include the library's headers in libwrap.h and pass their -I "
                                        "directories in --cppflags (see docs/scope.md)");
    if (!o->dump && nothing_left(&inv, o->source, "the scope and declaration checks", advice))
        goto out;
    if (o->filter) {
        if (apply_filter(&inv, o->filter) != 0)
            goto out;
        if (!o->dump && nothing_left(&inv, o->source, "the filter", "check the EXCLUDE rules in the filter file"))
            goto out;
    }
    progress(o, "variadic twins", 3);
    if (variadic_resolve(&inv, o->va_map, o->n_va_map) < 0)
        goto out;
    bool checked = (o->ldflags && o->ldflags[0]) || (o->libs && o->libs[0]);
    if (checked) {
        progress(o, "symbol check", 4);
        if (symbol_check(&inv, o, &soname, &probes) != 0)
            goto out;
        if (!o->dump && inventory_count_wrapped(&inv) == 0) {
            char *why = symbol_check_advice(&inv, o);
            nothing_left(&inv, o->source, "the symbol check", why);
            free(why);
            goto out;
        }
    }
    if (variadic_skip_twinless(&inv) && !o->dump &&
        nothing_left(&inv, o->source, "the variadic check", "name va_list twins with --va-twin SYM=TWIN"))
        goto out;
    if (o->drop && drop_load(&inv, o->drop) < 0)
        goto out;
    if (o->dump) {
        inventory_dump(&inv, stdout);
        rc = fflush(stdout) == 0 ? 0 : 1;
        goto out;
    }
    if (ensure_dir(o->outdir) != 0)
        goto out;
    templates = o->templates ? xstrdup(o->templates) : template_default_dir();
    if (!templates) {
        fprintf(stderr, "libwrap-gen: no template directory next to this program "
                        "(PREFIX/share/libwrap/templates); name one with --templates DIR\n");
        goto out;
    }
    progress(o, "writing the inventory", 5);
    json_path = xstrdup_printf("%s/%s.inventory.json", o->outdir, o->name);
    dump_path = xstrdup_printf("%s/%s.functions.txt", o->outdir, o->name);
    if (inventory_write_json(&inv, json_path) != 0 || write_dump(&inv, dump_path) != 0)
        goto out;
    lwg_emit_options eopt = {o->outdir, templates, o->name, soname};
    progress(o, "writing the wrappers", 6);
    if (emit_outputs(&inv, &eopt) != 0)
        goto out;
    progress(o, NULL, 0);

    if (!o->quiet) {
        printf("GEN   %s: %zu functions, %zu wrapped (%s forwarding); left out %zu MISSING "
               "(missing.filter), %zu UNCERTAIN",
               o->name, in_scope, inventory_count_wrapped(&inv), o->abi ? "ABI-level" : "typed",
               count_skip(&inv, LWG_SKIP_MISSING), count_skip(&inv, LWG_SKIP_UNCERTAIN));
        if (!o->abi)
            printf(", %zu variadic without va_list twin", count_skip(&inv, LWG_SKIP_VARIADIC));
        /* Left out for reasons the user should know of at once. */
        size_t signals = count_skip(&inv, LWG_SKIP_SIGNAL),
               diags = count_skip(&inv, LWG_SKIP_DIAGNOSTIC), twice = count_skip(&inv, LWG_SKIP_RETURNS_TWICE);
        if (signals)
            printf(", %zu Qt signal%s", signals, signals == 1 ? "" : "s");
        if (twice)
            printf(", %zu that return%s twice (called unmeasured)", twice, twice == 1 ? "s" : "");
        if (diags)
            printf(", %zu that do not parse", diags);
        if (probes.applied && probes.unprobed)
            printf(", link probes of make check applied (%zu verdict%s changed; %zu symbol%s "
                   "without a verdict judged by the symbol tables: run make check)",
                   probes.changed, probes.changed == 1 ? "" : "s", probes.unprobed,
                   probes.unprobed == 1 ? "" : "s");
        else if (probes.applied)
            printf(", link probes of make check applied (%zu verdict%s changed)", probes.changed,
                   probes.changed == 1 ? "" : "s");
        size_t dropped = count_skip(&inv, LWG_SKIP_COMPILE);
        if (dropped)
            printf(", %zu whose wrapper does not compile", dropped);
        /* And the rest, so that the line adds up to the functions. */
        size_t nosym = count_skip(&inv, LWG_SKIP_INLINE) + count_skip(&inv, LWG_SKIP_STATIC) +
                       count_skip(&inv, LWG_SKIP_HIDDEN);
        if (nosym)
            printf(", %zu with no symbol (inline, static or hidden)", nosym);
        size_t told = inventory_count_wrapped(&inv) + count_skip(&inv, LWG_SKIP_MISSING) +
                      count_skip(&inv, LWG_SKIP_UNCERTAIN) +
                      (o->abi ? 0 : count_skip(&inv, LWG_SKIP_VARIADIC)) + signals + diags + twice + dropped + nosym;
        if (in_scope > told)
            printf(", %zu for other reasons", in_scope - told);
        printf(" (%s.skipped.txt)\n", o->name);
    }
    rc = 0;
out:
    progress(o, NULL, 0);
    free(json_path);
    free(dump_path);
    free(templates);
    free(soname);
    scope_free(scope);
    inventory_free(&inv);
    return rc;
}

int cmd_generate(int argc, char **argv)
{
    gen_options o;
    int rc = parse_args(argc, argv, &o);
    if (rc == 0)
        rc = generate(&o);
    free(o.va_map);
    free(o.declare_void);
    return rc;
}
