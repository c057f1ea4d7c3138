/*
 * visitor.c - the walk over libclang's cursors (internal.h): every function
 * declaration becomes an inventory entry, with its types, attributes and
 * the skip reasons that follow from the declaration alone.
 */
#include <clang-c/Index.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse/argmeta.h"
#include "parse/declarator.h"
#include "parse/internal.h"
#include "util/strbuf.h"

/* Attributes libclang does not classify (format, noreturn, deprecated)
 * are read from their own tokens. Implicit attributes have no tokens and
 * are ignored. */
typedef struct attr_scan {
    CXTranslationUnit tu;
    lwg_function *f;
    bool signal;  /* annotated as a Qt signal (Q_SIGNAL) */
    bool returns_twice; /* __attribute__((returns_twice)) */
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
    lwg_function *f = as->f;
    if (token_is(s[0], "noreturn") || strcmp(s[0], "_Noreturn") == 0)
        f->noreturn = true;
    else if (token_is(s[0], "returns_twice"))
        as->returns_twice = true;
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

/* The C functions that return twice without saying so, as gcc knows them
 * (special_function_p): setjmp, sigsetjmp, savectx, qsetjmp, vfork and
 * getcontext, also behind one or two underscores (_setjmp, __sigsetjmp). */
static bool returns_twice_name(const char *name)
{
    static const char *const names[] = {"setjmp", "setjmp_syscall", "sigsetjmp", "savectx",
                                        "qsetjmp", "vfork", "getcontext"};
    name += name[0] == '_' ? (name[1] == '_' ? 2 : 1) : 0;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(name, names[i]) == 0)
            return true;
    return false;
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


static bool declared_void(const lwg_parse_options *opt, const char *symbol, const char *name)
{
    for (size_t i = 0; i < opt->n_declare_void; i++)
        if (strcmp(opt->declare_void[i], symbol) == 0 || strcmp(opt->declare_void[i], name) == 0)
            return true;
    return false;
}

/* A class or struct that the headers only declare (protobuf's Symbol and
 * MapIterator), taken or returned by value: a typed wrapper cannot spell
 * the call (an incomplete return type), an ABI-level one needs no type. */
static char *incomplete_by_value(CXType t)
{
    CXType c = clang_getCanonicalType(t);
    /* A template's specialization (std::vector<int>) is only not yet
     * instantiated here: the wrapper instantiates it. */
    if (c.kind != CXType_Record || clang_Type_getSizeOf(c) != CXTypeLayoutError_Incomplete ||
        clang_Type_getNumTemplateArguments(c) > 0)
        return NULL;
    char *name = cx_string(clang_getTypeSpelling(c));
    char *why = xstrdup_printf("%s is only declared in the headers, not defined, and passed or returned by "
                               "value: a typed wrapper cannot (ABI-level forwarding can)",
                               name);
    free(name);
    return why;
}

static bool fill_params(lwg_function *f, CXCursor c, bool cxx, char **why)
{
    int n = clang_Cursor_getNumArguments(c);
    if (n <= 0)
        return true;
    f->params = xcalloc((size_t)n, sizeof *f->params);
    bool ok = true;
    for (int i = 0; i < n; i++) {
        CXCursor a = clang_Cursor_getArgument(c, (unsigned)i);
        CXType t = clang_getCursorType(a);
        lwg_param *p = &f->params[f->nparams++];
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
        /* One that the wrapper cannot spell (a private member type) leaves
         * the typed wrapper out; every parameter is kept all the same, for
         * the ABI-level wrapper's names and argument locations. */
        char *fail = incomplete_by_value(t);
        p->decl = fail ? NULL : declarator_param(t, p->fwd, &fail);
        if (!p->decl) {
            p->decl = p->name_invented ? xstrdup(p->type) : xstrdup_printf("%s %s", p->type, p->name);
            if (!*why)
                *why = fail;
            else
                free(fail);
            ok = false;
        }
    }
    return ok;
}

static char *build_declarator(lwg_function *f, CXType ret, char **why)
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
    char *incomplete = incomplete_by_value(ret);
    char *d = NULL;
    if (incomplete) {
        if (!*why)
            *why = incomplete;
        else
            free(incomplete);
    } else {
        d = declarator_spell(ret, inner, why);
    }
    free(inner);
    return d;
}


