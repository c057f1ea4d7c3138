/*
 * parse.c - libwrap.i through libclang into the inventory (see parse.h).
 */
#define _GNU_SOURCE /* memmem */
#include "parse.h"

#include <clang-c/Index.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "declarator.h"
#include "fileio.h"
#include "strbuf.h"
#include "symindex.h"

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
static const char prelude_name[] = "/libwrap-gen/prelude.h";
static const char prelude_c[] =
    "typedef float _Float32;\n"
    "typedef double _Float64;\n"
    "typedef double _Float32x;\n"
    "typedef long double _Float64x;\n"
    "typedef __float128 _Float128;\n"
    "typedef _Complex float __libwrap_cFloat32;\n"
    "typedef _Complex double __libwrap_cFloat64;\n"
    "typedef _Complex double __libwrap_cFloat32x;\n"
    "typedef _Complex long double __libwrap_cFloat64x;\n"
    "typedef _Complex __float128 __libwrap_cFloat128;\n"
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

static char *cx_string(CXString s)
{
    const char *c = clang_getCString(s);
    char *r = xstrdup(c ? c : "");
    clang_disposeString(s);
    return r;
}

/* Prints errors and fatals the way clang does, at the presumed location,
 * so they point into the header rather than into libwrap.i. */
static unsigned report_diagnostics(CXTranslationUnit tu, bool cxx)
{
    unsigned n = clang_getNumDiagnostics(tu), errors = 0;
    for (unsigned i = 0; i < n; i++) {
        CXDiagnostic d = clang_getDiagnostic(tu, i);
        enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(d);
        /* libstdc++ preprocessed by g++ keeps the branches written for
         * gcc's builtins (__integer_pack in <utility>), which libclang
         * rejects. They sit in template machinery no wrapper spells, and
         * libclang recovers (KeepGoing): errors in C++ system headers are
         * not the user's to fix. */
        if (cxx && sev == CXDiagnostic_Error &&
            clang_Location_isInSystemHeader(clang_getDiagnosticLocation(d))) {
            clang_disposeDiagnostic(d);
            continue;
        }
        if (sev >= CXDiagnostic_Error) {
            if (errors < 20) {
                CXString file;
                unsigned line, col;
                clang_getPresumedLocation(clang_getDiagnosticLocation(d), &file, &line, &col);
                char *f = cx_string(file);
                char *msg = cx_string(clang_getDiagnosticSpelling(d));
                if (f[0])
                    fprintf(stderr, "%s:%u:%u: %s: %s\n", f, line, col,
                            sev == CXDiagnostic_Fatal ? "fatal error" : "error", msg);
                else
                    fprintf(stderr, "libwrap-gen: error: %s\n", msg);
                free(f);
                free(msg);
            }
            errors++;
        }
        clang_disposeDiagnostic(d);
    }
    if (errors > 20)
        fprintf(stderr, "libwrap-gen: %u more errors not shown\n", errors - 20);
    return errors;
}

typedef struct visit_ctx {
    lw_inventory *inv;
    const lw_parse_options *opt;
    bool cxx;
    char **usr;      /* per function: the entity's USR (redeclarations share it) */
    size_t usr_cap;
} visit_ctx;

/* Attributes libclang does not classify (format, noreturn, deprecated)
 * are read from their own tokens. Implicit attributes have no tokens and
 * are ignored. */
typedef struct attr_scan {
    CXTranslationUnit tu;
    lw_function *f;
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

static enum CXChildVisitResult attr_visitor(CXCursor c, CXCursor parent, CXClientData data)
{
    if (clang_isAttribute(clang_getCursorKind(c)))
        scan_attribute(data, c);
    return CXChildVisit_Continue;
}

static char *qualified_scope(CXCursor c)
{
    char *parts[64];
    int n = 0;
    for (CXCursor p = clang_getCursorSemanticParent(c);
         !clang_Cursor_isNull(p) && clang_getCursorKind(p) != CXCursor_TranslationUnit && n < 64;
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
        parts[n++] = name;
    }
    strbuf sb = STRBUF_INIT;
    for (int i = n - 1; i >= 0; i--) {
        sb_put(&sb, parts[i]);
        if (i)
            sb_put(&sb, "::");
        free(parts[i]);
    }
    return sb_steal(&sb);
}

static bool declared_void(const lw_parse_options *opt, const char *symbol, const char *name)
{
    for (size_t i = 0; i < opt->n_declare_void; i++)
        if (strcmp(opt->declare_void[i], symbol) == 0 || strcmp(opt->declare_void[i], name) == 0)
            return true;
    return false;
}

static bool fill_params(lw_function *f, CXCursor c, char **why)
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
    return (lw_param){xstrdup(p->name), p->name_invented, xstrdup(p->type),
                      xstrdup(p->canonical), xstrdup(p->decl), xstrdup(p->fwd)};
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

    attr_scan as = {clang_Cursor_getTranslationUnit(c), f};
    clang_visitChildren(c, attr_visitor, &as);
    if (!f->noreturn) {
        /* __attribute__((noreturn)) may live on the function type only. */
        char *ts = cx_string(clang_getTypeSpelling(ftype));
        f->noreturn = strstr(ts, "__attribute__((noreturn))") != NULL;
        free(ts);
    }

    char *why = NULL;
    bool params_ok = fill_params(f, c, &why);
    if (params_ok && ctx->cxx && takes_this(c))
        params_ok = prepend_this(f, c, &why);
    if (f->unprototyped && declared_void(ctx->opt, f->symbol, f->name))
        f->unprototyped = false;
    if (params_ok)
        f->declarator = build_declarator(f, ret, &why);

    lw_skip cxx_why = LW_WRAP;
    const char *cxx_detail = ctx->cxx ? cxx_unwrappable(c, &cxx_why) : NULL;
    if (strncmp(f->name, "__builtin_", 10) == 0)
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
    case CXCursor_LinkageSpec:
    case CXCursor_Namespace:
    case CXCursor_UnexposedDecl: /* extern "C" in older libclang */
        return CXChildVisit_Recurse;
    case CXCursor_ClassDecl:
    case CXCursor_StructDecl:
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
    unsigned errors = report_diagnostics(tu, cxx);
    if (errors) {
        fprintf(stderr, "libwrap-gen: %s: %u error%s; fix the includes or flags in libwrap.h\n",
                opt->source, errors, errors == 1 ? "" : "s");
        goto out_tu;
    }

    free(inv->source);
    free(inv->language);
    inv->source = xstrdup(opt->source);
    inv->language = xstrdup(cxx ? "c++" : "c");
    visit_ctx ctx = {inv, opt, cxx, NULL, 0};
    clang_visitChildren(clang_getTranslationUnitCursor(tu), decl_visitor, &ctx);
    unify_redeclarations(inv, ctx.usr);
    for (size_t i = 0; i < inv->nfuncs; i++)
        free(ctx.usr[i]);
    free(ctx.usr);
    mark_duplicates(inv);
    rc = 0;

out_tu:
    clang_disposeTranslationUnit(tu);
out_index:
    clang_disposeIndex(index);
out_text:
    free(std);
    free(rewritten);
    free(text);
    return rc;
}
