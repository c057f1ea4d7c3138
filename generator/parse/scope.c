/*
 * scope.c - the default scope from the line markers (see scope.h and
 * docs/scope.md).
 */
#define _GNU_SOURCE /* memmem */
#include "parse/scope.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/symindex.h"
#include "util/words.h"
#include "util/strbuf.h"

typedef struct scope_file {
    char *name;      /* as spelled by the line markers */
    int parent;      /* index of the first includer, -1 for the primary */
    bool standard;   /* a standard library or compiler header */
    bool in_scope;
    char *why;       /* reason when out of scope */
} scope_file;

struct lwg_scope {
    scope_file *files;
    size_t nfiles, cap;
    int primary;     /* libwrap.h */
    char **idirs;    /* -I directories, resolved */
    size_t nidirs;
    char **sysdirs;  /* -isystem directories, resolved */
    size_t nsysdirs;
};

/* Standard C, POSIX and common glibc headers, relative to a system include
 * directory. Their declarations belong to the C library. */
static const char *const standard_headers[] = {
    "assert.h", "complex.h", "ctype.h", "errno.h", "fenv.h", "float.h", "inttypes.h",
    "iso646.h", "limits.h", "locale.h", "math.h", "setjmp.h", "signal.h", "stdalign.h",
    "stdarg.h", "stdatomic.h", "stdbool.h", "stddef.h", "stdint.h", "stdio.h", "stdlib.h",
    "stdnoreturn.h", "string.h", "tgmath.h", "threads.h", "time.h", "uchar.h", "wchar.h",
    "wctype.h",
    "aio.h", "arpa/inet.h", "cpio.h", "dirent.h", "dlfcn.h", "fcntl.h", "fmtmsg.h", "fnmatch.h",
    "ftw.h", "glob.h", "grp.h", "iconv.h", "langinfo.h", "libgen.h", "monetary.h", "mqueue.h",
    "ndbm.h", "net/if.h", "netdb.h", "netinet/in.h", "netinet/tcp.h", "nl_types.h", "poll.h",
    "pthread.h", "pwd.h", "regex.h", "sched.h", "search.h", "semaphore.h", "spawn.h",
    "strings.h", "stropts.h", "syslog.h", "tar.h", "termios.h", "ulimit.h", "unistd.h",
    "utime.h", "utmpx.h", "wordexp.h", "ucontext.h",
    "features.h", "stdc-predef.h", "alloca.h", "endian.h", "malloc.h", "memory.h", "getopt.h",
    "err.h", "error.h", "byteswap.h", "execinfo.h", "link.h", "xlocale.h", "argp.h", "ifaddrs.h",
    "mntent.h", "paths.h", "shadow.h", "sysexits.h",
};

/* The C library's sys/ headers (glibc's on x86-64 and AArch64, below sys/).
 * Other libraries put headers there too: libacl's sys/acl.h, libcap's
 * sys/capability.h, ALSA's sys/asoundlib.h, systemtap's sys/sdt.h, whose
 * functions are theirs. */
static const char *const standard_sys_headers[] = {
    "acct.h", "auxv.h", "bitypes.h", "cdefs.h", "debugreg.h", "dir.h", "elf.h", "epoll.h",
    "errno.h", "eventfd.h", "fanotify.h", "fcntl.h", "file.h", "fsuid.h", "gmon.h", "gmon_out.h",
    "ifunc.h", "inotify.h", "io.h", "ioctl.h", "ipc.h", "kd.h", "klog.h", "mman.h", "mount.h",
    "msg.h", "mtio.h", "param.h", "pci.h", "perm.h", "personality.h", "pidfd.h", "poll.h",
    "prctl.h", "procfs.h", "profil.h", "ptrace.h", "queue.h", "quota.h", "random.h", "raw.h",
    "reboot.h", "reg.h", "resource.h", "rseq.h", "select.h", "sem.h", "sendfile.h", "shm.h",
    "signal.h", "signalfd.h", "single_threaded.h", "socket.h", "socketvar.h", "soundcard.h",
    "stat.h", "statfs.h", "statvfs.h", "swap.h", "syscall.h", "sysinfo.h", "syslog.h",
    "sysmacros.h", "termios.h", "time.h", "timeb.h", "timerfd.h", "times.h", "timex.h",
    "ttychars.h", "ttydefaults.h", "types.h", "ucontext.h", "uio.h", "un.h", "unistd.h", "user.h",
    "utsname.h", "vfs.h", "vlimit.h", "vm86.h", "vt.h", "wait.h", "xattr.h",
};

