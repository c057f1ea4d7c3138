/*
 * cxx.c - what only C++ has (internal.h): scopes and kinds of member
 * functions, the object pointer, the Itanium ABI's several symbols of a
 * constructor or destructor, and explicit instantiations, which libclang
 * shows no declarations for.
 */
#include <clang-c/Index.h>
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse/argmeta.h"
#include "parse/declarator.h"
#include "parse/internal.h"
#include "util/strbuf.h"

/* The C++ runtime's demangler (libstdc++, which libclang brings). */
extern char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status);

char *specialization_name(CXCursor c)
{
    char *plain = cx_string(clang_getCursorSpelling(c));
    int n = clang_Cursor_getNumTemplateArguments(c);
    if (n < 0 && clang_getCursorKind(c) == CXCursor_CXXMethod &&
        !clang_Cursor_isNull(clang_getSpecializedCursorTemplate(c))) {
        /* libclang gives no member function's template arguments: they
         * are read from its demangled symbol, "A* F::make<A>(int)". */
        char *sym = cx_string(clang_Cursor_getMangling(c));
        int st = -1;
        char *d = __cxa_demangle(sym, NULL, NULL, &st);
        free(sym);
        char *args = NULL;
        size_t len = strlen(plain);
        for (char *p = d; st == 0 && p && (p = strstr(p, plain)) != NULL; p += len)
            if (p[len] == '<' && (p == d || p[-1] == ':')) {
                args = p + len;
                break;
            }
        if (args) {
            int depth = 0;
            char *end = args;
            do {
                depth += *end == '<' ? 1 : *end == '>' ? -1 : 0;
                end++;
            } while (*end && depth > 0);
            if (depth == 0) {
                char *named = xstrdup_printf("%s%.*s", plain, (int)(end - args), args);
                free(d);
                free(plain);
                return named;
            }
        }
        free(d);
        return plain;
    }
    if (n <= 0)
        return plain;
    strbuf b = STRBUF_INIT;
    sb_printf(&b, "%s<", plain);
    for (int i = 0; i < n; i++) {
        const char *sep = i ? ", " : "";
        switch (clang_Cursor_getTemplateArgumentKind(c, (unsigned)i)) {
        case CXTemplateArgumentKind_Type: {
            char *t = cx_string(clang_getTypeSpelling(clang_Cursor_getTemplateArgumentType(c, (unsigned)i)));
            sb_printf(&b, "%s%s", sep, t);
            free(t);
            break;
        }
        case CXTemplateArgumentKind_Integral:
            sb_printf(&b, "%s%lld", sep, clang_Cursor_getTemplateArgumentValue(c, (unsigned)i));
            break;
        default: /* a template, an expression, a pack: the plain name */
            sb_free(&b);
            return plain;
        }
    }
    sb_printf(&b, ">");
    free(plain);
    return b.s;
}

char *qualified_scope(CXCursor c)
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
        /* A class template's specialization by its arguments
         * (YAML::convert<bool>, Codec<int>: the display name), so that the
         * members of two specializations are told apart. */
        bool specialization = k == CXCursor_ClassTemplatePartialSpecialization ||
                              (k != CXCursor_Namespace && k != CXCursor_ClassTemplate &&
                               !clang_Cursor_isNull(clang_getSpecializedCursorTemplate(p)));
        char *name = cx_string(specialization ? clang_getCursorDisplayName(p) : clang_getCursorSpelling(p));
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


lwg_fn_kind cursor_func_kind(CXCursor c)
{
    switch (clang_getCursorKind(c)) {
    case CXCursor_CXXMethod: {
        char *name = cx_string(clang_getCursorSpelling(c));
        bool op = strncmp(name, "operator", 8) == 0 && !parse_is_ident_char(name[8]);
        free(name);
        if (op)
            return LWG_FN_OPERATOR;
        return clang_CXXMethod_isStatic(c) ? LWG_FN_STATIC_METHOD : LWG_FN_METHOD;
    }
    case CXCursor_Constructor:
        return LWG_FN_CONSTRUCTOR;
    case CXCursor_Destructor:
        return LWG_FN_DESTRUCTOR;
    case CXCursor_ConversionFunction:
        return LWG_FN_OPERATOR;
    default: {
        char *name = cx_string(clang_getCursorSpelling(c));
        bool op = strncmp(name, "operator", 8) == 0 && !parse_is_ident_char(name[8]);
        free(name);
        return op ? LWG_FN_OPERATOR : LWG_FN_FUNCTION;
    }
    }
}

