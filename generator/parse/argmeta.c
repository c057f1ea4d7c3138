/*
 * argmeta.c - the argument metadata of parameters and results (argmeta.h,
 * docs/arguments.md): which values LIBWRAP_ARGUMENTS can record, and where
 * an ABI-level wrapper finds them.
 *
 * Placing arguments follows the x86-64 System V ABI (section 3.2.3) only as
 * far as it is certain from libclang's types: integers, pointers and enums
 * take the next of %rdi %rsi %rdx %rcx %r8 %r9, float and double the next of
 * %xmm0-7, and once those run out, the next eightbytes of the stack; a value
 * in memory (a struct over 16 bytes, long double) takes stack eightbytes
 * only. Small structs and unions passed by value are split between the two
 * register files by their fields, and a C++ class may be passed by hidden
 * reference: after one of those nothing further is placed (the location is
 * unknown, and only typed wrappers record such a parameter).
 */
#include "parse/argmeta.h"

#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"

static char *cx_str(CXString s)
{
    const char *c = clang_getCString(s);
    char *r = xstrdup(c ? c : "");
    clang_disposeString(s);
    return r;
}

/* size_t or ssize_t, directly or through typedefs of them (zlib's z_size_t,
 * std::size_t). */
static bool is_size_type(CXType t)
{
    for (int depth = 0; depth < 32; depth++) {
        if (t.kind == CXType_Elaborated) {
            t = clang_Type_getNamedType(t);
            continue;
        }
        if (t.kind != CXType_Typedef)
            return false;
        char *name = cx_str(clang_getTypedefName(t));
        bool size = strcmp(name, "size_t") == 0 || strcmp(name, "ssize_t") == 0;
        free(name);
        if (size)
            return true;
        t = clang_getTypedefDeclUnderlyingType(clang_getTypeDeclaration(t));
    }
    return false;
}

static bool is_const_char_kind(enum CXTypeKind k)
{
    return k == CXType_Char_S || k == CXType_Char_U;
}

/* const char: the pointee of a C string. */
static bool is_const_char(CXType t)
{
    return is_const_char_kind(clang_getCanonicalType(t).kind) && clang_isConstQualifiedType(t);
}

static void set(lwg_argmeta *m, lwg_arg_kind kind, lwg_abi_class cls)
{
    m->kind = kind;
    m->abi_class = cls;
}