void add_function(visit_ctx *ctx, CXCursor c)
{
    lwg_function *f = inventory_add(ctx->inv);
    if (ctx->inv->nfuncs > ctx->usr_cap) {
        ctx->usr_cap = ctx->inv->cap;
        ctx->usr = xrealloc(ctx->usr, ctx->usr_cap * sizeof *ctx->usr);
    }
    ctx->usr[ctx->inv->nfuncs - 1] = cx_string(clang_getCursorUSR(c));
    CXType ftype = clang_getCursorType(c);
    f->kind = cursor_func_kind(c);
    f->scope = ctx->cxx ? qualified_scope(c) : xstrdup("");
    char *plain = ctx->cxx ? specialization_name(c) : cx_string(clang_getCursorSpelling(c));
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
    f->is_static = f->kind == LWG_FN_FUNCTION && (sc == CX_SC_Static || def_sc == CX_SC_Static);
    f->is_inline = clang_Cursor_isFunctionInlined(c) || (has_def && clang_Cursor_isFunctionInlined(def));
    enum CXVisibilityKind vis = clang_getCursorVisibility(c);
    f->hidden = vis == CXVisibility_Hidden; /* libclang folds "internal" into hidden */
    f->deprecated = clang_getCursorAvailability(c) == CXAvailability_Deprecated;

    attr_scan as = {clang_Cursor_getTranslationUnit(c), f, false, false};
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
    if (ctx->cxx && takes_this(c))
        params_ok = prepend_this(f, c, params_ok ? &why : NULL) && params_ok;
    argmeta_fortran(f);
    argmeta_locate(f);
    argmeta_locate_a64(f);
    if (f->unprototyped && declared_void(ctx->opt, f->symbol, f->name))
        f->unprototyped = false;
    if (params_ok)
        f->declarator = build_declarator(f, ret, &why);

    lwg_skip cxx_why = LWG_WRAP;
    const char *cxx_detail = ctx->cxx ? cxx_unwrappable(c, &cxx_why) : NULL;
    if (error || clang_isInvalidDeclaration(c)) {
        char *detail = error ? xstrdup_printf("%s: %s", error->where ? error->where : "?", error->msg)
                             : xstrdup("libclang marked the declaration invalid");
        function_skip(f, LWG_SKIP_DIAGNOSTIC, detail);
        free(detail);
        if (error && !error->used)
            print_left_out(error, f->name);
        if (error)
            error->used = true;
    } else if (strncmp(f->name, "__builtin_", 10) == 0)
        function_skip(f, LWG_SKIP_BUILTIN, NULL);
    else if (cxx_detail)
        function_skip(f, cxx_why, cxx_detail);
    else if (f->is_inline &&
             (f->is_static || ctx->cxx || !(sc == CX_SC_Extern || def_sc == CX_SC_Extern)))
        /* GNU `extern inline` (gmp) is wrappable: the library exports an
         * out-of-line definition, and calls the compiler inlines are the
         * only ones missed. Every other inline has no symbol to intercept. */
        function_skip(f, LWG_SKIP_INLINE, NULL);
    else if (f->is_static)
        function_skip(f, LWG_SKIP_STATIC, NULL);
    else if (f->hidden)
        function_skip(f, LWG_SKIP_HIDDEN, NULL);
    else if (f->unprototyped)
        function_skip(f, LWG_SKIP_UNPROTOTYPED,
                      "declared without a prototype; use --declare-void if it takes no arguments");
    else if (!f->declarator && !ctx->opt->abi)
        function_skip(f, LWG_SKIP_UNSUPPORTED, why ? why : "type cannot be spelled");
    else if (signal)
        function_skip(f, LWG_SKIP_SIGNAL,
                      "QObject::connect finds a signal by its address, which a wrapper would change");
    else if (as.returns_twice || (f->kind == LWG_FN_FUNCTION && !f->scope[0] && returns_twice_name(f->name)))
        /* Its second return (a longjmp to it, a vfork child's parent
         * going on) comes back through a wrapper whose return slot and
         * frame were given back at the first: to another caller's
         * return address. */
        function_skip(f, LWG_SKIP_RETURNS_TWICE,
                      "returns twice: a wrapper's second return would go to a reused return address");
    else if (clang_getCursorKind(c) == CXCursor_CXXMethod && clang_CXXMethod_isPureVirtual(c))
        function_skip(f, LWG_SKIP_UNSUPPORTED, "pure virtual: no definition to call");
    else if ((f->kind == LWG_FN_CONSTRUCTOR || f->kind == LWG_FN_DESTRUCTOR) && !ctx->opt->abi &&
             has_virtual_base(clang_getCursorSemanticParent(c)))
        function_skip(f, LWG_SKIP_UNSUPPORTED,
                      "class with virtual bases: its constructors and destructors take a VTT");
    free(why);
    if (!f->declarator)
        f->declarator = xstrdup("");
    if (f->kind == LWG_FN_CONSTRUCTOR || f->kind == LWG_FN_DESTRUCTOR)
        add_structor_variants(ctx, c);
}


enum CXChildVisitResult decl_visitor(CXCursor c, CXCursor parent, CXClientData data)
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
            list_instantiation_members(ctx, c);
            return CXChildVisit_Continue;
        }
        return ctx->cxx ? CXChildVisit_Recurse : CXChildVisit_Continue;
    default:
        break;
    }
    return CXChildVisit_Continue;
}

