/*
 * probe.c - the compile-and-link probes of `make check` (probe.h): they
 * confirm every candidate symbol of an inventory.
 *
 * A probe is a tiny program that takes the address of a batch of symbols by
 * their linker names (asm labels: no header needed, C and mangled C++ names
 * alike). Linked WITH the target libraries, a symbol that does not resolve is
 * MISSING; linked WITHOUT them (only what the compiler links by default), a
 * symbol that still resolves is UNCERTAIN. A failed link names its undefined
 * symbols, which are taken out and the rest linked again; a failure that
 * names none is bisected. Batches run in parallel worker processes; results
 * are cached in the output directory so that a rerun is instant. The verdicts
 * go back into the inventory's functions (`libwrap-gen check`, cmd/check.c,
 * then has missing.filter and uncertain.filter written by the emitter, as at
 * generation time).
 */
#define _GNU_SOURCE
#include "check/probe.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "model/inventory.h"
#include "check/ldsearch.h"
#include "util/fileio.h"
#include "hash.h"
#include "util/strbuf.h"
#include "check/symcheck.h"

/* Symbols per probe program. Large batches amortise the compiler driver's
 * start-up; the batch count is then raised so every job has work, but not
 * below BATCH_MIN symbols, where start-up would dominate again. */
#define BATCH_MAX 500
#define BATCH_MIN 50

typedef enum result {
    PROBE_UNKNOWN = 0,
    PROBE_OK,        /* links with the targets, not without */
    PROBE_MISSING,   /* does not link with the targets */
    PROBE_UNCERTAIN, /* links without the targets too */
} result;

static const char result_code[] = "?OMU"; /* indexed by result */

/* One candidate symbol; name is the inventory's string (several functions
 * may share it: the array holds it once). */
typedef struct symbol {
    const char *name;
    result res;
} symbol;


/* What a worker needs to build and link its probes. */
typedef struct probe_env {
    const probe_options *opt;
    const char *lang;     /* "c" or "c++": the -x of the probe source */
    lwg_strv cc;           /* split --cc ("ccache gcc", "clang -fuse-ld=lld") */
    lwg_strv cppflags;     /* split --cppflags (only with --header) */
    lwg_strv linkflags;    /* split --ldflags and --libs */
    char *tmpdir;
} probe_env;

/* ---- inventory --------------------------------------------------------- */

/* Candidates are the functions the symbol check decides about: wrapped ones
 * and those it already left out, so that the probes confirm (or overturn)
 * the libelf answer. */
static bool is_candidate(const lwg_function *f)
{
    return f->symbol && *f->symbol &&
           (f->skip == LWG_WRAP || f->skip == LWG_SKIP_MISSING || f->skip == LWG_SKIP_UNCERTAIN);
}

/* The candidates' symbols, in inventory order (sorted and deduplicated
 * later); the names stay owned by the inventory. */
static symbol *candidates(const lwg_inventory *inv, size_t *n)
{
    symbol *syms = xcalloc(inv->nfuncs ? inv->nfuncs : 1, sizeof *syms);
    size_t k = 0;
    for (size_t i = 0; i < inv->nfuncs; i++)
        if (is_candidate(&inv->funcs[i]))
            syms[k++].name = inv->funcs[i].symbol;
    *n = k;
    return syms;
}

/* ---- running the compiler ---------------------------------------------- */

/* Runs argv with stdout and stderr to `log`; returns the exit status, 127
 * when it could not be started. */