void argmeta_classify(CXType t, bool cxx, lwg_argmeta *m)
{
    memset(m, 0, sizeof *m);
    CXType c = clang_getCanonicalType(t);
    long long size = clang_Type_getSizeOf(c);
    long long align = clang_Type_getAlignOf(c);
    m->width = size > 0 && size < 256 ? (unsigned)size : 0;
    switch (c.kind) {
    case CXType_Void:
        set(m, LWG_ARG_NONE, LWG_ABI_CLASS_NONE);
        break;
    case CXType_Bool:
    case CXType_Char_U:
    case CXType_UChar:
    case CXType_Char16:
    case CXType_Char32:
    case CXType_UShort:
    case CXType_UInt:
    case CXType_ULong:
    case CXType_ULongLong:
        set(m, LWG_ARG_UNSIGNED, LWG_ABI_CLASS_INTEGER);
        break;
    case CXType_Char_S:
    case CXType_SChar:
    case CXType_WChar: /* int on x86-64 Linux */
    case CXType_Short:
    case CXType_Int:
    case CXType_Long:
    case CXType_LongLong:
        set(m, LWG_ARG_SIGNED, LWG_ABI_CLASS_INTEGER);
        break;
    case CXType_Int128:
    case CXType_UInt128:
        set(m, LWG_ARG_NONE, LWG_ABI_CLASS_INTEGER2);
        break;
    case CXType_Float:
    case CXType_Double:
        set(m, LWG_ARG_DOUBLE, LWG_ABI_CLASS_SSE);
        break;
    case CXType_Half:
    case CXType_Float128:
        set(m, LWG_ARG_NONE, LWG_ABI_CLASS_SSE);
        break;
    case CXType_LongDouble:
        set(m, LWG_ARG_NONE, LWG_ABI_CLASS_MEMORY);
        break;
    case CXType_Enum: {
        set(m, LWG_ARG_ENUM, size > 0 && size <= 8 ? LWG_ABI_CLASS_INTEGER : LWG_ABI_CLASS_UNKNOWN);
        CXType base = clang_getCanonicalType(clang_getEnumDeclIntegerType(clang_getTypeDeclaration(c)));
        switch (base.kind) {
        case CXType_Bool:
        case CXType_Char_U:
        case CXType_UChar:
        case CXType_UShort:
        case CXType_UInt:
        case CXType_ULong:
        case CXType_ULongLong:
            m->zext = true;
            break;
        default:
            break;
        }
        break;
    }
    case CXType_Pointer:
        set(m, is_const_char(clang_getPointeeType(c)) ? LWG_ARG_STRING : LWG_ARG_NONE,
            LWG_ABI_CLASS_INTEGER);
        break;
    case CXType_ConstantArray:
    case CXType_IncompleteArray:
    case CXType_VariableArray:
    case CXType_DependentSizedArray:
        /* A parameter declared as an array is a pointer. The canonical
         * type carries the element's const on the array itself. */
        set(m, is_const_char(clang_getArrayElementType(c)) ||
                       (clang_isConstQualifiedType(c) &&
                        is_const_char_kind(clang_getCanonicalType(clang_getArrayElementType(c)).kind))
                   ? LWG_ARG_STRING
                   : LWG_ARG_NONE,
            LWG_ABI_CLASS_INTEGER);
        m->width = 8;
        break;
    case CXType_FunctionProto:
    case CXType_FunctionNoProto:
        set(m, LWG_ARG_NONE, LWG_ABI_CLASS_INTEGER);
        m->width = 8;
        break;
    case CXType_LValueReference:
    case CXType_RValueReference:
    case CXType_BlockPointer:
    case CXType_ObjCObjectPointer:
    case CXType_NullPtr:
        set(m, LWG_ARG_NONE, LWG_ABI_CLASS_INTEGER);
        m->width = 8;
        break;
    case CXType_MemberPointer:
        set(m, LWG_ARG_NONE, size == 8 ? LWG_ABI_CLASS_INTEGER : size == 16 ? LWG_ABI_CLASS_INTEGER2
                                                                           : LWG_ABI_CLASS_UNKNOWN);
        break;
    case CXType_Complex: {
        enum CXTypeKind e = clang_getCanonicalType(clang_getElementType(c)).kind;
        set(m, LWG_ARG_NONE, e == CXType_Float ? LWG_ABI_CLASS_SSE
                            : e == CXType_Double ? LWG_ABI_CLASS_SSE2
                            : e == CXType_LongDouble ? LWG_ABI_CLASS_MEMORY
                                                     : LWG_ABI_CLASS_UNKNOWN);
        break;
    }
    case CXType_Vector:
    case CXType_ExtVector:
        /* Wider vectors go in %ymm or in memory, as the caller's -mavx says. */
        set(m, LWG_ARG_NONE, size > 0 && size <= 16 ? LWG_ABI_CLASS_SSE : LWG_ABI_CLASS_UNKNOWN);
        break;
    case CXType_Record:
        /* Over 16 bytes a C struct is passed in memory; below, its fields
         * decide. A C++ class that is not trivially copyable is passed by
         * a hidden reference, which libclang does not tell. */
        set(m, LWG_ARG_NONE, !cxx && size > 16 ? LWG_ABI_CLASS_MEMORY : LWG_ABI_CLASS_UNKNOWN);
        break;
    default:
        set(m, LWG_ARG_NONE, LWG_ABI_CLASS_UNKNOWN);
        break;
    }
    if (m->abi_class == LWG_ABI_CLASS_MEMORY) {
        m->abi_size = size > 0 ? (unsigned)size : 0;
        m->abi_align = align > 8 ? (unsigned)align : 8;
        if (!m->abi_size)
            m->abi_class = LWG_ABI_CLASS_UNKNOWN;
    }
    if (m->kind == LWG_ARG_STRING)
        m->width = 8;
    if (m->kind != LWG_ARG_NONE && (m->width == 0 || m->width > 8))
        m->kind = LWG_ARG_NONE;
    m->size = is_size_type(t);
}

