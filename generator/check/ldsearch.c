/*
 * ldsearch.c - resolve a link line into files, as GNU ld would (ldsearch.h).
 */
#define _GNU_SOURCE
#include "check/ldsearch.h"

#include <ctype.h>
#include <errno.h>
#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/fileio.h"
#include "util/strbuf.h"

/* GNU ld scripts may name further scripts; real ones nest two deep. */
#define LDSCRIPT_MAX_DEPTH 16

void ldfiles_free(lwg_ldfiles *lf)
{
    for (size_t i = 0; i < lf->n; i++) {
        free(lf->files[i].path);
        free(lf->files[i].soname);
    }
    free(lf->files);
    memset(lf, 0, sizeof *lf);
}

const char *ldsearch_compiler(void)
{
    const char *cc = getenv("CC");
    return cc && *cc ? cc : "cc";
}

static bool is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Adds a dir once, compared by its real path (the compiler lists the same
 * dir under several spellings, such as /usr/lib/gcc/x/12/../../../../lib/). */
static void add_dir(lwg_strv *dirs, lwg_strv *seen, const char *dir)
{
    char real[PATH_MAX];
    if (!*dir || !is_dir(dir) || !realpath(dir, real) || strv_contains(seen, real))
        return;
    strv_push(seen, real);
    strv_push(dirs, real);
}

/* The "libraries: =a:b:c" line of `cc -print-search-dirs`. */
static void compiler_dirs(lwg_strv *dirs, lwg_strv *seen)
{
    char *line = NULL;
    size_t cap = 0;
    char *cmd = xstrdup_printf("%s -print-search-dirs 2>/dev/null", ldsearch_compiler());
    FILE *p = popen(cmd, "r");
    free(cmd);
    if (!p)
        return;
    while (getline(&line, &cap, p) > 0) {
        if (strncmp(line, "libraries:", 10) != 0)
            continue;
        char *s = line + 10;
        s += strspn(s, " =");
        s[strcspn(s, "\n")] = '\0';
        for (char *save = NULL, *d = strtok_r(s, ":", &save); d; d = strtok_r(NULL, ":", &save))
            add_dir(dirs, seen, d);
    }
    free(line);
    pclose(p);
}

/* /etc/ld.so.conf and its includes: the fallback when no compiler answers. */
static void ldconf_dirs(const char *path, lwg_strv *dirs, lwg_strv *seen, int depth)
{
    FILE *f = fopen(path, "r");
    char *line = NULL;
    size_t cap = 0;
    if (!f || depth > 8) {
        if (f)
            fclose(f);
        return;
    }
    while (getline(&line, &cap, f) > 0) {
        line[strcspn(line, "#\n")] = '\0';
        char *s = line + strspn(line, " \t");
        if (strncmp(s, "include", 7) == 0 && isspace((unsigned char)s[7])) {
            char *pat = s + 8;
            pat += strspn(pat, " \t");
            pat[strcspn(pat, " \t")] = '\0';
            glob_t g;
            if (glob(pat, 0, NULL, &g) == 0) {
                for (size_t i = 0; i < g.gl_pathc; i++)
                    ldconf_dirs(g.gl_pathv[i], dirs, seen, depth + 1);
                globfree(&g);
            }
        } else if (*s == '/') {
            s[strcspn(s, " \t")] = '\0';
            add_dir(dirs, seen, s);
        }
    }
    free(line);
    fclose(f);
}

const lwg_strv *ldsearch_system_dirs(void)
{
    static lwg_strv dirs;
    static bool done;
    if (done)
        return &dirs;
    done = true;
    lwg_strv seen = {0};
    compiler_dirs(&dirs, &seen);
    if (dirs.n == 0) {
        static const char *const multiarch[] = {
            "/usr/local/lib/x86_64-linux-gnu", "/lib/x86_64-linux-gnu",
            "/usr/lib/x86_64-linux-gnu", "/usr/local/lib", "/lib", "/usr/lib",
        };
        ldconf_dirs("/etc/ld.so.conf", &dirs, &seen, 0);
        for (size_t i = 0; i < sizeof multiarch / sizeof *multiarch; i++)
            add_dir(&dirs, &seen, multiarch[i]);
    }
    strv_free(&seen);
    return &dirs;
}

