/*
 * parse.c - libwrap.i through libclang into the inventory (see parse.h).
 */
#define _GNU_SOURCE /* memmem */
#include "parse.h"

#include <clang-c/Index.h>
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "argmeta.h"
#include "declarator.h"
#include "fileio.h"
#include "strbuf.h"
#include "symindex.h"
#include "target.h"

/*
 * libwrap.i is usually preprocessed by gcc, and glibc's headers then use
 * spellings that only gcc accepts: the _FloatN keywords (clang has only
 * typedefs for them, from glibc, when glibc sees clang) and
 * __attribute__((__malloc__(deallocator, index))). The prelude, included
 * before the source, gives clang the same meaning. Redefining a typedef to
 * the same type is valid C11 and C++, so a clang-preprocessed file that
 * already has these typedefs parses too.
 *
 * `_Complex _Float32` cannot be made valid by a typedef (C allows _Complex
 * only with the floating keywords), so the source text is rewritten to an
 * alias (see rewrite_complex_floatn); declarator.c maps the alias back to
 * the header's spelling.
 */
#define LW_SVE_T(t, b) "typedef __SV" b "_t sv" t "_t;\n"
#define LW_SVE_TUPLES(t) "typedef __clang_sv" t "x2_t sv" t "x2_t;\ntypedef __clang_sv" t "x3_t sv" t \
                         "x3_t;\ntypedef __clang_sv" t "x4_t sv" t "x4_t;\n"
#define LW_SVE_TYPEDEFS                                                                               \
    LW_SVE_T("int8", "Int8") LW_SVE_T("int16", "Int16") LW_SVE_T("int32", "Int32")                \
    LW_SVE_T("int64", "Int64") LW_SVE_T("uint8", "Uint8") LW_SVE_T("uint16", "Uint16")            \
    LW_SVE_T("uint32", "Uint32") LW_SVE_T("uint64", "Uint64") LW_SVE_T("float16", "Float16")      \
    LW_SVE_T("float32", "Float32") LW_SVE_T("float64", "Float64") LW_SVE_T("bfloat16", "BFloat16") \
    LW_SVE_T("bool", "Bool") LW_SVE_TUPLES("int8") LW_SVE_TUPLES("int16") LW_SVE_TUPLES("int32")  \
    LW_SVE_TUPLES("int64") LW_SVE_TUPLES("uint8") LW_SVE_TUPLES("uint16") LW_SVE_TUPLES("uint32") \
    LW_SVE_TUPLES("uint64") LW_SVE_TUPLES("float16") LW_SVE_TUPLES("float32")                     \
    LW_SVE_TUPLES("float64")
static const char prelude_name[] = "/libwrap-gen/prelude.h";
static const char prelude_c[] =
    "typedef float _Float32;\n"
    "typedef double _Float64;\n"
    "typedef double _Float32x;\n"
    "typedef long double _Float64x;\n"
    "typedef _Complex float __libwrap_cFloat32;\n"
    "typedef _Complex double __libwrap_cFloat64;\n"
    "typedef _Complex double __libwrap_cFloat32x;\n"
    "typedef _Complex long double __libwrap_cFloat64x;\n"
    /* AArch64 (--target): long double is binary128 there, and clang has
     * no __float128. */
    "#if defined(__aarch64__)\n"
    "typedef long double _Float128;\n"
    "typedef _Complex long double __libwrap_cFloat128;\n"
    /* gcc's arm_sve.h makes the SVE types with a pragma that leaves no
     * trace in the preprocessed file: clang's builtin types stand in, so
     * that target.c can see them (an SVE function is not forwarded at the
     * ABI level). */
    LW_SVE_TYPEDEFS
    "#else\n"
    "typedef __float128 _Float128;\n"
    "typedef _Complex __float128 __libwrap_cFloat128;\n"
    "#endif\n"
    "#define __malloc__(...) __malloc__\n";

int parse_language_is_cxx(const char *language)
{
    return language && strstr(language, "++") != NULL;
}

static char *read_source(const char *path, size_t *len)
{
    char *text = read_whole_file(path, len);
    if (!text)
        fprintf(stderr, "libwrap-gen: %s: %s (run make to preprocess libwrap.h first)\n", path,
                strerror(errno));
    return text;
}

