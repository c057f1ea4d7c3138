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
 * only. A struct, union or C++ class of up to 16 bytes passed by value
 * takes the registers its eightbytes' classes say (sysv_record), or the
 * stack; a C++ class not trivial for calls is passed by hidden reference.
 * After one whose layout cannot be followed (a vector inside, a class
 * with a virtual base or two bases with data) nothing further is placed
 * (the location is unknown, and only typed wrappers record such a
 * parameter).
 *
 * For AArch64 the same values are placed as AAPCS64 (Linux) does, in
 * libwrap_param.abi_a64: integers, pointers and enums in x0-x7, float,
 * double, long double, __fp16 and __bf16 and short vectors (8 or 16 bytes:
 * NEON's int8x8_t, float32x4_t) in v0-v7, a homogeneous aggregate (of up
 * to four floating-point numbers of one type, an HFA, or short vectors of
 * one size, an HVA) in as many of v0-v7 as it has members, __int128 and
 * composites of 9 to 16 bytes in two of x0-x7 (from an even one when
 * aligned to 16), larger composites by reference; once a register file
 * runs out, its values take the stack in 8-byte slots (16 when aligned to
 * 16). A union, a vector of another size, or a C++ class that cannot be
 * laid out (cxx_bases) passed by value, alone or inside a composite, ends
 * the placing there.
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

/*
 * The layout of a C++ class that this file can follow without the offsets
 * of base subobjects (libclang 14 has none): no virtual base, and no
 * base at all, or only empty bases, or one base, with data (at offset 0,
 * as the Itanium ABI puts the first base of a class without virtual
 * functions; beside an empty base it may move, to keep two empty objects of
 * one type apart). Its fields' offsets are then those libclang gives,
 * relative to the class. A class template's implicit specialization
 * (std::pair<int, double>) shows libclang none of its bases and members:
 * it is not laid out here.
 */
static bool cxx_has_data(CXType c, int depth);

typedef struct bases_walk {
    int depth;
    unsigned n, with_data;
    bool bad; /* a virtual base, or too deep */
    CXType data_base;
} bases_walk;

static enum CXChildVisitResult bases_visit(CXCursor k, CXCursor parent, CXClientData data)
{
    (void)parent;
    bases_walk *w = data;
    if (clang_getCursorKind(k) != CXCursor_CXXBaseSpecifier)
        return CXChildVisit_Continue;
    CXType b = clang_getCanonicalType(clang_getCursorType(k));
    w->n++;
    if (clang_isVirtualBase(k) || w->depth > 16) {
        w->bad = true;
        return CXChildVisit_Break;
    }
    if (cxx_has_data(b, w->depth + 1)) {
        w->with_data++;
        w->data_base = b;
    }
    return CXChildVisit_Continue;
}

static enum CXVisitorResult any_field(CXCursor c, CXClientData data)
{
    (void)c;
    *(bool *)data = true;
    return CXVisit_Break;
}

static bool cxx_bases(CXType c, int depth, bases_walk *w)
{
    memset(w, 0, sizeof *w);
    w->depth = depth;
    CXCursor d = clang_getTypeDeclaration(clang_getCanonicalType(c));
    if (clang_Cursor_isNull(d) || !clang_Cursor_isNull(clang_getSpecializedCursorTemplate(d)))
        return false;
    clang_visitChildren(d, bases_visit, w);
    return !w->bad && (w->with_data == 0 || (w->with_data == 1 && w->n == 1));
}

static bool cxx_has_data(CXType c, int depth)
{
    bool field = false;
    clang_Type_visitFields(c, any_field, &field);
    if (field)
        return true;
    bases_walk w;
    return !cxx_bases(c, depth, &w) || w.with_data > 0;
}

/* __bf16, which libclang 14 shows as an unexposed type of its own spelling. */
static bool is_bf16(CXType c)
{
    if (c.kind == CXType_BFloat16)
        return true;
    if (c.kind != CXType_Unexposed)
        return false;
    char *s = cx_str(clang_getTypeSpelling(c));
    bool bf16 = strcmp(s, "__bf16") == 0;
    free(s);
    return bf16;
}

/* A homogeneous aggregate's members so far (AAPCS64, 5.9.5: floating-point
 * numbers of one type, an HFA, or short vectors of one size, an HVA):
 * their type, their number, and whether the walk met anything it cannot
 * place. */