/* State of one resolution. */
typedef struct resolver {
    lwg_strv user_dirs;  /* -L, in order */
    lwg_strv seen;       /* real paths of files already added */
    bool is_static;     /* -Bstatic in effect */
    bool quiet;         /* no messages (optional default libraries) */
    lwg_ldfiles *out;
} resolver;

static void join_dirs(FILE *out, const lwg_strv *dirs)
{
    for (size_t i = 0; i < dirs->n; i++)
        fprintf(out, "%s%s", i ? " " : "", dirs->v[i]);
    if (dirs->n == 0)
        fputs("none", out);
}

static int add_file(resolver *r, const char *path, const char *origin, int depth);

/* Looks a name up in the -L dirs then the system dirs. A name starting with
 * ':' is an exact file name (-l:libz.so.1). Returns a malloc'd path or NULL. */
static char *search_lib(resolver *r, const char *name)
{
    const lwg_strv *sys = ldsearch_system_dirs();
    for (size_t pass = 0; pass < 2; pass++) {
        const lwg_strv *dirs = pass == 0 ? &r->user_dirs : sys;
        for (size_t i = 0; i < dirs->n; i++) {
            char *cand = NULL;
            /* Within one dir GNU ld prefers the .so; it does not look further
             * for a .so once a dir holds the .a. */
            if (name[0] == ':') {
                cand = xstrdup_printf("%s/%s", dirs->v[i], name + 1);
                if (is_file(cand))
                    return cand;
                free(cand);
                continue;
            }
            if (!r->is_static) {
                cand = xstrdup_printf("%s/lib%s.so", dirs->v[i], name);
                if (is_file(cand))
                    return cand;
                free(cand);
            }
            cand = xstrdup_printf("%s/lib%s.a", dirs->v[i], name);
            if (is_file(cand))
                return cand;
            free(cand);
        }
    }
    return NULL;
}

static int add_lib(resolver *r, const char *name, const char *origin, int depth)
{
    char *path = search_lib(r, name);
    if (!path) {
        if (r->quiet)
            return -1;
        fprintf(stderr, "libwrap-gen: %s-l%s: ", origin, name);
        if (name[0] == ':')
            fprintf(stderr, "no %s", name + 1);
        else if (r->is_static)
            fprintf(stderr, "no lib%s.a (static linking is on)", name);
        else
            fprintf(stderr, "no lib%s.so or lib%s.a", name, name);
        fputs(" in -L dirs (", stderr);
        join_dirs(stderr, &r->user_dirs);
        fputs(") or the system dirs (", stderr);
        join_dirs(stderr, ldsearch_system_dirs());
        fputs("): install the library's development package or add -L DIR to --ldflags\n",
              stderr);
        return -1;
    }
    int rc = add_file(r, path, origin, depth);
    free(path);
    return rc;
}

/* ---- GNU ld scripts ---------------------------------------------------- */

typedef struct ldlex {
    const char *p;
} ldlex;

/* Next token of an ld script: "(", ")", "," or a word; NULL at the end.
 * Comments are C style. The token is written to *tok (malloc'd). */
static bool ldlex_next(ldlex *lx, char **tok)
{
    for (;;) {
        while (*lx->p && isspace((unsigned char)*lx->p))
            lx->p++;
        if (lx->p[0] == '/' && lx->p[1] == '*') {
            const char *end = strstr(lx->p + 2, "*/");
            lx->p = end ? end + 2 : lx->p + strlen(lx->p);
            continue;
        }
        break;
    }
    if (!*lx->p)
        return false;
    const char *s = lx->p;
    if (strchr("(),;", *s)) {
        lx->p++;
    } else if (*s == '"') {
        const char *end = strchr(s + 1, '"');
        lx->p = end ? end + 1 : s + strlen(s);
        size_t len = (size_t)(lx->p - s) - (end ? 2 : 1);
        strbuf t = STRBUF_INIT;
        sb_putn(&t, s + 1, len);
        *tok = sb_steal(&t);
        return true;
    } else {
        while (*lx->p && !isspace((unsigned char)*lx->p) && !strchr("(),;\"", *lx->p) &&
               !(lx->p[0] == '/' && lx->p[1] == '*'))
            lx->p++;
    }
    strbuf t = STRBUF_INIT;
    sb_putn(&t, s, (size_t)(lx->p - s));
    *tok = sb_steal(&t);
    return true;
}