static bool is_ident_char(char c)
{
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* Replaces the token pair `_Complex _FloatN[x]` by `__libwrap_cFloatN[x]`.
 * This is a token substitution in preprocessed text (identifiers only), not
 * parsing; the pair does not occur in valid code outside declarations. */
static char *rewrite_complex_floatn(const char *text, size_t len, size_t *outlen)
{
    static const char kw[] = "_Complex";
    strbuf sb = STRBUF_INIT;
    size_t i = 0, copied = 0;
    while (i < len) {
        const char *hit = memmem(text + i, len - i, kw, sizeof kw - 1);
        if (!hit)
            break;
        size_t at = (size_t)(hit - text);
        size_t j = at + sizeof kw - 1;
        i = j;
        if (at > 0 && is_ident_char(text[at - 1]))
            continue;
        while (j < len && (text[j] == ' ' || text[j] == '\t'))
            j++;
        if (j + 6 > len || memcmp(text + j, "_Float", 6) != 0)
            continue;
        size_t k = j + 6;
        while (k < len && is_ident_char(text[k]))
            k++;
        const char *suffix = text + j + 6;
        size_t slen = k - (j + 6);
        bool known = (slen == 2 && (!memcmp(suffix, "32", 2) || !memcmp(suffix, "64", 2))) ||
                     (slen == 3 && (!memcmp(suffix, "32x", 3) || !memcmp(suffix, "64x", 3) ||
                                    !memcmp(suffix, "128", 3)));
        if (!known)
            continue;
        sb_putn(&sb, text + copied, at - copied);
        sb_put(&sb, "__libwrap_cFloat");
        sb_putn(&sb, suffix, slen);
        copied = i = k;
    }
    if (copied == 0) {
        sb_free(&sb);
        return NULL;
    }
    sb_putn(&sb, text + copied, len - copied);
    *outlen = sb.len;
    return sb_steal(&sb);
}

/* Skips a balanced group opened at text[i] (one of "([") up to and
 * including its closing character; string and character literals inside
 * are skipped whole. Returns the index after it, or len if unbalanced. */
static size_t skip_group(const char *text, size_t len, size_t i)
{
    int depth = 0;
    while (i < len) {
        char c = text[i];
        if (c == '"' || c == '\'') {
            for (i++; i < len && text[i] != c; i++)
                if (text[i] == '\\')
                    i++;
        } else if (c == '(' || c == '[') {
            depth++;
        } else if (c == ')' || c == ']') {
            if (--depth == 0)
                return i + 1;
        }
        i++;
    }
    return len;
}

static size_t skip_space(const char *text, size_t len, size_t i)
{
    while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r'))
        i++;
    return i;
}

/* g++ accepts a GNU attribute before a C++11 one,
 * `__attribute__((deprecated("..."))) [[nodiscard]] T f();` (Qt's
 * QT_DEPRECATED_X followed by Q_REQUIRED_RESULT, as g++ expands them);
 * clang only the other order. The C++11 attributes are moved before the
 * run of GNU ones, a space added: no newline moves, so every line keeps its
 * number, and no attribute is lost. Returns NULL when nothing changed. */
static char *rewrite_attribute_order(const char *text, size_t len, size_t *outlen)
{
    static const char kw[] = "__attribute__";
    strbuf sb = STRBUF_INIT;
    size_t i = 0, copied = 0;
    while (i < len) {
        const char *hit = memmem(text + i, len - i, kw, sizeof kw - 1);
        if (!hit)
            break;
        size_t at = (size_t)(hit - text), j = at;
        i = at + sizeof kw - 1;
        if (at > 0 && is_ident_char(text[at - 1]))
            continue;
        size_t run_end = at; /* the run of GNU attributes: [at, run_end) */
        while (j + sizeof kw - 1 <= len && memcmp(text + j, kw, sizeof kw - 1) == 0 &&
               (j + sizeof kw - 1 == len || !is_ident_char(text[j + sizeof kw - 1]))) {
            size_t k = skip_space(text, len, j + sizeof kw - 1);
            if (k >= len || text[k] != '(')
                break;
            run_end = skip_group(text, len, k);
            j = skip_space(text, len, run_end);
        }
        if (run_end == at)
            continue;
        size_t cxx = j, cxx_end = j; /* the C++11 attributes that follow: [cxx, cxx_end) */
        while (cxx_end + 1 < len && text[cxx_end] == '[' && text[cxx_end + 1] == '[') {
            cxx_end = skip_group(text, len, cxx_end);
            j = skip_space(text, len, cxx_end);
            if (j + 1 < len && text[j] == '[' && text[j + 1] == '[')
                cxx_end = j;
        }
        i = run_end;
        if (cxx_end == cxx)
            continue;
        sb_putn(&sb, text + copied, at - copied);
        sb_putn(&sb, text + cxx, cxx_end - cxx);
        sb_put(&sb, " ");
        sb_putn(&sb, text + at, cxx - at);
        copied = i = cxx_end;
    }
    if (copied == 0) {
        sb_free(&sb);
        return NULL;
    }
    sb_putn(&sb, text + copied, len - copied);
    *outlen = sb.len;
    return sb_steal(&sb);
}

static char *cx_string(CXString s)
{
    const char *c = clang_getCString(s);
    char *r = xstrdup(c ? c : "");
    clang_disposeString(s);
    return r;
}

/* An error libclang reported, where the source text has it (an offset
 * into libwrap.i, to find the declaration that holds it) and where the
 * header has it (for the messages). */
typedef struct parse_error {
    unsigned offset;
    bool in_source;  /* in libwrap.i, not in the prelude */
    bool fatal;
    bool in_main;    /* in the user's own file (libwrap.h), not a library header */
    bool used;       /* a declaration was left out for it */
    char *where;     /* "header.h:LINE:COL" */
    char *msg;
} parse_error;

typedef struct parse_errors {
    parse_error *e;  /* sorted by offset */
    size_t n;
} parse_errors;

static int cmp_error(const void *pa, const void *pb)
{
    const parse_error *a = pa, *b = pb;
    return (a->offset > b->offset) - (a->offset < b->offset);
}

/* The file libwrap.i was preprocessed from: its first line marker. */
static char *main_file_of(const char *text, size_t len)
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
static void collect_errors(CXTranslationUnit tu, bool cxx, const char *main_file,
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
         * not the user's to fix. */
        if (sev < CXDiagnostic_Error ||
            (cxx && sev == CXDiagnostic_Error && clang_Location_isInSystemHeader(loc))) {
            clang_disposeDiagnostic(d);
            continue;
        }
        parse_error *pe = &out->e[out->n++];
        CXFile file;
        unsigned line, col, offset;
        clang_getFileLocation(loc, &file, NULL, NULL, &offset);
        if (!source && file) {
            char *fname = cx_string(clang_getFileName(file));
            if (strcmp(fname, prelude_name) != 0)
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
        CXString pfile;
        clang_getPresumedLocation(loc, &pfile, &line, &col);
        char *f = cx_string(pfile);
        pe->in_main = !f[0] || strcmp(f, main_file) == 0;
        pe->where = f[0] ? xstrdup_printf("%s:%u:%u", f, line, col) : NULL;
        pe->msg = cx_string(clang_getDiagnosticSpelling(d));
        free(f);
        clang_disposeDiagnostic(d);
    }
    qsort(out->e, out->n, sizeof *out->e, cmp_error);
}

static void free_errors(parse_errors *pe)
{
    for (size_t i = 0; i < pe->n; i++) {
        free(pe->e[i].where);
        free(pe->e[i].msg);
    }
    free(pe->e);
}

static void print_error(const parse_error *pe, const char *severity)
{
    /* On a terminal, over the progress line (main.c) rather than after it. */
    static int tty = -1;
    if (tty < 0)
        tty = isatty(STDERR_FILENO);
    const char *clear = tty ? "\r\033[K" : "";
    if (pe->where)
        fprintf(stderr, "%s%s: %s: %s\n", clear, pe->where, severity, pe->msg);
    else
        fprintf(stderr, "%slibwrap-gen: %s: %s\n", clear, severity, pe->msg);
}

/* An error stops generation when it is fatal or the preprocessor's (a
 * missing header), or in the user's own file; one in a library header costs only the declaration that
 * holds it (add_function). Prints the errors and returns how many stop. */
static unsigned stopping_errors(const parse_errors *pe)
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
static parse_error *error_within(parse_errors *pe, unsigned begin, unsigned end)
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
        while (s > b && is_ident_char(text[s - 1]))
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
static void list_dropped_declarations(lw_inventory *inv, parse_errors *pe, const char *text,
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
        lw_function *f = inventory_add(inv);
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
        function_skip(f, LW_SKIP_DIAGNOSTIC, detail);
        free(detail);
        e->used = true;
        print_error(e, "warning: declaration left out");
    }
}

