/*
 * diagnostics.c - libclang's diagnostics as results (internal.h): errors
 * collected at the header's presumed location, the ones that stop
 * generation, the declaration each belongs to, and what is left over.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "parse/internal.h"
#include "parse/scope.h"
#include "util/strbuf.h"

char *cx_string(CXString s)
{
    const char *c = clang_getCString(s);
    char *r = xstrdup(c ? c : "");
    clang_disposeString(s);
    return r;
}


static int cmp_error(const void *pa, const void *pb)
{
    const parse_error *a = pa, *b = pb;
    return (a->offset > b->offset) - (a->offset < b->offset);
}

/* The file libwrap.i was preprocessed from: its first line marker. */
char *main_file_of(const char *text, size_t len)
{
    for (size_t i = 0; i + 4 < len;) {
        if (text[i] == '#' && text[i + 1] == ' ' && text[i + 2] >= '0' && text[i + 2] <= '9') {
            const char *q = memchr(text + i, '"', len - i);
            const char *nl = memchr(text + i, '\n', len - i);
            if (q && (!nl || q < nl)) {
                const char *e = memchr(q + 1, '"', len - (size_t)(q + 1 - text));
                if (e && (!nl || e < nl))
                    return xstrdup_printf("%.*s", (int)(e - q - 1), q + 1);
            }
        }
        const char *nl = memchr(text + i, '\n', len - i);
        if (!nl)
            break;
        i = (size_t)(nl - text) + 1;
    }
    return xstrdup("");
}

/* Collects the errors and fatals, at the presumed location (the header,
 * not libwrap.i). */
void collect_errors(CXTranslationUnit tu, bool cxx, const char *main_file,
                           parse_errors *out)
{
    unsigned n = clang_getNumDiagnostics(tu);
    out->e = xcalloc(n ? n : 1, sizeof *out->e);
    out->n = 0;
    CXFile source = NULL;
    for (unsigned i = 0; i < n; i++) {
        CXDiagnostic d = clang_getDiagnostic(tu, i);
        enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(d);
        CXSourceLocation loc = clang_getDiagnosticLocation(d);
        /* libstdc++ preprocessed by g++ keeps the branches written for
         * gcc's builtins (__integer_pack in <utility>), which libclang
         * rejects. They sit in template machinery no wrapper spells, and
         * libclang recovers (KeepGoing): errors in C++ system headers are
         * not the user's to fix. Nor are those in the compiler's own
         * headers (gcc's intrinsics, which SDL.h includes: gcc's builtins
         * defined as functions, _Float16 on x86-64 before clang 15), in C
         * too; they declare nothing of the library. */
        if (sev < CXDiagnostic_Error ||
            (cxx && sev == CXDiagnostic_Error && clang_Location_isInSystemHeader(loc))) {
            clang_disposeDiagnostic(d);
            continue;
        }
        CXString pfile;
        unsigned line, col, offset;
        clang_getPresumedLocation(loc, &pfile, &line, &col);
        char *f = cx_string(pfile);
        if (sev == CXDiagnostic_Error && scope_compiler_header(f)) {
            free(f);
            clang_disposeDiagnostic(d);
            continue;
        }
        parse_error *pe = &out->e[out->n++];
        CXFile file;
        clang_getFileLocation(loc, &file, NULL, NULL, &offset);
        if (!source && file) {
            char *fname = cx_string(clang_getFileName(file));
            if (strcmp(fname, parse_prelude_name) != 0)
                source = file;
            free(fname);
        }
        pe->offset = offset;
        pe->in_source = file && source && clang_File_isEqual(file, source);
        /* A header that is not found is an error, not a fatal, under
         * KeepGoing; what follows it is incomplete all the same. */
        char *category = cx_string(clang_getDiagnosticCategoryText(d));
        pe->fatal = sev == CXDiagnostic_Fatal || strstr(category, "Preprocessor") != NULL;
        free(category);
        pe->in_main = !f[0] || strcmp(f, main_file) == 0;
        pe->where = f[0] ? xstrdup_printf("%s:%u:%u", f, line, col) : NULL;
        pe->msg = cx_string(clang_getDiagnosticSpelling(d));
        free(f);
        clang_disposeDiagnostic(d);
    }
    qsort(out->e, out->n, sizeof *out->e, cmp_error);
}

void free_errors(parse_errors *pe)
{
    for (size_t i = 0; i < pe->n; i++) {
        free(pe->e[i].where);
        free(pe->e[i].msg);
    }
    free(pe->e);
}

static void print_diag(const parse_error *pe, const char *severity, const char *after)
{
    /* On a terminal, over the progress line (main.c) rather than after it. */
    static int tty = -1;
    if (tty < 0)
        tty = isatty(STDERR_FILENO);
    const char *clear = tty ? "\r\033[K" : "";
    if (pe->where)
        fprintf(stderr, "%s%s: %s: %s%s\n", clear, pe->where, severity, pe->msg, after);
    else
        fprintf(stderr, "%slibwrap-gen: %s: %s%s\n", clear, severity, pe->msg, after);
}

void print_error(const parse_error *pe, const char *severity)
{
    print_diag(pe, severity, "");
}