/* A file named inside a script: absolute, else next to the script, else in
 * the search dirs (ld's order is the current dir first; the script's own dir
 * is what distributions rely on, as in libgcc_s.so: GROUP(libgcc_s.so.1)). */
static int script_file(resolver *r, const char *script, const char *name, int depth)
{
    char *origin = xstrdup_printf("%s: ", script);
    int rc = -1;
    if (strncmp(name, "-l", 2) == 0) {
        rc = add_lib(r, name + 2, origin, depth);
        goto out;
    }
    if (name[0] == '/') {
        if (is_file(name)) {
            rc = add_file(r, name, origin, depth);
            goto out;
        }
    } else {
        char *dir = xstrdup(script), *slash = strrchr(dir, '/');
        if (slash)
            *slash = '\0';
        char *cand = xstrdup_printf("%s/%s", slash ? dir : ".", name);
        free(dir);
        if (is_file(cand)) {
            rc = add_file(r, cand, origin, depth);
            free(cand);
            goto out;
        }
        free(cand);
        char *lname = xstrdup_printf(":%s", name);
        char *found = search_lib(r, lname);
        free(lname);
        if (found) {
            rc = add_file(r, found, origin, depth);
            free(found);
            goto out;
        }
    }
    if (!r->quiet)
        fprintf(stderr, "libwrap-gen: %s: names %s, which does not exist: "
                "the library's installation is broken; reinstall its development package\n",
                script, name);
out:
    free(origin);
    return rc;
}

static int read_ldscript(resolver *r, const char *path, int depth)
{
    strbuf text = STRBUF_INIT;
    text.s = read_whole_file(path, &text.len);
    if (!text.s) {
        if (!r->quiet)
            fprintf(stderr, "libwrap-gen: %s: %s\n", path, strerror(errno));
        return -1;
    }
    text.cap = text.len + 1;
    if (memchr(text.s, '\0', text.len)) /* binary: not a script */
        text.len = 0;

    ldlex lx = {text.s ? text.s : ""};
    char *tok = NULL;
    int rc = 0, paren = 0, inputs = 0;
    bool listing = false, search_dir = false;
    bool was_static = r->is_static;
    while (rc == 0 && text.len && ldlex_next(&lx, &tok)) {
        if (strcmp(tok, "(") == 0) {
            paren++;
        } else if (strcmp(tok, ")") == 0) {
            if (--paren == 0)
                listing = search_dir = false;
        } else if (strcmp(tok, ",") == 0 || strcmp(tok, ";") == 0) {
            /* separators */
        } else if (paren == 0) {
            listing = strcmp(tok, "GROUP") == 0 || strcmp(tok, "INPUT") == 0;
            search_dir = strcmp(tok, "SEARCH_DIR") == 0;
            inputs += listing;
        } else if (search_dir) {
            strv_push(&r->user_dirs, tok);
        } else if (listing && strcmp(tok, "AS_NEEDED") != 0) {
            /* Files inside a script are linked in the mode the script was
             * found in; -Bstatic is not reset by the script. */
            rc = script_file(r, path, tok, depth + 1);
        }
        free(tok);
        tok = NULL;
    }
    r->is_static = was_static;
    sb_free(&text);
    if (rc == 0 && inputs == 0) {
        if (!r->quiet)
            fprintf(stderr, "libwrap-gen: %s: neither ELF, nor an ar archive, nor a GNU ld "
                    "script with GROUP or INPUT: name the real library instead\n", path);
        return -1;
    }
    return rc;
}