/* Errors in library headers outside any function declaration (a member
 * variable, a template no wrapper needs): generation goes on, and says so. */
static void warn_unused_errors(const parse_errors *pe)
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

typedef struct visit_ctx {
    lw_inventory *inv;
    const lw_parse_options *opt;
    bool cxx;
    char **usr;      /* per function: the entity's USR (redeclarations share it) */
    size_t usr_cap;
    parse_errors *errors;
    CXCursor signals;  /* the class whose Q_SIGNALS section is being read, or null */
} visit_ctx;

/* Attributes libclang does not classify (format, noreturn, deprecated)
 * are read from their own tokens. Implicit attributes have no tokens and
 * are ignored. */
typedef struct attr_scan {
    CXTranslationUnit tu;
    lw_function *f;
    bool signal;  /* annotated as a Qt signal (Q_SIGNAL) */
} attr_scan;

static bool token_is(const char *tok, const char *word)
{
    size_t n = strlen(word);
    /* __word__ and word are the same attribute. */
    if (strncmp(tok, "__", 2) == 0 && strlen(tok) == n + 4 && strncmp(tok + 2, word, n) == 0 &&
        strcmp(tok + 2 + n, "__") == 0)
        return true;
    return strcmp(tok, word) == 0;
}

static void scan_attribute(attr_scan *as, CXCursor attr)
{
    CXToken *toks = NULL;
    unsigned ntoks = 0;
    clang_tokenize(as->tu, clang_getCursorExtent(attr), &toks, &ntoks);
    if (ntoks == 0)
        return;
    char **s = xcalloc(ntoks, sizeof *s);
    for (unsigned i = 0; i < ntoks; i++)
        s[i] = cx_string(clang_getTokenSpelling(as->tu, toks[i]));
    lw_function *f = as->f;
    if (token_is(s[0], "noreturn") || strcmp(s[0], "_Noreturn") == 0)
        f->noreturn = true;
    else if (token_is(s[0], "deprecated"))
        f->deprecated = true;
    else if (token_is(s[0], "format") && ntoks >= 8 && strcmp(s[1], "(") == 0 &&
             (token_is(s[2], "printf") || token_is(s[2], "gnu_printf")) && strcmp(s[3], ",") == 0 &&
             strcmp(s[5], ",") == 0) {
        f->format_index = atoi(s[4]);
        f->format_first = atoi(s[6]);
    }
    for (unsigned i = 0; i < ntoks; i++)
        free(s[i]);
    free(s);
    clang_disposeTokens(as->tu, toks, ntoks);
}

/* moc's annotation of a signal: Q_SIGNALS and Q_SIGNAL expand to
 * __attribute__((annotate("qt_signal"))) when QT_ANNOTATE_ACCESS_SPECIFIER
 * and QT_ANNOTATE_FUNCTION are defined at preprocessing (the Makefile's
 * CPP step does). */
static bool is_signal_annotation(CXCursor c)
{
    if (clang_getCursorKind(c) != CXCursor_AnnotateAttr)
        return false;
    char *s = cx_string(clang_getCursorSpelling(c));
    bool yes = strcmp(s, "qt_signal") == 0;
    free(s);
    return yes;
}

static enum CXChildVisitResult attr_visitor(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    attr_scan *as = data;
    if (is_signal_annotation(c))
        as->signal = true;
    else if (clang_isAttribute(clang_getCursorKind(c)))
        scan_attribute(as, c);
    return CXChildVisit_Continue;
}