typedef struct hfa_walk {
    enum CXTypeKind base; /* CXType_Invalid until the first member; CXType_Vector
                           * for a short vector, whatever its elements */
    long long vsize;      /* a short vector's size: 8 or 16 bytes */
    unsigned members;
    bool mixed;   /* a member of another type: not homogeneous */
    bool unknown; /* a union, a vector of another size: cannot tell */
    bool cxx;     /* C++: the members of a base with data count (cxx_bases) */
} hfa_walk;

static void hfa_type(CXType t, hfa_walk *w);

static enum CXVisitorResult hfa_field(CXCursor c, CXClientData data)
{
    hfa_walk *w = data;
    if (clang_Cursor_isBitField(c))
        w->mixed = true;
    else
        hfa_type(clang_getCursorType(c), w);
    return w->unknown ? CXVisit_Break : CXVisit_Continue;
}

static void hfa_member(enum CXTypeKind k, long long vsize, unsigned n, hfa_walk *w)
{
    if (k == CXType_Float16)
        k = CXType_Half; /* _Float16 and __fp16: both IEEE half precision */
    if (w->base != CXType_Invalid && (w->base != k || w->vsize != vsize))
        w->mixed = true;
    w->base = k;
    w->vsize = vsize;
    w->members += n;
}

static void hfa_type(CXType t, hfa_walk *w)
{
    CXType c = clang_getCanonicalType(t);
    switch (c.kind) {
    case CXType_Float:
    case CXType_Double:
    case CXType_LongDouble:
    case CXType_Half:
    case CXType_Float16:
    case CXType_BFloat16:
        hfa_member(c.kind, 0, 1, w);
        break;
    case CXType_Complex: {
        enum CXTypeKind e = clang_getCanonicalType(clang_getElementType(c)).kind;
        if (e == CXType_Float || e == CXType_Double || e == CXType_LongDouble)
            hfa_member(e, 0, 2, w);
        else
            w->mixed = true;
        break;
    }
    case CXType_ConstantArray: {
        long long n = clang_getArraySize(c);
        hfa_walk e = {CXType_Invalid, 0, 0, false, false, w->cxx};
        hfa_type(clang_getArrayElementType(c), &e);
        if (e.unknown || n < 0) {
            w->unknown = true;
        } else if (e.mixed) {
            w->mixed = true;
        } else if (n > 0 && e.members) {
            hfa_member(e.base, e.vsize, e.members * (unsigned)(n > 5 ? 5 : n), w);
        }
        break;
    }
    case CXType_Record: {
        enum CXCursorKind k = clang_getCursorKind(clang_getTypeDeclaration(c));
        if (k != CXCursor_StructDecl && k != CXCursor_ClassDecl) {
            w->unknown = true; /* a union */
            break;
        }
        if (w->cxx) {
            bases_walk b;
            if (!cxx_bases(c, 0, &b)) {
                w->unknown = true;
                break;
            }
            if (b.with_data)
                hfa_type(b.data_base, w);
        }
        clang_Type_visitFields(c, hfa_field, w);
        break;
    }
    case CXType_Vector:
    case CXType_ExtVector: {
        /* A short vector (64 or 128 bits: NEON's int8x8_t, float32x4_t) is
         * one member whatever its elements; another size is not placed. */
        long long vsize = clang_Type_getSizeOf(c);
        if (vsize == 8 || vsize == 16)
            hfa_member(CXType_Vector, vsize, 1, w);
        else
            w->unknown = true;
        break;
    }
    default:
        if (is_bf16(c))
            hfa_member(CXType_BFloat16, 0, 1, w);
        else
            w->mixed = true; /* an integer, a pointer, an enum */
        break;
    }
}

/*
 * Whether C++ class type `c` is not trivial for the purposes of calls (the
 * Itanium C++ ABI, on x86-64 and AArch64 alike): a destructor or a copy or
 * move constructor that is user-provided (declared and not defaulted), a
 * virtual function or a virtual base, in the class or any base or member.
 * Such a value is passed by a hidden reference (a pointer in a general
 * register) and returned in memory whose address the caller passes first
 * (%rdi; x8 on AArch64). A class template's specialization whose members
 * the headers never made the compiler instantiate (std::string named only
 * in declarations) is judged by its template's own declarations, not by
 * its bases and members, which may depend on the arguments (std::optional
 * of a trivial type is trivial). Not found: not known to be (a class whose
 * copy constructors are deleted is not recognised).
 */