/* ---- files ------------------------------------------------------------- */

static int add_file(resolver *r, const char *path, const char *origin, int depth)
{
    char real[PATH_MAX];
    if (!realpath(path, real)) {
        if (!r->quiet)
            fprintf(stderr, "libwrap-gen: %s%s: %s\n", origin, path, strerror(errno));
        return -1;
    }
    if (strv_contains(&r->seen, real))
        return 0;
    if (depth > LDSCRIPT_MAX_DEPTH) {
        if (!r->quiet)
            fprintf(stderr, "libwrap-gen: %s: ld scripts nest too deep (a loop?)\n", path);
        return -1;
    }

    unsigned char magic[18] = {0};
    FILE *f = fopen(real, "rb");
    if (!f) {
        if (!r->quiet)
            fprintf(stderr, "libwrap-gen: %s%s: %s\n", origin, path, strerror(errno));
        return -1;
    }
    size_t got = fread(magic, 1, sizeof magic, f);
    fclose(f);

    bool elf = got >= 4 && memcmp(magic, "\177ELF", 4) == 0;
    bool ar = got >= 8 &&
              (memcmp(magic, "!<arch>\n", 8) == 0 || memcmp(magic, "!<thin>\n", 8) == 0);
    if (!elf && !ar) {
        strv_push(&r->seen, real); /* a script naming itself must not loop */
        return read_ldscript(r, real, depth);
    }
    strv_push(&r->seen, real);
    lwg_ldfiles *lf = r->out;
    if (lf->n == lf->cap) {
        lf->cap = lf->cap ? 2 * lf->cap : 8;
        lf->files = xrealloc(lf->files, lf->cap * sizeof *lf->files);
    }
    /* e_type, in the byte order EI_DATA names: ET_DYN (3) is a shared
     * object; ET_REL objects given as paths behave like archives. */
    unsigned e_type = magic[5] == 2 ? (unsigned)magic[16] << 8 | magic[17]
                                    : (unsigned)magic[17] << 8 | magic[16];
    bool shared = elf && got == sizeof magic && e_type == 3;
    lf->files[lf->n++] = (lwg_libfile){ .path = xstrdup(real), .soname = NULL,
                                       .is_static = !shared };
    return 0;
}

/* A plain word that names a library or object: *.a, *.o, *.so, *.so.N.
 * Other plain words (the argument of an option we do not know) are not
 * inputs we could check. */
static bool is_library_name(const char *word)
{
    const char *base = strrchr(word, '/');
    base = base ? base + 1 : word;
    size_t len = strlen(base);
    if (len > 2 && (strcmp(base + len - 2, ".a") == 0 || strcmp(base + len - 2, ".o") == 0))
        return true;
    const char *so = strstr(base, ".so");
    return so && so > base && (so[3] == '\0' || so[3] == '.');
}

/* The options GNU ld takes through -Wl, (or -Xlinker). `next` is the word
 * that follows, consumed when the option takes an argument. */