static enum CXChildVisitResult signal_visitor(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    if (is_signal_annotation(c)) {
        *(bool *)data = true;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Continue;
}

static char *qualified_scope(CXCursor c)
{
    char **parts = NULL;
    int n = 0, cap = 0;
    for (CXCursor p = clang_getCursorSemanticParent(c);
         !clang_Cursor_isNull(p) && clang_getCursorKind(p) != CXCursor_TranslationUnit;
         p = clang_getCursorSemanticParent(p)) {
        enum CXCursorKind k = clang_getCursorKind(p);
        if (k != CXCursor_Namespace && k != CXCursor_ClassDecl && k != CXCursor_StructDecl &&
            k != CXCursor_UnionDecl && k != CXCursor_ClassTemplate &&
            k != CXCursor_ClassTemplatePartialSpecialization)
            continue; /* extern "C" blocks are not scopes */
        char *name = cx_string(clang_getCursorSpelling(p));
        if (!name[0]) {
            free(name);
            name = xstrdup(k == CXCursor_Namespace ? "(anonymous namespace)" : "(anonymous)");
        }
        if (n == cap)
            parts = xrealloc(parts, (size_t)(cap = cap ? cap * 2 : 8) * sizeof *parts);
        parts[n++] = name;
    }
    strbuf sb = STRBUF_INIT;
    for (int i = n - 1; i >= 0; i--) {
        sb_put(&sb, parts[i]);
        if (i)
            sb_put(&sb, "::");
        free(parts[i]);
    }
    free(parts);
    return sb_steal(&sb);
}

static bool declared_void(const lw_parse_options *opt, const char *symbol, const char *name)
{
    for (size_t i = 0; i < opt->n_declare_void; i++)
        if (strcmp(opt->declare_void[i], symbol) == 0 || strcmp(opt->declare_void[i], name) == 0)
            return true;
    return false;
}

static bool fill_params(lw_function *f, CXCursor c, bool cxx, char **why)
{
    int n = clang_Cursor_getNumArguments(c);
    if (n <= 0)
        return true;
    f->params = xcalloc((size_t)n, sizeof *f->params);
    for (int i = 0; i < n; i++) {
        CXCursor a = clang_Cursor_getArgument(c, (unsigned)i);
        CXType t = clang_getCursorType(a);
        lw_param *p = &f->params[f->nparams++];
        p->name = cx_string(clang_getCursorSpelling(a));
        if (!p->name[0]) {
            free(p->name);
            p->name = xstrdup_printf("arg%d", i + 1);
            p->name_invented = true;
        }
        p->type = cx_string(clang_getTypeSpelling(t));
        p->canonical = cx_string(clang_getTypeSpelling(clang_getCanonicalType(t)));
        p->fwd = xstrdup_printf("libwrap_a%d", i + 1);
        argmeta_classify(t, cxx, &p->arg);
        p->decl = declarator_param(t, p->fwd, why);
        if (!p->decl) {
            p->decl = xstrdup(p->type);
            return false;
        }
    }
    return true;
}

static char *build_declarator(lw_function *f, CXType ret, char **why)
{
    strbuf sb = STRBUF_INIT;
    sb_put(&sb, "@@(");
    for (size_t i = 0; i < f->nparams; i++) {
        if (i)
            sb_put(&sb, ", ");
        sb_put(&sb, f->params[i].decl);
    }
    if (f->variadic)
        sb_put(&sb, f->nparams ? ", ..." : "...");
    else if (f->nparams == 0)
        sb_put(&sb, "void");
    sb_put(&sb, ")");
    char *inner = sb_steal(&sb);
    char *d = declarator_spell(ret, inner, why);
    free(inner);
    return d;
}

static lw_func_kind cursor_func_kind(CXCursor c)
{
    switch (clang_getCursorKind(c)) {
    case CXCursor_CXXMethod: {
        char *name = cx_string(clang_getCursorSpelling(c));
        bool op = strncmp(name, "operator", 8) == 0 && !is_ident_char(name[8]);
        free(name);
        if (op)
            return LW_KIND_OPERATOR;
        return clang_CXXMethod_isStatic(c) ? LW_KIND_STATIC_METHOD : LW_KIND_METHOD;
    }
    case CXCursor_Constructor:
        return LW_KIND_CONSTRUCTOR;
    case CXCursor_Destructor:
        return LW_KIND_DESTRUCTOR;
    case CXCursor_ConversionFunction:
        return LW_KIND_OPERATOR;
    default: {
        char *name = cx_string(clang_getCursorSpelling(c));
        bool op = strncmp(name, "operator", 8) == 0 && !is_ident_char(name[8]);
        free(name);
        return op ? LW_KIND_OPERATOR : LW_KIND_FUNCTION;
    }
    }
}

/* Does the member function take the object pointer (`this`)? */
static bool takes_this(CXCursor c)
{
    switch (clang_getCursorKind(c)) {
    case CXCursor_CXXMethod:
        return !clang_CXXMethod_isStatic(c);
    case CXCursor_Constructor:
    case CXCursor_Destructor:
    case CXCursor_ConversionFunction:
        return true;
    default:
        return false;
    }
}

/* At the ABI level a member function takes the object pointer first: the
 * wrapper declares it as an ordinary parameter, const-qualified for a const
 * method, spelled from the class's canonical (fully qualified) type. */
static bool prepend_this(lw_function *f, CXCursor c, char **why)
{
    CXCursor cls = clang_getCursorSemanticParent(c);
    const char *hidden = declarator_inaccessible(cls);
    if (hidden) {
        *why = xstrdup(hidden);
        return false;
    }
    char *type = cx_string(clang_getTypeSpelling(clang_getCanonicalType(clang_getCursorType(cls))));
    if (!type[0] || strstr(type, "(unnamed") || strstr(type, "(anonymous")) {
        free(type);
        *why = xstrdup("member of a class without a name");
        return false;
    }
    bool is_const = clang_CXXMethod_isConst(c) != 0; /* 0 for constructors and destructors */
    lw_param *params = xcalloc(f->nparams + 1, sizeof *params);
    if (f->nparams)
        memcpy(params + 1, f->params, f->nparams * sizeof *params);
    free(f->params);
    f->params = params;
    f->nparams++;
    lw_param *p = &params[0];
    p->name = xstrdup("this");
    p->type = xstrdup_printf("%s%s *", is_const ? "const " : "", type);
    p->canonical = xstrdup(p->type);
    p->fwd = xstrdup("libwrap_this");
    p->decl = xstrdup_printf("%s%s *libwrap_this", is_const ? "const " : "", type);
    argmeta_pointer(&p->arg);
    free(type);
    return true;
}

/* Why a C++ function cannot be wrapped though it is declared with external
 * linkage, or NULL: the checks that need the cursor's context. */
static const char *cxx_unwrappable(CXCursor c, lw_skip *why)
{
    *why = LW_SKIP_UNSUPPORTED;
    /* Deleted functions report themselves as not available. */
    if (clang_getCursorAvailability(c) == CXAvailability_NotAvailable)
        return "deleted function";
    /* Private and protected members are wrapped: the wrappers reach them
     * by symbol, not by name, and the application's calls of the header's
     * inline members compile to calls of them. */
    for (CXCursor p = clang_getCursorSemanticParent(c);
         !clang_Cursor_isNull(p) && clang_getCursorKind(p) != CXCursor_TranslationUnit;
         p = clang_getCursorSemanticParent(p)) {
        enum CXCursorKind k = clang_getCursorKind(p);
        if (k == CXCursor_ClassTemplate || k == CXCursor_ClassTemplatePartialSpecialization)
            return "member of a class template: only instantiations have symbols";
        if (k == CXCursor_Namespace && clang_Cursor_isAnonymous(p)) {
            *why = LW_SKIP_STATIC;
            return "in an anonymous namespace";
        }
    }
    return NULL;
}

static enum CXChildVisitResult find_virtual_base(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    if (clang_getCursorKind(c) != CXCursor_CXXBaseSpecifier)
        return CXChildVisit_Continue;
    if (clang_isVirtualBase(c)) {
        *(bool *)data = true;
        return CXChildVisit_Break;
    }
    CXCursor base = clang_getTypeDeclaration(clang_getCursorType(c));
    if (!clang_Cursor_isNull(base))
        clang_visitChildren(base, find_virtual_base, data);
    return *(bool *)data ? CXChildVisit_Break : CXChildVisit_Continue;
}

/* The constructors and destructors of a class with virtual bases take a
 * hidden VTT parameter in their base-object variants (C2, D2). */
static bool has_virtual_base(CXCursor cls)
{
    bool found = false;
    clang_visitChildren(cls, find_virtual_base, &found);
    return found;
}

static lw_param param_copy(const lw_param *p)
{
    return (lw_param){xstrdup(p->name), p->name_invented, xstrdup(p->type), xstrdup(p->canonical),
                      xstrdup(p->decl), xstrdup(p->fwd), p->arg};
}

/* A constructor or destructor is several functions in the Itanium ABI,
 * each with its own symbol: C1 (complete object) and C2 (base object), D1,
 * D2 and, for a virtual destructor, D0 (deleting). The application calls C1,
 * D1 and D0; the library's derived classes call C2 and D2. All have the
 * declared parameters after the object pointer and return nothing, so each
 * variant becomes an entry of its own, a copy of the last one added. Each
 * entry's USR gets its symbol appended: the variants are not redeclarations
 * of each other. */
static void add_structor_variants(visit_ctx *ctx, CXCursor c)
{
    CXStringSet *set = clang_Cursor_getCXXManglings(c);
    size_t first = ctx->inv->nfuncs - 1;
    char *usr = xstrdup(ctx->usr[first]);
    for (unsigned i = 0; set && i < set->Count; i++) {
        const char *sym = clang_getCString(set->Strings[i]);
        if (!sym || !sym[0])
            continue;
        lw_function *f;
        if (i == 0) {
            f = &ctx->inv->funcs[first];
            free(f->symbol);
        } else {
            f = inventory_add(ctx->inv); /* may move the array: copy from the index */
            const lw_function *g = &ctx->inv->funcs[first];
            *f = *g;
            f->name = xstrdup(g->name);
            f->scope = xstrdup(g->scope);
            f->file = xstrdup(g->file);
            f->ret_type = xstrdup(g->ret_type);
            f->ret_canonical = xstrdup(g->ret_canonical);
            f->declarator = xstrdup(g->declarator);
            f->va_twin = g->va_twin ? xstrdup(g->va_twin) : NULL;
            f->skip_detail = g->skip_detail ? xstrdup(g->skip_detail) : NULL;
            f->params = g->nparams ? xcalloc(g->nparams, sizeof *f->params) : NULL;
            for (size_t k = 0; k < g->nparams; k++)
                f->params[k] = param_copy(&g->params[k]);
            if (ctx->inv->nfuncs > ctx->usr_cap) {
                ctx->usr_cap = ctx->inv->cap;
                ctx->usr = xrealloc(ctx->usr, ctx->usr_cap * sizeof *ctx->usr);
            }
            ctx->usr[ctx->inv->nfuncs - 1] = NULL;
        }
        f->symbol = xstrdup(sym);
        size_t idx = (size_t)(f - ctx->inv->funcs);
        free(ctx->usr[idx]);
        ctx->usr[idx] = xstrdup_printf("%s %s", usr, sym);
    }
    free(usr);
    if (set)
        clang_disposeStringSet(set);
}

static void add_function(visit_ctx *ctx, CXCursor c)
{
    lw_function *f = inventory_add(ctx->inv);
    if (ctx->inv->nfuncs > ctx->usr_cap) {
        ctx->usr_cap = ctx->inv->cap;
        ctx->usr = xrealloc(ctx->usr, ctx->usr_cap * sizeof *ctx->usr);
    }
    ctx->usr[ctx->inv->nfuncs - 1] = cx_string(clang_getCursorUSR(c));
    CXType ftype = clang_getCursorType(c);
    f->kind = cursor_func_kind(c);
    f->scope = ctx->cxx ? qualified_scope(c) : xstrdup("");
    char *plain = cx_string(clang_getCursorSpelling(c));
    f->name = f->scope[0] ? xstrdup_printf("%s::%s", f->scope, plain) : xstrdup(plain);
    free(plain);
    /* Asm labels may come back with the "\1" prefix that tells the backend
     * not to add a global prefix; the linker symbol is without it. */
    char *sym = cx_string(clang_Cursor_getMangling(c));
    f->symbol = xstrdup(sym[0] == '\1' ? sym + 1 : sym);
    free(sym);
    if (!f->symbol[0]) {
        free(f->symbol);
        f->symbol = xstrdup(f->name);
    }

    CXString file;
    unsigned line, col;
    clang_getPresumedLocation(clang_getCursorLocation(c), &file, &line, &col);
    f->file = cx_string(file);
    f->line = line;

    CXType ret = clang_getCursorResultType(c);
    f->ret_type = cx_string(clang_getTypeSpelling(ret));
    f->ret_canonical = cx_string(clang_getTypeSpelling(clang_getCanonicalType(ret)));
    f->ret_void = clang_getCanonicalType(ret).kind == CXType_Void;
    argmeta_classify_result(ret, ctx->cxx, &f->ret_arg);

    CXType canon_f = clang_getCanonicalType(ftype);
    f->unprototyped = canon_f.kind == CXType_FunctionNoProto;
    f->variadic = clang_Cursor_isVariadic(c) != 0;

    /* Inline-ness and linkage are properties of the definition when the
     * header has one, whichever declaration comes first. */
    CXCursor def = clang_getCursorDefinition(c);
    bool has_def = !clang_Cursor_isNull(def);
    enum CX_StorageClass sc = clang_Cursor_getStorageClass(c);
    enum CX_StorageClass def_sc = has_def ? clang_Cursor_getStorageClass(def) : sc;
    /* `static` on a member function is not internal linkage. */
    f->is_static = f->kind == LW_KIND_FUNCTION && (sc == CX_SC_Static || def_sc == CX_SC_Static);
    f->is_inline = clang_Cursor_isFunctionInlined(c) || (has_def && clang_Cursor_isFunctionInlined(def));
    enum CXVisibilityKind vis = clang_getCursorVisibility(c);
    f->hidden = vis == CXVisibility_Hidden; /* libclang folds "internal" into hidden */
    f->deprecated = clang_getCursorAvailability(c) == CXAvailability_Deprecated;

    attr_scan as = {clang_Cursor_getTranslationUnit(c), f, false};
    clang_visitChildren(c, attr_visitor, &as);
    bool signal = as.signal || (!clang_Cursor_isNull(ctx->signals) &&
                                clang_equalCursors(clang_getCursorSemanticParent(c), ctx->signals));
    CXSourceRange extent = clang_getCursorExtent(c);
    unsigned begin, end;
    clang_getFileLocation(clang_getRangeStart(extent), NULL, NULL, NULL, &begin);
    clang_getFileLocation(clang_getRangeEnd(extent), NULL, NULL, NULL, &end);
    parse_error *error = error_within(ctx->errors, begin, end);
    if (!f->noreturn) {
        /* __attribute__((noreturn)) may live on the function type only. */
        char *ts = cx_string(clang_getTypeSpelling(ftype));
        f->noreturn = strstr(ts, "__attribute__((noreturn))") != NULL;
        free(ts);
    }

    char *why = NULL;
    bool params_ok = fill_params(f, c, ctx->cxx, &why);
    if (params_ok && ctx->cxx && takes_this(c))
        params_ok = prepend_this(f, c, &why);
    argmeta_fortran(f);
    argmeta_locate(f);
    if (f->unprototyped && declared_void(ctx->opt, f->symbol, f->name))
        f->unprototyped = false;
    if (params_ok)
        f->declarator = build_declarator(f, ret, &why);

    lw_skip cxx_why = LW_WRAP;
    const char *cxx_detail = ctx->cxx ? cxx_unwrappable(c, &cxx_why) : NULL;
    if (error || clang_isInvalidDeclaration(c)) {
        char *detail = error ? xstrdup_printf("%s: %s", error->where ? error->where : "?", error->msg)
                             : xstrdup("libclang marked the declaration invalid");
        function_skip(f, LW_SKIP_DIAGNOSTIC, detail);
        free(detail);
        if (error && !error->used)
            print_error(error, "warning: declaration left out");
        if (error)
            error->used = true;
    } else if (strncmp(f->name, "__builtin_", 10) == 0)
        function_skip(f, LW_SKIP_BUILTIN, NULL);
    else if (cxx_detail)
        function_skip(f, cxx_why, cxx_detail);
    else if (f->is_inline &&
             (f->is_static || ctx->cxx || !(sc == CX_SC_Extern || def_sc == CX_SC_Extern)))
        /* GNU `extern inline` (gmp) is wrappable: the library exports an
         * out-of-line definition, and calls the compiler inlines are the
         * only ones missed. Every other inline has no symbol to intercept. */
        function_skip(f, LW_SKIP_INLINE, NULL);
    else if (f->is_static)
        function_skip(f, LW_SKIP_STATIC, NULL);
    else if (f->hidden)
        function_skip(f, LW_SKIP_HIDDEN, NULL);
    else if (f->unprototyped)
        function_skip(f, LW_SKIP_UNPROTOTYPED,
                      "declared without a prototype; use --declare-void if it takes no arguments");
    else if (!f->declarator && !ctx->opt->abi)
        function_skip(f, LW_SKIP_UNSUPPORTED, why ? why : "type cannot be spelled");
    else if (signal)
        function_skip(f, LW_SKIP_SIGNAL,
                      "QObject::connect finds a signal by its address, which a wrapper would change");
    else if (clang_getCursorKind(c) == CXCursor_CXXMethod && clang_CXXMethod_isPureVirtual(c))
        function_skip(f, LW_SKIP_UNSUPPORTED, "pure virtual: no definition to call");
    else if ((f->kind == LW_KIND_CONSTRUCTOR || f->kind == LW_KIND_DESTRUCTOR) && !ctx->opt->abi &&
             has_virtual_base(clang_getCursorSemanticParent(c)))
        function_skip(f, LW_SKIP_UNSUPPORTED,
                      "class with virtual bases: its constructors and destructors take a VTT");
    free(why);
    if (!f->declarator)
        f->declarator = xstrdup("");
    if (f->kind == LW_KIND_CONSTRUCTOR || f->kind == LW_KIND_DESTRUCTOR)
        add_structor_variants(ctx, c);
}

/* Is class cursor `c` an explicit instantiation (`extern template class
 * Box<int>;`, `template class Box<int>;`)? libclang shows it as a class
 * that specializes a template, without members; an explicit
 * specialization (`template <> class Box<char> {...}`) has `<` after
 * `template` and is visited as a class. */
static bool explicit_instantiation(CXCursor c)
{
    if (clang_Cursor_isNull(clang_getSpecializedCursorTemplate(c)))
        return false;
    CXTranslationUnit tu = clang_Cursor_getTranslationUnit(c);
    CXToken *tokens = NULL;
    unsigned n = 0;
    clang_tokenize(tu, clang_getCursorExtent(c), &tokens, &n);
    bool yes = false;
    for (unsigned i = 0; i + 1 < n && i < 2; i++) {
        char *t = cx_string(clang_getTokenSpelling(tu, tokens[i]));
        char *next = cx_string(clang_getTokenSpelling(tu, tokens[i + 1]));
        yes = strcmp(t, "template") == 0 && strcmp(next, "<") != 0;
        free(t);
        free(next);
        if (yes)
            break;
    }
    clang_disposeTokens(tu, tokens, n);
    return yes;
}

/*
 * Explicit instantiations of function templates (`extern template int
 * twice<int>(int);`, `template double twice<double>(double);`, members of
 * class templates alike): libclang (14) gives them no cursor at all, so they
 * are found in the tokens and listed as unsupported with the reason; scope
 * applies to them as to every function. Class instantiations are the
 * visitor's (explicit_instantiation).
 */
/* Is token i - 1 `extern`? */
static bool starts_after_extern(CXTranslationUnit tu, const CXToken *tok, unsigned i)
{
    if (!i)
        return false;
    char *w = cx_string(clang_getTokenSpelling(tu, tok[i - 1]));
    bool yes = strcmp(w, "extern") == 0;
    free(w);
    return yes;
}

static void list_function_instantiations(CXTranslationUnit tu, lw_inventory *inv)
{
    CXToken *tok = NULL;
    unsigned n = 0;
    clang_tokenize(tu, clang_getCursorExtent(clang_getTranslationUnitCursor(tu)), &tok, &n);
    for (unsigned i = 0; i + 2 < n; i++) {
        if (clang_getTokenKind(tok[i]) != CXToken_Keyword)
            continue;
        char *t = cx_string(clang_getTokenSpelling(tu, tok[i]));
        bool is_template = strcmp(t, "template") == 0;
        free(t);
        if (!is_template)
            continue;
        /* A declaration's first word, or after `extern`. */
        char *prev = i ? cx_string(clang_getTokenSpelling(tu, tok[i - 1])) : xstrdup(";");
        bool starts = !strcmp(prev, "extern") || !strcmp(prev, ";") || !strcmp(prev, "}") || !strcmp(prev, "{");
        free(prev);
        char *next = cx_string(clang_getTokenSpelling(tu, tok[i + 1]));
        bool instantiation = starts && strcmp(next, "<") && strcmp(next, "class") && strcmp(next, "struct") &&
                             strcmp(next, "union");
        free(next);
        if (!instantiation)
            continue;
        /* The declaration up to `;`; its name is what precedes the first
         * `(`: a qualified identifier with template arguments. */
        unsigned end = i + 1, paren = 0;
        for (; end < n; end++) {
            char *w = cx_string(clang_getTokenSpelling(tu, tok[end]));
            bool semi = !strcmp(w, ";");
            if (!paren && !strcmp(w, "("))
                paren = end;
            free(w);
            if (semi)
                break;
        }
        if (!paren || end == n)
            continue;
        unsigned first = paren;
        int depth = 0;
        while (first > i + 1) {
            char *w = cx_string(clang_getTokenSpelling(tu, tok[first - 1]));
            bool take = depth > 0 || !strcmp(w, ">") || !strcmp(w, "::") ||
                        clang_getTokenKind(tok[first - 1]) == CXToken_Identifier;
            if (!strcmp(w, ">"))
                depth++;
            else if (!strcmp(w, "<"))
                depth--;
            /* An identifier after an identifier: the return type begins. */
            if (take && depth == 0 && clang_getTokenKind(tok[first - 1]) == CXToken_Identifier &&
                first < paren) {
                char *after = cx_string(clang_getTokenSpelling(tu, tok[first]));
                if (strcmp(after, "::") && strcmp(after, "<"))
                    take = false;
                free(after);
            }
            free(w);
            if (!take)
                break;
            first--;
        }
        strbuf name = {0}, decl = {0};
        for (unsigned k = first; k < paren; k++) {
            char *w = cx_string(clang_getTokenSpelling(tu, tok[k]));
            sb_put(&name, w);
            free(w);
        }
        /* The declaration as written: a space between words, and after a comma. */
        char last = 0;
        for (unsigned k = i && !starts_after_extern(tu, tok, i) ? i : i - 1; k < end; k++) {
            char *w = cx_string(clang_getTokenSpelling(tu, tok[k]));
            bool word = isalnum((unsigned char)w[0]) || w[0] == '_';
            if (last == ',' || (word && (isalnum((unsigned char)last) || last == '_')))
                sb_put(&decl, " ");
            sb_put(&decl, w);
            last = w[0] ? w[strlen(w) - 1] : 0;
            free(w);
        }
        CXString file;
        unsigned line = 0, col = 0;
        clang_getPresumedLocation(clang_getTokenLocation(tu, tok[i]), &file, &line, &col);
        lw_function *f = inventory_add(inv);
        f->name = sb_steal(&name);
        f->symbol = xstrdup(f->name);
        f->scope = xstrdup("");
        f->file = cx_string(file);
        f->line = line;
        f->ret_type = xstrdup("");
        f->ret_canonical = xstrdup("");
        f->declarator = xstrdup("");
        char *detail = xstrdup_printf("explicit instantiation of a function template (%s;): exported by "
                                      "the library, but libclang gives no declaration of it; not wrapped",
                                      decl.s ? decl.s : "");
        sb_free(&decl);
        function_skip(f, LW_SKIP_UNSUPPORTED, detail);
        free(detail);
        i = end;
    }
    clang_disposeTokens(tu, tok, n);
}

typedef struct instantiation_ctx {
    visit_ctx *ctx;
    const char *type; /* "Box<int>" */
} instantiation_ctx;

/* Lists a member of the template as a member of the instantiation: the
 * library exports it, but libclang gives neither its declaration nor its
 * symbol, so it is not wrapped, and NAME.skipped.txt says so. */
static enum CXChildVisitResult instantiation_member(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    instantiation_ctx *ic = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k != CXCursor_CXXMethod && k != CXCursor_Constructor && k != CXCursor_Destructor &&
        k != CXCursor_ConversionFunction)
        return CXChildVisit_Continue;
    visit_ctx *ctx = ic->ctx;
    size_t first = ctx->inv->nfuncs;
    add_function(ctx, c);
    char *plain = cx_string(clang_getCursorSpelling(c));
    if (k == CXCursor_Constructor || k == CXCursor_Destructor) {
        /* "Box<T>": the instantiation's own name, Box<int>::Box, Box<int>::~Box */
        char *cls = cx_string(clang_getCursorSpelling(clang_getCursorSemanticParent(c)));
        char *named = xstrdup_printf("%s%s", k == CXCursor_Destructor ? "~" : "", cls);
        free(cls);
        free(plain);
        plain = named;
    }
    for (size_t i = first; i < ctx->inv->nfuncs; i++) {
        lw_function *f = &ctx->inv->funcs[i];
        free(f->name);
        free(f->scope);
        free(f->symbol);
        f->scope = xstrdup(ic->type);
        f->name = xstrdup_printf("%s::%s", ic->type, plain);
        f->symbol = xstrdup(f->name);
        f->skip = LW_WRAP;
        char *detail = xstrdup_printf("member of the explicit instantiation %s: exported by the "
                                      "library, but libclang gives neither its declaration nor its "
                                      "symbol; not wrapped",
                                      ic->type);
        function_skip(f, LW_SKIP_UNSUPPORTED, detail);
        free(detail);
        char *usr = xstrdup_printf("%s %s", ctx->usr[i] ? ctx->usr[i] : "", ic->type);
        free(ctx->usr[i]);
        ctx->usr[i] = usr;
    }
    free(plain);
    return CXChildVisit_Continue;
}