static int run(const lwg_strv *argv, const char *log)
{
    pid_t pid = fork();
    if (pid < 0)
        return 127;
    if (pid == 0) {
        int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
        }
        char **v = xcalloc(argv->n + 1, sizeof *v);
        memcpy(v, argv->v, argv->n * sizeof *v);
        execvp(v[0], v);
        fprintf(stderr, "cannot run %s: %s\n", v[0], strerror(errno));
        _exit(127);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return 127;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

/* A probe's log, "" when it cannot be read. */
static char *slurp(const char *path)
{
    size_t len = 0;
    char *text = read_whole_file(path, &len);
    return text ? text : xstrdup("");
}

/* One batch of symbols: its probe is compiled once; each link then takes a
 * subset, and the symbols outside it get --defsym=SYM=0 so that they are
 * not looked for, with no recompiling. lld still pulls an archive member
 * for a defsym'd name, though, so a failure the linker does not explain is
 * retried with a probe compiled for exactly the subset ("exact" links). */
typedef struct batch {
    const probe_env *env;
    symbol *syms;
    const size_t *members; /* indexes into syms */
    size_t m;
    bool *in;              /* per member: in the subset being linked */
    size_t *all;           /* 0..m-1 */
    bool whole;            /* the object holds every member (not an exact one) */
    char *src, *obj, *exe, *rsp, *logp;
} batch;

static void batch_init(batch *b, const probe_env *env, const char *tag, symbol *syms,
                       const size_t *members, size_t m)
{
    *b = (batch){ .env = env, .syms = syms, .members = members, .m = m,
                  .in = xcalloc(m ? m : 1, sizeof *b->in),
                  .all = xcalloc(m ? m : 1, sizeof *b->all) };
    for (size_t i = 0; i < m; i++)
        b->all[i] = i;
    b->src = xstrdup_printf("%s/%s.c", env->tmpdir, tag);
    b->obj = xstrdup_printf("%s/%s.o", env->tmpdir, tag);
    b->exe = xstrdup_printf("%s/%s.out", env->tmpdir, tag);
    b->rsp = xstrdup_printf("%s/%s.rsp", env->tmpdir, tag);
    b->logp = xstrdup_printf("%s/%s.log", env->tmpdir, tag);
}

static void batch_free(batch *b)
{
    char *paths[] = { b->src, b->obj, b->exe, b->rsp, b->logp };
    for (size_t i = 0; i < sizeof paths / sizeof *paths; i++) {
        unlink(paths[i]);
        free(paths[i]);
    }
    free(b->in);
    free(b->all);
}

/* Writes and compiles the probe for the members at pos[0..n). Returns 0, or
 * -1 with the reason in *err. */
static int batch_compile(batch *b, const size_t *pos, size_t n, char **err)
{
    b->whole = false;
    FILE *f = fopen(b->src, "w");
    if (!f) {
        *err = xstrdup_printf("%s: %s\n", b->src, strerror(errno));
        return -1;
    }
    fputs("/* generated by libwrap check, do not edit */\n", f);
    if (b->env->opt->header_abs)
        fprintf(f, "#include \"%s\"\n", b->env->opt->header_abs);
    fputs("#ifdef __cplusplus\nextern \"C\" {\n#endif\n", f);
    /* Distinct identifiers with the symbols as asm labels: they cannot clash
     * with the header's declarations, builtins or C++ overloads. */
    for (size_t i = 0; i < n; i++)
        fprintf(f, "void libwrap_probe_%zu(void) __asm__(\"%s\");\n", i,
                b->syms[b->members[pos[i]]].name);
    /* Not const: a const array has internal linkage in C++ and could be
     * dropped, and the probe would then link without referencing anything. */
    fputs("void (*libwrap_probe_refs[])(void) = {\n", f);
    for (size_t i = 0; i < n; i++)
        fprintf(f, "    libwrap_probe_%zu,\n", i);
    fputs("    0\n};\nint main(void) { return libwrap_probe_refs[0] != 0; }\n"
          "#ifdef __cplusplus\n}\n#endif\n", f);
    if (fclose(f) != 0) {
        *err = xstrdup_printf("%s: %s\n", b->src, strerror(errno));
        return -1;
    }

    lwg_strv argv = {0};
    for (size_t i = 0; i < b->env->cc.n; i++)
        strv_push(&argv, b->env->cc.v[i]);
    const char *head[] = { "-x", b->env->lang, "-w" };
    for (size_t i = 0; i < sizeof head / sizeof *head; i++)
        strv_push(&argv, head[i]);
    for (size_t i = 0; i < b->env->cppflags.n; i++)
        strv_push(&argv, b->env->cppflags.v[i]);
    const char *tail[] = { "-c", b->src, "-o", b->obj };
    for (size_t i = 0; i < sizeof tail / sizeof *tail; i++)
        strv_push(&argv, tail[i]);
    int rc = run(&argv, b->logp);
    strv_free(&argv);
    if (rc != 0) {
        char *out = slurp(b->logp);
        *err = rc == 127 ? xstrdup_printf("cannot run the compiler %s (--cc)\n", b->env->opt->cc)
                         : xstrdup_printf("the probe %s does not compile:\n%s", b->src, out);
        free(out);
        return -1;
    }
    b->whole = n == b->m;
    return 0;
}

/* Links the members at positions pos[0..n): the whole batch's probe with
 * the others defsym'd, or, `exact`, a probe compiled for just these. Returns
 * the link's exit status (-1: the probe cannot be written or compiled) and
 * its output in *log. */
static int batch_link(batch *b, const size_t *pos, size_t n, bool with_targets, bool exact,
                      char **log)
{
    if (exact ? batch_compile(b, pos, n, log) != 0
              : !b->whole && batch_compile(b, b->all, b->m, log) != 0)
        return -1;
    memset(b->in, 0, b->m * sizeof *b->in);
    for (size_t i = 0; i < n; i++)
        b->in[pos[i]] = true;
    FILE *f = fopen(b->rsp, "w");
    if (!f) {
        *log = xstrdup_printf("%s: %s\n", b->rsp, strerror(errno));
        return -1;
    }
    for (size_t i = 0; i < b->m && !exact; i++)
        if (!b->in[i])
            fprintf(f, "--defsym=%s=0\n", b->syms[b->members[i]].name);
    if (fclose(f) != 0) {
        *log = xstrdup_printf("%s: %s\n", b->rsp, strerror(errno));
        return -1;
    }

    lwg_strv argv = {0};
    for (size_t i = 0; i < b->env->cc.n; i++)
        strv_push(&argv, b->env->cc.v[i]);
    char *rsparg = xstrdup_printf("-Wl,@%s", b->rsp);
    /* Raw names in "undefined reference" lines, to read the culprits off. */
    const char *head[] = { b->obj, "-o", b->exe, "-Wl,--no-demangle", rsparg };
    for (size_t i = 0; i < sizeof head / sizeof *head; i++)
        strv_push(&argv, head[i]);
    free(rsparg);
    if (with_targets)
        for (size_t i = 0; i < b->env->linkflags.n; i++)
            strv_push(&argv, b->env->linkflags.v[i]);
    int rc = run(&argv, b->logp);
    strv_free(&argv);
    *log = slurp(b->logp);
    return rc;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names the linker says are undefined, sorted: GNU ld and gold
 * ("undefined reference to `X'"), lld and mold ("undefined symbol: X"). */
static void undefined_names(const char *log, lwg_strv *names)
{
    static const char *const marks[] = { "undefined reference to `", "undefined reference to '",
                                         "undefined symbol: " };
    strbuf sb = STRBUF_INIT;
    for (size_t m = 0; m < sizeof marks / sizeof *marks; m++) {
        size_t ml = strlen(marks[m]);
        for (const char *p = strstr(log, marks[m]); p; p = strstr(p + ml, marks[m])) {
            const char *s = p + ml;
            sb_putn(&sb, s, strcspn(s, "'\n\r \t"));
            char *name = sb_steal(&sb);
            strv_push(names, name);
            free(name);
        }
    }
    if (names->n)
        qsort(names->v, names->n, sizeof *names->v, cmp_str);
}

/* Decides which members at pos[0..n) link (with or without the targets):
 * those that do not get `fail`. A failed link that names some of them takes
 * those out and links the rest again; one that names none (an archive member
 * needing another library) is bisected. Returns 0, or -1 with *err set. */
static int confirm(batch *b, size_t *pos, size_t n, bool with_targets, bool exact, result fail,
                   char **err)
{
    while (n > 0) {
        char *log = NULL;
        int rc = batch_link(b, pos, n, with_targets, exact, &log);
        if (rc < 0) {
            *err = log;
            return -1;
        }
        if (rc == 0) {
            free(log);
            return 0;
        }
        lwg_strv undefined = {0};
        undefined_names(log, &undefined);
        size_t kept = 0, named = 0;
        for (size_t i = 0; i < n; i++) {
            symbol *s = &b->syms[b->members[pos[i]]];
            if (undefined.n && bsearch(&s->name, undefined.v, undefined.n, sizeof *undefined.v,
                                       cmp_str)) {
                s->res = fail;
                named++;
            } else {
                pos[kept++] = pos[i];
            }
        }
        free(log);
        strv_free(&undefined);
        n = kept;
        if (named > 0)
            continue;
        if (!exact) {
            exact = true;
            continue;
        }
        if (n == 1) {
            b->syms[b->members[pos[0]]].res = fail;
            return 0;
        }
        size_t half = n / 2;
        if (confirm(b, pos, half, with_targets, true, fail, err) != 0)
            return -1;
        return confirm(b, pos + half, n - half, with_targets, true, fail, err);
    }
    return 0;
}

/* A worker: probes one batch and writes "CODE SYMBOL" lines to `out`.
 * Runs in a child process. */
static int run_batch(const probe_env *env, size_t index, symbol *syms, const size_t *members,
                     size_t m, const char *out)
{
    char *tag = xstrdup_printf("b%zu", index);
    batch b;
    batch_init(&b, env, tag, syms, members, m);
    free(tag);
    size_t *pos = xcalloc(m ? m : 1, sizeof *pos);
    for (size_t i = 0; i < m; i++)
        pos[i] = i;
    char *err = NULL;
    int rc = confirm(&b, pos, m, true, false, PROBE_MISSING, &err);

    /* Only what links with the targets can be uncertain. */
    size_t k = 0;
    for (size_t i = 0; i < m; i++)
        if (syms[members[i]].res != PROBE_MISSING) {
            syms[members[i]].res = PROBE_UNCERTAIN;
            pos[k++] = i;
        }
    if (rc == 0)
        rc = confirm(&b, pos, k, false, false, PROBE_OK, &err);
    free(pos);
    batch_free(&b);
    if (rc != 0) {
        fprintf(stderr, "libwrap-gen: check: %s", err);
        free(err);
        return 1;
    }
    FILE *f = fopen(out, "w");
    if (!f)
        return 1;
    for (size_t i = 0; i < m; i++)
        fprintf(f, "%c %s\n", result_code[syms[members[i]].res], syms[members[i]].name);
    return fclose(f) == 0 ? 0 : 1;
}

/* ---- cache ------------------------------------------------------------- */

static void hash_str(uint64_t *h, const char *s)
{
    /* The terminating NUL too: "ab","c" and "a","bc" differ. */
    *h = lw_fnv1a_byte(lw_fnv1a_add(*h, s ? s : ""), 0);
}

/* The cache key: everything a probe result depends on, including the
 * identity (size, mtime) of every resolved target file. */
static uint64_t cache_key(const probe_options *opt, const lwg_libset *targets)
{
    uint64_t h = LW_FNV_OFFSET;
    const char *parts[] = { opt->cc, opt->ldflags, opt->libs, opt->header_abs,
                            opt->header ? opt->cppflags : NULL };
    for (size_t i = 0; i < sizeof parts / sizeof *parts; i++)
        hash_str(&h, parts[i]);
    for (size_t i = 0; i < libset_count(targets); i++) {
        const lwg_libfile *f = libset_file(targets, i);
        struct stat st;
        if (stat(f->path, &st) != 0)
            memset(&st, 0, sizeof st);
        char *id = xstrdup_printf("%s %lld %lld.%09ld", f->path, (long long)st.st_size,
                                  (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
        hash_str(&h, id);
        free(id);
    }
    return h;
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp(((const symbol *)a)->name, ((const symbol *)b)->name);
}

static symbol *find_sym(symbol *sorted, size_t n, const char *name)
{
    symbol key = { .name = name };
    return bsearch(&key, sorted, n, sizeof *sorted, cmp_name);
}

/* Applies a result file ("CODE SYMBOL" lines); returns how many it set. */
static size_t apply_results(const char *path, symbol *sorted, size_t n)
{
    FILE *f = fopen(path, "r");
    char *line = NULL;
    size_t cap = 0, applied = 0;
    ssize_t len;
    while (f && (len = getline(&line, &cap, f)) > 2) {
        if (line[len - 1] == '\n')
            line[--len] = '\0';
        const char *code = strchr(result_code, line[0]);
        symbol *s = line[1] == ' ' && code && *code && *code != '?'
                        ? find_sym(sorted, n, line + 2) : NULL;
        if (s && s->res == PROBE_UNKNOWN) {
            s->res = (result)(code - result_code);
            applied++;
        }
    }
    free(line);
    if (f)
        fclose(f);
    return applied;
}

/* ---- outputs ----------------------------------------------------------- */

/* Each candidate function gets its symbol's verdict, replacing the libelf
 * one: the link is the later and stronger answer, so a function the symbol
 * tables left out but that links is wrapped again. */
static void apply_verdicts(lwg_inventory *inv, symbol *sorted, size_t n)
{
    for (size_t i = 0; i < inv->nfuncs; i++) {
        lwg_function *f = &inv->funcs[i];
        const symbol *s = is_candidate(f) ? find_sym(sorted, n, f->symbol) : NULL;
        /* A symbol without a verdict (not probed: a cache older than a
         * header added since) keeps the symbol tables' verdict. */
        if (!s || s->res == PROBE_UNKNOWN)
            continue;
        free(f->skip_detail);
        f->skip_detail = NULL;
        f->skip = LWG_WRAP;
        if (s->res == PROBE_MISSING) {
            f->skip = LWG_SKIP_MISSING;
            f->skip_detail = xstrdup("link probe: the target libraries do not provide it");
        } else if (s->res == PROBE_UNCERTAIN) {
            f->skip = LWG_SKIP_UNCERTAIN;
            f->skip_detail = xstrdup("link probe: links without the target libraries too");
        }
    }
}

/* An unchanged cache is not rewritten: the next generation reads it
 * (--probed), so a new time stamp would regenerate the wrappers for
 * nothing. */
static int write_cache(const char *path, uint64_t key, const symbol *syms, size_t n)
{
    strbuf sb = STRBUF_INIT;
    sb_printf(&sb, "# libwrap-gen check cache %016llx\n", (unsigned long long)key);
    for (size_t i = 0; i < n; i++)
        if (syms[i].res != PROBE_UNKNOWN)
            sb_printf(&sb, "%c %s\n", result_code[syms[i].res], syms[i].name);
    char *text = sb_steal(&sb);
    size_t len = strlen(text), oldlen = 0;
    char *old = read_whole_file(path, &oldlen);
    int rc = old && oldlen == len && memcmp(old, text, len) == 0
                 ? 0 : write_file_atomically(path, text, len);
    free(old);
    free(text);
    return rc;
}

int probe_apply_cache(lwg_inventory *inv, const char *path, size_t *changed, size_t *unprobed)
{
    size_t n = 0;
    symbol *syms = candidates(inv, &n);
    qsort(syms, n, sizeof *syms, cmp_name);
    size_t k = 0; /* deduplicate: functions may share a symbol */
    for (size_t i = 0; i < n; i++)
        if (k == 0 || strcmp(syms[k - 1].name, syms[i].name) != 0)
            syms[k++] = syms[i];
    n = k;
    if (access(path, R_OK) != 0) {
        fprintf(stderr, "libwrap-gen: --probed %s: %s\n", path, strerror(errno));
        free(syms);
        return -1;
    }
    apply_results(path, syms, n);
    *changed = 0;
    *unprobed = 0;
    for (size_t i = 0; i < n; i++)
        *unprobed += syms[i].res == PROBE_UNKNOWN;
    for (size_t i = 0; i < inv->nfuncs; i++) {
        const lwg_function *f = &inv->funcs[i];
        const symbol *s = is_candidate(f) ? find_sym(syms, n, f->symbol) : NULL;
        if (s && s->res != PROBE_UNKNOWN)
            *changed += f->skip != (s->res == PROBE_MISSING     ? LWG_SKIP_MISSING
                                    : s->res == PROBE_UNCERTAIN ? LWG_SKIP_UNCERTAIN
                                                                : LWG_WRAP);
    }
    apply_verdicts(inv, syms, n);
    free(syms);
    return 0;
}

static bool cache_matches(const char *path, uint64_t key)
{
    FILE *f = fopen(path, "r");
    char first[128] = "";
    if (f) {
        if (!fgets(first, sizeof first, f))
            first[0] = '\0';
        fclose(f);
    }
    char *want = xstrdup_printf("# libwrap-gen check cache %016llx\n", (unsigned long long)key);
    bool ok = strcmp(first, want) == 0;
    free(want);
    return ok;
}

/* ---- the command ------------------------------------------------------- */

static void progress(const probe_options *opt, size_t done, size_t total, size_t *last_shown)
{
    if (opt->quiet)
        return;
    if (isatty(2)) {
        fprintf(stderr, "\rcheck: %zu/%zu", done, total);
        if (done == total)
            fputc('\n', stderr);
    } else if (done > *last_shown && (done == total || done - *last_shown >= total / 10)) {
        /* Not a terminal (make's log): a line every tenth, not every batch. */
        fprintf(stderr, "check: %zu/%zu\n", done, total);
        *last_shown = done;
    }
}

/* Probes every symbol still unknown, in parallel batches. */
static int probe_all(const probe_env *env, symbol *syms, size_t n, size_t cached)
{
    const probe_options *opt = env->opt;
    size_t todo = 0;
    size_t *order = xcalloc(n ? n : 1, sizeof *order);
    for (size_t i = 0; i < n; i++)
        if (syms[i].res == PROBE_UNKNOWN)
            order[todo++] = i;

    size_t per = todo / ((size_t)opt->jobs * 2) + 1;
    per = per > BATCH_MAX ? BATCH_MAX : per < BATCH_MIN ? BATCH_MIN : per;
    size_t nbatches = todo ? (todo + per - 1) / per : 0;
    pid_t *pids = xcalloc(nbatches ? nbatches : 1, sizeof *pids);

    size_t next = 0, running = 0, done = cached, shown = cached;
    int rc = 0;
    progress(opt, done, n, &shown);
    while (next < nbatches || running > 0) {
        while (rc == 0 && running < (size_t)opt->jobs && next < nbatches) {
            size_t first = next * per, count = todo - first < per ? todo - first : per;
            char *out = xstrdup_printf("%s/b%zu.res", env->tmpdir, next);
            fflush(NULL);
            pid_t pid = fork();
            if (pid == 0)
                _exit(run_batch(env, next, syms, order + first, count, out));
            free(out);
            if (pid < 0) {
                fprintf(stderr, "libwrap-gen: check: fork: %s\n", strerror(errno));
                rc = -1;
                break;
            }
            pids[next++] = pid;
            running++;
        }
        if (running == 0)
            break;
        int st;
        pid_t pid = waitpid(-1, &st, 0);
        if (pid < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        size_t b = 0;
        while (b < next && pids[b] != pid)
            b++;
        if (b == next)
            continue;
        running--;
        if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
            rc = -1; /* the worker said why; let the others finish */
            continue;
        }
        size_t first = b * per, count = todo - first < per ? todo - first : per;
        char *out = xstrdup_printf("%s/b%zu.res", env->tmpdir, b);
        size_t got = apply_results(out, syms, n);
        unlink(out);
        free(out);
        if (got != count) {
            fprintf(stderr, "libwrap-gen: check: batch %zu returned %zu of %zu results\n", b,
                    got, count);
            rc = -1;
        }
        done += count;
        progress(opt, done, n, &shown);
    }
    free(pids);
    free(order);
    return rc;
}

/* The probes cannot tell which library resolved a symbol; the symbol
 * tables can. The link WITH the targets also has the default libraries, so a
 * function only libc has (isnan for -lm) passes it and then looks UNCERTAIN:
 * the targets do not export it, it is MISSING. And when a target is itself a
 * default library (wrapping libc: --libs -lc; libmpi with --cc mpicc, which
 * links -lmpi into every program), its own functions link without "the
 * targets" too, yet they are exactly what is wanted. The default libraries
 * are those of --cc (probe_check sets $CC), from its own link line. */
static int refine_uncertain(const lwg_libset *targets, symbol *syms, size_t n)
{
    lwg_libset *defaults = libset_default();
    if (!defaults)
        return -1;
    strbuf own = STRBUF_INIT;
    for (size_t t = 0; t < libset_count(targets); t++)
        for (size_t d = 0; d < libset_count(defaults); d++)
            if (strcmp(libset_file(targets, t)->path, libset_file(defaults, d)->path) == 0) {
                /* single quotes for words_split; a quote inside is '\'' */
                sb_put(&own, " '");
                for (const char *p = libset_file(targets, t)->path; *p; p++)
                    sb_put(&own, *p == '\'' ? "'\\''" : (char[]){ *p, 0 });
                sb_put(&own, "'");
            }
    char *paths = sb_steal(&own);
    lwg_libset *both = *paths ? libset_resolve(NULL, paths) : NULL;
    free(paths);
    libset_free(defaults);
    for (size_t i = 0; i < n; i++) {
        if (syms[i].res != PROBE_UNCERTAIN)
            continue;
        if (!libset_exports(targets, syms[i].name))
            syms[i].res = PROBE_MISSING;
        else if (libset_exports(both, syms[i].name))
            syms[i].res = PROBE_OK;
    }
    libset_free(both);
    return 0;
}

/* The empty probe must link with the targets: otherwise every symbol would
 * look MISSING because of a broken link line, not because of the symbols. */
static int baseline(const probe_env *env)
{
    batch b;
    char *log = NULL;
    batch_init(&b, env, "baseline", NULL, NULL, 0);
    int rc = batch_compile(&b, b.all, 0, &log);
    if (rc != 0) {
        fprintf(stderr, "libwrap-gen: check: %s"
                "libwrap-gen: check: install the compiler, or make --header compile "
                "with --cppflags\n", log);
    } else if ((rc = batch_link(&b, NULL, 0, true, false, &log)) != 0) {
        fprintf(stderr, "libwrap-gen: check: an empty program does not link with "
                "--ldflags/--libs (%s): fix the flags in the Makefile:\n%s",
                env->opt->cc, log);
    }
    free(log);
    batch_free(&b);
    return rc == 0 ? 0 : -1;
}

int probe_check(lwg_inventory *inv, const probe_options *opt, probe_summary *sum)
{
    size_t n = 0;
    symbol *syms = candidates(inv, &n);

    /* The system dirs and default libraries (ldsearch_compiler) come from the
     * compiler the probes use. */
    setenv("CC", opt->cc, 1);
    int status = -1;
    bool cxx = inv->language && strcmp(inv->language, "c++") == 0;
    probe_env env = { .opt = opt, .lang = cxx ? "c++" : "c" };
    char *cache = xstrdup_printf("%s/check.cache", opt->outdir);
    lwg_libset *targets = libset_resolve(opt->ldflags, opt->libs);
    if (!targets)
        goto out;
    if (words_split(opt->cc, "--cc", &env.cc) != 0)
        goto out;
    if (env.cc.n == 0) {
        fprintf(stderr, "libwrap-gen: check: --cc is empty: name the compiler\n");
        goto out;
    }
    if (words_split(opt->ldflags, "--ldflags", &env.linkflags) != 0 ||
        words_split(opt->libs, "--libs", &env.linkflags) != 0 ||
        (opt->header && words_split(opt->cppflags, "--cppflags", &env.cppflags) != 0))
        goto out;
    for (size_t i = 0; i < n; i++) {
        const char *s = syms[i].name;
        /* They go into C strings and ld response files unquoted. */
        if (strpbrk(s, "\"\\'\n\r\t ")) {
            fprintf(stderr, "libwrap-gen: %s: symbol \"%s\" cannot be a linker name\n",
                    opt->inventory, s);
            goto out;
        }
    }
    /* Sorted by name: duplicates (one symbol declared twice) drop out here,
     * and results are found by bsearch. */
    qsort(syms, n, sizeof *syms, cmp_name);
    size_t uniq = 0;
    for (size_t i = 0; i < n; i++)
        if (uniq == 0 || strcmp(syms[uniq - 1].name, syms[i].name) != 0)
            syms[uniq++] = syms[i];
    n = uniq;

    if (mkdir(opt->outdir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "libwrap-gen: check: -o %s: %s\n", opt->outdir, strerror(errno));
        goto out;
    }
    uint64_t key = cache_key(opt, targets);
    size_t cached = cache_matches(cache, key) ? apply_results(cache, syms, n) : 0;
    if (cached < n) {
        const char *tmp = getenv("TMPDIR");
        env.tmpdir = xstrdup_printf("%s/libwrap-check.XXXXXX", tmp && *tmp ? tmp : "/tmp");
        if (!mkdtemp(env.tmpdir)) {
            fprintf(stderr, "libwrap-gen: check: %s: %s\n", env.tmpdir, strerror(errno));
            free(env.tmpdir);
            env.tmpdir = NULL;
            goto out;
        }
        if (baseline(&env) != 0 || probe_all(&env, syms, n, cached) != 0)
            goto out;
    }

    if (refine_uncertain(targets, syms, n) != 0)
        goto out;
    *sum = (probe_summary){ .symbols = n, .cached = cached == n && n };
    for (size_t i = 0; i < n; i++) {
        sum->missing += syms[i].res == PROBE_MISSING;
        sum->uncertain += syms[i].res == PROBE_UNCERTAIN;
    }
    apply_verdicts(inv, syms, n);
    /* A cache that cannot be written costs time on the next run, nothing more. */
    write_cache(cache, key, syms, n);
    status = 0;
out:
    if (env.tmpdir) {
        rmdir(env.tmpdir);
        free(env.tmpdir);
    }
    libset_free(targets);
    strv_free(&env.cc);
    strv_free(&env.linkflags);
    strv_free(&env.cppflags);
    free(syms);
    free(cache);
    return status;
}