static int linker_option(resolver *r, const char *opt, const char *next, bool *used_next,
                         int pass)
{
    *used_next = false;
    if (strcmp(opt, "-Bstatic") == 0 || strcmp(opt, "-static") == 0 ||
        strcmp(opt, "-dn") == 0 || strcmp(opt, "-non_shared") == 0) {
        r->is_static = true;
    } else if (strcmp(opt, "-Bdynamic") == 0 || strcmp(opt, "-dy") == 0 ||
               strcmp(opt, "-call_shared") == 0) {
        r->is_static = false;
    } else if (strcmp(opt, "-L") == 0 || strcmp(opt, "--library-path") == 0) {
        *used_next = true;
        if (next && pass == 0)
            strv_push(&r->user_dirs, next);
    } else if (strncmp(opt, "-L", 2) == 0) {
        if (pass == 0)
            strv_push(&r->user_dirs, opt + 2);
    } else if (strncmp(opt, "--library-path=", 15) == 0) {
        if (pass == 0)
            strv_push(&r->user_dirs, opt + 15);
    } else if (strcmp(opt, "-l") == 0 || strcmp(opt, "--library") == 0) {
        *used_next = true;
        if (next && pass == 1)
            return add_lib(r, next, "", 0);
    } else if (strncmp(opt, "-l", 2) == 0) {
        if (pass == 1)
            return add_lib(r, opt + 2, "", 0);
    } else if (strncmp(opt, "--library=", 10) == 0) {
        if (pass == 1)
            return add_lib(r, opt + 10, "", 0);
    } else if (strcmp(opt, "-rpath") == 0 || strcmp(opt, "-rpath-link") == 0 ||
               strcmp(opt, "-soname") == 0 || strcmp(opt, "-o") == 0 ||
               strcmp(opt, "-T") == 0 || strcmp(opt, "-z") == 0) {
        *used_next = true;
    } else if (opt[0] != '-' && pass == 1 && is_library_name(opt)) {
        return add_file(r, opt, "", 0);
    }
    return 0;
}

/* Two passes like ld: all -L dirs count for every -l, whatever their order. */
static int resolve_words(resolver *r, const lwg_strv *w, int pass)
{
    bool static_all = false;
    for (size_t i = 0; i < w->n; i++)
        static_all |= strcmp(w->v[i], "-static") == 0;
    r->is_static = static_all;

    for (size_t i = 0; i < w->n; i++) {
        const char *a = w->v[i];
        const char *next = i + 1 < w->n ? w->v[i + 1] : NULL;
        bool used = false;
        int rc = 0;
        if (strcmp(a, "-Xlinker") == 0) {
            if (next) {
                /* An option's argument comes in its own -Xlinker:
                 * "-Xlinker -rpath -Xlinker DIR". */
                bool pair = i + 3 < w->n && strcmp(w->v[i + 2], "-Xlinker") == 0;
                rc = linker_option(r, next, pair ? w->v[i + 3] : NULL, &used, pass);
                i += used ? 3 : 1;
            }
        } else if (strncmp(a, "-Wl,", 4) == 0) {
            lwg_strv parts = {0};
            char *copy = xstrdup(a + 4), *save = NULL;
            for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save))
                strv_push(&parts, t);
            free(copy);
            for (size_t k = 0; k < parts.n && rc == 0; k++) {
                rc = linker_option(r, parts.v[k], k + 1 < parts.n ? parts.v[k + 1] : NULL,
                                   &used, pass);
                k += used;
            }
            strv_free(&parts);
        } else if (strcmp(a, "-L") == 0 || strcmp(a, "-l") == 0) {
            rc = linker_option(r, a, next, &used, pass);
            i += used;
        } else if (strncmp(a, "-L", 2) == 0 || strncmp(a, "-l", 2) == 0 ||
                   strcmp(a, "-static") == 0) {
            rc = linker_option(r, a, NULL, &used, pass);
        } else if (strcmp(a, "-o") == 0 || strcmp(a, "-x") == 0 ||
                   strcmp(a, "-T") == 0 || strcmp(a, "-include") == 0) {
            i++; /* compiler options with an argument that is not an input */
        } else if (a[0] != '-') {
            rc = linker_option(r, a, NULL, &used, pass);
        }
        /* Quiet (the default libraries): what cannot be found is left out
         * and the rest resolved. */
        if (rc != 0 && !r->quiet)
            return rc;
    }
    return 0;
}

static int resolve_strv(const lwg_strv *words, bool quiet, lwg_ldfiles *lf)
{
    resolver r = { .quiet = quiet, .out = lf };
    int rc = 0;
    for (int pass = 0; rc == 0 && pass < 2; pass++)
        rc = resolve_words(&r, words, pass);
    strv_free(&r.user_dirs);
    strv_free(&r.seen);
    return rc;
}