static enum CXChildVisitResult decl_visitor(CXCursor c, CXCursor parent, CXClientData data)
{
    visit_ctx *ctx = data;
    switch (clang_getCursorKind(c)) {
    case CXCursor_FunctionDecl:
        add_function(ctx, c);
        break;
    case CXCursor_CXXMethod:
    case CXCursor_Constructor:
    case CXCursor_Destructor:
    case CXCursor_ConversionFunction:
        if (ctx->cxx)
            add_function(ctx, c);
        break;
    case CXCursor_CXXAccessSpecifier: {
        /* `public QT_ANNOTATE_ACCESS_SPECIFIER(qt_signal):` opens a signal
         * section; the next access specifier of the class closes it. */
        bool signal = false;
        clang_visitChildren(c, signal_visitor, &signal);
        if (signal)
            ctx->signals = parent;
        else if (clang_equalCursors(parent, ctx->signals))
            ctx->signals = clang_getNullCursor();
        break;
    }
    case CXCursor_LinkageSpec:
    case CXCursor_Namespace:
    case CXCursor_UnexposedDecl: /* extern "C" in older libclang */
        return CXChildVisit_Recurse;
    case CXCursor_ClassDecl:
    case CXCursor_StructDecl:
        if (ctx->cxx && explicit_instantiation(c)) {
            char *type = cx_string(clang_getTypeSpelling(clang_getCursorType(c)));
            instantiation_ctx ic = {ctx, type};
            clang_visitChildren(clang_getSpecializedCursorTemplate(c), instantiation_member, &ic);
            free(type);
            return CXChildVisit_Continue;
        }
        return ctx->cxx ? CXChildVisit_Recurse : CXChildVisit_Continue;
    default:
        break;
    }
    return CXChildVisit_Continue;
}