typedef struct nontrivial_walk {
    bool found;
    bool opaque;    /* a specialization whose members could not be seen, and
                     * whose template's own declarations say nothing */
    bool pattern;   /* walking a template's own declarations */
    unsigned seen;  /* members visited */
    unsigned dtors; /* destructors declared (constrained ones: several) */
    int depth;
} nontrivial_walk;

static bool nontrivial_type(CXType c, nontrivial_walk *w);

static enum CXChildVisitResult nontrivial_visit(CXCursor k, CXCursor parent, CXClientData data)
{
    (void)parent;
    nontrivial_walk *w = data;
    enum CXCursorKind kind = clang_getCursorKind(k);
    /* The members (not the template arguments' references). */
    w->seen += kind == CXCursor_Destructor || kind == CXCursor_Constructor || kind == CXCursor_CXXMethod ||
               kind == CXCursor_CXXBaseSpecifier || kind == CXCursor_FieldDecl;
    switch (kind) {
    case CXCursor_Destructor:
        w->dtors++;
        w->found = !clang_CXXMethod_isDefaulted(k);
        break;
    case CXCursor_Constructor:
        w->found = (clang_CXXConstructor_isCopyConstructor(k) || clang_CXXConstructor_isMoveConstructor(k)) &&
                   !clang_CXXMethod_isDefaulted(k);
        break;
    case CXCursor_CXXMethod:
        w->found = clang_CXXMethod_isVirtual(k) != 0;
        break;
    case CXCursor_CXXBaseSpecifier:
        w->found = clang_isVirtualBase(k) || (!w->pattern && nontrivial_type(clang_getCursorType(k), w));
        break;
    case CXCursor_FieldDecl: {
        CXType f = clang_getCanonicalType(clang_getCursorType(k));
        while (f.kind == CXType_ConstantArray)
            f = clang_getCanonicalType(clang_getArrayElementType(f));
        w->found = !w->pattern && f.kind == CXType_Record && nontrivial_type(f, w);
        break;
    }
    default:
        break;
    }
    return w->found ? CXChildVisit_Break : CXChildVisit_Continue;
}

static bool nontrivial_type(CXType c, nontrivial_walk *w)
{
    CXCursor d = clang_getTypeDeclaration(clang_getCanonicalType(c));
    if (clang_Cursor_isNull(d) || w->depth > 16)
        return false;
    w->depth++;
    unsigned seen = w->seen;
    w->seen = 0;
    clang_visitChildren(d, nontrivial_visit, w);
    if (!w->found && !w->seen) {
        /* Its definition: the first declaration may be a forward one
         * (<stringfwd.h>'s basic_string). */
        CXCursor t = clang_getCursorDefinition(clang_getSpecializedCursorTemplate(d));
        if (!clang_Cursor_isNull(t)) {
            w->pattern = true;
            w->dtors = 0;
            clang_visitChildren(t, nontrivial_visit, w);
            w->pattern = false;
            if (w->dtors > 1)
                w->found = false;
            /* Its bases and members may depend on the arguments: unknown. */
            if (!w->found)
                w->opaque = true;
        }
    }
    w->seen = seen;
    w->depth--;
    return w->found;
}

/* How a record passes by value, on x86-64 and AArch64 alike. */
enum record_calls {
    RECORD_BY_VALUE, /* a C struct or union, or a C++ class trivial for calls that
                      * this file can lay out (cxx_bases) */
    RECORD_HIDDEN,   /* a C++ class not trivial for calls: by hidden reference */
    RECORD_UNKNOWN,  /* a C++ class whose members are not all seen, or laid out in
                      * ways this file cannot follow */
};

static enum record_calls record_calls(CXType c, bool cxx)
{
    if (!cxx)
        return RECORD_BY_VALUE;
    nontrivial_walk w = {false, false, false, 0, 0, 0};
    if (nontrivial_type(c, &w))
        return RECORD_HIDDEN;
    bases_walk b;
    return !w.opaque && cxx_bases(c, 0, &b) ? RECORD_BY_VALUE : RECORD_UNKNOWN;
}