/* Does the member function take the object pointer (`this`)? */
bool takes_this(CXCursor c)
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
bool prepend_this(lwg_function *f, CXCursor c, char **why)
{
    CXCursor cls = clang_getCursorSemanticParent(c);
    const char *hidden = declarator_inaccessible(cls);
    char *type = cx_string(clang_getTypeSpelling(clang_getCanonicalType(clang_getCursorType(cls))));
    const char *fail = hidden                                                          ? hidden
                       : !type[0] || strstr(type, "(unnamed") || strstr(type, "(anonymous") ? "member of a class without a name"
                                                                                            : NULL;
    /* A class the wrapper cannot name: the object pointer is there all the
     * same (the ABI-level wrapper's argument locations count it), as a
     * void pointer, and the typed wrapper is left out (`why`). A member of
     * a class template has no symbol: nothing to place. */
    enum CXCursorKind k = clang_getCursorKind(cls);
    if (fail && (k == CXCursor_ClassTemplate || k == CXCursor_ClassTemplatePartialSpecialization)) {
        free(type);
        if (why)
            *why = xstrdup(fail);
        return false;
    }
    if (fail) {
        free(type);
        type = xstrdup("void");
        if (why)
            *why = xstrdup(fail);
    }
    bool is_const = clang_CXXMethod_isConst(c) != 0; /* 0 for constructors and destructors */
    lwg_param *params = xcalloc(f->nparams + 1, sizeof *params);
    if (f->nparams)
        memcpy(params + 1, f->params, f->nparams * sizeof *params);
    free(f->params);
    f->params = params;
    f->nparams++;
    lwg_param *p = &params[0];
    p->name = xstrdup("this");
    p->type = xstrdup_printf("%s%s *", is_const ? "const " : "", type);
    p->canonical = xstrdup(p->type);
    p->fwd = xstrdup("libwrap_this");
    p->decl = xstrdup_printf("%s%s *libwrap_this", is_const ? "const " : "", type);
    argmeta_pointer(&p->arg);
    free(type);
    return !fail;
}

/* Why a C++ function cannot be wrapped though it is declared with external
 * linkage, or NULL: the checks that need the cursor's context. */
const char *cxx_unwrappable(CXCursor c, lwg_skip *why)
{
    *why = LWG_SKIP_UNSUPPORTED;
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
            *why = LWG_SKIP_STATIC;
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
bool has_virtual_base(CXCursor cls)
{
    bool found = false;
    clang_visitChildren(cls, find_virtual_base, &found);
    return found;
}

static lwg_param param_copy(const lwg_param *p)
{
    return (lwg_param){xstrdup(p->name), p->name_invented, xstrdup(p->type), xstrdup(p->canonical),
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
void add_structor_variants(visit_ctx *ctx, CXCursor c)
{
    CXStringSet *set = clang_Cursor_getCXXManglings(c);
    size_t first = ctx->inv->nfuncs - 1;
    char *usr = xstrdup(ctx->usr[first]);
    for (unsigned i = 0; set && i < set->Count; i++) {
        const char *sym = clang_getCString(set->Strings[i]);
        if (!sym || !sym[0])
            continue;
        lwg_function *f;
        if (i == 0) {
            f = &ctx->inv->funcs[first];
            free(f->symbol);
        } else {
            f = inventory_add(ctx->inv); /* may move the array: copy from the index */
            const lwg_function *g = &ctx->inv->funcs[first];
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


/* Is class cursor `c` an explicit instantiation (`extern template class
 * Box<int>;`, `template class Box<int>;`)? libclang shows it as a class
 * that specializes a template, without members; an explicit
 * specialization (`template <> class Box<char> {...}`) has `<` after
 * `template` and is visited as a class. */
bool explicit_instantiation(CXCursor c)
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

void list_function_instantiations(CXTranslationUnit tu, lwg_inventory *inv)
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
        lwg_function *f = inventory_add(inv);
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
        function_skip(f, LWG_SKIP_UNSUPPORTED, detail);
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
        lwg_function *f = &ctx->inv->funcs[i];
        free(f->name);
        free(f->scope);
        free(f->symbol);
        f->scope = xstrdup(ic->type);
        f->name = xstrdup_printf("%s::%s", ic->type, plain);
        f->symbol = xstrdup(f->name);
        f->skip = LWG_WRAP;
        char *detail = xstrdup_printf("member of the explicit instantiation %s: exported by the "
                                      "library, but libclang gives neither its declaration nor its "
                                      "symbol; not wrapped",
                                      ic->type);
        function_skip(f, LWG_SKIP_UNSUPPORTED, detail);
        free(detail);
        char *usr = xstrdup_printf("%s %s", ctx->usr[i] ? ctx->usr[i] : "", ic->type);
        free(ctx->usr[i]);
        ctx->usr[i] = usr;
    }
    free(plain);
    return CXChildVisit_Continue;
}


void list_instantiation_members(visit_ctx *ctx, CXCursor c)
{
    char *type = cx_string(clang_getTypeSpelling(clang_getCursorType(c)));
    instantiation_ctx ic = {ctx, type};
    clang_visitChildren(clang_getSpecializedCursorTemplate(c), instantiation_member, &ic);
    free(type);
}