void argmeta_fortran(lwg_function *f)
{
    size_t n = strlen(f->symbol);
    if (n < 2 || f->symbol[n - 1] != '_' || strcmp(f->symbol, f->name) != 0 || f->scope[0])
        return;
    for (size_t i = 0; i < f->nparams; i++) {
        lwg_param *p = &f->params[i];
        const char *t = p->canonical;
        size_t k = strlen(t);
        /* "const char *", "char *", "unsigned char *": one level of pointer to a char */
        if (k < 6 || strcmp(t + k - 6, "char *") != 0 || strstr(t, "* ") || strchr(t, '('))
            continue;
        p->arg.kind = LWG_ARG_FORTRAN_CHAR;
        p->arg.width = 8;
    }
}

void argmeta_classify_result(CXType t, bool cxx, lwg_argmeta *m)
{
    argmeta_classify(t, cxx, m);
    CXType c = clang_getCanonicalType(t);
    long long size = clang_Type_getSizeOf(c);
    /* Results differ from parameters where it matters here, whether the
     * caller passes the address of memory for the result: a small C struct
     * comes back in %rax/%rdx/%xmm0/%xmm1, long double and its complex in
     * %st0/%st1 (the class below only says "in registers"). */
    if (c.kind == CXType_LongDouble || c.kind == CXType_Complex)
        m->abi_class = LWG_ABI_CLASS_SSE2;
    else if (c.kind == CXType_Record && !cxx && size > 0 && size <= 16)
        m->abi_class = LWG_ABI_CLASS_INTEGER2;
}

void argmeta_pointer(lwg_argmeta *m)
{
    memset(m, 0, sizeof *m);
    m->width = 8;
    m->abi_class = LWG_ABI_CLASS_INTEGER;
}

#define LOC_GPR 0x100u
#define LOC_SSE 0x200u
#define LOC_STACK 0x400u
#define STACK_EIGHTBYTES 256u /* LIBWRAP_PARAM_ABI_STACK has 8 bits */

static unsigned align_up(unsigned v, unsigned a)
{
    return (v + a - 1) / a * a;
}

void argmeta_locate(lwg_function *f)
{
    /* The result: a struct over 16 bytes is returned in memory the caller
     * provides, whose address comes first, in %rdi. Small structs and
     * long double come back in registers. A C++ class may be returned
     * through memory though small: nothing is known then. */
    lwg_argmeta *r = &f->ret_arg;
    unsigned gpr = r->abi_class == LWG_ABI_CLASS_MEMORY ? 1 : 0, sse = 0, stack = 0;
    bool regs_known = r->abi_class != LWG_ABI_CLASS_UNKNOWN, stack_known = regs_known;
    r->abi = r->kind == LWG_ARG_NONE         ? 0
             : r->abi_class == LWG_ABI_CLASS_INTEGER ? LOC_GPR
             : r->abi_class == LWG_ABI_CLASS_SSE     ? LOC_SSE
                                                    : 0;
    for (size_t i = 0; i < f->nparams; i++) {
        lwg_argmeta *m = &f->params[i].arg;
        m->abi = 0;
        bool on_stack = false;
        unsigned bytes = 8, align = 8;
        switch (m->abi_class) {
        case LWG_ABI_CLASS_INTEGER:
            if (gpr < 6)
                m->abi = regs_known ? LOC_GPR | gpr++ : 0;
            else
                on_stack = true;
            break;
        case LWG_ABI_CLASS_INTEGER2:
            if (gpr < 5)
                gpr += 2;
            else
                on_stack = true, bytes = 16, align = 16;
            break;
        case LWG_ABI_CLASS_SSE:
            if (sse < 8)
                m->abi = regs_known ? LOC_SSE | sse++ : 0;
            else
                on_stack = true;
            break;
        case LWG_ABI_CLASS_SSE2:
            if (sse < 7)
                sse += 2;
            else
                on_stack = true, bytes = 16;
            break;
        case LWG_ABI_CLASS_MEMORY:
            on_stack = true;
            bytes = align_up(m->abi_size, 8);
            align = m->abi_align;
            break;
        default:
            regs_known = stack_known = false;
            break;
        }
        /* With the registers unknown, so is whether this one took stack. */
        if (!regs_known)
            stack_known = false;
        if (on_stack) {
            stack = align_up(stack, align);
            if (stack_known && bytes == 8 && stack / 8 < STACK_EIGHTBYTES)
                m->abi = LOC_STACK | (stack / 8);
            stack += bytes;
        }
        if (m->kind == LWG_ARG_NONE)
            m->abi = 0;
    }
}
