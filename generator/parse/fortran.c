/*
 * fortran.c - Fortran-ABI functions exported by the target and declared
 * nowhere in scope (fortran.h).
 */
#include "parse/fortran.h"

#include <clang-c/Index.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/words.h"
#include "util/strbuf.h"
#include "model/symindex.h"

/* How gfortran and f2c name a procedure: lower case, a trailing '_'. Names
 * that start with '_' are compiler or module internals. */
bool fortran_name(const char *s)
{
    size_t n = strlen(s);
    if (n < 2 || s[0] < 'a' || s[0] > 'z' || s[n - 1] != '_')
        return false;
    for (size_t i = 0; i < n; i++)
        if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
            return false;
    return true;
}

typedef struct collect {
    lwg_symindex *declared;
    bool fortran; /* the library is Fortran's (c_internal) */
    lwg_strv names;
} collect;

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool declared_in_scope(const collect *c, const char *name)
{
    size_t n = 0;
    lwg_function **hits = symindex_find(c->declared, name, &n);
    for (size_t i = 0; i < n; i++)
        if (hits[i]->skip != LWG_SKIP_OUT_OF_SCOPE)
            return true;
    return false;
}

static bool inner_underscore(const char *name)
{
    return strchr(name, '_') != name + strlen(name) - 1;
}

/*
 * A C library may name functions of its own with a trailing '_' too
 * (libevent's bufferevent_add_event_, evmap_delete_all_, and
 * evutil_gettime_monotonic_ beside its API's evutil_gettime_monotonic).
 * Unless the library is Fortran's (c->fortran: it needs a Fortran run-time
 * library; or it exports names with g77's two trailing '_' too,
 * mpi_send__, as the Fortran bindings that C libraries write give them; or
 * most such names have no '_' inside, as FORTRAN 77 names them: BLAS's
 * dgemm_), a name with a '_' inside is taken for one of those.
 */
static bool c_internal(const collect *c, const char *name)
{
    return !c->fortran && inner_underscore(name);
}

static void collect_one(const char *name, void *data)
{
    collect *c = data;
    if (!declared_in_scope(c, name) && !c_internal(c, name))
        strv_push(&c->names, name);
}

static bool in_names(const lwg_strv *names, const char *s)
{
    return bsearch(&s, names->v, names->n, sizeof *names->v, cmp_str) != NULL;
}

typedef struct header_count {
    const lwg_strv *names;
    size_t n;
} header_count;

static enum CXChildVisitResult count_decls(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    header_count *h = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_LinkageSpec || k == CXCursor_UnexposedDecl)
        return CXChildVisit_Recurse;
    if (k != CXCursor_FunctionDecl)
        return CXChildVisit_Continue;
    CXString m = clang_Cursor_getMangling(c);
    const char *sym = clang_getCString(m);
    if (sym && sym[0] == '\1')
        sym++;
    /* A header may declare a function twice (a prototype, then a macro's). */
    if (sym && in_names(h->names, sym) && clang_isCursorDefinition(c) == 0 &&
        clang_equalCursors(clang_getCanonicalCursor(c), c))
        h->n++;
    clang_disposeString(m);
    return CXChildVisit_Continue;
}

/* How many of `names` does `path` declare? The header is parsed after
 * libwrap.h, as the user would include it (cblas_f77.h needs the macros of
 * cblas.h), with --cppflags. A header that does not compile there (its
 * prototypes conflict with those libwrap.h's headers give, as OpenBLAS's
 * f77blas.h with lapack.h) gets its first error in *conflict. */
static size_t declared_in(CXIndex index, const char *libwrap_h, const char *path,
                          const lwg_strv *args, bool cxx, const lwg_strv *names, char **conflict)
{
    lwg_strv argv = {0};
    strv_push(&argv, "-x");
    strv_push(&argv, cxx ? "c++-header" : "c-header");
    for (size_t i = 0; i < args->n; i++)
        strv_push(&argv, args->v[i]);
    char *text = xstrdup_printf("#include \"%s\"\n#include \"%s\"\n", libwrap_h, path);
    struct CXUnsavedFile probe = {"libwrap-fortran-probe.h", text, (unsigned long)strlen(text)};
    CXTranslationUnit tu = NULL;
    enum CXErrorCode err = clang_parseTranslationUnit2(
        index, probe.Filename, (const char *const *)argv.v, (int)argv.n, &probe, 1,
        CXTranslationUnit_SkipFunctionBodies | CXTranslationUnit_KeepGoing, &tu);
    free(text);
    strv_free(&argv);
    if (err != CXError_Success || !tu)
        return 0; /* not a header of this language: it declares none */
    header_count h = {names, 0};
    clang_visitChildren(clang_getTranslationUnitCursor(tu), count_decls, &h);
    *conflict = NULL;
    for (unsigned i = 0, nd = clang_getNumDiagnostics(tu); i < nd && !*conflict; i++) {
        CXDiagnostic d = clang_getDiagnostic(tu, i);
        if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error) {
            CXString text = clang_formatDiagnostic(d, CXDiagnostic_DisplaySourceLocation | CXDiagnostic_DisplayColumn);
            *conflict = xstrdup(clang_getCString(text));
            clang_disposeString(text);
        }
        clang_disposeDiagnostic(d);
    }
    clang_disposeTranslationUnit(tu);
    return h.n;
}

