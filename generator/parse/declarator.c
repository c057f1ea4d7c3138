/*
 * declarator.c - declarators rebuilt from the type structure (see
 * declarator.h).
 */
#include "parse/declarator.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"

/* Types that glibc spells differently for gcc and clang. parse.c maps the
 * gcc spellings to these typedefs so that libclang can read gcc's output;
 * here they are mapped back so the wrappers use the header's spelling. */
static const struct {
    const char *alias;
    const char *spelling;
} compat_names[] = {
    {"__libwrap_cFloat32x", "_Complex _Float32x"},
    {"__libwrap_cFloat64x", "_Complex _Float64x"},
    {"__libwrap_cFloat32", "_Complex _Float32"},
    {"__libwrap_cFloat64", "_Complex _Float64"},
    {"__libwrap_cFloat128", "_Complex _Float128"},
};

const char *declarator_inaccessible(CXCursor decl)
{
    for (CXCursor c = decl; !clang_Cursor_isNull(c) && !clang_isInvalid(clang_getCursorKind(c)) &&
                            clang_getCursorKind(c) != CXCursor_TranslationUnit;
         c = clang_getCursorSemanticParent(c)) {
        enum CX_CXXAccessSpecifier a = clang_getCXXAccessSpecifier(c);
        if (a == CX_CXXPrivate || a == CX_CXXProtected)
            return "a private or protected member type of a class (the wrapper cannot name it)";
    }
    return NULL;
}

static char *leaf_spelling(CXType t, char **why)
{
    CXCursor decl = clang_getTypeDeclaration(t);
    const char *hidden = declarator_inaccessible(decl);
    if (hidden) {
        *why = xstrdup(hidden);
        return NULL;
    }
    /* A C++ type keeps the qualifier it was written with (`inner::Q`
     * inside namespace ns, `vector<int>` inside namespace std), which names
     * nothing in the wrapper source. A typedef it names is spelled fully
     * qualified by libclang, with the elaborated type's own const/volatile;
     * a class, enum or template specialization by its canonical type, which
     * is fully qualified with its qualifiers. In C the elaborated types are
     * `struct tag`, the same either way. */
    if (t.kind == CXType_Elaborated) {
        CXType named = clang_Type_getNamedType(t);
        CXString cs;
        char *r;
        if (named.kind == CXType_Typedef) {
            cs = clang_getTypeSpelling(named);
            r = xstrdup_printf("%s%s%s", clang_isConstQualifiedType(t) ? "const " : "",
                               clang_isVolatileQualifiedType(t) ? "volatile " : "",
                               clang_getCString(cs));
        } else {
            cs = clang_getTypeSpelling(clang_getCanonicalType(t));
            r = xstrdup(clang_getCString(cs));
        }
        clang_disposeString(cs);
        if (strstr(r, "(unnamed") || strstr(r, "(anonymous")) {
            free(r);
            *why = xstrdup("a struct, union or enum without a name (give it a tag or a typedef)");
            return NULL;
        }
        return r;
    }
    CXString cs = clang_getTypeSpelling(t);
    const char *s = clang_getCString(cs);
    strbuf sb = STRBUF_INIT;
    /* Unnamed tags have no name a wrapper could use. */
    if (strstr(s, "(unnamed") || strstr(s, "(anonymous")) {
        *why = xstrdup("a struct, union or enum without a name (give it a tag or a typedef)");
        clang_disposeString(cs);
        return NULL;
    }
    const char *p = s;
    while (*p) {
        bool mapped = false;
        for (size_t i = 0; i < sizeof compat_names / sizeof compat_names[0]; i++) {
            size_t n = strlen(compat_names[i].alias);
            if (strncmp(p, compat_names[i].alias, n) == 0 &&
                !(p[n] == '_' || (p[n] >= '0' && p[n] <= '9') ||
                  (p[n] >= 'a' && p[n] <= 'z') || (p[n] >= 'A' && p[n] <= 'Z'))) {
                sb_put(&sb, compat_names[i].spelling);
                p += n;
                mapped = true;
                break;
            }
        }
        if (!mapped)
            sb_putn(&sb, p++, 1);
    }
    clang_disposeString(cs);
    return sb_steal(&sb);
}

static bool is_function_kind(enum CXTypeKind k)
{
    return k == CXType_FunctionProto || k == CXType_FunctionNoProto;
}

static bool is_array_kind(enum CXTypeKind k)
{
    return k == CXType_ConstantArray || k == CXType_IncompleteArray ||
           k == CXType_VariableArray || k == CXType_DependentSizedArray;
}

/* Looks through sugar that libclang does not classify: attributed types
 * (nullability, noreturn on function pointers) and other unexposed nodes,
 * for which the canonical type is the only structure available. */
static CXType structural(CXType t)
{
    for (int depth = 0; depth < 8; depth++) {
        if (t.kind == CXType_Attributed) {
            t = clang_Type_getModifiedType(t);
            continue;
        }
        if (t.kind == CXType_Unexposed) {
            CXType c = clang_getCanonicalType(t);
            if (c.kind != CXType_Unexposed)
                return c;
        }
        break;
    }
    return t;
}

static char *qualifiers_after_star(CXType t)
{
    strbuf sb = STRBUF_INIT;
    if (clang_isConstQualifiedType(t))
        sb_put(&sb, "const");
    if (clang_isVolatileQualifiedType(t))
        sb_put(&sb, sb.len ? " volatile" : "volatile");
    /* __restrict is understood by gcc and clang in C and C++ alike. */
    if (clang_isRestrictQualifiedType(t))
        sb_put(&sb, sb.len ? " __restrict" : "__restrict");
    return sb_steal(&sb);
}