static bool has_prefix_dir(const char *path, const char *dir, const char **rest)
{
    size_t n = strlen(dir);
    if (strncmp(path, dir, n) != 0 || path[n] != '/')
        return false;
    *rest = path + n + 1;
    return true;
}

static bool is_standard_name(const char *rel)
{
    if (strncmp(rel, "c++/", 4) == 0 || strncmp(rel, "sys/platform/", 13) == 0)
        return true;
    if (strncmp(rel, "sys/", 4) == 0) {
        for (size_t i = 0; i < sizeof standard_sys_headers / sizeof standard_sys_headers[0]; i++)
            if (strcmp(rel + 4, standard_sys_headers[i]) == 0)
                return true;
        return false;
    }
    for (size_t i = 0; i < sizeof standard_headers / sizeof standard_headers[0]; i++)
        if (strcmp(rel, standard_headers[i]) == 0)
            return true;
    return false;
}

/* Is `path` a header of the C/C++ library or of the compiler? System
 * include directories: /usr/include, /usr/local/include, the multiarch
 * directory below them, and the user's -isystem directories. */
bool scope_compiler_header(const char *path)
{
    return strstr(path, "/lib/gcc/") || strstr(path, "/lib/clang/") ||
           (strstr(path, "/lib/llvm") && strstr(path, "/include/"));
}

static bool is_standard_header(const lwg_scope *s, const char *path)
{
    if (scope_compiler_header(path))
        return true;
    const char *rel = NULL;
    if (s->nsysdirs) {
        char resolved[PATH_MAX];
        const char *real = realpath(path, resolved) ? resolved : path;
        for (size_t i = 0; i < s->nsysdirs; i++)
            if (has_prefix_dir(real, s->sysdirs[i], &rel) && is_standard_name(rel))
                return true;
    }
    /* A Debian cross compiler's C library (cross-wrapping, --target):
     * /usr/TRIPLE/include. */
    const char *triple = path + 5, *end = strncmp(path, "/usr/", 5) ? NULL : strchr(triple, '/');
    if (end && memmem(triple, (size_t)(end - triple), "-linux-", 7) && strncmp(end, "/include/", 9) == 0)
        return is_standard_name(end + 9);
    if (!has_prefix_dir(path, "/usr/include", &rel) && !has_prefix_dir(path, "/usr/local/include", &rel))
        return false;
    const char *slash = strchr(rel, '/');
    if (slash && memmem(rel, (size_t)(slash - rel), "-linux-", 7))
        rel = slash + 1;
    return is_standard_name(rel);
}

static int find_file(const lwg_scope *s, const char *name)
{
    for (size_t i = s->nfiles; i-- > 0;)
        if (strcmp(s->files[i].name, name) == 0)
            return (int)i;
    return -1;
}

static int add_file(lwg_scope *s, const char *name, int parent)
{
    if (s->nfiles == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 64;
        s->files = xrealloc(s->files, s->cap * sizeof *s->files);
    }
    scope_file *f = &s->files[s->nfiles];
    memset(f, 0, sizeof *f);
    f->name = xstrdup(name);
    f->parent = parent;
    f->standard = is_standard_header(s, name);
    return (int)s->nfiles++;
}

static void add_dir(char ***dirs, size_t *n, const char *dir)
{
    char resolved[PATH_MAX];
    *dirs = xrealloc(*dirs, (*n + 1) * sizeof **dirs);
    (*dirs)[(*n)++] = xstrdup(realpath(dir, resolved) ? resolved : dir);
}

/* Is `dir` (resolved) a system include directory: /usr/include,
 * /usr/local/include, the multiarch directory right below them, or the
 * compiler's own? pkg-config hands out such directories with -I
 * (`pkg-config --cflags lapacke`: -I/usr/include/x86_64-linux-gnu); the
 * compiler searches them anyway, and taking them as the user's -I
 * directories would bring glibc's bits/ headers into scope. */