/*
 * The x86-64 System V classes of the eightbytes of an aggregate of at most
 * 16 bytes (section 3.2.3): an eightbyte that holds an integer, a pointer
 * or an enum is INTEGER, one of floats and doubles only is SSE; a long
 * double, or a field not aligned to its type, puts the whole value in
 * memory. A vector, a _Float128, a flexible array or a class this file
 * cannot lay out (cxx_bases) is not known.
 */
enum sysv_cls { SYSV_NONE, SYSV_INTEGER, SYSV_SSE };

typedef struct sysv_walk {
    enum sysv_cls eb[2];
    bool memory, unknown, cxx;
    bool x87;       /* memory for a long double (X87): returned in %st0 */
    int depth;
} sysv_walk;

static void sysv_put(sysv_walk *w, long long off, long long size, enum sysv_cls c)
{
    for (long long i = off / 8; i <= (off + size - 1) / 8; i++) {
        if (i < 0 || i > 1) {
            w->unknown = true;
            return;
        }
        enum sysv_cls *e = &w->eb[i];
        *e = *e == SYSV_NONE ? c : (*e == SYSV_INTEGER || c == SYSV_INTEGER) ? SYSV_INTEGER : SYSV_SSE;
    }
}

static void sysv_type(CXType t, long long off, sysv_walk *w);

typedef struct sysv_fields {
    sysv_walk *w;
    long long off;
} sysv_fields;

static enum CXVisitorResult sysv_field(CXCursor c, CXClientData data)
{
    sysv_fields *f = data;
    long long bits = clang_Cursor_getOffsetOfField(c);
    if (bits < 0) {
        f->w->unknown = true;
        return CXVisit_Break;
    }
    if (clang_Cursor_isBitField(c)) {
        int width = clang_getFieldDeclBitWidth(c);
        if (width > 0)
            sysv_put(f->w, f->off + bits / 8, (bits % 8 + width + 7) / 8, SYSV_INTEGER);
    } else {
        sysv_type(clang_getCursorType(c), f->off + bits / 8, f->w);
    }
    return f->w->unknown || f->w->memory ? CXVisit_Break : CXVisit_Continue;
}

static void sysv_type(CXType t, long long off, sysv_walk *w)
{
    CXType c = clang_getCanonicalType(t);
    long long size = clang_Type_getSizeOf(c), align = clang_Type_getAlignOf(c);
    if (w->unknown || w->memory)
        return;
    if (size < 0 || align <= 0 || w->depth > 16) {
        w->unknown = true;
        return;
    }
    if (off % align) {
        w->memory = true; /* packed: not aligned to its type */
        return;
    }
    /* Integers of every width, enums, pointers and references. */
    static const enum CXTypeKind integer[] = {
        CXType_Bool,     CXType_Char_U,   CXType_UChar,     CXType_Char16,          CXType_Char32,
        CXType_UShort,   CXType_UInt,     CXType_ULong,     CXType_ULongLong,       CXType_Char_S,
        CXType_SChar,    CXType_WChar,    CXType_Short,     CXType_Int,             CXType_Long,
        CXType_LongLong, CXType_Int128,   CXType_UInt128,   CXType_Enum,            CXType_Pointer,
        CXType_NullPtr,  CXType_LValueReference, CXType_RValueReference, CXType_MemberPointer,
    };
    for (size_t k = 0; k < sizeof integer / sizeof *integer; k++)
        if (c.kind == integer[k]) {
            sysv_put(w, off, size, SYSV_INTEGER);
            return;
        }
    switch (c.kind) {
    case CXType_Float:
    case CXType_Double:
    case CXType_Half:
        sysv_put(w, off, size, SYSV_SSE);
        break;
    case CXType_LongDouble:
        w->memory = w->x87 = true;
        break;
    case CXType_Complex: {
        enum CXTypeKind e = clang_getCanonicalType(clang_getElementType(c)).kind;
        if (e == CXType_Float || e == CXType_Double)
            sysv_put(w, off, size, SYSV_SSE);
        else
            w->unknown = true; /* a complex long double is 32 bytes */
        break;
    }
    case CXType_ConstantArray: {
        CXType e = clang_getArrayElementType(c);
        long long n = clang_getArraySize(c), esize = clang_Type_getSizeOf(clang_getCanonicalType(e));
        if (n < 0 || esize <= 0 || n > 16) {
            w->unknown = n != 0;
            break;
        }
        w->depth++;
        for (long long k = 0; k < n && !w->unknown && !w->memory; k++)
            sysv_type(e, off + k * esize, w);
        w->depth--;
        break;
    }
    case CXType_Record: {
        w->depth++;
        if (w->cxx) {
            bases_walk b;
            if (!cxx_bases(c, w->depth, &b)) {
                w->unknown = true;
            } else if (b.with_data) {
                sysv_type(b.data_base, off, w); /* at offset 0 of the class */
            }
        }
        sysv_fields f = {w, off};
        if (!w->unknown && !w->memory)
            clang_Type_visitFields(c, sysv_field, &f);
        w->depth--;
        break;
    }
    default:
        w->unknown = true; /* vectors, _Float128, anything else */
        break;
    }
}