static int resolve(const char *ldflags, const char *libs, bool quiet, lwg_ldfiles *lf)
{
    lwg_strv words = {0};
    int rc = words_split(ldflags, "--ldflags", &words);
    if (rc == 0)
        rc = words_split(libs, "--libs", &words);
    if (rc == 0)
        rc = resolve_strv(&words, quiet, lf);
    strv_free(&words);
    return rc;
}

int ldsearch_resolve(const char *ldflags, const char *libs, lwg_ldfiles *lf)
{
    return resolve(ldflags, libs, false, lf);
}

/* ---- the default libraries -------------------------------------------- */

/* The output name of the driver's link line: it finds that line among the
 * others `-###` prints, and can never be created (-### creates nothing,
 * and a driver that links in spite of it cannot write there). */
#define LINK_MARKER "/dev/null/libwrap-default-libs"

/* Options of GNU ld, lld, gold and mold that take the next word as their
 * argument: a plugin, the dynamic linker or a just-symbols file (-R) is
 * not a library the program links. */
static bool linker_arg_option(const char *w)
{
    static const char *const opts[] = {
        "-plugin", "--plugin", "-plugin-opt", "--plugin-opt", "-dynamic-linker",
        "--dynamic-linker", "-o", "--output", "-m", "-z", "-T", "--script", "-e", "--entry",
        "-h", "-soname", "--soname", "-rpath", "--rpath", "-rpath-link", "--rpath-link", "-u",
        "--undefined", "-y", "--trace-symbol", "-Map", "-a", "-A", "--architecture", "-b",
        "--format", "-f", "--auxiliary", "-F", "--filter", "-G", "-R", "--just-symbols", "-Y",
        "--version-script", "--dynamic-list", "-init", "-fini", "--sysroot", "-mllvm",
        "--hash-style", "-wrap", "--wrap", "--defsym", "-P", "--depaudit",
        "--audit", "--exclude-libs",
    };
    for (size_t i = 0; i < sizeof opts / sizeof *opts; i++)
        if (strcmp(w, opts[i]) == 0)
            return true;
    return false;
}

/* The inputs of a linker command line, as words resolve_words() reads:
 * -L dirs, -l libraries, library and object files, and -Bstatic /
 * -Bdynamic in their place (passed on as -Wl, options, which is where
 * resolve_words() reads them). Option arguments and other options drop out. */
static void link_inputs(const lwg_strv *cmd, lwg_strv *in)
{
    for (size_t i = 1; i < cmd->n; i++) { /* word 0: the linker itself */
        const char *w = cmd->v[i];
        const char *next = i + 1 < cmd->n ? cmd->v[i + 1] : NULL;
        bool dir = strcmp(w, "-L") == 0 || strcmp(w, "--library-path") == 0;
        bool lib = strcmp(w, "-l") == 0 || strcmp(w, "--library") == 0;
        const char *eq = strchr(w, '=');
        if (dir || lib) {
            if (next) {
                char *opt = xstrdup_printf("-%c%s", dir ? 'L' : 'l', next);
                strv_push(in, opt);
                free(opt);
            }
            i++;
        } else if (eq && (strncmp(w, "--library-path=", 15) == 0 ||
                          strncmp(w, "--library=", 10) == 0)) {
            char *opt = xstrdup_printf("-%c%s", w[9] == '-' ? 'L' : 'l', eq + 1);
            strv_push(in, opt);
            free(opt);
        } else if (strncmp(w, "-L", 2) == 0 || strncmp(w, "-l", 2) == 0) {
            strv_push(in, w);
        } else if (strcmp(w, "-Bstatic") == 0 || strcmp(w, "-static") == 0 ||
                   strcmp(w, "-dn") == 0 || strcmp(w, "-non_shared") == 0) {
            strv_push(in, "-Wl,-Bstatic");
        } else if (strcmp(w, "-Bdynamic") == 0 || strcmp(w, "-dy") == 0 ||
                   strcmp(w, "-call_shared") == 0) {
            strv_push(in, "-Wl,-Bdynamic");
        } else if (linker_arg_option(w)) {
            i++;
        } else if (w[0] != '-' && is_library_name(w)) {
            strv_push(in, w);
        }
    }
}