static bool is_system_dir(const char *dir)
{
    if (strstr(dir, "/lib/gcc/") || strstr(dir, "/lib/clang/") ||
        (strstr(dir, "/lib/llvm") && strstr(dir, "/include")))
        return true;
    const char *rel = NULL;
    if (strcmp(dir, "/usr/include") == 0 || strcmp(dir, "/usr/local/include") == 0)
        return true;
    if (!has_prefix_dir(dir, "/usr/include", &rel) && !has_prefix_dir(dir, "/usr/local/include", &rel))
        return false;
    return !strchr(rel, '/') && strstr(rel, "-linux-") != NULL;
}

/* Adds an -I directory unless it is a system one (is_system_dir): a system
 * directory given with -I leaves the scope as it is without -I. */
static void add_idir(lwg_scope *s, const char *dir)
{
    char resolved[PATH_MAX];
    const char *real = realpath(dir, resolved) ? resolved : dir;
    if (is_system_dir(real)) {
        const char *debug = getenv("LIBWRAP_GEN_DEBUG");
        if (debug && strstr(debug, "scope"))
            fprintf(stderr, "scope: -I%s is a system include directory: headers below it "
                            "are not in scope for lying there\n", dir);
        return;
    }
    add_dir(&s->idirs, &s->nidirs, dir);
}

/* Keeps the -I and -isystem directories of cppflags, split as the link
 * line is (words_split: one splitter, one answer to an unterminated
 * quote). Returns 0, or -1 after the message. */
static int collect_idirs(lwg_scope *s, const char *cppflags)
{
    lwg_strv words = {0};
    if (words_split(cppflags, "--cppflags", &words) != 0)
        return -1;
    int want_arg = 0; /* the next word is: 1 an -I dir, 2 an -isystem dir */
    for (size_t i = 0; i < words.n; i++) {
        const char *word = words.v[i];
        if (want_arg == 1)
            add_idir(s, word);
        else if (want_arg == 2)
            add_dir(&s->sysdirs, &s->nsysdirs, word);
        else if (strncmp(word, "-I", 2) == 0 && word[2])
            add_idir(s, word + 2);
        else if (strncmp(word, "-isystem", 8) == 0 && word[8])
            add_dir(&s->sysdirs, &s->nsysdirs, word + 8);
        want_arg = strcmp(word, "-I") == 0 ? 1 : strcmp(word, "-isystem") == 0 ? 2 : 0;
    }
    strv_free(&words);
    return 0;
}

static bool under_idir(const lwg_scope *s, const char *file)
{
    char resolved[PATH_MAX];
    const char *path = realpath(file, resolved) ? resolved : file;
    const char *rest;
    for (size_t i = 0; i < s->nidirs; i++)
        if (has_prefix_dir(path, s->idirs[i], &rest) || has_prefix_dir(file, s->idirs[i], &rest))
            return true;
    return false;
}

/* Parses `# N "name" flags` or `#line N "name"`; returns the flags as a
 * bit set (1 << flag) or -1 when the line is not a marker. */
static int parse_marker(const char *line, strbuf *name)
{
    const char *p = line + 1;
    while (*p == ' ' || *p == '\t')
        p++;
    if (strncmp(p, "line", 4) == 0)
        p += 4;
    while (*p == ' ' || *p == '\t')
        p++;
    if (*p < '0' || *p > '9')
        return -1;
    while (*p >= '0' && *p <= '9')
        p++;
    while (*p == ' ' || *p == '\t')
        p++;
    if (*p != '"')
        return -1;
    name->len = 0;
    for (p++; *p && *p != '"'; p++) {
        if (*p == '\\' && p[1])
            p++;
        sb_putn(name, p, 1);
    }
    if (*p != '"')
        return -1;
    int flags = 0;
    for (p++; *p;) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p >= '1' && *p <= '4')
            flags |= 1 << (*p - '0');
        while (*p && *p != ' ' && *p != '\t')
            p++;
    }
    return flags;
}

/* Decides the scope of each file in inclusion order: parents come first.
 * `named_nonstandard`: libwrap.h declares functions itself; naming another
 * header than a standard one has the same effect (see scope.h). */