/* A record of at most 16 bytes (C, or C++ trivial for calls) into m: the
 * general and vector registers it takes, or memory; unknown otherwise. */
static void sysv_record(CXType c, bool cxx, long long size, lwg_argmeta *m)
{
    sysv_walk w = {{SYSV_NONE, SYSV_NONE}, false, false, cxx, false, 0};
    sysv_type(c, 0, &w);
    if (w.memory) {
        /* A parameter in memory; a result of a long double in %st0 (X87,
         * X87UP), of a packed one not known. */
        m->abi_class = LWG_ABI_CLASS_MEMORY;
        m->abi_x87 = w.x87;
        return;
    }
    unsigned n = (unsigned)((size + 7) / 8), gprs = 0, sses = 0;
    for (unsigned i = 0; i < n && !w.unknown; i++) {
        w.unknown = w.eb[i] == SYSV_NONE;
        gprs += w.eb[i] == SYSV_INTEGER;
        sses += w.eb[i] == SYSV_SSE;
    }
    if (w.unknown || size <= 0)
        return;
    m->abi_class = LWG_ABI_CLASS_REGS;
    m->abi_gprs = gprs;
    m->abi_sses = sses;
}

/* How AAPCS64 passes a value of canonical type `c` (size and alignment in
 * bytes, negative when unknown), into m->a64_*. */
static void a64_classify(CXType c, bool cxx, enum record_calls calls, long long size, long long align,
                         lwg_argmeta *m)
{
    m->a64_size = size > 0 ? (unsigned)size : 0;
    m->a64_align = align > 0 ? (unsigned)align : 0;
    m->a64_regs = 0;
    switch (c.kind) {
    case CXType_Void:
        m->a64_class = LWG_A64_NONE;
        return;
    case CXType_Int128:
    case CXType_UInt128:
        m->a64_class = LWG_A64_GPR2;
        return;
    case CXType_Float:
    case CXType_Double:
    case CXType_LongDouble:
    case CXType_Half:
    case CXType_Float16:
    case CXType_BFloat16:
    case CXType_Float128:
        m->a64_class = LWG_A64_FP;
        return;
    case CXType_Complex:
    case CXType_Record: {
        if (c.kind == CXType_Record && calls == RECORD_HIDDEN) {
            m->a64_class = LWG_A64_GPR;
            m->a64_size = m->a64_align = 8;
            return;
        }
        if (c.kind == CXType_Record && calls == RECORD_UNKNOWN)
            break; /* not laid out here */
        hfa_walk w = {CXType_Invalid, 0, 0, false, false, cxx};
        hfa_type(c, &w);
        if (w.unknown || size <= 0)
            break;
        if (!w.mixed && w.members >= 1 && w.members <= 4) {
            m->a64_class = LWG_A64_HFA;
            m->a64_regs = w.members;
        } else {
            m->a64_class = size > 16 ? LWG_A64_GPR : size > 8 ? LWG_A64_GPR2 : LWG_A64_GPR;
        }
        return;
    }
    case CXType_Vector:
    case CXType_ExtVector:
        if (size == 8 || size == 16) {
            m->a64_class = LWG_A64_FP;
            return;
        }
        break;
    case CXType_MemberPointer:
        if (size == 8 || size == 16) {
            m->a64_class = size == 8 ? LWG_A64_GPR : LWG_A64_GPR2;
            return;
        }
        break;
    case CXType_Enum:
        if (size > 0 && size <= 8) {
            m->a64_class = LWG_A64_GPR;
            return;
        }
        break;
    default:
        if (is_bf16(c)) {
            m->a64_class = LWG_A64_FP;
            return;
        }
        /* Integers, pointers, references, arrays and functions (pointers
         * as parameters): what x86-64 puts in one general register. */
        if (m->abi_class == LWG_ABI_CLASS_INTEGER) {
            m->a64_class = LWG_A64_GPR;
            return;
        }
        break;
    }
    m->a64_class = LWG_A64_UNKNOWN;
}