/* The linker command the compiler driver would run to link a program:
 * `$CC -### /dev/null -o MARKER` prints its commands without running them
 * (gcc, clang, and every wrapper driver that hands its arguments to one:
 * mpicc, h5cc, ccache...), with the libraries the driver adds by itself.
 * /dev/null is an input of unknown type, so a linker input: no compile
 * step. The line is the last command whose words hold "-o MARKER". Returns
 * true with its words in *cmd. */
static bool driver_link_line(lwg_strv *cmd)
{
    char *line = NULL;
    size_t cap = 0;
    bool found = false;
    char *cmdline = xstrdup_printf("%s -### /dev/null -o " LINK_MARKER " 2>&1 </dev/null",
                                   ldsearch_compiler());
    FILE *p = popen(cmdline, "r");
    free(cmdline);
    if (!p)
        return false;
    while (getline(&line, &cap, p) > 0) {
        if (!strstr(line, LINK_MARKER))
            continue;
        lwg_strv w = {0};
        bool link = false;
        /* Not gcc's COLLECT_GCC_OPTIONS='-static' '-o' 'MARKER' line: a
         * command starts with the program it runs. */
        if (words_split(line, "the compiler's -### output", &w) == 0 && w.n &&
            w.v[0][0] != '-' && !strchr(w.v[0], '='))
            for (size_t i = 1; i + 1 < w.n && !link; i++)
                link = strcmp(w.v[i], "-o") == 0 && strcmp(w.v[i + 1], LINK_MARKER) == 0;
        if (link) {
            strv_free(cmd);
            *cmd = w;
            found = true;
        } else {
            strv_free(&w);
        }
    }
    free(line);
    pclose(p);
    return found;
}

/* Without the driver's link line: -lc, -lgcc_s and libgcc, what gcc and
 * clang link by default. */
static int fixed_defaults(lwg_ldfiles *lf)
{
    if (resolve(NULL, "-lc", false, lf) != 0)
        return -1;
    /* The compiler runtime: libgcc_s (itself a script naming -lgcc) with
     * gcc; clang with compiler-rt has none of these, so both are optional. */
    resolve(NULL, "-lgcc_s", true, lf);

    char *line = NULL;
    size_t cap = 0;
    char *cmd = xstrdup_printf("%s -print-libgcc-file-name 2>/dev/null", ldsearch_compiler());
    FILE *p = popen(cmd, "r");
    free(cmd);
    if (p) {
        if (getline(&line, &cap, p) > 0) {
            line[strcspn(line, "\n")] = '\0';
            if (line[0] == '/' && is_file(line)) {
                resolver r = { .quiet = true, .out = lf };
                /* skip what -lgcc_s already added */
                for (size_t i = 0; i < lf->n; i++)
                    strv_push(&r.seen, lf->files[i].path);
                add_file(&r, line, "", 0);
                strv_free(&r.seen);
            }
        }
        free(line);
        pclose(p);
    }
    return 0;
}

int ldsearch_default(lwg_ldfiles *lf)
{
    /* The libraries on the driver's own link line: libc and the compiler
     * runtime, libstdc++ and libm for a C++ driver, and whatever a wrapper
     * driver adds (mpicc's -lmpi), resolved in its -L dirs. */
    lwg_strv cmd = {0}, inputs = {0};
    if (driver_link_line(&cmd)) {
        link_inputs(&cmd, &inputs);
        resolve_strv(&inputs, true, lf);
    }
    strv_free(&cmd);
    strv_free(&inputs);
    if (lf->n > 0)
        return 0;
    return fixed_defaults(lf);
}

/* `libwrap-gen resolve --ldflags FLAGS --libs LIBS`: the files the link
 * line names, one a line: "shared PATH" or "static PATH" (tab
 * separated). libwrap-init asks this rather than resolving on its own, so
 * that init, generation and the symbol check agree on every flag form. */