static void decide(lwg_scope *s, bool named_nonstandard)
{
    for (size_t i = 0; i < s->nfiles; i++)
        if (s->files[i].parent == s->primary && !s->files[i].standard)
            named_nonstandard = true;
    for (size_t i = 0; i < s->nfiles; i++) {
        scope_file *f = &s->files[i];
        if ((int)i == s->primary) {
            f->in_scope = true;
        } else if (f->parent < 0) {
            f->why = xstrdup("not included by libwrap.h"); /* stdc-predef.h */
        } else if (f->parent == s->primary) {
            f->in_scope = !f->standard || !named_nonstandard;
            if (!f->in_scope)
                f->why = xstrdup("standard header named next to the library's headers");
        } else if (f->standard) {
            f->why = xstrdup("standard or compiler header");
        } else if (under_idir(s, f->name) || s->files[f->parent].in_scope) {
            f->in_scope = true;
        } else {
            f->why = xstrdup("included by an out-of-scope header");
        }
    }
}

lwg_scope *scope_load(const char *source, const char *cppflags)
{
    FILE *fp = fopen(source, "r");
    if (!fp) {
        fprintf(stderr, "libwrap-gen: %s: %s\n", source, strerror(errno));
        return NULL;
    }
    lwg_scope *s = xcalloc(1, sizeof *s);
    s->primary = -1;
    if (collect_idirs(s, cppflags) != 0) {
        fclose(fp);
        scope_free(s);
        return NULL;
    }
    strbuf name = STRBUF_INIT;
    char *line = NULL;
    size_t cap = 0;
    int current = -1; /* -1: <built-in>, <command-line>, not in the tree */
    while (getline(&line, &cap, fp) >= 0) {
        if (line[0] != '#')
            continue;
        line[strcspn(line, "\n")] = '\0';
        int flags = parse_marker(line, &name);
        if (flags < 0 || !name.s)
            continue;
        if (name.s[0] == '<') {
            current = -1;
            continue;
        }
        int idx = find_file(s, name.s);
        if (flags & (1 << 1)) {
            /* Entering an include: the first inclusion from a real file
             * fixes the parent. */
            if (idx < 0)
                idx = add_file(s, name.s, current);
            else if (s->files[idx].parent < 0 && current >= 0 && idx != s->primary)
                s->files[idx].parent = current;
        } else if (idx < 0) {
            idx = add_file(s, name.s, -1);
        }
        /* The first marker that is not an include entry names the file
         * that was preprocessed. */
        if (s->primary < 0 && !(flags & (1 << 1)))
            s->primary = idx;
        current = idx;
    }
    free(line);
    sb_free(&name);
    fclose(fp);
    if (s->primary < 0) {
        fprintf(stderr, "libwrap-gen: %s: no line markers; preprocess libwrap.h with -E "
                        "(without -P) so that declarations keep their headers\n", source);
        scope_free(s);
        return NULL;
    }
    return s;
}

void scope_free(lwg_scope *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->nfiles; i++) {
        free(s->files[i].name);
        free(s->files[i].why);
    }
    free(s->files);
    for (size_t i = 0; i < s->nidirs; i++)
        free(s->idirs[i]);
    free(s->idirs);
    for (size_t i = 0; i < s->nsysdirs; i++)
        free(s->sysdirs[i]);
    free(s->sysdirs);
    free(s);
}

const char *scope_primary(const lwg_scope *s)
{
    return s->files[s->primary].name;
}

void scope_named_in_scope(const lwg_scope *scope, char *buf, size_t len)
{
    size_t at = 0;
    if (len)
        buf[0] = '\0';
    for (size_t i = 0; i < scope->nfiles && len; i++) {
        const scope_file *f = &scope->files[i];
        if ((int)i == scope->primary || f->parent != scope->primary || !f->in_scope)
            continue;
        const char *base = strrchr(f->name, '/');
        int n = snprintf(buf + at, len - at, "%s%s", at ? ", " : "", base ? base + 1 : f->name);
        if (n < 0 || (size_t)n >= len - at) {
            if (len > 4)
                strcpy(buf + len - 4, "...");
            return;
        }
        at += (size_t)n;
    }
}