typedef struct usr_entry {
    const char *usr;
    size_t index;
} usr_entry;

static int cmp_usr(const void *pa, const void *pb)
{
    const usr_entry *a = pa, *b = pb;
    int c = strcmp(a->usr, b->usr);
    return c ? c : (a->index > b->index) - (a->index < b->index);
}

/* An asm label may come with a later redeclaration: glibc declares
 * `sscanf`, then redirects it with __REDIRECT to __isoc99_sscanf. libclang
 * reports the label only on the declarations that follow it, while the
 * compiler binds every call to it, so all declarations of an entity take
 * the symbol of the last one. */
static void unify_redeclarations(lw_inventory *inv, char **usr)
{
    usr_entry *e = xmalloc((inv->nfuncs ? inv->nfuncs : 1) * sizeof *e);
    for (size_t i = 0; i < inv->nfuncs; i++)
        e[i] = (usr_entry){usr[i], i};
    qsort(e, inv->nfuncs, sizeof *e, cmp_usr);
    for (size_t i = 0; i < inv->nfuncs;) {
        size_t j = i + 1;
        while (j < inv->nfuncs && e[j].usr[0] && strcmp(e[j].usr, e[i].usr) == 0)
            j++;
        const char *last = inv->funcs[e[j - 1].index].symbol;
        for (size_t k = i; k + 1 < j; k++) {
            lw_function *f = &inv->funcs[e[k].index];
            if (strcmp(f->symbol, last) != 0) {
                free(f->symbol);
                f->symbol = xstrdup(last);
            }
        }
        i = j;
    }
    free(e);
}