void argmeta_classify(CXType t, bool cxx, lwg_argmeta *m)
{
    memset(m, 0, sizeof *m);
    CXType c = clang_getCanonicalType(t);
    long long size = clang_Type_getSizeOf(c);
    long long align = clang_Type_getAlignOf(c);
    enum record_calls calls = RECORD_BY_VALUE; /* a record's, found below */
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
    case CXType_Record: {
        /* A C++ class not trivial for calls is passed by a hidden
         * reference (record_calls). Otherwise, over 16 bytes a struct or
         * class is passed in memory; up to 16, its fields decide
         * (sysv_record). A class laid out in ways this file cannot follow
         * (cxx_bases) is not known. */
        calls = record_calls(c, cxx);
        set(m, LWG_ARG_NONE, calls == RECORD_HIDDEN                    ? LWG_ABI_CLASS_INTEGER
                             : calls == RECORD_BY_VALUE && size > 16 ? LWG_ABI_CLASS_MEMORY
                                                                     : LWG_ABI_CLASS_UNKNOWN);
        if (calls == RECORD_BY_VALUE && size > 0 && size <= 16)
            sysv_record(c, cxx, size, m);
        break;
    }
    default:
        set(m, LWG_ARG_NONE, LWG_ABI_CLASS_UNKNOWN);
        break;
    }
    a64_classify(c, cxx, calls, size, align, m);
    if (m->abi_class == LWG_ABI_CLASS_MEMORY || m->abi_class == LWG_ABI_CLASS_REGS) {
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

/* "const char *", "char *", "unsigned char *": one level of pointer to a char. */
static bool char_pointer(const lwg_param *p)
{
    const char *t = p->canonical;
    size_t k = strlen(t);
    return k >= 6 && strcmp(t + k - 6, "char *") == 0 && !strstr(t, "* ") && !strchr(t, '(');
}

/*
 * Whether f is a Fortran procedure as C declares it: a name in lower case
 * ending in '_' (gfortran, flang and ifort make external names so), every
 * argument passed by reference (a pointer, or a procedure) but the hidden
 * lengths of its CHARACTER arguments, trailing integers, at most two for
 * each char pointer (LAPACK's lsame_ declares its two lengths, and
 * lapack.h the hidden ones after them). zlib's deflateInit_(strm, level,
 * version, size) is C: camel case, integers by value.
 */
static bool fortran_abi(const lwg_function *f)
{
    size_t n = strlen(f->symbol);
    if (n < 2 || f->symbol[n - 1] != '_' || strcmp(f->symbol, f->name) != 0 || f->scope[0])
        return false;
    for (const char *c = f->symbol; *c; c++)
        if (*c >= 'A' && *c <= 'Z')
            return false;
    size_t chars = 0, tail = 0, i = f->nparams;
    for (size_t k = 0; k < f->nparams; k++)
        chars += char_pointer(&f->params[k]);
    while (i > 0 && (f->params[i - 1].arg.kind == LWG_ARG_SIGNED || f->params[i - 1].arg.kind == LWG_ARG_UNSIGNED) &&
           !strchr(f->params[i - 1].canonical, '*')) {
        i--;
        tail++;
    }
    if (tail > 2 * chars)
        return false;
    for (size_t k = 0; k < i; k++)
        if (!strchr(f->params[k].canonical, '*') && !strchr(f->params[k].canonical, '('))
            return false;
    return true;
}

void argmeta_fortran(lwg_function *f)
{
    if (!fortran_abi(f))
        return;
    for (size_t i = 0; i < f->nparams; i++) {
        lwg_param *p = &f->params[i];
        if (!char_pointer(p))
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
    else if (c.kind == CXType_Record && size > 16)
        m->abi_class = LWG_ABI_CLASS_MEMORY; /* a C++ class too, trivial or not */
    else if (c.kind == CXType_Record && cxx && m->abi_class == LWG_ABI_CLASS_INTEGER)
        m->abi_class = LWG_ABI_CLASS_MEMORY; /* not trivial for calls: in memory (%rdi) */
    else if (c.kind == CXType_Record && size > 0 && size <= 16 &&
             (m->abi_class == LWG_ABI_CLASS_REGS || (m->abi_class == LWG_ABI_CLASS_MEMORY && m->abi_x87)))
        m->abi_class = LWG_ABI_CLASS_INTEGER2; /* in registers: %rax/%rdx/%xmm0/%xmm1, or %st0 */
    else if (c.kind == CXType_Record && size > 0 && size <= 16)
        m->abi_class = LWG_ABI_CLASS_UNKNOWN; /* a packed one in memory, or not known */
}

void argmeta_pointer(lwg_argmeta *m)
{
    memset(m, 0, sizeof *m);
    m->width = 8;
    m->abi_class = LWG_ABI_CLASS_INTEGER;
    m->a64_class = LWG_A64_GPR;
    m->a64_size = m->a64_align = 8;
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
            if (sse < 8) {
                m->abi = regs_known ? LOC_SSE | sse++ : 0;
            } else {
                on_stack = true;
                /* __float128, __m128: 16 bytes, aligned to 16 */
                if (m->width > 8)
                    bytes = align = 16;
            }
            break;
        case LWG_ABI_CLASS_SSE2:
            if (sse < 7)
                sse += 2;
            else
                on_stack = true, bytes = 16;
            break;
        case LWG_ABI_CLASS_REGS:
            /* A small aggregate: all its eightbytes in registers, or the
             * whole of it on the stack (and no register taken). */
            if (gpr + m->abi_gprs <= 6 && sse + m->abi_sses <= 8) {
                gpr += m->abi_gprs;
                sse += m->abi_sses;
            } else {
                on_stack = true;
                bytes = align_up(m->abi_size, 8);
                align = m->abi_align > 8 ? 16 : 8;
            }
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

/* AAPCS64's stage C for the named arguments (the Linux variant: every
 * stack argument takes 8-byte slots). The result takes no register: an
 * indirect one is addressed by x8. */
void argmeta_locate_a64(lwg_function *f)
{
    lwg_argmeta *r = &f->ret_arg;
    r->abi_a64 = r->kind == LWG_ARG_NONE         ? 0
                 : r->a64_class == LWG_A64_GPR ? LOC_GPR
                 : r->a64_class == LWG_A64_FP  ? LOC_SSE
                                               : 0;
    unsigned ngrn = 0, nsrn = 0, nsaa = 0;
    bool known = true;
    for (size_t i = 0; i < f->nparams; i++) {
        lwg_argmeta *m = &f->params[i].arg;
        m->abi_a64 = 0;
        if (!known)
            continue;
        unsigned loc = 0, bytes = 8, align = 8;
        bool on_stack = false;
        switch (m->a64_class) {
        case LWG_A64_GPR:
            if (ngrn < 8)
                loc = LOC_GPR | ngrn++;
            else
                on_stack = true;
            break;
        case LWG_A64_GPR2:
            if (m->a64_align >= 16)
                ngrn = align_up(ngrn, 2);
            if (ngrn + 2 <= 8) {
                ngrn += 2;
            } else {
                ngrn = 8;
                on_stack = true;
                bytes = 16;
                align = m->a64_align >= 16 ? 16 : 8;
            }
            break;
        case LWG_A64_FP:
            if (nsrn < 8) {
                loc = LOC_SSE | nsrn++;
            } else {
                on_stack = true;
                bytes = m->a64_size > 8 ? align_up(m->a64_size, 8) : 8;
                align = m->a64_align >= 16 ? 16 : 8;
            }
            break;
        case LWG_A64_HFA:
            if (nsrn + m->a64_regs <= 8) {
                nsrn += m->a64_regs;
            } else {
                nsrn = 8;
                on_stack = true;
                bytes = align_up(m->a64_size, 8);
                align = m->a64_align >= 16 ? 16 : 8;
            }
            break;
        default:
            known = false;
            continue;
        }
        if (on_stack) {
            nsaa = align_up(nsaa, align);
            if (bytes == 8 && nsaa / 8 < STACK_EIGHTBYTES)
                loc = LOC_STACK | (nsaa / 8);
            nsaa += bytes;
        }
        m->abi_a64 = m->kind == LWG_ARG_NONE ? 0 : loc;
    }
}