/* Does the text of `path` name one of the first few functions (without the
 * '_': cblas_f77.h builds dgemm_ from `F77_GLOBAL(dgemm,DGEMM)`)? Only such
 * headers are parsed. */
static bool mentions(const char *path, const lwg_strv *names)
{
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > (8 << 20))
        return false;
    FILE *fp = fopen(path, "r");
    if (!fp)
        return false;
    char *text = xmalloc((size_t)st.st_size + 1);
    size_t len = fread(text, 1, (size_t)st.st_size, fp);
    text[len] = '\0';
    fclose(fp);
    bool found = false;
    for (size_t i = 0; i < names->n && i < 8 && !found; i++) {
        char *stem = xstrdup(names->v[i]);
        stem[strlen(stem) - 1] = '\0';
        for (const char *p = strstr(text, stem); p && !found; p = strstr(p + 1, stem)) {
            const char *e = p + strlen(stem);
            bool word_start = p == text || !(p[-1] == '_' || (p[-1] >= 'a' && p[-1] <= 'z') ||
                                             (p[-1] >= '0' && p[-1] <= '9'));
            found = word_start && !((*e >= 'a' && *e <= 'z') || (*e >= '0' && *e <= '9'));
        }
        free(stem);
    }
    free(text);
    return found;
}

typedef struct best {
    char *path;     /* the header that declares the most */
    const char *dir; /* the directory it was found in */
    size_t n;
    char *bad_path;  /* the one that declares the most of those that do not
                      * compile after libwrap.h, where it declares more */
    size_t bad_n;
    char *bad_error; /* its first error */
} best;

static void scan_dir(const char *dir, const char *libwrap_h, CXIndex index, const lwg_strv *args,
                     bool cxx, const lwg_strv *names, best *b)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    lwg_strv files = {0};
    for (struct dirent *e; (e = readdir(d));) {
        size_t n = strlen(e->d_name);
        if (n > 2 && strcmp(e->d_name + n - 2, ".h") == 0)
            strv_push(&files, e->d_name);
    }
    closedir(d);
    qsort(files.v, files.n, sizeof *files.v, cmp_str); /* the same answer on every system */
    for (size_t i = 0; i < files.n; i++) {
        char *path = xstrdup_printf("%s/%s", dir, files.v[i]);
        char *conflict = NULL;
        size_t n = mentions(path, names) ? declared_in(index, libwrap_h, path, args, cxx, names, &conflict) : 0;
        if (conflict) {
            if (n > b->bad_n) {
                free(b->bad_path);
                free(b->bad_error);
                b->bad_path = path;
                b->bad_n = n;
                b->bad_error = conflict;
            } else {
                free(path);
                free(conflict);
            }
        } else if (n > b->n) {
            free(b->path);
            b->path = path;
            b->dir = dir;
            b->n = n;
        } else {
            free(path);
        }
    }
    strv_free(&files);
}

/* Are `name` and `name` with one more '_' both among the sorted names? */
static bool g77_pair(const lwg_strv *sorted, const char *name)
{
    char *twin = xstrdup_printf("%s_", name);
    bool both = in_names(sorted, twin);
    free(twin);
    return both;
}