bool scope_contains(const lwg_scope *s, const char *file, const char **why)
{
    int idx = file ? find_file(s, file) : -1;
    if (idx < 0) {
        if (why)
            *why = "not included by libwrap.h";
        return false;
    }
    if (!s->files[idx].in_scope && why)
        *why = s->files[idx].why;
    return s->files[idx].in_scope;
}

/* Line markers spell paths as the preprocessor found them, relative to
 * where it ran for -I dirs and libwrap.h itself; the inventory keeps them
 * absolute so that the wrappers and filters work from any directory. */
static char *absolute_path(const char *name)
{
    char resolved[PATH_MAX];
    return xstrdup(realpath(name, resolved) ? resolved : name);
}

size_t scope_apply(lwg_inventory *inv, lwg_scope *s)
{
    size_t n = 0;
    bool primary_declares = false;
    for (size_t i = 0; i < inv->nfuncs; i++)
        if (inv->funcs[i].file && strcmp(inv->funcs[i].file, scope_primary(s)) == 0)
            primary_declares = true;
    decide(s, primary_declares);
    /* LIBWRAP_GEN_DEBUG=scope explains the decision for every header. */
    const char *debug = getenv("LIBWRAP_GEN_DEBUG");
    if (debug && strstr(debug, "scope"))
        for (size_t i = 0; i < s->nfiles; i++)
            fprintf(stderr, "scope: %s %s (included by %s)%s%s\n",
                    s->files[i].in_scope ? "in " : "out", s->files[i].name,
                    s->files[i].parent >= 0 ? s->files[s->files[i].parent].name : "-",
                    s->files[i].why ? ": " : "", s->files[i].why ? s->files[i].why : "");

    free(inv->header);
    inv->header = absolute_path(scope_primary(s));
    /* A function declared in a header out of scope and again in one in
     * scope (jemalloc.h's malloc after <stdlib.h>'s): the declaration in
     * scope speaks for it, not the first (parse/duplicates.c). */
    lwg_symindex ix;
    symindex_build(&ix, inv, false);
    for (size_t i = 0; i < ix.n;) {
        size_t n;
        lwg_function **same = symindex_find(&ix, ix.sorted[i]->symbol, &n);
        i += n;
        if (n < 2 || same[0]->skip == LWG_SKIP_DUPLICATE || scope_contains(s, same[0]->file, NULL))
            continue;
        for (size_t k = 1; k < n; k++) {
            if (!scope_contains(s, same[k]->file, NULL))
                continue;
            lwg_function *first = same[0], *kept = same[k];
            free(kept->skip_detail);
            kept->skip = first->skip;
            kept->skip_detail = first->skip_detail;
            const char *base = strrchr(kept->file, '/');
            first->skip = LWG_SKIP_DUPLICATE;
            first->skip_detail = xstrdup_printf("declared again at %s:%u, in scope", base ? base + 1 : kept->file,
                                                kept->line);
            break;
        }
    }
    symindex_free(&ix);
    char *last_name = NULL, *last_abs = NULL;
    for (size_t i = 0; i < inv->nfuncs; i++) {
        lwg_function *g = &inv->funcs[i];
        const char *why = NULL;
        bool in = scope_contains(s, g->file, &why);
        if (g->file) {
            /* Consecutive functions mostly share a header: resolve once. */
            if (!last_name || strcmp(last_name, g->file) != 0) {
                free(last_name);
                free(last_abs);
                last_name = xstrdup(g->file);
                last_abs = absolute_path(g->file);
            }
            free(g->file);
            g->file = xstrdup(last_abs);
        }
        if (in)
            n += inv->funcs[i].skip != LWG_SKIP_DUPLICATE;
        else if (inv->funcs[i].skip != LWG_SKIP_DUPLICATE) {
            /* The scope is the first reason a user looks for: it replaces
             * reasons found in the declaration (static inline in a system
             * header is not worth a mention). */
            lwg_function *f = &inv->funcs[i];
            f->skip = LWG_WRAP;
            function_skip(f, LWG_SKIP_OUT_OF_SCOPE, why);
        }
    }
    free(last_name);
    free(last_abs);
    return n;
}