static char *join_inner(const char *left, const char *inner)
{
    return inner[0] ? xstrdup_printf("%s %s", left, inner) : xstrdup(left);
}

static char *spell(CXType t, const char *inner, char **why, int depth);

static char *spell_function(CXType t, const char *inner, char **why, int depth)
{
    strbuf sb = STRBUF_INIT;
    sb_put(&sb, inner);
    sb_put(&sb, "(");
    if (t.kind == CXType_FunctionProto) {
        int n = clang_getNumArgTypes(t);
        for (int i = 0; i < n; i++) {
            char *p = spell(clang_getArgType(t, (unsigned)i), "", why, depth + 1);
            if (!p) {
                sb_free(&sb);
                return NULL;
            }
            if (i)
                sb_put(&sb, ", ");
            sb_put(&sb, p);
            free(p);
        }
        if (clang_isFunctionTypeVariadic(t))
            sb_put(&sb, n ? ", ..." : "...");
        else if (n == 0)
            sb_put(&sb, "void");
    }
    sb_put(&sb, ")");
    char *inner2 = sb_steal(&sb);
    char *r = spell(clang_getResultType(t), inner2, why, depth + 1);
    free(inner2);
    return r;
}

static char *spell(CXType t, const char *inner, char **why, int depth)
{
    if (depth > 64) {
        *why = xstrdup("type nested too deeply");
        return NULL;
    }
    t = structural(t);
    switch (t.kind) {
    case CXType_Pointer:
    case CXType_BlockPointer:
    case CXType_LValueReference:
    case CXType_RValueReference: {
        CXType pointee = structural(clang_getPointeeType(t));
        const char *op = t.kind == CXType_Pointer         ? "*"
                         : t.kind == CXType_BlockPointer  ? "^"
                         : t.kind == CXType_LValueReference ? "&"
                                                           : "&&";
        char *q = qualifiers_after_star(t);
        bool paren = is_function_kind(pointee.kind) || is_array_kind(pointee.kind);
        char *inner2 = xstrdup_printf("%s%s%s%s%s%s", paren ? "(" : "", op, q,
                                      q[0] && inner[0] ? " " : "", inner, paren ? ")" : "");
        free(q);
        char *r = spell(pointee, inner2, why, depth + 1);
        free(inner2);
        return r;
    }
    case CXType_ConstantArray:
    case CXType_IncompleteArray: {
        char *inner2 = t.kind == CXType_ConstantArray
                           ? xstrdup_printf("%s[%lld]", inner, clang_getArraySize(t))
                           : xstrdup_printf("%s[]", inner);
        char *r = spell(clang_getArrayElementType(t), inner2, why, depth + 1);
        free(inner2);
        return r;
    }
    case CXType_VariableArray:
    case CXType_DependentSizedArray:
        *why = xstrdup("variably modified type (VLA) below a pointer or array");
        return NULL;
    case CXType_FunctionProto:
    case CXType_FunctionNoProto:
        return spell_function(t, inner, why, depth);
    case CXType_MemberPointer:
        *why = xstrdup("C++ pointer to member");
        return NULL;
    default: {
        char *leaf = leaf_spelling(t, why);
        if (!leaf)
            return NULL;
        char *r = join_inner(leaf, inner);
        free(leaf);
        return r;
    }
    }
}

char *declarator_spell(CXType t, const char *inner, char **why)
{
    *why = NULL;
    return spell(t, inner, why, 0);
}

char *declarator_type(CXType t, char **why)
{
    return declarator_spell(t, "", why);
}

/* True when a VLA occurs anywhere below t (through pointers and arrays). */
static bool variably_modified(CXType t)
{
    for (int depth = 0; depth < 64; depth++) {
        t = structural(t);
        if (t.kind == CXType_VariableArray || t.kind == CXType_DependentSizedArray)
            return true;
        if (t.kind == CXType_Pointer)
            t = clang_getPointeeType(t);
        else if (is_array_kind(t.kind))
            t = clang_getArrayElementType(t);
        else
            return false;
    }
    return false;
}

char *declarator_param(CXType t, const char *name, char **why)
{
    *why = NULL;
    CXType s = structural(t);
    /* Only array and function declarators are adjusted by hand. A typedef
     * of an array or function type (va_list, jmp_buf) keeps its name: C
     * adjusts it the same way, and the header's spelling is the only one
     * that matches its declaration (va_list's element type has no name a
     * program may use). */
    if (is_array_kind(s.kind)) {
        CXType elem = clang_getArrayElementType(s);
        if (variably_modified(elem))
            return xstrdup_printf("void *%s", name);
        char *inner = is_array_kind(structural(elem).kind) ? xstrdup_printf("(*%s)", name)
                                                           : xstrdup_printf("*%s", name);
        char *r = spell(elem, inner, why, 0);
        free(inner);
        return r;
    }
    if (is_function_kind(s.kind)) {
        char *inner = xstrdup_printf("(*%s)", name);
        char *r = spell(s, inner, why, 0);
        free(inner);
        return r;
    }
    if (variably_modified(t))
        return xstrdup_printf("void *%s", name);
    return spell(t, name, why, 0);
}