size_t fortran_undeclared(lwg_inventory *inv, const lwg_strv *exported, const size_t *from,
                          const char *const *libnames, size_t nlibs, bool fortran_runtime, const char *cppflags)
{
    lwg_symindex declared;
    symindex_build(&declared, inv, false);
    collect c = {&declared, fortran_runtime, {0}};
    lwg_strv sorted = {0};
    for (size_t i = 0; i < exported->n; i++)
        strv_push(&sorted, exported->v[i]);
    qsort(sorted.v, sorted.n, sizeof *sorted.v, cmp_str);
    size_t plain = 0;
    for (size_t i = 0; i < sorted.n; i++) {
        plain += !inner_underscore(sorted.v[i]);
        c.fortran = c.fortran || g77_pair(&sorted, sorted.v[i]);
    }
    c.fortran = c.fortran || 2 * plain > sorted.n;
    strv_free(&sorted);
    for (size_t i = 0; i < exported->n; i++)
        collect_one(exported->v[i], &c);
    symindex_free(&declared);
    size_t count = c.names.n;
    if (!count)
        return 0;
    qsort(c.names.v, c.names.n, sizeof *c.names.v, cmp_str);

    /* Where to look: the user's -I directories, then the system ones. */
    lwg_strv args = {0}, dirs = {0};
    if (words_split(cppflags ? cppflags : "", "--cppflags", &args) != 0)
        args.n = 0;
    for (size_t i = 0; i < args.n; i++) {
        const char *w = args.v[i];
        if (strcmp(w, "-I") == 0 && i + 1 < args.n)
            strv_push(&dirs, args.v[i + 1]);
        else if (strncmp(w, "-I", 2) == 0 && w[2])
            strv_push(&dirs, w + 2);
    }
    const char *sys[] = {"/usr/local/include", "/usr/include"};
    for (size_t k = 0; k < 2; k++) {
        DIR *d = opendir(sys[k]);
        for (struct dirent *e; d && (e = readdir(d));)
            if (strstr(e->d_name, "-linux-")) { /* the multiarch directory */
                char *multiarch = xstrdup_printf("%s/%s", sys[k], e->d_name);
                strv_push(&dirs, multiarch);
                free(multiarch);
            }
        if (d)
            closedir(d);
        strv_push(&dirs, sys[k]);
    }
    best b = {NULL, NULL, 0, NULL, 0, NULL};
    CXIndex index = clang_createIndex(0, 0);
    bool cxx = inv->language && strcmp(inv->language, "c++") == 0;
    lwg_strv seen = {0};
    for (size_t i = 0; index && inv->header && i < dirs.n; i++) {
        if (strv_contains(&seen, dirs.v[i]))
            continue;
        strv_push(&seen, dirs.v[i]);
        scan_dir(dirs.v[i], inv->header, index, &args, cxx, &c.names, &b);
    }
    if (index)
        clang_disposeIndex(index);

    strbuf sb = STRBUF_INIT;
    for (size_t i = 0; i < count && i < 3; i++)
        sb_printf(&sb, "%s%s", i ? ", " : "", c.names.v[i]);
    if (count > 3)
        sb_put(&sb, ", ...");
    /* The libraries that export the names listed: one, or several
     * ("A and B"). */
    bool *used = xcalloc(nlibs ? nlibs : 1, sizeof *used);
    for (size_t i = 0; i < exported->n; i++)
        if (from[i] < nlibs && bsearch(&exported->v[i], c.names.v, c.names.n, sizeof *c.names.v, cmp_str))
            used[from[i]] = true;
    size_t nused = 0, k = 0;
    for (size_t i = 0; i < nlibs; i++)
        nused += used[i];
    strbuf label = STRBUF_INIT;
    for (size_t i = 0; i < nlibs; i++)
        if (used[i])
            sb_printf(&label, "%s%s", k++ == 0 ? "" : k == nused ? " and " : ", ", libnames[i]);
    free(used);
    fprintf(stderr, "libwrap-gen: warning: %s %s %zu Fortran-ABI function%s (%s) that "
                    "libwrap.h does not declare: %s not measured; ",
            label.s ? label.s : "the target libraries", nused > 1 ? "export" : "exports", count,
            count == 1 ? "" : "s", sb.s, count == 1 ? "it is" : "they are");
    sb_free(&label);
    if (b.path)
        fprintf(stderr, "%s declares %zu of them: add #include <%s> to libwrap.h "
                        "(docs/workflow.md, Fortran libraries)\n",
                b.path, b.n, b.path + strlen(b.dir) + 1);
    else if (b.bad_path)
        fprintf(stderr, "%s declares %zu of them, but does not compile after libwrap.h's headers "
                        "(%s): declare those to measure in libwrap.h (docs/workflow.md, Fortran libraries)\n",
                b.bad_path, b.bad_n, b.bad_error);
    else
        fprintf(stderr, "no header in the -I or system include directories declares them: "
                        "declare those to measure in libwrap.h (docs/workflow.md, Fortran libraries)\n");
    if (b.path && b.bad_n > b.n)
        fprintf(stderr, "libwrap-gen: note: %s declares %zu of them, but does not compile after "
                        "libwrap.h's headers (%s)\n",
                b.bad_path, b.bad_n, b.bad_error);
    sb_free(&sb);
    free(b.path);
    free(b.bad_path);
    free(b.bad_error);
    strv_free(&seen);
    strv_free(&dirs);
    strv_free(&args);
    strv_free(&c.names);
    return count;
}