void print_left_out(const parse_error *pe, const char *name)
{
    char *severity = xstrdup_printf("warning: declaration of %s left out", name && *name ? name : "a function");
    /* A type the header uses without declaring it (tdb.h's mode_t, which
     * it takes from what its users include first). */
    const char *hint = strncmp(pe->msg, "unknown type name", 17) ? ""
                       : " (the header uses a type it does not declare: include the header that declares it "
                         "before this one in libwrap.h; <sys/types.h> declares mode_t, off_t, pid_t, ssize_t)";
    print_diag(pe, severity, hint);
    free(severity);
}

/* An error stops generation when it is fatal or the preprocessor's (a
 * missing header), or in the user's own file; one in a library header costs only the declaration that
 * holds it (add_function). Prints the errors and returns how many stop. */
unsigned stopping_errors(const parse_errors *pe)
{
    unsigned stop = 0;
    for (size_t i = 0; i < pe->n; i++)
        stop += pe->e[i].fatal || pe->e[i].in_main || !pe->e[i].in_source;
    if (!stop)
        return 0;
    for (size_t i = 0; i < pe->n && i < 20; i++)
        print_error(&pe->e[i], pe->e[i].fatal ? "fatal error" : "error");
    if (pe->n > 20)
        fprintf(stderr, "libwrap-gen: %zu more errors not shown\n", pe->n - 20);
    return stop;
}

/* The first error within [begin, end] of libwrap.i, or NULL. */
parse_error *error_within(parse_errors *pe, unsigned begin, unsigned end)
{
    size_t lo = 0, hi = pe->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (pe->e[mid].offset < begin)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (; lo < pe->n && pe->e[lo].offset <= end; lo++)
        if (pe->e[lo].in_source)
            return &pe->e[lo];
    return NULL;
}

/* The name a declaration that libclang dropped was declaring: the
 * identifier before the first '(' of the statement that holds `offset`
 * (`int bad(int x) oops;` -> bad), or NULL. */
static char *dropped_declaration_name(const char *text, size_t len, size_t offset)
{
    if (offset >= len)
        return NULL;
    size_t b = offset;
    while (b > 0 && text[b - 1] != ';' && text[b - 1] != '{' && text[b - 1] != '}' &&
           !(text[b - 1] == '\n' && text[b] == '#'))
        b--;
    for (size_t i = b; i < len && i <= offset + 256 && text[i] != ';' && text[i] != '{'; i++) {
        if (text[i] == '#' && (i == 0 || text[i - 1] == '\n'))
            break;
        if (text[i] != '(')
            continue;
        size_t e = i;
        while (e > b && (text[e - 1] == ' ' || text[e - 1] == '\t' || text[e - 1] == '\n'))
            e--;
        size_t s = e;
        while (s > b && parse_is_ident_char(text[s - 1]))
            s--;
        if (s == e || (text[s] >= '0' && text[s] <= '9') || strncmp(text + s, "__attribute__", 13) == 0)
            return NULL;
        return xstrdup_printf("%.*s", (int)(e - s), text + s);
    }
    return NULL;
}

/* A function declaration so broken that libclang dropped it is still
 * listed, under its own reason, with the error: nothing is lost silently.
 * Added after the duplicates are marked: it never hides another
 * declaration of the same name. */
void list_dropped_declarations(lwg_inventory *inv, parse_errors *pe, const char *text,
                                      size_t len)
{
    for (size_t i = 0; i < pe->n; i++) {
        parse_error *e = &pe->e[i];
        if (e->used || !e->in_source)
            continue;
        char *name = dropped_declaration_name(text, len, e->offset);
        if (!name)
            continue;
        bool known = false;
        for (size_t k = 0; k < inv->nfuncs && !known; k++)
            known = strcmp(inv->funcs[k].name, name) == 0;
        if (known) {
            free(name);
            continue;
        }
        lwg_function *f = inventory_add(inv);
        f->name = name;
        f->symbol = xstrdup(name);
        f->scope = xstrdup("");
        char *where = xstrdup(e->where ? e->where : "?:0");
        char *colon = strchr(where, ':');
        f->line = colon ? (unsigned)atoi(colon + 1) : 0;
        if (colon)
            *colon = '\0';
        f->file = where;
        f->ret_type = xstrdup("");
        f->ret_canonical = xstrdup("");
        f->declarator = xstrdup("");
        char *detail = xstrdup_printf("%s: %s; libclang dropped the declaration",
                                      e->where ? e->where : "?", e->msg);
        function_skip(f, LWG_SKIP_DIAGNOSTIC, detail);
        free(detail);
        e->used = true;
        print_left_out(e, name);
    }
}

/* Errors in library headers outside any function declaration (a member
 * variable, a template no wrapper needs): generation goes on, and says so. */
void warn_unused_errors(const parse_errors *pe)
{
    size_t shown = 0;
    for (size_t i = 0; i < pe->n; i++) {
        if (pe->e[i].used)
            continue;
        if (shown++ < 20)
            print_error(&pe->e[i], "warning: error outside any function declaration, ignored");
    }
    if (shown > 20)
        fprintf(stderr, "libwrap-gen: %zu more errors outside function declarations ignored\n",
                shown - 20);
}