/* The same symbol declared twice: the first declaration is kept. */
static void mark_duplicates(lw_inventory *inv)
{
    lw_symindex ix;
    symindex_build(&ix, inv, false);
    for (size_t i = 0; i < ix.n;) {
        size_t n;
        lw_function **same = symindex_find(&ix, ix.sorted[i]->symbol, &n);
        const lw_function *g = same[0];
        const char *base = strrchr(g->file, '/');
        for (size_t k = 1; k < n; k++) {
            /* Overrides any other reason: the kept declaration speaks. */
            same[k]->skip = LW_SKIP_DUPLICATE;
            free(same[k]->skip_detail);
            same[k]->skip_detail =
                xstrdup_printf("first declared at %s:%u", base ? base + 1 : g->file, g->line);
        }
        i += n;
    }
    symindex_free(&ix);
}

int parse_inventory(lw_inventory *inv, const lw_parse_options *opt)
{
    int rc = -1;
    bool cxx = parse_language_is_cxx(opt->language);
    size_t len = 0, rlen = 0;
    char *text = read_source(opt->source, &len);
    if (!text)
        return -1;
    char *rewritten = rewrite_complex_floatn(text, len, &rlen);
    size_t olen = 0;
    char *ordered = rewritten ? rewrite_attribute_order(rewritten, rlen, &olen)
                              : rewrite_attribute_order(text, len, &olen);
    if (ordered) {
        free(rewritten);
        rewritten = ordered;
        rlen = olen;
    }

    const char *args[8];
    int nargs = 0;
    char *std = NULL;
    args[nargs++] = "-x";
    args[nargs++] = cxx ? "c++" : "c";
    if (opt->language && strcmp(opt->language, "c") != 0 && strcmp(opt->language, "c++") != 0) {
        std = xstrdup_printf("-std=%s", opt->language);
        args[nargs++] = std;
    } else if (cxx) {
        /* g++'s default, which libclang 14 (gnu++14) does not share: the
         * library headers preprocessed by g++ chose their branches by it. */
        args[nargs++] = "-std=gnu++17";
    }
    args[nargs++] = "-include";
    args[nargs++] = prelude_name;
    /* Warnings about gcc-only attributes in system headers are noise here;
     * only errors decide. */
    args[nargs++] = "-w";
    /* The wrappers' machine: type sizes, long double, builtins (target.h). */
    char *target_arg = target_clang_arg(opt->target);
    if (target_arg)
        args[nargs++] = target_arg;

    struct CXUnsavedFile unsaved[2] = {
        {prelude_name, prelude_c, sizeof prelude_c - 1},
        {opt->source, rewritten ? rewritten : text, rewritten ? rlen : len},
    };

    CXIndex index = clang_createIndex(0, 0);
    CXTranslationUnit tu = NULL;
    if (!index) {
        fprintf(stderr, "libwrap-gen: libclang could not create an index\n");
        goto out_text;
    }
    unsigned flags = CXTranslationUnit_SkipFunctionBodies | CXTranslationUnit_KeepGoing;
    enum CXErrorCode err = clang_parseTranslationUnit2(index, opt->source, args, nargs, unsaved, 2,
                                                       flags, &tu);
    if (err != CXError_Success || !tu) {
        fprintf(stderr, "libwrap-gen: %s: libclang failed to parse (error code %d)%s\n", opt->source,
                (int)err,
                err == CXError_ASTReadError ? "" : "; check that the file exists and is readable");
        goto out_index;
    }
    char *main_file = main_file_of(text, len);
    parse_errors errors;
    collect_errors(tu, cxx, main_file, &errors);
    free(main_file);
    unsigned stop = stopping_errors(&errors);
    if (stop) {
        fprintf(stderr, "libwrap-gen: %s: %u error%s; fix the includes or flags in libwrap.h\n",
                opt->source, stop, stop == 1 ? "" : "s");
        free_errors(&errors);
        goto out_tu;
    }

    free(inv->source);
    free(inv->language);
    inv->source = xstrdup(opt->source);
    inv->language = xstrdup(cxx ? "c++" : "c");
    visit_ctx ctx = {inv, opt, cxx, NULL, 0, &errors, clang_getNullCursor()};
    clang_visitChildren(clang_getTranslationUnitCursor(tu), decl_visitor, &ctx);
    unify_redeclarations(inv, ctx.usr);
    for (size_t i = 0; i < inv->nfuncs; i++)
        free(ctx.usr[i]);
    free(ctx.usr);
    mark_duplicates(inv);
    if (cxx)
        list_function_instantiations(tu, inv);
    list_dropped_declarations(inv, &errors, rewritten ? rewritten : text, rewritten ? rlen : len);
    warn_unused_errors(&errors);
    free_errors(&errors);
    rc = 0;

out_tu:
    clang_disposeTranslationUnit(tu);
out_index:
    clang_disposeIndex(index);
out_text:
    free(std);
    free(target_arg);
    free(rewritten);
    free(text);
    return rc;
}
